"""Properties over every closed xiangqi hand: the 32-piece set is small enough to try them all.

Tile order never changes the score, the total is the sum of the items, 0 台 never wins, superseded
items never appear beside the item that supersedes them, and a hand is 聽 on exactly the pieces
that complete it.
"""

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from types import MappingProxyType

from scoring.hand import Hand, WinContext
from scoring.tiles import PIECES
from scoring.variants.xiangqi import TABLE, Xiangqi
from scoring.variants.xiangqi_shapes import copies_in_set, read_hand, waits

VARIANT = Xiangqi()
NO_STACKING = {
    **VARIANT.resolve_rules({}),
    "special_shapes_stack": False,
    "special_wins_score_self_draw": False,
    "kong_after_kong_scores_after_kong": False,
}


@cache
def hands(size):
    """Every multiset of ``size`` pieces the set can hold."""
    return [
        combo
        for combo in combinations_with_replacement(PIECES, size)
        if all(n <= copies_in_set(t) for t, n in Counter(combo).items())
    ]


def winning_hands():
    return [h for h in hands(5) if read_hand(h, (), h[0])]


def test_there_are_winning_hands_of_every_shape():
    shapes = {r.shape for h in winning_hands() for r in read_hand(h, (), h[0])}
    assert len(shapes) == 6


def test_order_never_matters_and_totals_add_up():
    for tiles in winning_hands():
        for win in set(tiles):
            ctx = WinContext(self_draw=True)
            a = VARIANT.score(Hand(tiles, win, context=ctx, rules=VARIANT.resolve_rules({})))
            b = VARIANT.score(Hand(tiles[::-1], win, context=ctx, rules=VARIANT.resolve_rules({})))
            assert a.to_json() == b.to_json()
            assert a.total == sum(i.value for i in a.items)
            assert a.winning == (a.total >= 1)


def test_superseded_items_never_appear_together():
    supersedes = {item.code: set(item.supersedes) for item in TABLE}
    rules = MappingProxyType(NO_STACKING)
    for tiles in winning_hands():
        hand = Hand(tiles, tiles[0], context=WinContext(self_draw=True), rules=rules)
        codes = {i.code for i in VARIANT.score(hand).items}
        for code in codes:
            assert not (supersedes[code] & codes), (tiles, code)


def test_waits_are_exactly_the_completing_pieces():
    # The oracle: every five-piece multiset that reads as a winning shape, found once.
    order = {t: i for i, t in enumerate(PIECES)}
    winning = {tuple(h) for h in winning_hands()}
    for four in hands(4):
        held = Counter(four)
        expected = [
            t
            for t in PIECES
            if held[t] < copies_in_set(t)
            and tuple(sorted((*four, t), key=order.__getitem__)) in winning
        ]
        assert waits(four, ()) == expected, four
