"""What every rule set shares, and the registry that finds one by name or alias.

A variant is a small subclass that sets class attributes (its tile count, unit, events, options)
and implements ``score``; the core never names a variant.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, ClassVar

from scoring.drawn_hands import DrawReason
from scoring.errors import HandError, VariantError, shown
from scoring.hand import (
    COPIES_IN_A_SET,
    SEATS,
    Event,
    Hand,
    Meld,
    MeldType,
    WinContext,
    check_copies,
)
from scoring.notation import format_tiles
from scoring.result import ScoreResult
from scoring.rules import RuleOption, resolve_options
from scoring.shapes import all_plain, counts34, tile_index
from scoring.tiles import FLOWERS, Tile, index34

_FLOWER_IDS = frozenset(id(f) for f in FLOWERS)
_CHI, _PON = MeldType.CHI, MeldType.PON


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
    unseen_events: ClassVar[tuple[Event, ...]] = ()
    """Events a photo cannot show that a closed hand may need to win (riichi's 立直, its only
    yaku for many hands): the layout tries its readings as if one were declared, so that a right
    read is not changed into another hand only to find a yaku (``hand_json.wins_under``)."""
    uses_pieces: ClassVar[bool] = False
    uses_pao: ClassVar[bool] = False
    """Whether a hand may name the seat liable for a limit hand it fed (``pao``, 役滿包)."""
    riichi_counters: ClassVar[bool] = False
    """Whether the rule set counts riichi's own: dora indicators (懸賞), 本場 (honba) and the
    sticks players put on the table declaring riichi (供託). The others refuse them: taken
    without a word, a table that set them would think them scored."""
    dealer_repeats: ClassVar[bool] = True
    """Whether a dealer who wins deals again (連莊); 明將 plays 冇冧莊, every hand passing it."""
    seats_by_wind: ClassVar[bool] = True
    """Whether a hand names seats by wind (``seat_wind``, ``discarder`` E S W N, the dealer East).
    A rule set without winds (xiangqi) says ``dealer`` true or false and names the other seats
    from the winner's chair (left, across, right), and so do its payments."""

    draw_reasons: ClassVar[tuple[DrawReason, ...]] = ()
    """How a hand of the rule set ends drawn (流局), the usual one first; none: it records no
    draw."""

    def score_draw(self, data: Any) -> dict[str, Any]:
        """A drawn hand (流局) as JSON (``scoring.drawn_hands``): what it pays and how it moves
        the deal."""
        raise HandError(f"{self.name} does not score drawn hands (流局)")

    def _check_sources(self, hand: Hand) -> None:
        """Whom each meld says it was claimed from: another player, and for a chi the one who
        plays just before the winner (上家), the only player a chi is claimed from."""
        seat = hand.context.seat_wind
        before = SEATS[(SEATS.index(seat) - 1) % len(SEATS)] if seat in SEATS else None
        for meld in hand.melds:
            source = meld.claimed_from
            if source is None:
                continue
            named = f"meld {meld.type.value}:{_codes(meld.tiles)}"
            if meld.type is MeldType.CONCEALED_KONG:
                raise HandError(f"{named} is concealed: it is claimed from nobody")
            if source == seat:
                raise HandError(f"{named} claimed from {source}, the winner's own seat")
            if meld.type is MeldType.CHI and before is not None and source != before:
                raise HandError(
                    f"{named} claimed from {source}: a chi comes from the player just before"
                    f" the winner ({before})"
                )

    def check_players(self, players: Any) -> None:
        """That the rule set is played by ``players``, as its own context check says: asked of
        a hand that is all defaults but for the count, so only the count can be refused."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise HandError(f"players must be a whole number, got {shown(players)}")
        probe = Hand(
            concealed=(),
            win_tile=None,
            context=WinContext(players=players),
            rules=self.resolve_rules({}),
        )
        self.check_context(probe)

    def score(self, hand: Hand) -> ScoreResult:
        raise NotImplementedError

    def resolve_rules(self, given: dict[str, Any]) -> dict[str, Any]:
        if not given:  # the usual hand: the defaults, worked out once
            defaults = self.__dict__.get("_defaults")
            if defaults is None:
                defaults = self.__dict__["_defaults"] = resolve_options(self.options, {}, self.name)
            return dict(defaults)
        return resolve_options(self.options, given, self.name)

    def as_scored(self, hand: Hand) -> Hand:
        """The hand as the rule set reads it, before it is checked and scored: where an event
        says how the tile came (Taiwan's 八仙過海 is a self-draw), the context says so too, so
        the checks and every item read it alike."""
        return hand

    def check_hand(self, hand: Hand) -> None:
        """Raise a one-line ``HandError`` for a hand this variant cannot hold."""
        melds = hand.melds
        # The quick checks pass the usual hand (plain mahjong tiles, distinct flowers); anything
        # else goes through the checks that name the problem.
        plain = (
            not self.uses_pieces
            and hand.plain_counts is not None
            and (not melds or all(m.plain_indices is not None for m in melds))
        )
        if not plain:
            self._check_tiles(hand, hand.all_tiles)
        flowers = hand.flowers
        if flowers and (
            not self.uses_flowers
            or not _FLOWER_IDS.issuperset(map(id, flowers))
            or len(set(map(id, flowers))) != len(flowers)
        ):
            self._check_flowers(hand)
        if not plain or _too_many_copies(hand):
            check_copies(hand.all_tiles)
        for meld in melds:
            self.check_meld(meld)
        size = len(hand.concealed) + 3 * len(melds)
        if size not in self.expected_sizes(hand):
            raise HandError(
                f"a {self.name} hand has {self.hand_size} tiles (concealed, winning tile included,"
                f" plus 3 per meld), got {size}"
            )
        win = hand.win_tile
        if win is None and self.needs_win_tile(hand):
            raise HandError("win_tile is missing: name the tile that completed the hand")
        if (
            win is not None
            and not (plain and all_plain((win,)) and hand.concealed_counts[tile_index(win)])
            and win not in hand.concealed
        ):
            raise HandError(f"winning tile {win.code} is not among the concealed tiles")
        self.check_context(hand)

    def _check_tiles(self, hand: Hand, tiles: tuple[Tile, ...]) -> None:
        for tile in tiles:
            if tile.is_flower:
                raise HandError(f"flower {tile.code} is in the hand: list flowers separately")
            if tile.is_piece != self.uses_pieces:
                raise HandError(
                    f"tile {tile.code} ({tile.name}) is not part of {self.name} mahjong"
                )
            if tile.is_red_five and not self.allows_red_fives(hand):
                raise HandError(f"red five {tile.code} is not used in {self.name}")

    def _check_flowers(self, hand: Hand) -> None:
        if hand.flowers and not self.uses_flowers:
            raise HandError(f"{self.name} is played without flowers")
        for flower in hand.flowers:
            if not flower.is_flower:
                raise HandError(f"{flower.code} is not a flower")
        if len(set(hand.flowers)) != len(hand.flowers):
            twice = next(f for f in hand.flowers if hand.flowers.count(f) > 1)
            raise HandError(f"flower {twice.code} ({twice.name}) appears twice")

    def expected_sizes(self, hand: Hand) -> tuple[int, ...]:
        return (self.hand_size,)

    def needs_win_tile(self, hand: Hand) -> bool:
        return True

    def needs_tiles(self, events: frozenset[Event]) -> bool:
        """Whether a hand with these events must list tiles (riichi's 流局滿貫 needs none)."""
        return True

    def allows_red_fives(self, hand: Hand) -> bool:
        return self.uses_red_fives(hand.rules)

    def uses_red_fives(self, rules: Mapping[str, Any]) -> bool:
        """Whether red fives count under these (resolved) rules: a photo read for this variant
        reads a red-painted five as a plain five otherwise."""
        return False

    def check_context(self, hand: Hand) -> None:
        ctx = hand.context
        if ctx.seat_wind not in SEATS or ctx.round_wind not in SEATS:
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
        if not self.riichi_counters:
            counted = [
                name
                for name, given in (
                    ("dora indicators", ctx.dora_indicators or ctx.ura_dora_indicators),
                    ("honba (本場)", ctx.honba),
                    ("riichi sticks (供託)", ctx.riichi_sticks),
                )
                if given
            ]
            if counted:
                # A dealer's repeats are said as dealer_streak where they count, riichi's honba
                # being no such streak; a rule set whose deal passes every hand counts neither.
                streak = ""
                if ctx.honba:
                    streak = (
                        "; its dealer's streak is dealer_streak"
                        if self.dealer_repeats
                        else ", nor is a dealer's streak (dealer_streak): the deal passes every hand"
                    )
                raise HandError(f"{counted[0]} are not counted in {self.name}{streak}")
        if self.seats_by_wind:
            self._check_sources(hand)
        if ctx.pao is not None:
            if not self.uses_pao:
                raise HandError(f"pao (役滿包) is not used in {self.name}")
            if ctx.pao not in SEATS or ctx.pao == ctx.seat_wind:
                raise HandError(f"pao {ctx.pao!r} must be another player's seat (E S W N)")
        if ctx.events and not ctx.events <= self.events:
            for event in ctx.events:
                if event not in self.events:
                    allowed = " ".join(sorted(e.value for e in self.events))
                    raise HandError(
                        f"event {event.value!r} is not used in {self.name} (known: {allowed})"
                    )

    def check_meld(self, meld: Meld) -> None:
        """A mahjong meld: chi = three in a row of one suit, pon = three alike, kongs = four alike."""
        tiles = meld.tiles
        idx = meld.plain_indices
        if idx is not None:
            # The quick form of the checks below for plain tiles (the shared instances).
            if meld.type is _CHI:
                good = len(idx) == 3 and idx[2] < 27 and idx[0] // 9 == idx[2] // 9
                good = good and idx == (idx[0], idx[0] + 1, idx[0] + 2)
            else:
                size = 3 if meld.type is _PON else 4
                good = len(idx) == size and idx[0] == idx[-1]
            if good and (meld.claimed_from is None or meld.claimed_from in SEATS):
                return
        kind = meld.type.value
        if any(not t.is_suited and not t.is_honor for t in tiles):
            raise HandError(f"meld {kind}:{_codes(tiles)} holds a tile that cannot be melded")
        if meld.type is MeldType.CHI:
            order = sorted(index34(t) for t in tiles)
            if (
                len(tiles) != 3
                or not all(t.is_suited for t in tiles)
                or len({t.suit for t in tiles}) != 1
                or order != [order[0], order[0] + 1, order[0] + 2]
            ):
                raise HandError(f"meld chi:{_codes(tiles)} is not three in a row of one suit")
        else:
            size = 3 if meld.type is MeldType.PON else 4
            if len(tiles) != size or len({t.plain for t in tiles}) != 1:
                raise HandError(f"meld {kind}:{_codes(tiles)} is not {size} identical tiles")
        if meld.claimed_from is not None and meld.claimed_from not in SEATS:
            # A chi's seat went unchecked: "from": "Q" scored as if nothing were said.
            raise HandError(
                f"meld {kind}:{_codes(tiles)} claimed from {meld.claimed_from!r}: a seat is one"
                " of E S W N"
            )


def _too_many_copies(hand: Hand) -> bool:
    """Whether a hand of plain tiles holds more than four of a kind (melds included)."""
    counts = hand.concealed_counts
    if hand.melds:
        held = list(counts)
        for meld in hand.melds:
            for index in meld.plain_indices or ():
                held[index] += 1
        return max(held) > COPIES_IN_A_SET
    return max(counts) > COPIES_IN_A_SET


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


def red_fives_in_play(variant_name: str, rules: Mapping[str, Any] | None = None) -> bool:
    """Whether a hand of this variant under these rule options (unresolved, as typed) may hold
    red fives; a photo read for it reads a red-painted five as a plain five when not."""
    variant = find_variant(variant_name)
    return variant.uses_red_fives(variant.resolve_rules(dict(rules or {})))


def flowers_in_play(variant_name: str | None) -> bool:
    """Whether a hand of this variant may hold flowers (Taiwan's); a photo read for one that
    may not reads no tile as a flower. With no variant named, any hand might."""
    return variant_name is None or find_variant(variant_name).uses_flowers


def variant_name(name: str) -> str:
    """The variant's own name for a name or alias (``象棋`` is ``xiangqi``), without loading it;
    an unknown name is a one-line error listing the known ones."""
    key = _ALIASES.get(name, name.lower() if isinstance(name, str) else name)
    if key not in _REGISTRY:
        raise VariantError(f"unknown variant {name!r} (known: {', '.join(_REGISTRY)})")
    return key


def find_variant(name: str) -> Variant:
    """The variant for a name or alias; an unknown name is a one-line error listing the known ones."""
    key = variant_name(name)
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
