"""Texts read once and shared across hands (melds, short tile texts, scored items) never change
what a hand scores, and never let a bad hand through because a good one used the same text."""

from scoring.hand_json import parse_hand, score_json

BASE = {
    "variant": "taiwan",
    "hand": "456789m234567p11s",
    "win_tile": "7p",
    "seat_wind": "S",
    "discarder": "N",
    "melds": [{"type": "chi", "tiles": "123m"}],
}


def test_a_meld_read_twice_is_the_same_meld_in_different_hands() -> None:
    _, first = parse_hand(BASE)
    _, second = parse_hand({**BASE, "seat_wind": "W", "flowers": "3f"})
    assert first.melds[0] is second.melds[0]
    assert str(first.melds[0]) == "chi:123m"


def test_a_known_meld_text_with_a_bad_key_is_still_an_error() -> None:
    assert "error" not in score_json(BASE)
    bad = {**BASE, "melds": [{"type": "chi", "tiles": "123m", "form": "N"}]}
    assert score_json(bad) == {"error": "unknown meld key 'form'"}


def test_the_same_meld_claimed_from_different_seats_stays_apart() -> None:
    _, north = parse_hand({**BASE, "melds": [{"type": "pon", "tiles": "777z", "from": "N"}]})
    _, east = parse_hand({**BASE, "melds": [{"type": "pon", "tiles": "777z", "from": "E"}]})
    assert (north.melds[0].claimed_from, east.melds[0].claimed_from) == ("N", "E")


def test_a_bad_short_text_fails_every_time() -> None:
    for _ in range(2):
        assert "error" in score_json({**BASE, "flowers": "9f"})
    assert "error" not in score_json({**BASE, "flowers": "2f"})


def test_rule_options_still_turn_their_items_on() -> None:
    hand = {**BASE, "flowers": "13f"}
    plain = score_json(hand)
    assert "any_flower" not in [i["code"] for i in plain["items"]]
    with_option = score_json({**hand, "rules": {"any_flower": True}})
    assert "any_flower" in [i["code"] for i in with_option["items"]]
    assert score_json(hand) == plain  # the default rules are shared, never changed by a hand's
