"""人胡 wins a discard before the winner's first draw: only a seat that plays before the winner
in the first go-round can have thrown it (001: 第一巡內未摸牌前; 003: 沒摸過牌就胡別人). Not at a
明將 table: its 人胡 is any win in the first go-round, self-drawn or off anyone's discard (002:
閒家喺第一巡就食出，自摸或食出銃), and stays so."""

import pytest

from scoring.hand_json import score_json

TAIWAN_HAND = {"hand": "123456789m234p55s678s", "win_tile": "8s"}
XIANGQI_HAND = {"hand": "帥仕仕相相", "win_tile": "相"}


@pytest.mark.parametrize(
    ("variant", "hand", "seat", "discarder", "ok"),
    [
        ("taiwan", TAIWAN_HAND, "S", "E", True),
        ("taiwan", TAIWAN_HAND, "S", "N", False),  # North plays after South
        ("taiwan", TAIWAN_HAND, "N", "W", True),
    ],
)
def test_a_wind_table_takes_human_win_only_from_a_seat_ahead(variant, hand, seat, discarder, ok):
    result = score_json(
        {
            **hand,
            "variant": variant,
            "seat_wind": seat,
            "discarder": discarder,
            "events": ["human_win"],
        }
    )
    if ok:
        assert "error" not in result, result
    else:
        assert "before the winner's first draw" in result["error"]
        assert f"not {discarder}" in result["error"]


@pytest.mark.parametrize(
    ("dealer_seat", "discarder", "ok"),
    [
        ("left", "left", True),  # the dealer is the winner's 上家: only it has thrown a tile
        ("left", "across", False),
        ("across", "left", True),  # across, then left, then the winner
        ("across", "right", False),
        ("right", "right", True),  # every other seat has thrown one
    ],
)
def test_xiangqi_counts_the_go_round_from_the_dealer_chair(dealer_seat, discarder, ok):
    result = score_json(
        {
            **XIANGQI_HAND,
            "variant": "xiangqi",
            "dealer": False,
            "discarder": discarder,
            "events": ["human_win"],
            "rules": {"dealer_seat": dealer_seat},
        }
    )
    if ok:
        assert "error" not in result, result
    else:
        assert "before the winner's first draw: only" in result["error"]
        assert f"not {discarder}" in result["error"]


def test_mingjiang_takes_human_win_off_any_discard_of_the_first_go_round():
    hand = {"hand": "123456789m234p55s", "win_tile": "5s", "variant": "mingjiang"}
    result = score_json({**hand, "seat_wind": "S", "discarder": "N", "events": ["human_win"]})
    assert "error" not in result, result


def test_xiangqi_says_a_dealer_chair_the_table_has_not_before_counting_from_it():
    hand = {**XIANGQI_HAND, "variant": "xiangqi", "players": 3, "dealer": False}
    result = score_json(
        {**hand, "discarder": "left", "events": ["human_win"], "rules": {"dealer_seat": "across"}}
    )
    assert "dealer_seat 'across' is not a seat of a 3-player table" in result["error"]
