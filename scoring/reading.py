"""Readings of a standard hand: one split into groups plus which group the winning tile completed.

A rule set scores every reading and keeps the best, because the same tiles can score differently
(a 234-345 hand won on 4 is a 兩面 in one reading and a 崁張 in another).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

from scoring.hand import Hand, Meld, MeldType, cached_fact
from scoring.notation import format_tiles
from scoring.shapes import (
    KONG,
    PAIR,
    SEQUENCE,
    SHAPES_BY_SUIT,
    TRIPLET,
    GroupKind,
    RawGroup,
    SuitShape,
    counts34,
    group_tiles,
    needed_from_suits,
    suit_shape,
    tile_index,
    waiting_indices,
)
from scoring.tiles import Tile, index34, tile34


class WaitShape(enum.Enum):
    """The shape the hand waited in, as the winning tile completed it."""

    TWO_SIDED = "兩面"
    EDGE = "邊張"
    CLOSED = "崁張"
    SINGLE = "單吊"
    DOUBLE_PAIR = "對碰"
    NONE = "-"  # no winning tile in a group (special wins such as 八仙過海)

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is Python code


_TWO_SIDED, _EDGE, _CLOSED = WaitShape.TWO_SIDED, WaitShape.EDGE, WaitShape.CLOSED
_SINGLE, _DOUBLE_PAIR, _NO_WAIT = WaitShape.SINGLE, WaitShape.DOUBLE_PAIR, WaitShape.NONE
_CHI, _CONCEALED_KONG = MeldType.CHI, MeldType.CONCEALED_KONG


@dataclass(frozen=True)
class Group:
    """A set, kong or pair as scoring sees it; ``concealed`` is False for claimed groups."""

    kind: GroupKind
    tiles: tuple[Tile, ...]
    concealed: bool
    meld: Meld | None = None

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    @property
    def is_set(self) -> bool:
        return self.kind is not PAIR

    @property
    def is_triplet_like(self) -> bool:
        """A triplet or a kong."""
        return self.kind in (TRIPLET, KONG)

    @property
    def is_sequence(self) -> bool:
        return self.kind is SEQUENCE

    @cached_fact
    def text(self) -> str:
        """Compact notation, in brackets when claimed (kept: concealed groups are shared)."""
        text = format_tiles(self.tiles)
        return text if self.concealed else f"[{text}]"

    def __str__(self) -> str:
        return self.text


def meld_group(meld: Meld) -> Group:
    if meld.type is _CHI:
        kind = SEQUENCE
    elif meld.is_kong:
        kind = KONG
    else:
        kind = TRIPLET
    plain = tuple(sorted((t.plain for t in meld.tiles), key=index34))
    return Group(kind, plain, concealed=meld.type is _CONCEALED_KONG, meld=meld)


_WIND_MASK = 0b1111 << 27
_DRAGON_MASK = 0b111 << 31


class Reading:
    """One way to read a winning hand. ``win_group`` indexes ``groups`` (None: no such group).

    The facts rule tables ask (triplets of winds, all sequences, concealed triplets, ...) are added
    up from per-suit facts cached with each split when the reading is made; ``groups`` and what
    is built from it (``pair``, ``sets``, ``triplet_tiles``) are made when first asked for.
    ``shared`` holds what every reading of the hand shares. Read-only once made.
    """

    __slots__ = (
        "__dict__",
        "all_sequences",
        "all_triplets",
        "concealed_triplets",
        "dragon_triplets",
        "hand",
        "pair_index",
        "raw",
        "shared",
        "triplet_mask",
        "wait",
        "win_group",
        "wind_triplets",
    )

    hand: Hand
    shared: HandShape
    raw: tuple[RawGroup, ...]
    """The concealed groups, pair first, as (kind, index34 of the lowest tile)."""
    win_group: int | None
    wait: WaitShape
    pair_index: int | None
    """index34 of the pair's tile (None without a pair)."""
    triplet_mask: int
    """Bit ``i`` set: kind ``i`` is held as a triplet or kong (melds included)."""
    wind_triplets: int
    dragon_triplets: int
    all_triplets: bool
    """Every set is a triplet or a kong (the pair aside)."""
    all_sequences: bool
    concealed_triplets: int
    """Triplets and kongs not claimed; on a discard win the group the discard completed is
    claimed, so it does not count (a reading where the tile completes a sequence or the pair
    keeps the triplet concealed)."""

    def __init__(
        self,
        shared: HandShape,
        raw: tuple[RawGroup, ...],
        win_group: int | None,
        wait: WaitShape,
        sequences: int,
        triplets: int,
        triplet_mask: int,
        concealed_triplets: int,
    ) -> None:
        self.hand = shared.hand
        self.shared = shared
        self.raw = raw
        self.win_group = win_group
        self.wait = wait
        self.pair_index = raw[0][1] if raw and raw[0][0] is PAIR else None
        self.triplet_mask = triplet_mask
        self.wind_triplets = (triplet_mask & _WIND_MASK).bit_count()
        self.dragon_triplets = (triplet_mask & _DRAGON_MASK).bit_count()
        self.all_triplets = sequences == 0
        self.all_sequences = triplets == 0
        self.concealed_triplets = concealed_triplets

    @property
    def waits(self) -> frozenset[Tile]:
        """The tiles the hand waited on (the same in every reading)."""
        return self.shared.waits

    @cached_fact
    def meld_groups(self) -> tuple[Group, ...]:
        return tuple(meld_group(m) for m in self.hand.melds)

    @cached_fact
    def groups(self) -> tuple[Group, ...]:
        """The concealed groups (pair first), then the melds."""
        return tuple(_concealed_group(g) for g in self.raw) + self.meld_groups

    @cached_fact
    def pair(self) -> Group | None:
        return next((g for g in self.groups if g.kind is PAIR), None)

    @cached_fact
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.is_set)

    @cached_fact
    def triplet_tiles(self) -> frozenset[Tile]:
        """The kinds held as a triplet or kong."""
        return frozenset(tile34(i) for i in range(34) if self.triplet_mask >> i & 1)

    def has_triplet(self, index: int) -> bool:
        """Whether kind ``index`` (index34) is held as a triplet or kong."""
        return bool(self.triplet_mask >> index & 1)

    def describe(self) -> str:
        """The groups in compact notation, claimed ones in brackets, the winning group starred."""
        parts = [_raw_text(g) for g in self.raw]
        if self.hand.melds:
            parts += [meld_text(m) for m in self.hand.melds]
        if self.win_group is not None:
            parts[self.win_group] += "*"
        return " ".join(parts)


