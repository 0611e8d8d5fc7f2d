"""Xiangqi golden cases: each case of tests/scoring/golden/xiangqi.json is its own test.

Every expected value was worked out by hand from rule text 003 and the readings in
docs/variants/xiangqi.md; the case's "why" says how. A case's "near_miss" lists items that almost
apply to it and must not be scored.
"""

import json
from pathlib import Path

import pytest

from scoring.hand_json import score_json
from scoring.variants.xiangqi import TABLE

CASES = json.loads((Path(__file__).parent / "golden" / "xiangqi.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    result = score_json({"variant": "xiangqi", **case["hand"]})
    assert "error" not in result, result.get("error")
    assert result["winning"] is case.get("winning", True), result.get("reason")
    if not result["winning"]:
        assert case["reason"] in result["reason"]
        assert result["payments"] == []
    if "items" in case:
        items = {i["code"]: i["value"] for i in result["items"]}
        assert items == case["items"], case["why"]
        assert result["total"] == case["total"] == sum(items.values())
    if "base_points" in case:
        assert result["base_points"] == case["base_points"], case["why"]
        assert result["base_points"] == sum(p["amount"] for p in result["points"])
    scored = {i["code"] for i in result["items"]}
    assert not scored & set(case.get("near_miss", [])), case["why"]
    if "payments" in case:
        paid = [[p["payer"], p["payee"], p["amount"]] for p in result["payments"]]
        assert paid == case["payments"], case["why"]


def test_every_item_has_a_positive_case():
    scored = set()
    for case in CASES:
        if case.get("winning", True):
            scored |= set(case.get("items", {}))
    assert {item.code for item in TABLE} - scored == set()


def test_every_item_has_a_near_miss_case():
    missed = {code for case in CASES for code in case.get("near_miss", [])}
    assert {item.code for item in TABLE} - missed == set()


def test_every_special_shape_has_a_case():
    shapes = set()
    for case in CASES:
        result = score_json({"variant": "xiangqi", **case["hand"]})
        if result.get("winning"):
            shapes.add(result["shape"])
    assert shapes >= {"面子+對子", "將帥領兵", "兵卒襲將", "五路聯軍", "兩對", "鐵支"}


@pytest.mark.parametrize(
    ("meld", "written"),
    [
        ("concealed_kong:兵兵兵兵", "兵兵兵兵 車車*"),
        ("concealed_kong:兵兵兵兵兵", "兵兵兵兵兵 車車*"),
        ("kong:兵兵兵兵", "[兵兵兵兵] 車車*"),
        ("pon:兵兵兵", "[兵兵兵] 車車*"),
    ],
)
def test_only_a_claimed_meld_is_written_in_brackets(meld, written):
    # README: `[...]` marks a claimed meld. A concealed kong was written in brackets as if
    # claimed ([兵兵兵兵] 車車*), where the other rule sets write it bare.
    hand = {"hand": "車車", "win_tile": "車", "melds": [meld], "self_draw": True}
    if "kong" in meld:
        hand["events"] = ["after_kong"]
    result = score_json({"variant": "xiangqi", **hand})
    assert result["decomposition"] == written, result.get("error")
