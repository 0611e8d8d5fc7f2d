"""A winning hand as a player lays it down: concealed tiles, melds, flowers, the winning tile, context.

The types here are the boundary every rule set reads; they hold no scoring logic.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar, overload

from scoring.errors import HandError
from scoring.notation import format_tiles
from scoring.shapes import all_plain, counts34, plain_counts, plain_indices
from scoring.tiles import Tile

SEATS = ("E", "S", "W", "N")

_Value = TypeVar("_Value")
_Frozen = TypeVar("_Frozen")


def build(cls: type[_Frozen], **fields: Any) -> _Frozen:
    """An instance of a frozen dataclass made from every one of its fields, by name.

    The same object the class's own ``__init__`` makes, at a third of the cost: the generated
    ``__init__`` of a frozen class sets each field through ``object.__setattr__``. Only for classes
    without ``__post_init__`` (the hand, its context and melds, and the result types); a field left
    out reads as its class default.
    """
    instance = object.__new__(cls)
    instance.__dict__.update(fields)
    return instance


class cached_fact(Generic[_Value]):
    """``functools.cached_property`` without its lock: hands and readings are built and read by one
    thread, and Python 3.11's locked version costs more than most of these facts take to compute."""

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


class MeldType(enum.Enum):
    """How a group was laid down. Only a concealed kong keeps the hand concealed."""

    CHI = "chi"
    PON = "pon"
    KONG = "kong"
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"

    # Members are singletons compared by identity; Enum's own hash is Python code.
    __hash__ = object.__hash__

    @property
    def is_kong(self) -> bool:
        return self in _KONGS

    @property
    def is_open(self) -> bool:
        return self is not _CONCEALED_KONG


_KONGS = frozenset({MeldType.KONG, MeldType.ADDED_KONG, MeldType.CONCEALED_KONG})
_CONCEALED_KONG = MeldType.CONCEALED_KONG


class Event(enum.Enum):
    """Circumstances of the win that the tiles cannot show. Each variant says which it accepts."""

    LAST_TILE = "last_tile"
    LAST_DISCARD = "last_discard"
    AFTER_KONG = "after_kong"
    AFTER_FLOWER = "after_flower"
    KONG_AFTER_KONG = "kong_after_kong"
    ROBBING_KONG = "robbing_kong"
    HEAVENLY_WIN = "heavenly_win"
    EARTHLY_WIN = "earthly_win"
    HUMAN_WIN = "human_win"
    HEAVENLY_READY = "heavenly_ready"
    EARTHLY_READY = "earthly_ready"
    EIGHT_FLOWERS = "eight_flowers"
    SEVEN_FLOWERS_ROB = "seven_flowers_rob"
    RIICHI = "riichi"
    DOUBLE_RIICHI = "double_riichi"
    IPPATSU = "ippatsu"
    NAGASHI_MANGAN = "nagashi_mangan"
    DECLARED_READY = "declared_ready"
    FURITEN = "furiten"
    FALSE_WIN = "false_win"

    # Members are singletons compared by identity; Enum's own hash is Python code, and every
    # rule item that asks about an event hashes one.
    __hash__ = object.__hash__


@dataclass(frozen=True)
class Meld:
    """A group shown on the table. ``claimed_from`` is the seat the claimed tile came from."""

    type: MeldType
    tiles: tuple[Tile, ...]
    claimed_from: str | None = None

    @cached_fact
    def plain_indices(self) -> tuple[int, ...] | None:
        """The tiles' 34-kind indices, sorted, when all are plain mahjong tiles (else None)."""
        return plain_indices(self.tiles)

    @property
    def is_kong(self) -> bool:
        return self.type in _KONGS

    @property
    def is_open(self) -> bool:
        return self.type is not _CONCEALED_KONG

    def __str__(self) -> str:
        return f"{self.type.value}:{format_tiles(self.tiles)}"


