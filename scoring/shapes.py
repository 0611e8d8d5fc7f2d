"""Every way to split concealed mahjong tiles into sets and one pair, and the tiles a hand waits on.

Works on counts of the 34 tile kinds. Each suit is split on its own and the results are cached by
the suit's counts, so scoring many hands reuses work: a hand is complete when one split per suit
adds up to the sets needed plus exactly one pair.

>>> from scoring.notation import parse_tiles
>>> sorted(t.code for t in waiting_tiles(counts34(parse_tiles("1112345678999m")), 4))
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import cache
from itertools import product

from scoring.tiles import Tile, index34, tile34


class GroupKind(enum.Enum):
    SEQUENCE = "sequence"
    TRIPLET = "triplet"
    PAIR = "pair"
    KONG = "kong"

    # Members are singletons compared by identity; Enum's own hash is Python code, and raw groups
    # are hashed in every cached lookup.
    __hash__ = object.__hash__


# A group inside the engine: (kind, index34 of its lowest tile).
RawGroup = tuple[GroupKind, int]
# One split of the concealed tiles: the pair (or None) and the sets, sorted.
Split = tuple[RawGroup | None, tuple[RawGroup, ...]]


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """Counts of the 34 kinds (red fives count as fives)."""
    counts = [0] * 34
    for tile in tiles:
        counts[index34(tile)] += 1
    return counts


@cache
def _suit_splits(counts: tuple[int, ...], honors: bool) -> tuple[tuple[RawGroup, ...], ...]:
    """All ways to cut one suit's counts into sets and at most one pair (relative indices)."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return ((),)
    results: set[tuple[RawGroup, ...]] = set()
    c = list(counts)
    options: list[tuple[RawGroup, list[int]]] = []
    if c[first] >= 3:
        options.append(((GroupKind.TRIPLET, first), [first] * 3))
    if c[first] >= 2:
        options.append(((GroupKind.PAIR, first), [first] * 2))
    if not honors and first <= 6 and c[first + 1] and c[first + 2]:
        options.append(((GroupKind.SEQUENCE, first), [first, first + 1, first + 2]))
    for group, used in options:
        rest = c[:]
        for i in used:
            rest[i] -= 1
        for tail in _suit_splits(tuple(rest), honors):
            if group[0] is GroupKind.PAIR and any(g[0] is GroupKind.PAIR for g in tail):
                continue
            results.add(tuple(sorted((group, *tail), key=_group_key)))
    return tuple(sorted(results, key=lambda s: [_group_key(g) for g in s]))


def _group_key(group: RawGroup) -> tuple[int, str]:
    return group[1], group[0].value


@cache
def _suit_signature(counts: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int]]:
    """The (sets, pairs) totals one suit can be cut into; empty when it cannot be cut at all."""
    return frozenset(
        (sum(g[0] is not GroupKind.PAIR for g in split), sum(g[0] is GroupKind.PAIR for g in split))
        for split in _suit_splits(counts, honors)
    )


_SUIT_SLICES = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def is_complete(counts: list[int], sets_needed: int) -> bool:
    """Whether the counts cut into ``sets_needed`` sets and exactly one pair."""
    if sum(counts) != sets_needed * 3 + 2:
        return False
    signatures = [_suit_signature(tuple(counts[a:b]), h) for a, b, h in _SUIT_SLICES]
    return all(signatures) and (sets_needed, 1) in _combine(tuple(signatures))


def splits(counts: list[int], sets_needed: int) -> list[Split]:
    """Every split of the counts into ``sets_needed`` sets and one pair."""
    per_suit: list[tuple[tuple[RawGroup, ...], ...]] = []
    for start, stop, honors in _SUIT_SLICES:
        suit_splits = _placed_suit_splits(tuple(counts[start:stop]), start, honors)
        if not suit_splits:
            return []
        per_suit.append(suit_splits)
    found: list[Split] = []
    for combo in product(*per_suit):
        groups = [g for part in combo for g in part]
        pairs = [g for g in groups if g[0] is GroupKind.PAIR]
        if len(pairs) == 1 and len(groups) == sets_needed + 1:
            found.append((pairs[0], tuple(g for g in groups if g[0] is not GroupKind.PAIR)))
    return found