@cache
def _wait_shape(group: RawGroup, win_index: int) -> WaitShape:
    kind, first = group
    if kind is PAIR:
        return _SINGLE
    if kind is TRIPLET:
        return _DOUBLE_PAIR
    position = win_index - first
    if position == 1:
        return _CLOSED
    rank = first % 9  # 0-based rank of the sequence's lowest tile
    if (position == 2 and rank == 0) or (position == 0 and rank == 6):
        return _EDGE
    return _TWO_SIDED


@cache
def _concealed_group(group: RawGroup) -> Group:
    """The shared, immutable ``Group`` of a concealed raw group (built once per kind of group)."""
    return Group(group[0], group_tiles(group), concealed=True)


@cache
def _raw_text(group: RawGroup) -> str:
    return _concealed_group(group).text


def meld_text(meld: Meld) -> str:
    """``meld_group(meld).text``, cached by the meld's kinds for plain tiles."""
    indices = meld.plain_indices
    if indices is not None:
        return _plain_meld_text(indices, meld.type is _CONCEALED_KONG)
    return meld_group(meld).text


@cache
def _plain_meld_text(indices: tuple[int, ...], concealed: bool) -> str:
    text = format_tiles(tile34(i) for i in indices)
    return text if concealed else f"[{text}]"


class MeldFacts:
    """What the melds add to every reading of a hand, worked out once per hand."""

    __slots__ = ("concealed_kongs", "held", "kongs", "sequences", "triplet_mask", "triplets")

    def __init__(self, melds: tuple[Meld, ...]) -> None:
        self.sequences = self.triplets = self.triplet_mask = 0
        self.concealed_kongs = self.kongs = 0
        self.held: list[int] = []
        """The index34 of every meld tile."""
        for meld in melds:
            indices = meld.plain_indices or tuple(sorted(map(tile_index, meld.tiles)))
            kind = meld.type
            self.held += indices
            if kind is _CHI:
                self.sequences += 1
                continue
            self.triplets += 1
            self.triplet_mask |= 1 << indices[0]
            if kind in _KONGS:
                self.kongs += 1
                if kind is _CONCEALED_KONG:
                    self.concealed_kongs += 1


