"""Riichi 役滿包 (004: 確定役滿包): the seat whose called discard made 大三元 or 大四喜 certain pays
for it; the amounts worked out by hand from 004's payment table."""

import pytest

from scoring.hand_json import score_json

DRAGONS_FROM_W = [
    {"type": "pon", "tiles": "555z", "from": "W"},
    {"type": "pon", "tiles": "666z", "from": "W"},
    {"type": "pon", "tiles": "777z", "from": "W"},
]
BIG_DRAGONS = {  # 大三元, non-dealer S: 役滿 32,000
    "variant": "riichi",
    "hand": "123m99p",
    "win_tile": "3m",
    "seat_wind": "S",
    "round_wind": "E",
    "melds": DRAGONS_FROM_W,
    "pao": "W",
}


def paid(hand):
    result = score_json(hand)
    assert "error" not in result, result
    assert all(p["payee"] == hand["seat_wind"] for p in result["payments"])
    return {p["payer"]: p["amount"] for p in result["payments"]}


def test_a_self_draw_is_paid_by_the_liable_seat_alone_with_the_honba():
    assert paid({**BIG_DRAGONS, "self_draw": True, "honba": 1}) == {"W": 32300}
    # without pao the three pay as for any self-draw: dealer 16,000, the others 8,000
    assert paid({**BIG_DRAGONS, "self_draw": True, "pao": None}) == {
        "E": 16000,
        "W": 8000,
        "N": 8000,
    }


def test_a_discard_by_another_seat_is_paid_half_by_the_liable_one():
    assert paid({**BIG_DRAGONS, "discarder": "N", "honba": 2}) == {"N": 16600, "W": 16000}
    assert paid({**BIG_DRAGONS, "discarder": "W"}) == {"W": 32000}  # the liable seat discarded


def test_a_second_limit_hand_beside_it_is_paid_as_a_self_draw_is():
    # 大三元 + 字一色 (有役滿複合): 64,000; W pays its 32,000 and its share of the other 役滿
    hand = {**BIG_DRAGONS, "hand": "111z22z", "win_tile": "2z", "self_draw": True}
    assert paid(hand) == {"E": 16000, "W": 32000 + 8000, "N": 8000}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"melds": ["pon:555z", "pon:666z", "pon:111z"]}, "for 大三元 or 大四喜"),
        (
            {"hand": "123m99p555z", "melds": ["pon:666z", "concealed_kong:7777z"]},
            None,  # one dragon set called: liable as said
        ),
        (
            {"hand": "123m99p555z666z", "win_tile": "3m", "melds": ["concealed_kong:7777z"]},
            "needs the set it made certain called",
        ),
        ({"pao": "N"}, "no called set of the 役滿 came from N"),
        (  # a set that says no origin may be the one E fed
            {"pao": "E", "melds": [*DRAGONS_FROM_W[:2], {"type": "pon", "tiles": "777z"}]},
            None,
        ),
        ({"pao": "S"}, "must be another player's seat"),
        ({"pao": 3}, "pao must be a seat"),
        (
            {"variant": "taiwan", "hand": "123456789m234567p11s", "win_tile": "7p", "melds": []},
            "pao (役滿包) is not used in taiwan",
        ),
    ],
)
def test_pao_is_checked(change, message):
    result = score_json({**BIG_DRAGONS, "discarder": "N", **change})
    if message is None:
        liable = change.get("pao", "W")
        assert result["payments"][-1] == {"payer": liable, "payee": "S", "amount": 16000}
    else:
        assert message in result["error"] and "\n" not in result["error"]


def test_pao_on_a_drawn_hand_is_refused():
    drawn = {"variant": "riichi", "seat_wind": "S", "events": ["nagashi_mangan"], "pao": "W"}
    assert "for 大三元 or 大四喜" in score_json(drawn)["error"]
