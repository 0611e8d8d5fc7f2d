"""What every rule set shares, and the registry that finds one by name or alias.

A variant is a small subclass that sets class attributes (its tile count, unit, events, options)
and implements ``score``; the core never names a variant.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from scoring.errors import HandError, VariantError
from scoring.hand import SEATS, Event, Hand, Meld, MeldType, check_copies
from scoring.notation import format_tiles
from scoring.result import ScoreResult
from scoring.rules import RuleOption, resolve_options
from scoring.shapes import counts34
from scoring.tiles import Tile, index34


class Variant:
    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    unit: ClassVar[str] = ""
    rule_texts: ClassVar[tuple[str, ...]] = ()
    hand_size: ClassVar[int] = 14
    """Tiles in a winning hand, counting each meld (a kong too) as three."""
    events: ClassVar[frozenset[Event]] = frozenset()
    options: ClassVar[tuple[RuleOption, ...]] = ()
    uses_flowers: ClassVar[bool] = False
    uses_pieces: ClassVar[bool] = False

    def score(self, hand: Hand) -> ScoreResult:
        raise NotImplementedError

    def resolve_rules(self, given: dict[str, Any]) -> dict[str, Any]:
        return resolve_options(self.options, given, self.name)

    def check_hand(self, hand: Hand) -> None:
        """Raise a one-line ``HandError`` for a hand this variant cannot hold."""
        for tile in hand.all_tiles:
            if tile.is_flower:
                raise HandError(f"flower {tile.code} is in the hand: list flowers separately")
            if tile.is_piece != self.uses_pieces:
                raise HandError(
                    f"tile {tile.code} ({tile.name}) is not part of {self.name} mahjong"
                )
            if tile.is_red_five and not self.allows_red_fives(hand):
                raise HandError(f"red five {tile.code} is not used in {self.name}")
        if hand.flowers and not self.uses_flowers:
            raise HandError(f"{self.name} is played without flowers")
        for flower in hand.flowers:
            if not flower.is_flower:
                raise HandError(f"{flower.code} is not a flower")
        if len(set(hand.flowers)) != len(hand.flowers):
            twice = next(f for f in hand.flowers if hand.flowers.count(f) > 1)
            raise HandError(f"flower {twice.code} ({twice.name}) appears twice")
        check_copies(hand.all_tiles)
        for meld in hand.melds:
            self.check_meld(meld)
        size = len(hand.concealed) + 3 * len(hand.melds)
        if size not in self.expected_sizes(hand):
            raise HandError(
                f"a {self.name} hand has {self.hand_size} tiles (concealed, winning tile included,"
                f" plus 3 per meld), got {size}"
            )
        if hand.win_tile is None and self.needs_win_tile(hand):
            raise HandError("win_tile is missing: name the tile that completed the hand")
        if hand.win_tile is not None and hand.win_tile not in hand.concealed:
            raise HandError(f"winning tile {hand.win_tile.code} is not among the concealed tiles")
        self.check_context(hand)

    def expected_sizes(self, hand: Hand) -> tuple[int, ...]:
        return (self.hand_size,)

    def needs_win_tile(self, hand: Hand) -> bool:
        return True

    def needs_tiles(self, events: frozenset[Event]) -> bool:
        """Whether a hand with these events must list tiles (riichi's 流局滿貫 needs none)."""
        return True

    def allows_red_fives(self, hand: Hand) -> bool:
        return False

    def check_context(self, hand: Hand) -> None:
        ctx = hand.context
        for label, seat in (("seat_wind", ctx.seat_wind), ("round_wind", ctx.round_wind)):
            if seat not in SEATS:
                raise HandError(f"{label} {seat!r} is not one of E S W N")
        if ctx.dealer_streak < 0:
            raise HandError(f"dealer_streak {ctx.dealer_streak} is negative")
        if ctx.discarder is not None:
            if ctx.discarder not in SEATS:
                raise HandError(f"discarder {ctx.discarder!r} is not one of E S W N")
            if ctx.discarder == ctx.seat_wind:
                raise HandError(f"discarder {ctx.discarder} is the winner's own seat")
            if ctx.self_draw:
                raise HandError("a self-drawn win has no discarder")
        for event in ctx.events:
            if event not in self.events:
                allowed = " ".join(sorted(e.value for e in self.events))
                raise HandError(
                    f"event {event.value!r} is not used in {self.name} (known: {allowed})"
                )

    def check_meld(self, meld: Meld) -> None:
        """A mahjong meld: chi = three in a row of one suit, pon = three alike, kongs = four alike."""
        tiles = meld.tiles
        kind = meld.type.value
        if any(not t.is_suited and not t.is_honor for t in tiles):
            raise HandError(f"meld {kind}:{_codes(tiles)} holds a tile that cannot be melded")
        if meld.type is MeldType.CHI:
            idx = sorted(index34(t) for t in tiles)
            if (
                len(tiles) != 3
                or not all(t.is_suited for t in tiles)
                or len({t.suit for t in tiles}) != 1
                or idx != [idx[0], idx[0] + 1, idx[0] + 2]
            ):
                raise HandError(f"meld chi:{_codes(tiles)} is not three in a row of one suit")
            return
        size = 3 if meld.type is MeldType.PON else 4
        if len(tiles) != size or len({t.plain for t in tiles}) != 1:
            raise HandError(f"meld {kind}:{_codes(tiles)} is not {size} identical tiles")
        if meld.claimed_from is not None and meld.claimed_from not in SEATS:
            raise HandError(f"meld {kind}:{_codes(tiles)} claimed from {meld.claimed_from!r}")


def _codes(tiles: tuple[Tile, ...]) -> str:
    return format_tiles(tiles, sort=False)


def held_counts(hand: Hand) -> list[int]:
    return counts34(hand.all_tiles)


# name -> "module:Class"; imported when first asked for, so riichi's library loads only for riichi.
_REGISTRY: dict[str, str] = {
    "taiwan": "scoring.variants.taiwan:Taiwan",
    "riichi": "scoring.variants.riichi:Riichi",
    "mingjiang": "scoring.variants.mingjiang:Mingjiang",
    "xiangqi": "scoring.variants.xiangqi:Xiangqi",
}
_ALIASES: dict[str, str] = {
    "tw": "taiwan",
    "taiwanese": "taiwan",
    "台灣": "taiwan",
    "jp": "riichi",
    "japanese": "riichi",
    "日麻": "riichi",
    "明將": "mingjiang",
    "明將麻雀": "mingjiang",
    "象棋": "xiangqi",
    "象棋麻將": "xiangqi",
}
_INSTANCES: dict[str, Variant] = {}


def variant_names() -> list[str]:
    return list(_REGISTRY)


def find_variant(name: str) -> Variant:
    """The variant for a name or alias; an unknown name is a one-line error listing the known ones."""
    key = _ALIASES.get(name, name.lower() if isinstance(name, str) else name)
    if key not in _REGISTRY:
        raise VariantError(f"unknown variant {name!r} (known: {', '.join(_REGISTRY)})")
    if key not in _INSTANCES:
        module_name, class_name = _REGISTRY[key].split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name == module_name:
                raise VariantError(f"variant {key!r} is not available in this version") from None
            raise
        _INSTANCES[key] = getattr(module, class_name)()
    return _INSTANCES[key]
