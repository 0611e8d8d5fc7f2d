"""Bad input gives one line naming the problem, for the hand at fault only."""

import pytest

from scoring.errors import TilescoreError
from scoring.hand_json import score_json

BASE = {
    "variant": "taiwan",
    "hand": "123456789m234567p11s",
    "win_tile": "7p",
    "seat_wind": "S",
    "discarder": "N",
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hand": "123456789m234567p11x"}, "unexpected 'x'"),
        ({"hand": "11111m23456789m567p"}, "5 copies of 1m"),
        ({"flowers": "11f"}, "flower 1f (春) appears twice"),
        ({"hand": "123456789m234567p1s"}, "has 17 tiles"),
        ({"melds": ["chi:135m"]}, "meld chi:135m is not three in a row"),
        ({"melds": ["pon:123m"]}, "meld pon:123m is not 3 identical"),
        (
            {"hand": "456789m234567p11s", "melds": [{"type": "chi", "tiles": "123m", "from": "Q"}]},
            "meld chi:123m claimed from 'Q': a seat is one of E S W N",
        ),
        ({"melds": [{"type": "triple", "tiles": "111m"}]}, "unknown meld type 'triple'"),
        ({"rules": {"no_such_rule": 1}}, "unknown rule option 'no_such_rule'"),
        ({"rules": {"base": "lots"}}, "rule option 'base' takes a whole number"),
        ({"events": ["riichi"]}, "event 'riichi' is not used in taiwan"),
        ({"events": ["moonwalk"]}, "unknown event 'moonwalk'"),
        ({"discarder": "S"}, "discarder S is the winner's own seat"),
        ({"seat_wind": "X"}, "seat_wind 'X' is not one of E S W N"),
        ({"variant": "klingon"}, "unknown variant 'klingon'"),
        ({"win_tile": "9m", "hand": "123456789m234567p11s"}, None),
        ({"win_tile": "5s"}, "winning tile 5s is not among the concealed tiles"),
        ({"hand": "123456789m234567p11s", "win_tile": None}, "win_tile is missing"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"hand": "1234567m8m9m234567p1s将"}, "unknown tile code"),
        ({"flowers": "1z"}, "1z is not a flower"),
        ({"players": 3}, "taiwan is played by 4 players, got players 3"),
        ({"players": -1}, "taiwan is played by 4 players, got players -1"),
        ({"hand": "123456789m234567p1s", "melds": [], "dealer_streak": -1}, None),
    ],
)
def test_one_line_error(change, message):
    result = score_json({**BASE, **change})
    if message is None:
        return  # these inputs are valid or caught by another case; kept to show they do not crash
    assert message in result["error"]
    assert "\n" not in result["error"]


def test_other_hands_in_a_list_are_still_scored():
    good = score_json(BASE)
    bad = score_json({**BASE, "hand": "zz"})
    assert good["total"] == 3 and "error" in bad


RIICHI = {"variant": "riichi", "seat_wind": "S", "round_wind": "E"}


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        # 嶺上開花 is won on the tile drawn for a kong declared after riichi: 一發 ended with it.
        (
            {
                "hand": "123m456p789s55s",
                "win_tile": "9s",
                "melds": ["concealed_kong:2222p"],
                "self_draw": True,
                "events": ["riichi", "ippatsu", "after_kong"],
            },
            "ippatsu (一發) ends with the kong that after_kong (嶺上開花) was won on",
        ),
        # 搶槓 takes the fourth 7p: three are in the robbed pon, so the hand holds no other.
        (
            {
                "hand": "123m456p789s55p777p",
                "win_tile": "7p",
                "discarder": "W",
                "events": ["robbing_kong"],
            },
            "three of the 4 are in that pon, so the hand cannot hold 3",
        ),
    ],
)
def test_riichi_events_no_table_can_see_are_refused(hand, message):
    assert message in score_json({**RIICHI, **hand})["error"]
    if "robbing_kong" in hand["events"]:  # robbing a tile held once scores
        assert score_json({**RIICHI, **hand, "hand": "123m456p789s55p789p", "win_tile": "7p"}).get(
            "winning"
        )
    else:  # without 一發 the 嶺上開花 scores
        events = ["riichi", "after_kong"]
        assert score_json({**RIICHI, **hand, "events": events}).get("winning")


def test_a_riichi_furiten_hand_wins_only_by_its_own_draw():
    # 004: 振聽 "則不能夠胡別人打的牌"; it was refused as an event riichi does not use.
    hand = {**RIICHI, "hand": "123m456p789s55s678p", "win_tile": "8p", "events": ["furiten"]}
    drawn = score_json({**hand, "self_draw": True})
    plain = score_json({**hand, "self_draw": True, "events": []})
    assert drawn["winning"] and drawn["total"] == plain["total"]  # furiten adds nothing
    refused = score_json({**hand, "discarder": "W"})["error"]
    assert refused == "furiten (振聽) cannot win on another player's tile: only self_draw"


def test_a_rule_value_wrong_for_any_hand_is_refused_when_the_rules_are_read():
    # mingjiang seats_out was checked only while scoring a hand: a table's saved rules with
    # a bad one failed every hand after.
    from scoring.variant import find_variant

    mingjiang = find_variant("mingjiang")
    for value, said in (
        ("Q", "'Q' is not one of E S W N"),
        ("SWN", "at most two seats"),
        ("WW", "names a seat twice"),
    ):
        with pytest.raises(TilescoreError, match=said):
            mingjiang.resolve_rules({"seats_out": value})
    assert mingjiang.resolve_rules({"seats_out": "W"})["seats_out"] == "W"


@pytest.mark.parametrize(
    ("meld", "message"),
    [
        ({"type": "pon", "tiles": "777z", "from": "S"}, "claimed from S, the winner's own seat"),
        ({"type": "chi", "tiles": "123m", "from": "W"}, "a chi comes from the player just before"),
    ],
)
def test_a_meld_claimed_from_a_seat_no_table_claims_from_is_refused(meld, message):
    # The winner's own seat, or a chi from across (only the player before, 上家, gives one):
    # taken as said, and riichi's pao read the seat.
    result = score_json({**BASE, "hand": "456789m234567p11s", "melds": [meld]})
    assert message in result["error"]
    chi_from_before = {"type": "chi", "tiles": "123m", "from": "E"}  # S plays after E
    assert "error" not in score_json(
        {**BASE, "hand": "456789m234567p11s", "melds": [chi_from_before]}
    )
