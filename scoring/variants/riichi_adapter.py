"""Translate our hand model into a call of the ``mahjong`` library, and run it (rule text 004).

The library scores riichi hands (yaku, 符, points); this module only speaks its language: tiles as
136-format ids (four copies of each of the 34 kinds; copy 0 of a five is the red five), its
``Meld`` objects, and a ``HandConfig`` holding 004's settings. The config is built fresh for every
hand because the library writes into it while scoring (dora han, double-yakuman values), so a
reused one would leak one hand into the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import FunctionType

import mahjong.hand_calculating.hand as library_hand
from mahjong.constants import EAST, NORTH, SOUTH, WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.meld import Meld as LibraryMeld

from scoring.hand import Event, Hand, MeldType
from scoring.tiles import MAHJONG_TILES, RED_FIVES, Tile, index34

WINDS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}

_FIVES = frozenset({4, 13, 22})
"""The 34-format kinds 5m 5p 5s: their copy 0 is the red five in the library's 136 format."""

_MELD_TYPES = {
    MeldType.CHI: (LibraryMeld.CHI, True),
    MeldType.PON: (LibraryMeld.PON, True),
    MeldType.KONG: (LibraryMeld.KAN, True),
    MeldType.ADDED_KONG: (LibraryMeld.SHOUMINKAN, True),
    MeldType.CONCEALED_KONG: (LibraryMeld.KAN, False),
}


_EVENT_FLAGS = (
    ("is_riichi", Event.RIICHI),
    ("is_daburu_riichi", Event.DOUBLE_RIICHI),
    ("is_ippatsu", Event.IPPATSU),
    ("is_haitei", Event.LAST_TILE),
    ("is_houtei", Event.LAST_DISCARD),
    ("is_rinshan", Event.AFTER_KONG),
    ("is_chankan", Event.ROBBING_KONG),
    ("is_tenhou", Event.HEAVENLY_WIN),
    ("is_chiihou", Event.EARTHLY_WIN),
    ("is_nagashi_mangan", Event.NAGASHI_MANGAN),
)
"""Our events and the ``HandConfig`` flag each sets (every event of 004 has one)."""


def make_options(red_fives: bool) -> OptionalRules:
    """004's table settings, as the library names them.

    一翻起胡 and 食斷 (kuitan) on; 赤懸賞 only with the table option; no 切り上げ滿貫 ("無…進位滿貫");
    13+ 翻 counts as 役滿 (kazoe, capped at one); double yakuman on (雙役滿 rows); 平和自摸 20 符
    (no 自摸 符 for 平和); an open hand with no 符 won on a discard gets 2 符 (30 in all).
    """
    return OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=red_fives,
        has_double_yakuman=True,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        kiriage=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
    )


def make_config(hand: Hand, red_fives: bool, *, with_bonus: bool = True) -> HandConfig:
    """A fresh library config for one hand: how it was won, the winds, 本場 and 供託.

    ``with_bonus`` False leaves out 本場 and 供託 (流局滿貫 is a draw: neither is paid).
    """
    ctx = hand.context
    events = ctx.events
    flags = {flag: event in events for flag, event in _EVENT_FLAGS} if events else {}
    return HandConfig(
        is_tsumo=ctx.self_draw,
        player_wind=WINDS[ctx.seat_wind],
        round_wind=WINDS[ctx.round_wind],
        tsumi_number=ctx.honba if with_bonus else 0,
        kyoutaku_number=ctx.riichi_sticks if with_bonus else 0,
        options=make_options(red_fives),
        **flags,
    )


Division = list[list[int]]
"""One of ``HandDivider.divide_hand``'s divisions of the tiles into groups (pair, sets and the
melds, each a list of 34-format kinds), or seven pairs."""


@dataclass(slots=True)
class LibraryCall:
    """The arguments of one ``HandCalculator.estimate_hand_value`` call."""

    tiles: list[int]
    win_tile: int
    melds: list[LibraryMeld]
    dora_indicators: list[int]
    ura_dora_indicators: list[int]
    config: HandConfig

    def run(self) -> HandResponse:
        return self._call(HandCalculator.estimate_hand_value)

    def run_alone(self, division: Division) -> HandResponse | None:
        """The library's score of one ``division`` of the tiles alone (one of
        ``HandDivider.divide_hand``'s); None where the library did not divide through
        ``HandDivider`` (a later version), so the score is not that division's."""
        only = _OneDivision(division)
        response = self._call(_estimate(only))
        return response if only.asked else None

    def _call(self, estimate: Callable[..., HandResponse]) -> HandResponse:
        return estimate(
            self.tiles,
            self.win_tile,
            melds=self.melds,
            dora_indicators=self.dora_indicators,
            config=self.config,
            ura_dora_indicators=self.ura_dora_indicators,
        )


class _OneDivision:
    """``HandDivider`` for one run of the library: it makes only the one division given."""

    __slots__ = ("asked", "division")

    def __init__(self, division: Division) -> None:
        self.division = division
        self.asked = False

    def divide_hand(self, tiles_34: list[int], melds: list[LibraryMeld]) -> list[Division]:
        self.asked = True
        return [self.division]