@dataclass(frozen=True)
class WinContext:
    """Everything about the win that is not a tile. Seats and winds are E S W N."""

    self_draw: bool = False
    seat_wind: str = "E"
    round_wind: str = "E"
    dealer_streak: int = 0
    discarder: str | None = None
    events: frozenset[Event] = frozenset()
    dealer: bool | None = None
    """Whether the winner deals; None means "the seat wind is East" (mahjong variants)."""
    players: int = 4
    dora_indicators: tuple[Tile, ...] = ()
    ura_dora_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    pao: str | None = None
    """The seat liable for 役滿包 (riichi): whose discard, called, made 大三元 or 大四喜 certain."""

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == "E" if self.dealer is None else self.dealer

    def has(self, event: Event) -> bool:
        return event in self.events


@dataclass(frozen=True)
class Hand:
    """A hand to score. ``concealed`` includes the winning tile; meld tiles are not in it."""

    concealed: tuple[Tile, ...]
    win_tile: Tile | None
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    context: WinContext = WinContext()
    rules: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every tile of the hand proper (concealed and melds), flowers excluded."""
        if not self.melds:
            return self.concealed
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    @cached_fact
    def plain_counts(self) -> tuple[int, ...] | None:
        """How many of each of the 34 kinds the concealed tiles hold, when all are plain mahjong
        tiles (no red five, no flower or piece); else None. Worked out once per hand."""
        counts = plain_counts(self.concealed)
        return None if counts is None else tuple(counts)

    @cached_fact
    def concealed_counts(self) -> tuple[int, ...]:
        """How many of each of the 34 kinds the concealed tiles hold (red fives count as fives);
        for mahjong tiles only. Worked out once per hand, for checking and scoring alike."""
        counts = self.plain_counts
        return counts if counts is not None else tuple(counts34(self.concealed))

    @property
    def shows_no_tiles(self) -> bool:
        """No tile at all: the context checked before any tile is known (``hand_json.
        check_context``, a photo still to read), so what an event needs of the tiles (a kong for
        槓上開花, eight flowers for 八仙過海) is left to the hand. A hand scored always shows
        some: every rule set refuses one without, but riichi's 流局滿貫, which takes no other
        event."""
        return not (self.concealed or self.melds or self.flowers or self.win_tile)

    @property
    def is_concealed(self) -> bool:
        """No chi, pon or open kong (a concealed kong keeps the hand concealed)."""
        return not any(m.is_open for m in self.melds)

    @property
    def before_win(self) -> tuple[Tile, ...]:
        """The concealed tiles before the winning tile arrived."""
        if self.win_tile is None:
            return self.concealed
        tiles = list(self.concealed)
        tiles.remove(self.win_tile)
        return tuple(tiles)

    def describe(self) -> str:
        parts = [format_tiles(self.before_win)]
        if self.win_tile is not None:
            parts.append(f"+{self.win_tile.code}")
        parts += [str(m) for m in self.melds]
        if self.flowers:
            parts.append("flowers " + format_tiles(self.flowers))
        return " ".join(parts)


COPIES_IN_A_SET = 4
"""How many of each mahjong tile one set holds (a red five is one of its suit's four fives)."""


def check_copies(tiles: tuple[Tile, ...], limit: int = COPIES_IN_A_SET, what: str = "tile") -> None:
    """Raise for more copies of a tile than a set holds (red fives count as fives)."""
    if all_plain(tiles) and (len(tiles) <= limit or max(Counter(map(id, tiles)).values()) <= limit):
        return  # plain shared tiles: the same tile is the same object
    counts = Counter(t.plain for t in tiles)
    red = Counter(t for t in tiles if t.is_red_five)
    for tile, count in counts.items():
        if count > limit:
            raise HandError(f"{count} copies of {tile.code} in the hand: a set has {limit}")
    for tile, count in red.items():
        if count > 1:
            raise HandError(f"{count} copies of red five {tile.code}: a set has one")
