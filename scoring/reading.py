"""Readings of a standard hand: one split into groups plus which group the winning tile completed.

A rule set scores every reading and keeps the best, because the same tiles can score differently
(a 234-345 hand won on 4 is a 兩面 in one reading and a 崁張 in another).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache, cached_property

from scoring.hand import Hand, Meld, MeldType
from scoring.notation import format_tiles
from scoring.shapes import (
    GroupKind,
    RawGroup,
    counts34,
    group_tiles,
    splits,
    waiting_tiles,
)
from scoring.tiles import Tile, index34

_TRIPLET_KINDS = (GroupKind.TRIPLET, GroupKind.KONG)


class WaitShape(enum.Enum):
    """The shape the hand waited in, as the winning tile completed it."""

    TWO_SIDED = "兩面"
    EDGE = "邊張"
    CLOSED = "崁張"
    SINGLE = "單吊"
    DOUBLE_PAIR = "對碰"
    NONE = "-"  # no winning tile in a group (special wins such as 八仙過海)


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
        return self.kind is not GroupKind.PAIR

    @cached_property
    def is_triplet_like(self) -> bool:
        """A triplet or a kong."""
        return self.kind in (GroupKind.TRIPLET, GroupKind.KONG)

    @property
    def is_sequence(self) -> bool:
        return self.kind is GroupKind.SEQUENCE

    def __str__(self) -> str:
        return _group_text(self.tiles, self.concealed)


@cache
def _group_text(tiles: tuple[Tile, ...], concealed: bool) -> str:
    text = format_tiles(tiles)
    return text if concealed else f"[{text}]"


def meld_group(meld: Meld) -> Group:
    if meld.type is MeldType.CHI:
        kind = GroupKind.SEQUENCE
    elif meld.is_kong:
        kind = GroupKind.KONG
    else:
        kind = GroupKind.TRIPLET
    plain = tuple(sorted((t.plain for t in meld.tiles), key=index34))
    return Group(kind, plain, concealed=meld.type is MeldType.CONCEALED_KONG, meld=meld)


@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand. ``win_group`` indexes ``groups`` (None: no such group)."""

    hand: Hand
    groups: tuple[Group, ...]
    win_group: int | None
    wait: WaitShape
    waits: frozenset[Tile]

    @cached_property
    def pair(self) -> Group | None:
        return next((g for g in self.groups if g.kind is GroupKind.PAIR), None)

    @cached_property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.is_set)

    @cached_property
    def triplet_tiles(self) -> frozenset[Tile]:
        """The kinds held as a triplet or kong."""
        return frozenset(g.first for g in self.groups if g.kind in _TRIPLET_KINDS)

    @cached_property
    def wind_triplets(self) -> int:
        return sum(1 for t in self.triplet_tiles if t.is_wind)

    @cached_property
    def dragon_triplets(self) -> int:
        return sum(1 for t in self.triplet_tiles if t.is_dragon)

    @cached_property
    def all_triplets(self) -> bool:
        return all(g.kind in _TRIPLET_KINDS for g in self.sets)

    @cached_property
    def all_sequences(self) -> bool:
        return all(g.kind is GroupKind.SEQUENCE for g in self.sets)

    @cached_property
    def concealed_triplets(self) -> int:
        """Triplets and kongs not claimed; on a discard win the group the discard completed is
        claimed, so it does not count (a reading where the tile completes a sequence or the pair
        keeps the triplet concealed)."""
        count = 0
        for i, g in enumerate(self.groups):
            if not g.is_triplet_like or not g.concealed:
                continue
            if i == self.win_group and not self.hand.context.self_draw:
                continue
            count += 1
        return count

    def describe(self) -> str:
        parts = []
        for i, g in enumerate(self.groups):
            text = str(g)
            parts.append(f"{text}*" if i == self.win_group else text)
        return " ".join(parts)


def _wait_shape(group: RawGroup, win_index: int) -> WaitShape:
    kind, first = group
    if kind is GroupKind.PAIR:
        return WaitShape.SINGLE
    if kind is GroupKind.TRIPLET:
        return WaitShape.DOUBLE_PAIR
    position = win_index - first
    if position == 1:
        return WaitShape.CLOSED
    rank = first % 9  # 0-based rank of the sequence's lowest tile
    if (position == 2 and rank == 0) or (position == 0 and rank == 6):
        return WaitShape.EDGE
    return WaitShape.TWO_SIDED


def standard_readings(hand: Hand, sets_needed: int) -> list[Reading]:
    """Every reading of a standard hand (sets + one pair). Empty when the tiles do not form one."""
    counts = counts34(hand.concealed)
    concealed_sets = sets_needed - len(hand.melds)
    found = splits(counts, concealed_sets)
    if not found:
        return []
    meld_groups = tuple(meld_group(m) for m in hand.melds)
    waits = hand_waits(hand, sets_needed)
    win_index = index34(hand.win_tile) if hand.win_tile is not None else None
    readings: list[Reading] = []
    for pair, sets in found:
        raw = (pair, *sets) if pair is not None else sets
        groups = tuple(Group(k, group_tiles((k, f)), concealed=True) for k, f in raw)
        candidates: list[int | None] = []
        if win_index is not None:
            seen: set[RawGroup] = set()
            for i, g in enumerate(raw):
                if g is None or g in seen:
                    continue
                if win_index in {index34(t) for t in group_tiles(g)}:
                    seen.add(g)
                    candidates.append(i)
        if not candidates:
            candidates = [None]
        for candidate in candidates:
            shape = WaitShape.NONE
            if candidate is not None and win_index is not None:
                chosen = raw[candidate]
                assert chosen is not None
                shape = _wait_shape(chosen, win_index)
            readings.append(Reading(hand, groups + meld_groups, candidate, shape, frozenset(waits)))
    return readings


def hand_waits(hand: Hand, sets_needed: int) -> set[Tile]:
    """The tiles the hand waited on before the win (kinds whose four copies it holds excluded)."""
    before = counts34(hand.before_win)
    held = counts34(hand.concealed if hand.win_tile is None else hand.before_win)
    for meld in hand.melds:
        for tile in meld.tiles:
            held[index34(tile)] += 1
    return waiting_tiles(before, sets_needed - len(hand.melds), held)