@cache
def _placed_suit_splits(
    counts: tuple[int, ...], start: int, honors: bool
) -> tuple[tuple[RawGroup, ...], ...]:
    """``_suit_splits`` with each group's index moved from the suit's own to the 34-kind index."""
    return tuple(
        tuple((kind, i + start) for kind, i in split) for split in _suit_splits(counts, honors)
    )


@cache
def _combine(signatures: tuple[frozenset[tuple[int, int]], ...]) -> frozenset[tuple[int, int]]:
    """The (sets, pairs) totals several suits can be cut into together, at most one pair."""
    totals = {(0, 0)}
    for signature in signatures:
        totals = {(s + a, p + b) for s, p in totals for a, b in signature if p + b <= 1}
    return frozenset(totals)


def _can_help(suit: list[int], offset: int, honors: bool) -> bool:
    """A tile can complete a hand only next to tiles it could join: itself, or (in a suit) a
    neighbour within two."""
    if honors:
        return suit[offset] > 0
    return any(suit[i] for i in range(max(0, offset - 2), min(len(suit), offset + 3)))


@cache
def _completing_offsets(
    counts: tuple[int, ...], honors: bool, needed: frozenset[tuple[int, int]]
) -> tuple[int, ...]:
    """The offsets in one suit where one more tile lets the suit be cut into one of ``needed``.

    Cached by the suit's counts and what the other suits leave it to do, so once a suit has been
    seen the waits of a hand cost a few lookups.
    """
    suit = list(counts)
    found = []
    for offset in range(len(suit)):
        if suit[offset] >= 4 or not _can_help(suit, offset, honors):
            continue
        suit[offset] += 1
        if not needed.isdisjoint(_suit_signature(tuple(suit), honors)):
            found.append(offset)
        suit[offset] -= 1
    return tuple(found)


@cache
def _needed_from_suit(
    signatures: tuple[frozenset[tuple[int, int]], ...], suit: int, sets_needed: int
) -> frozenset[tuple[int, int]]:
    """The (sets, pairs) one suit must supply, given what the other suits can be cut into."""
    others = signatures[:suit] + signatures[suit + 1 :]
    if not all(others):
        return frozenset()
    return frozenset((sets_needed - s, 1 - p) for s, p in _combine(others))


def waiting_tiles(counts: list[int], sets_needed: int, held: list[int] | None = None) -> set[Tile]:
    """The tile kinds that complete the counts (one tile short of a hand).

    ``held`` counts every tile the player holds (melds included); a kind of which all four are
    already held cannot arrive, so it is no wait. Per suit, what the other suits leave it to do and
    where one more tile does it are both cached, so a hand's waits cost eight lookups.
    """
    held = held or counts
    if sum(counts) != sets_needed * 3 + 1:
        return set()
    suits = [tuple(counts[start:stop]) for start, stop, _ in _SUIT_SLICES]
    signatures = tuple(
        _suit_signature(suit, honors)
        for suit, (_, _, honors) in zip(suits, _SUIT_SLICES, strict=True)
    )
    waits: set[Tile] = set()
    for j, (start, _, honors) in enumerate(_SUIT_SLICES):
        needed = _needed_from_suit(signatures, j, sets_needed)
        if not needed:
            continue
        for offset in _completing_offsets(suits[j], honors, needed):
            if held[start + offset] < 4:
                waits.add(tile34(start + offset))
    return waits


def group_tiles(group: RawGroup) -> tuple[Tile, ...]:
    kind, first = group
    if kind is GroupKind.SEQUENCE:
        return (tile34(first), tile34(first + 1), tile34(first + 2))
    size = {GroupKind.PAIR: 2, GroupKind.TRIPLET: 3, GroupKind.KONG: 4}[kind]
    return (tile34(first),) * size


def is_seven_pairs(counts: list[int], *, allow_four: bool) -> bool:
    """Seven pairs; with ``allow_four`` four identical tiles count as two pairs."""
    if sum(counts) != 14:
        return False
    if allow_four:
        return all(c in (0, 2, 4) for c in counts)
    return all(c in (0, 2) for c in counts)