_NO_MELDS = MeldFacts(())
_KONGS = frozenset({MeldType.KONG, MeldType.ADDED_KONG, MeldType.CONCEALED_KONG})


class HandShape:
    """What every reading of one hand shares, worked out once: its suits' shapes, its melds' facts,
    the tiles it waited on, and bounds a scorer can use to skip items no reading can have."""

    __slots__ = (
        "concealed_triplet_kinds",
        "hand",
        "melds",
        "shapes",
        "suits_used",
        "triplet_kinds",
        "wait_indices",
        "waits",
    )

    hand: Hand
    shapes: tuple[SuitShape, ...]
    """The after-win counts of 萬 筒 索 and honours."""
    melds: MeldFacts
    wait_indices: tuple[int, ...]
    waits: frozenset[Tile]
    suits_used: tuple[bool, bool, bool, bool]
    """Whether the hand (melds included) holds 萬, 筒, 索, honours."""
    triplet_kinds: int
    """Bit ``i`` set: kind ``i`` could be a triplet or kong in some reading (three or more held,
    melds included)."""
    concealed_triplet_kinds: int
    """How many kinds could be a concealed triplet or kong (concealed kongs included)."""

    def __init__(
        self, hand: Hand, shapes: tuple[SuitShape, ...], melds: MeldFacts, waits: tuple[int, ...]
    ) -> None:
        self.hand = hand
        self.shapes = shapes
        self.melds = melds
        self.wait_indices = waits
        self.waits = _wait_set(waits)
        m, p, s, z = shapes
        used = [bool(m.size), bool(p.size), bool(s.size), bool(z.size)]
        for index in melds.held:
            used[min(index // 9, 3)] = True
        self.suits_used = (used[0], used[1], used[2], used[3])
        concealed = m.triplet_kinds | p.triplet_kinds | s.triplet_kinds | z.triplet_kinds
        self.triplet_kinds = concealed | melds.triplet_mask
        self.concealed_triplet_kinds = concealed.bit_count() + melds.concealed_kongs


_WAIT_SETS: dict[tuple[int, ...], frozenset[Tile]] = {}


def _wait_set(indices: tuple[int, ...]) -> frozenset[Tile]:
    """The tiles of these indices, one shared set per combination (few combinations occur)."""
    found = _WAIT_SETS.get(indices)
    if found is None:
        found = _WAIT_SETS[indices] = frozenset(tile34(i) for i in indices)
    return found


# suit_shape's results by suit, looked up by the suit's counts alone (filled by suit_shape)
_MAN, _PIN, _SOU, _HONOURS = SHAPES_BY_SUIT


def standard_readings(
    hand: Hand, sets_needed: int, counts: Sequence[int] | None = None
) -> list[Reading]:
    """Every reading of a standard hand (sets + one pair). Empty when the tiles do not form one.

    Each split of the concealed tiles is read once per distinct group the winning tile could have
    completed; what the readings share (melds, waits) is worked out once, in ``Reading.shared``.
    ``counts`` (``counts34`` of the concealed tiles) saves counting again when the caller has them.
    """
    if counts is None:
        counts = hand.concealed_counts
    melds = hand.melds
    if sum(counts) != 3 * (sets_needed - len(melds)) + 2:
        return []
    man, pin, sou, honours = (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )
    shapes = (
        _MAN.get(man) or suit_shape(man, 0, False),
        _PIN.get(pin) or suit_shape(pin, 9, False),
        _SOU.get(sou) or suit_shape(sou, 18, False),
        _HONOURS.get(honours) or suit_shape(honours, 27, True),
    )
    # Every cut of a suit holds a pair or none alike (its count mod 3 says which): the hand is one
    # pair and sets when each suit can be cut and exactly one suit holds the pair.
    pairs = 0
    for shape in shapes:
        if not shape.splits:
            return []
        pairs += shape.splits[0].pair is not None
    if pairs != 1:
        return []
    meld_facts = MeldFacts(melds) if melds else _NO_MELDS
    win_index = tile_index(hand.win_tile) if hand.win_tile is not None else None
    sets_left = sets_needed - len(melds)
    if win_index is None:
        wait_indices: tuple[int, ...] = ()  # complete as they are: nothing was waited on
    elif counts[win_index]:
        wait_indices = _waits_of(shapes, counts, meld_facts, win_index, sets_left)
    else:  # a winning tile the concealed tiles do not hold: count the plain way
        wait_indices = tuple(_wait_indices(counts, meld_facts, win_index, sets_left))
    shared = HandShape(hand, shapes, meld_facts, wait_indices)
    discard_win = not hand.context.self_draw
    win_suit = -1 if win_index is None else min(win_index // 9, 3)
    readings: list[Reading] = []
    for m, p, s, z in product(
        shapes[0].splits, shapes[1].splits, shapes[2].splits, shapes[3].splits
    ):
        raw: tuple[RawGroup, ...] = (m.pair or p.pair or s.pair or z.pair,)  # type: ignore[assignment]
        raw += m.sets + p.sets + s.sets + z.sets
        sequences = meld_facts.sequences + m.sequences + p.sequences + s.sequences + z.sequences
        concealed = m.triplets + p.triplets + s.triplets + z.triplets
        triplets = meld_facts.triplets + concealed
        mask = meld_facts.triplet_mask | m.triplet_mask | p.triplet_mask | s.triplet_mask
        mask |= z.triplet_mask
        concealed += meld_facts.concealed_kongs
        if win_index is None:
            readings.append(
                Reading(shared, raw, None, _NO_WAIT, sequences, triplets, mask, concealed)
            )
            continue
        # raw holds the pair, then the sets suit by suit: where the winning suit's sets begin
        offset = 1
        if win_suit > 0:
            offset += len(m.sets)
            if win_suit > 1:
                offset += len(p.sets)
                if win_suit > 2:
                    offset += len(s.sets)
        wins = (m, p, s, z)[win_suit].wins(win_index)
        for position, group in wins:
            readings.append(
                Reading(
                    shared,
                    raw,
                    0 if position < 0 else offset + position,
                    _wait_shape(group, win_index),
                    sequences,
                    triplets,
                    mask,
                    concealed - (discard_win and group[0] is TRIPLET),
                )
            )
        if not wins:
            readings.append(
                Reading(shared, raw, None, _NO_WAIT, sequences, triplets, mask, concealed)
            )
    return readings


def hand_waits(hand: Hand, sets_needed: int) -> set[Tile]:
    """The tiles the hand waited on before the win (kinds whose four copies it holds excluded)."""
    win_index = tile_index(hand.win_tile) if hand.win_tile is not None else None
    indices = _wait_indices(
        counts34(hand.concealed), MeldFacts(hand.melds), win_index, sets_needed - len(hand.melds)
    )
    return {tile34(i) for i in indices}


def _wait_indices(
    concealed: Sequence[int], melds: MeldFacts, win_index: int | None, sets_needed: int
) -> list[int]:
    before = list(concealed)
    if win_index is not None:
        before[win_index] -= 1
    held = before[:]
    for index in melds.held:
        held[index] += 1
    return waiting_indices(before, sets_needed, held)


def _waits_of(
    shapes: tuple[SuitShape, ...],
    counts: Sequence[int],
    melds: MeldFacts,
    win_index: int,
    sets_needed: int,
) -> tuple[int, ...]:
    """``_wait_indices`` for counts that form a hand, from their suit shapes: the tiles that would
    have completed the hand before the winning tile came (four held: no wait)."""
    j = min(win_index // 9, 3)
    before = list(shapes)
    before[j] = shapes[j].without(win_index)
    m, p, s, z = before
    needed = needed_from_suits((m.signature, p.signature, s.signature, z.signature), sets_needed)
    waits: list[int] = []
    for shape, wanted in zip(before, needed, strict=True):
        if wanted:
            waits += shape.completing(wanted)
    if not waits:
        return ()
    held = melds.held
    return tuple(
        i for i in waits if counts[i] - (i == win_index) + (held.count(i) if held else 0) < 4
    )
