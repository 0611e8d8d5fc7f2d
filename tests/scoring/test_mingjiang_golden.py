"""明將麻雀 golden cases: each case of tests/scoring/golden/mingjiang.json is its own test.

Every expected value was worked out by hand from rule text 002 (its 和種列表, 計分法, 授受法 and 禁例)
and the readings in docs/variants/mingjiang.md; the case's "why" says how. A case expects a result
(``items`` with ``total``, ``payments``, extra output keys in ``expect``), a hand that does not win
(``winning`` false with a ``reason`` or a 詐糊), or a one-line ``error``. A ``near_miss`` list names
items the hand just misses: the result must not score them.
"""

import json
from pathlib import Path

import pytest

from scoring.hand_json import score_json
from scoring.variants.mingjiang_table import LIMIT_CODES, TABLE

CASES = json.loads((Path(__file__).parent / "golden" / "mingjiang.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    result = score_json({"variant": "mingjiang", **case["hand"]})
    if "error" in case:
        assert case["error"] in result.get("error", ""), result
        assert "\n" not in result["error"]
        return
    assert "error" not in result, result.get("error")
    assert result["winning"] is case.get("winning", True), result.get("reason")
    if "reason" in case:
        assert case["reason"] in result["reason"]
    items = {i["code"]: i["value"] for i in result["items"]}
    if "items" in case:
        assert items == case["items"], case["why"]
        assert result["total"] == case["total"], case["why"]
        uncapped = case.get("expect", {}).get("fan_uncapped", case["total"])
        assert sum(items.values()) == uncapped
        assert all(i["why"] for i in result["items"])
    if "payments" in case:
        paid = [[p["payer"], p["payee"], p["amount"]] for p in result["payments"]]
        assert paid == case["payments"], case["why"]
    for key, value in case.get("expect", {}).items():
        assert result.get(key) == value, (key, case["why"])
    assert not set(case.get("near_miss", ())) & set(items), case["why"]


def test_every_item_has_a_positive_and_a_near_miss_case():
    """Each 和種 of the text (every 番牌 kind and every 例牌 too) is met by a winning case and just
    missed by a near-miss case."""
    codes = {item.code for item in TABLE}
    positive = {
        code
        for c in CASES
        if c.get("winning", True) and "error" not in c
        for code, value in c.get("items", {}).items()
        if value > 0
    }
    missed = {code for c in CASES for code in c.get("near_miss", ())}
    assert codes - positive == set()
    assert codes - missed == set()
    assert missed <= codes


def test_every_limit_hand_counts_ten():
    limits = {c["name"] for c in CASES if set(c.get("items", {})) & LIMIT_CODES}
    for case in CASES:
        if case["name"] in limits:
            assert case["total"] == 10


def test_every_case_says_why():
    assert all(c["why"] for c in CASES)
    assert len({c["name"] for c in CASES}) == len(CASES)
