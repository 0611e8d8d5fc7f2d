"""Properties that hold for every Taiwan hand: tile order never matters, superseded items never
appear beside the item that supersedes them."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hand_json import score_json
from scoring.notation import parse_tiles
from scoring.shapes import counts34, is_complete
from scoring.variants.taiwan import TABLE

SUPERSEDES = {item.code: set(item.supersedes) for item in TABLE}
SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"{n}z" for n in range(1, 8)]


@st.composite
def winning_hands(draw):
    """Five random sets and a pair (within four copies), a random winning tile and context."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    counts: dict[str, int] = {}
    groups: list[list[str]] = []

    def take(codes: list[str]) -> bool:
        if any(counts.get(c, 0) + codes.count(c) > 4 for c in set(codes)):
            return False
        for c in codes:
            counts[c] = counts.get(c, 0) + 1
        groups.append(codes)
        return True

    while len(groups) < 5:
        if rng.random() < 0.5:
            suit = rng.choice("mps")
            start = rng.randint(1, 7)
            take([f"{start + i}{suit}" for i in range(3)])
        else:
            take([rng.choice(SUITED + HONOURS)] * 3)
    while not take([rng.choice(SUITED + HONOURS)] * 2):
        pass
    tiles = [t for g in groups for t in g]
    win = rng.choice(tiles)
    return {
        "variant": "taiwan",
        "hand": "".join(tiles),
        "win_tile": win,
        "seat_wind": rng.choice("ESWN"),
        "round_wind": rng.choice("ESWN"),
        "self_draw": rng.random() < 0.4,
        "flowers": "".join(sorted(rng.sample("12345678", rng.randint(0, 3)))) + "f",
        "dealer_streak": rng.randint(0, 3),
    }


def _normalise(hand: dict) -> dict:
    if hand["flowers"] == "f":
        hand = {**hand, "flowers": ""}
    if not hand["self_draw"]:
        hand = {**hand, "discarder": next(s for s in "ESWN" if s != hand["seat_wind"])}
    return hand


@settings(max_examples=150, deadline=None)
@given(winning_hands(), st.randoms(use_true_random=False))
def test_tile_order_never_changes_the_score(hand, shuffler):
    hand = _normalise(hand)
    tiles = [t.code for t in parse_tiles(hand["hand"])]
    shuffler.shuffle(tiles)
    shuffled = {**hand, "hand": " ".join(tiles)}
    first, second = score_json(hand), score_json(shuffled)
    assert first == second


@settings(max_examples=150, deadline=None)
@given(winning_hands())
def test_superseded_items_never_appear_together(hand):
    result = score_json(_normalise(hand))
    assert result["winning"], result
    codes = {i["code"] for i in result["items"]}
    for code in codes:
        assert not (SUPERSEDES.get(code, set()) & codes), (code, codes)


@settings(max_examples=100, deadline=None)
@given(winning_hands())
def test_every_generated_hand_is_complete_and_waited_on_its_winning_tile(hand):
    result = score_json(_normalise(hand))
    assert is_complete(counts34(parse_tiles(hand["hand"])), 5)
    assert hand["win_tile"] in result["waits"]
    assert result["total"] >= 1
