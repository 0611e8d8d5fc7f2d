"""device/app/seats.py: the app's wind-named chairs in xiangqi's words (dealer, left/across/
right) and the payments back, checked against the real scorer."""

import pytest

from device.app.seats import absolute_seat, for_scorer, payments_in_seats, relative_seat
from scoring.errors import TilescoreError
from scoring.hand_json import score_json

# 士象車 面子 + 將帥 對子 (golden case general-marshal-self-draw): 5 台, 基本點 2500.
WINNING = {"variant": "xiangqi", "hand": "士象車帥將", "win_tile": "將"}


@pytest.mark.parametrize(
    ("players", "winner", "other", "named"),
    [
        (4, "S", "E", "left"),  # E plays just before S: S's 上家
        (4, "S", "N", "across"),
        (4, "S", "W", "right"),
        (4, "E", "N", "left"),
        (3, "E", "W", "left"),
        (3, "E", "S", "right"),
        (2, "S", "E", "left"),
    ],
)
def test_chairs_are_named_from_the_winners_and_back(players, winner, other, named):
    assert relative_seat(winner, other, players) == named
    assert absolute_seat(winner, named, players) == other


def test_a_chair_not_at_the_table_is_one_line():
    with pytest.raises(TilescoreError, match="seat N is not at a 3-player table"):
        relative_seat("E", "N", 3)
    with pytest.raises(TilescoreError, match="is the winner's own"):
        relative_seat("S", "S", 4)


def scored(context):
    scorer_context = for_scorer(context, seats_by_wind=False)
    result = score_json({**WINNING, **scorer_context})
    assert "error" not in result, result
    return payments_in_seats(result, context, seats_by_wind=False)


def test_a_non_dealer_self_draw_is_paid_by_the_dealer_double_in_seats():
    result = scored({"seat_wind": "S", "round_wind": "E", "self_draw": True})
    paid = {p["payer"]: p["amount"] for p in result["payments"]}
    assert {p["payee"] for p in result["payments"]} == {"S"}
    assert paid == {"E": 5000, "W": 2500, "N": 2500}  # 閒家自摸: dealer ×2, others ×1


def test_a_discard_win_is_paid_by_the_discarders_chair():
    result = scored({"seat_wind": "S", "discarder": "W", "self_draw": False})
    base = result["base_points"]
    assert [(p["payer"], p["payee"], p["amount"]) for p in result["payments"]] == [
        ("W", "S", 4 * base)  # 放給閒家 ×4
    ]
    dealer_won = scored({"seat_wind": "E", "discarder": "N", "self_draw": False})
    assert [(p["payer"], p["amount"]) for p in dealer_won["payments"]] == [("N", 6 * base)]


def test_rule_sets_with_winds_pass_through_unchanged():
    context = {"seat_wind": "S", "discarder": "W", "rules": {"base": 50}}
    assert for_scorer(context, seats_by_wind=True) == context
    result = {"payments": [{"payer": "W", "payee": "S", "amount": 1}]}
    assert payments_in_seats(result, context, seats_by_wind=True) == result
