"""Taiwan golden cases: each case of tests/scoring/golden/taiwan.json is its own test.

Every expected value was worked out by hand from rule texts 000/001 and the readings in
scoring/variants/taiwan.py; the case's "why" says how.
"""

import json
from pathlib import Path

import pytest

from scoring.hand_json import score_json

CASES = json.loads((Path(__file__).parent / "golden" / "taiwan.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    result = score_json({"variant": "taiwan", **case["hand"]})
    if "error" in case:  # an event no table sees with this hand: one line, not a score
        assert case["error"] in result.get("error", ""), result
        assert "\n" not in result["error"]
        return
    assert "error" not in result, result.get("error")
    assert result["winning"] is case.get("winning", True)
    if not result["winning"]:
        return
    items = {i["code"]: i["value"] for i in result["items"]}
    assert items == case["items"], case["why"]
    assert result["total"] == case["total"] == sum(items.values())
    for code, name in case.get("names", {}).items():
        assert next(i["name"] for i in result["items"] if i["code"] == code) == name
    if "payments" in case:
        paid = [[p["payer"], p["payee"], p["amount"]] for p in result["payments"]]
        assert paid == case["payments"]
