"""A winning hand as a player lays it down: concealed tiles, melds, flowers, the winning tile, context.

The types here are the boundary every rule set reads; they hold no scoring logic.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scoring.errors import HandError
from scoring.notation import format_tiles
from scoring.tiles import Tile

SEATS = ("E", "S", "W", "N")


class MeldType(enum.Enum):
    """How a group was laid down. Only a concealed kong keeps the hand concealed."""

    CHI = "chi"
    PON = "pon"
    KONG = "kong"
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"

    @property
    def is_kong(self) -> bool:
        return self in (MeldType.KONG, MeldType.ADDED_KONG, MeldType.CONCEALED_KONG)

    @property
    def is_open(self) -> bool:
        return self is not MeldType.CONCEALED_KONG


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

    @property
    def is_kong(self) -> bool:
        return self.type.is_kong

    @property
    def is_open(self) -> bool:
        return self.type.is_open

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
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

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


def check_copies(tiles: tuple[Tile, ...], limit: int = 4, what: str = "tile") -> None:
    """Raise for more copies of a tile than a set holds (red fives count as fives)."""
    counts = Counter(t.plain for t in tiles)
    red = Counter(t for t in tiles if t.is_red_five)
    for tile, count in counts.items():
        if count > limit:
            raise HandError(f"{count} copies of {tile.code} in the hand: a set has {limit}")
    for tile, count in red.items():
        if count > 1:
            raise HandError(f"{count} copies of red five {tile.code}: a set has one")
