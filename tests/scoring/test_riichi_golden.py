"""Riichi golden cases: each case of tests/scoring/golden/riichi.json is its own test.

Every expected number was worked out by hand from rule text 004 (its 翻 list, 符 list and payment
table) and the readings in docs/variants/riichi.md; the case's "why" says how. A case either
expects a result (``items``, ``han``, ``fu``, ``limit``, ``payments``) or a one-line ``error``; a
``near_miss`` list names the yaku the hand just misses (the result must not have them).
"""

import json
from pathlib import Path

import pytest

from scoring.hand_json import score_json
from scoring.variants.riichi_names import YAKU_NAMES

CASES = json.loads((Path(__file__).parent / "golden" / "riichi.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    result = score_json({"variant": "riichi", **case["hand"]})
    if "error" in case:
        assert case["error"] in result.get("error", ""), result
        assert "\n" not in result["error"]
        return
    assert "error" not in result, result.get("error")
    assert result["winning"] is True
    items = {i["code"]: i["value"] for i in result["items"]}
    assert items == case["items"], case["why"]
    assert all(i["why"] for i in result["items"]), result["items"]
    assert result["han"] == result["total"] == case["han"] == sum(items.values())
    assert result["fu"] == case["fu"], case["why"]
    assert result["limit"] == case["limit"], case["why"]
    paid = [[p["payer"], p["payee"], p["amount"]] for p in result["payments"]]
    assert paid == case["payments"], case["why"]
    assert result["points"]["total"] == sum(amount for _, _, amount in paid)
    if "points_total" in case:
        assert result["points"]["total"] == case["points_total"]
    assert not set(case.get("near_miss", ())) & set(items), case["why"]


def test_every_yaku_has_a_positive_and_a_near_miss_case():
    """Each yaku 004 lists (every 翻牌 tile, every 役滿 and 雙役滿, 懸賞 of each kind) is met by a
    positive case and just missed by a near-miss case."""
    codes = {row.code for row in YAKU_NAMES.values()}
    positive = {code for c in CASES for code in c.get("items", ())}
    missed = {code for c in CASES for code in c.get("near_miss", ())}
    assert codes - positive == set()
    assert codes - missed == set()
    assert missed <= codes


def test_every_case_says_why():
    assert all(c["why"] for c in CASES)
    assert len({c["name"] for c in CASES}) == len(CASES)
