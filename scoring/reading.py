"""Readings of a standard hand: one split into groups plus which group the winning tile completed.

A rule set scores every reading and keeps the best, because the same tiles can score differently
(a 234-345 hand won on 4 is a 兩面 in one reading and a 崁張 in another).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar, overload

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
_Value = TypeVar("_Value")


class cached_fact(Generic[_Value]):
    """``functools.cached_property`` without its lock: readings are built and read by one thread,
    and Python 3.11's locked version costs more than most of these facts take to compute."""

    def __init__(self, compute: Callable[[Any], _Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, instance: None, owner: type) -> cached_fact[_Value]: ...

    @overload
    def __get__(self, instance: object, owner: type) -> _Value: ...

    def __get__(self, instance: object | None, owner: type) -> cached_fact[_Value] | _Value:
        if instance is None:
            return self
        value = self.compute(instance)
        # The instance dict now answers first (this is a non-data descriptor), even when frozen.
        instance.__dict__[self.name] = value
        return value


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

    @property
    def is_triplet_like(self) -> bool:
        """A triplet or a kong."""
        return self.kind in (GroupKind.TRIPLET, GroupKind.KONG)

    @property
    def is_sequence(self) -> bool:
        return self.kind is GroupKind.SEQUENCE

    @cached_fact
    def text(self) -> str:
        """Compact notation, in brackets when claimed (kept: concealed groups are shared)."""
        text = format_tiles(self.tiles)
        return text if self.concealed else f"[{text}]"

    def __str__(self) -> str:
        return self.text


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

    @cached_fact
    def pair(self) -> Group | None:
        return next((g for g in self.groups if g.kind is GroupKind.PAIR), None)

    @cached_fact
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.is_set)

    @cached_fact
    def triplet_tiles(self) -> frozenset[Tile]:
        """The kinds held as a triplet or kong."""
        return frozenset(g.first for g in self.groups if g.kind in _TRIPLET_KINDS)

    @cached_fact
    def wind_triplets(self) -> int:
        return sum(1 for t in self.triplet_tiles if t.is_wind)

    @cached_fact
    def dragon_triplets(self) -> int:
        return sum(1 for t in self.triplet_tiles if t.is_dragon)

    @cached_fact
    def all_triplets(self) -> bool:
        return all(g.kind in _TRIPLET_KINDS for g in self.sets)

    @cached_fact
    def all_sequences(self) -> bool:
        return all(g.kind is GroupKind.SEQUENCE for g in self.sets)

    @cached_fact
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


@cache
def _concealed_group(group: RawGroup) -> Group:
    """The shared, immutable ``Group`` of a concealed raw group (built once per kind of group)."""
    return Group(group[0], group_tiles(group), concealed=True)


def _holds(group: RawGroup, index: int) -> bool:
    kind, first = group
    if kind is GroupKind.SEQUENCE:
        return first <= index <= first + 2
    return first == index


def standard_readings(hand: Hand, sets_needed: int) -> list[Reading]:
    """Every reading of a standard hand (sets + one pair). Empty when the tiles do not form one.

    Each split of the concealed tiles is read once per distinct group the winning tile could have
    completed; the meld groups and the waits are the same in every reading and built once.
    """
    counts = counts34(hand.concealed)
    found = splits(counts, sets_needed - len(hand.melds))
    if not found:
        return []
    meld_groups = tuple(meld_group(m) for m in hand.melds)
    win_index = index34(hand.win_tile) if hand.win_tile is not None else None
    waits = frozenset(_waits_from_counts(hand, counts, win_index, sets_needed))
    readings: list[Reading] = []
    for pair, sets in found:
        raw = (pair, *sets) if pair is not None else sets
        groups = tuple(_concealed_group(g) for g in raw if g is not None) + meld_groups
        candidates: list[int | None] = []
        if win_index is not None:
            seen: set[RawGroup] = set()
            for i, g in enumerate(raw):
                if g is not None and g not in seen and _holds(g, win_index):
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
            readings.append(Reading(hand, groups, candidate, shape, waits))
    return readings


def hand_waits(hand: Hand, sets_needed: int) -> set[Tile]:
    """The tiles the hand waited on before the win (kinds whose four copies it holds excluded)."""
    win_index = index34(hand.win_tile) if hand.win_tile is not None else None
    return _waits_from_counts(hand, counts34(hand.concealed), win_index, sets_needed)


def _waits_from_counts(
    hand: Hand, concealed: list[int], win_index: int | None, sets_needed: int
) -> set[Tile]:
    before = concealed[:]
    if win_index is not None:
        before[win_index] -= 1
    held = before[:]
    for meld in hand.melds:
        for tile in meld.tiles:
            held[index34(tile)] += 1
    return waiting_tiles(before, sets_needed - len(hand.melds), held)