def _estimate(divider: _OneDivision) -> Callable[..., HandResponse]:
    """``estimate_hand_value`` as the library wrote it, dividing the tiles with ``divider``.

    The library divides the tiles every way, scores each division and keeps the most expensive,
    but says neither what it divided nor which it kept (riichi_reading finds that again, and
    where divisions tie on what the answer shows, scores each alone). So the run is a function
    of its own, made of the library's code and the library module's globals but for
    ``HandDivider``: the module itself and every other caller of the library are left as they
    are, and two runs at once (the app's threads) share nothing.
    """
    library = HandCalculator.estimate_hand_value
    own_globals = _LIBRARY_GLOBALS | {"HandDivider": divider}
    return FunctionType(library.__code__, own_globals, library.__name__, library.__defaults__)


_LIBRARY_GLOBALS = vars(library_hand)


def _id_table() -> dict[Tile, tuple[int, tuple[int, int, int, int]]]:
    """For each mahjong tile: its counter slot, and the 136-format id each next copy takes.

    A red five is always copy 0 of its five (what the library counts as 赤) and counts in a slot of
    its own (34-36); plain fives take copies 1, 2, 3 first, so a red five and three plain ones never
    share an id. Other kinds take copies 0-3 in order.
    """
    table: dict[Tile, tuple[int, tuple[int, int, int, int]]] = {}
    for tile in MAHJONG_TILES:
        kind = index34(tile)
        base = kind * 4
        order = (1, 2, 3, 0) if kind in _FIVES else (0, 1, 2, 3)
        table[tile] = (kind, (base + order[0], base + order[1], base + order[2], base + order[3]))
    for slot, red in enumerate(RED_FIVES, start=34):
        base = index34(red) * 4
        table[red] = (slot, (base, base, base, base))
    return table


_IDS = _id_table()
_KIND_IDS = {tile: index34(tile) * 4 for tile in _IDS}
_IDS_BY_ID = {id(tile): entry for tile, entry in _IDS.items()}
"""``_IDS`` by identity for the parser's shared tile instances: no hashing (a Tile's hash is Python)."""


def tile_id(tile: Tile, used: list[int]) -> int:
    """The next free 136-format id of a tile; ``used`` (37 counters) counts the copies handed out.

    >>> from scoring.tiles import tile_from_code
    >>> used = [0] * 37
    >>> [tile_id(tile_from_code(c), used) for c in ("5m", "0m", "5m", "1m", "1m")]
    [17, 16, 18, 0, 1]
    """
    slot, ids = _IDS[tile]
    copy = used[slot]
    used[slot] = copy + 1
    return ids[copy]


def indicator_id(tile: Tile) -> int:
    """Indicators only name a kind for the library (it divides by 4); a red one is copy 0."""
    return _KIND_IDS[tile]


def library_call(hand: Hand, red_fives: bool) -> LibraryCall:
    """The library call that scores ``hand`` (a checked, winning-tile-bearing hand).

    The per-tile work is one look-up by identity (``_IDS_BY_ID``): this runs once per hand scored,
    and the benchmark holds the adapter to at least 80% of the bare library's rate.
    """
    used = [0] * 37
    by_id = _IDS_BY_ID
    tiles: list[int] = []
    append = tiles.append
    win = hand.win_tile
    win_id = -1
    concealed = hand.concealed
    for tile in concealed:
        slot, copies = by_id.get(id(tile)) or _IDS[tile]
        copy = used[slot]
        used[slot] = copy + 1
        append(copies[copy])
        if tile is win and win_id < 0:
            win_id = copies[copy]
    if win_id < 0:  # a winning tile that is not the parser's shared instance
        win_id = next(i for t, i in zip(concealed, tiles, strict=True) if t == win)
    melds: list[LibraryMeld] = []
    for meld in hand.melds:
        meld_ids = []
        for tile in meld.tiles:
            slot, copies = by_id.get(id(tile)) or _IDS[tile]
            copy = used[slot]
            used[slot] = copy + 1
            meld_ids.append(copies[copy])
        meld_ids.sort()
        kind, opened = _MELD_TYPES[meld.type]
        melds.append(LibraryMeld(meld_type=kind, tiles=meld_ids, opened=opened))
        tiles += meld_ids
    ctx = hand.context
    return LibraryCall(
        tiles=tiles,
        win_tile=win_id,
        melds=melds,
        dora_indicators=list(map(indicator_id, ctx.dora_indicators)),
        ura_dora_indicators=list(map(indicator_id, ctx.ura_dora_indicators)),
        config=make_config(hand, red_fives),
    )


def nagashi_call(hand: Hand) -> LibraryCall:
    """流局滿貫: the library pays it as a self-drawn 滿貫 and looks at no tiles."""
    config = make_config(hand, False, with_bonus=False)
    config.is_tsumo = True
    return LibraryCall([], 0, [], [], [], config)
