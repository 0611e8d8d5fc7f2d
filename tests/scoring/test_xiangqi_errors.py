"""Bad xiangqi input gives one line naming the problem."""

import pytest

from scoring.hand_json import score_json

BASE = {"variant": "xiangqi", "hand": "士象車將帥", "win_tile": "將", "discarder": "left"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"hand": "士士士士士", "win_tile": "士"},
            "5 copies of 士 (2b) in the hand: the set has 2",
        ),
        ({"hand": "將將士象車"}, "2 copies of 將 (1b) in the hand: the set has 1"),
        (
            {"hand": "兵兵", "win_tile": "兵", "melds": ["added_kong:兵兵兵兵兵"]},
            "7 copies of 兵 (7r) in the hand: the set has 5",
        ),
        ({"hand": "士象車將"}, "a xiangqi hand has 5 tiles"),
        ({"hand": "士象車將帥卒"}, "got 6"),
        ({"hand": "將帥", "melds": ["chi:士象車"]}, "meld chi:士象車 is not 車馬包 or 俥傌炮"),
        ({"hand": "將帥", "melds": ["chi:車傌包"]}, "meld chi:車傌包 is not 車馬包 or 俥傌炮"),
        ({"hand": "將帥", "melds": ["pon:士士士"]}, "meld pon:士士士 is not 3 兵 or 3 卒"),
        ({"hand": "將帥", "melds": ["pon:兵兵卒"]}, "meld pon:兵兵卒 is not 3 兵 or 3 卒"),
        (
            {"hand": "將帥", "melds": ["kong:兵兵兵兵兵"]},
            "meld kong:兵兵兵兵兵 is not 4 兵 or 4 卒",
        ),
        ({"hand": "將帥", "melds": ["concealed_kong:兵兵兵"]}, "is not 4 or 5 兵 or 4 or 5 卒"),
        ({"hand": "將帥", "melds": ["pon:1m1m1m"]}, "is not a xiangqi piece"),
        (
            {"hand": "將帥", "melds": [{"type": "chi", "tiles": "俥傌炮", "from": "right"}]},
            "chi takes only the left player's (上家) discard",
        ),
        (
            {"hand": "將帥", "melds": [{"type": "pon", "tiles": "兵兵兵", "from": "N"}]},
            "claimed from 'N': seats are left, across, right",
        ),
        (
            {
                "hand": "將帥",
                "melds": [{"type": "concealed_kong", "tiles": "兵兵兵兵", "from": "left"}],
            },
            "is concealed: it is claimed from nobody",
        ),
        ({"hand": "123m將帥"}, "tile 1m (一萬) is not a xiangqi piece"),
        # 搶槓 robs the 兵 added to a pon of three: of the five the winner holds two at most.
        (
            {"hand": "兵兵兵車車", "win_tile": "兵", "events": ["robbing_kong"]},
            "three of the 5 are in that pon, so the hand cannot hold 3",
        ),
        (
            {"hand": "車馬包士士", "win_tile": "士", "events": ["human_win", "last_discard"]},
            "human_win and last_discard cannot both happen",
        ),
        (
            {
                "hand": "車馬包士士",
                "win_tile": "士",
                "discarder": None,
                "self_draw": True,
                "dealer": True,
                "events": ["heavenly_win", "last_tile"],
            },
            "heavenly_win and last_tile cannot both happen",
        ),
        # 聽 is called after a draw: never before 人胡, 地胡 or 天胡.
        (
            {"hand": "車馬包士士", "win_tile": "士", "events": ["declared_ready", "human_win"]},
            "declared_ready and human_win cannot both happen",
        ),
        (
            {
                "hand": "車馬包士士",
                "win_tile": "士",
                "discarder": None,
                "self_draw": True,
                "events": ["heavenly_ready", "earthly_win"],
            },
            "heavenly_ready and earthly_win cannot both happen",
        ),
        ({"flowers": "1f"}, "xiangqi is played without flowers"),
        (
            {"discarder": "E"},
            "discarder 'E' is not a seat of a 4-player table (left, across, right)",
        ),
        ({"players": 3, "discarder": "across"}, "not a seat of a 3-player table (left, right)"),
        ({"players": 5}, "players 5 is not 2, 3 or 4"),
        ({"seat_wind": "S"}, "xiangqi has no winds"),
        ({"self_draw": True}, "a self-drawn win has no discarder"),
        ({"win_tile": "卒"}, "winning tile 卒 is not among the concealed tiles"),
        ({"win_tile": None}, "win_tile is missing"),
        ({"events": ["riichi"]}, "event 'riichi' is not used in xiangqi"),
        (
            {"hand": "將帥", "melds": ["pon:卒卒卒"], "events": ["declared_ready"]},
            "declared_ready (聽) needs a concealed hand",
        ),
        ({"events": ["after_kong"]}, "after_kong (槓上開花) is a self-draw by a hand with a kong"),
        (
            {
                "hand": "將帥",
                "discarder": None,
                "self_draw": True,
                "melds": ["kong:兵兵兵兵"],
                "events": ["kong_after_kong"],
            },
            "kong_after_kong (槓頂槓自摸) is a self-draw by a hand with a kong of five",
        ),
        ({"events": ["last_tile"]}, "last_tile (海底撈月) is a self-draw"),
        ({"events": ["robbing_kong"]}, "robbing_kong (搶槓) wins a 兵 or 卒"),
        ({"events": ["heavenly_win"]}, "heavenly_win (天胡) is the dealer's self-draw"),
        (
            {"discarder": None, "self_draw": True, "dealer": True, "events": ["earthly_win"]},
            "earthly_win (地胡) is a non-dealer's self-draw",
        ),
        ({"dealer": True, "events": ["human_win"]}, "human_win (人胡) is a non-dealer"),
        ({"dealer_streak": -1}, "dealer_streak -1 is negative"),
        ({"rules": {"minimum_tai": 0}}, "'minimum_tai' takes a whole number of at least 1, got 0"),
        (
            {"rules": {"draws_in_a_row": -2}},
            "rule option 'draws_in_a_row' takes a whole number of at least 0, got -2",
        ),
        ({"rules": {"dealer_seat": "nowhere"}}, "rule option 'dealer_seat' is one of"),
        ({"dealer": True, "rules": {"dealer_seat": "left"}}, "dealer_seat is for a winner who"),
        ({"players": 3, "rules": {"dealer_seat": "across"}}, "dealer_seat 'across' is not a seat"),
        (
            {"dealer_streak": 1, "rules": {"dealer_bonus": "dealer_discard"}},
            "dealer_bonus 'dealer_discard' needs rules.dealer_seat",
        ),
        ({"rules": {"kong_bonus": "always"}}, "rule option 'kong_bonus' is one of"),
        ({"dora_indicators": "將"}, "dora, honba and riichi sticks are not used in xiangqi"),
    ],
)
def test_one_line_error(change, message):
    data = {**BASE, **change}
    data = {k: v for k, v in data.items() if v is not None or k == "win_tile"}
    result = score_json(data)
    assert "error" in result, result
    assert message in result["error"]
    assert "\n" not in result["error"]


def test_base_hand_is_valid():
    assert score_json(BASE)["winning"] is True
