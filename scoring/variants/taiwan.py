"""Taiwan 16-tile mahjong (台灣十六張), scored in 台.

Implements ``shared/rules/000`` (the base 台 table) and ``001`` (the items 000 lacks: 花, 不求人, 花槓,
七搶一, 八仙過海, 人胡, 搶槓, 連莊 2N+1, payments). Where the texts disagree or are silent, the readings
below are the defaults, each a rule option (see ``OPTIONS``; docs/variants/taiwan.md explains them):

1. 不求人: a concealed self-draw scores 門清 1 + 自摸 1 + 不求人 1 = 3 (001's "3台" is the total).
2. 三/四/五暗刻 need 門清 (000); a concealed kong counts as a concealed triplet and keeps 門清; on a
   discard win the triplet the discard completed is not concealed unless the tile reads into a
   sequence or the pair (every reading is tried).
3. 獨聽 is 1 台 only when the hand waits on exactly one tile; 邊張 崁張 單吊 name its shape, never add;
   not with 地聽, 全求人/半求人, 天胡/地胡/人胡.
4. 正花: the flower whose number is the seat (東1 南2 西3 北4), one in each set of four; 花槓 2 per
   complete set of four, which then scores no 正花; 見花見台 (an option) counts every flower, a
   花槓 set's too.
5. 大四喜 scores no wind triplets; 小四喜 keeps them; 大/小三元 score no 三元刻.
6. 天胡/地胡/人胡 add no 門清/自摸/不求人/獨聽; dealer 台 and flowers still count.
7. The dealer's 2N+1 counts once: in the dealer's own hand when the dealer wins, or paid on top by
   the dealer when the dealer pays a non-dealer; never both.
8. 海底撈月 is a self-draw of the last tile; 河底撈魚, 見花見台, 見風見台, 無字無花 are options, off.
9. A hand worth 0 台 counts 1 (保底).

Smaller readings where the texts are silent (docs/variants/taiwan.md gives the reasons): the dealer
sits East; 八仙過海 scores whenever all eight flowers are held (the event also makes the win a
self-draw, 視同自摸); a flower win (七搶一, 八仙過海) whose tiles do not form a hand scores only the
items that need no hand: the flower item, 自摸, 門清, 不求人, 莊家/連莊, 明槓/暗槓.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from scoring.drawn_hands import DEAL_PASSES, DEALER_WINS, WALL, draw_result, read_wind_draw
from scoring.errors import HandError
from scoring.event_checks import (
    NEVER_TOGETHER,
    READY_BEFORE_FIRST_DRAW,
    check_human_win_discarder,
    check_kong_for,
    check_never_together,
    check_robbed_tile,
)
from scoring.hand import SEATS, Event, Hand, MeldType, WinContext, build
from scoring.reading import Reading, WaitShape, hand_waits, standard_readings
from scoring.result import Payment, ScoreItem, ScoreResult
from scoring.rules import Hit, RuleItem, RuleOption, resolve_hits, superseded
from scoring.shapes import tile_index
from scoring.tiles import (
    ALL_TILES,
    MAHJONG_TILES,
    NUMBERED_SUITS,
    SUIT_NAMES,
    Suit,
    Tile,
    tile_from_code,
    wind_tile,
)
from scoring.variant import Variant

SETS = 5
HAND_SIZE = 17
DEALER_SEAT = "E"
WHITE, GREEN, RED = tile_from_code("5z"), tile_from_code("6z"), tile_from_code("7z")
SEASONS = tuple(Tile(Suit.FLOWER, n) for n in range(1, 5))
PLANTS = tuple(Tile(Suit.FLOWER, n) for n in range(5, 9))
WIND_TILES = {seat: tile_from_code(wind_tile(seat).code) for seat in SEATS}
_NAMES = {id(t): t.name for t in ALL_TILES}


def _name(tile: Tile) -> str:
    """``tile.name``, looked up for the shared tile instances."""
    return _NAMES.get(id(tile)) or tile.name


_WIND_INDICES = frozenset(range(27, 31))
_DRAGON_INDICES = frozenset(range(31, 34))
_WAIT_NAMES = {WaitShape.EDGE: "邊張", WaitShape.CLOSED: "崁張", WaitShape.SINGLE: "單吊"}

OPTIONS = (
    RuleOption("base", 100, "底: what every payer pays before 台 (in points)"),
    RuleOption("tai_value", 20, "台值: points per 台"),
    RuleOption(
        "bu_qiu_ren", 1, "不求人 台 on a concealed self-draw, on top of 門清 1 + 自摸 1 (0: none)"
    ),
    RuleOption(
        "concealed_triplets_need_menqing",
        True,
        "三/四/五暗刻 only in a concealed hand (000's rule)",
    ),
    RuleOption("concealed_kong_counts_as_concealed_triplet", True, "暗槓 counts toward 暗刻"),
    RuleOption(
        "single_wait",
        "one_tile",
        "獨聽: 'one_tile' = only when the hand waits on exactly one tile; 'shape' = any 邊張 崁張"
        " 單吊 reading scores it",
        ("one_tile", "shape"),
    ),
    RuleOption(
        "flower_kong", True, "花槓: a complete set of four flowers scores 2 台 instead of 正花"
    ),
    RuleOption("big_four_winds_scores_wind_triplets", False, "大四喜 also scores 圈風/門風刻"),
    RuleOption(
        "special_wins_score_menqing", False, "天胡/地胡/人胡 also score 門清/自摸/不求人/獨聽"
    ),
    RuleOption("dealer_pays_streak", True, "a dealer who pays a non-dealer adds 2N+1 台"),
    RuleOption("last_discard", False, "河底撈魚 1 台: winning on the last discard"),
    RuleOption("any_flower", False, "見花見台: 1 台 for every flower, instead of 正花"),
    RuleOption("any_wind", False, "見風見台: 1 台 for every wind triplet, instead of 圈風/門風刻"),
    RuleOption("no_honors_no_flowers", False, "無字無花 2 台: no honour tiles and no flowers"),
    RuleOption("minimum_tai", 1, "保底: a hand worth less counts this many 台"),
    RuleOption(
        "draw_keeps_deal",
        True,
        "流局連莊: a drawn hand keeps the deal and adds one to the streak (false: it passes)",
    ),
)

EVENTS = frozenset(
    {
        Event.LAST_TILE,
        Event.LAST_DISCARD,
        Event.AFTER_KONG,
        Event.AFTER_FLOWER,
        Event.ROBBING_KONG,
        Event.HEAVENLY_WIN,
        Event.EARTHLY_WIN,
        Event.HUMAN_WIN,
        Event.HEAVENLY_READY,
        Event.EARTHLY_READY,
        Event.EIGHT_FLOWERS,
        Event.SEVEN_FLOWERS_ROB,
    }
)
_FLOWER_WINS = frozenset({Event.EIGHT_FLOWERS, Event.SEVEN_FLOWERS_ROB})
_EIGHT_FLOWERS = Event.EIGHT_FLOWERS
_CONCEALED_KONG = MeldType.CONCEALED_KONG
_OPEN_KONGS = frozenset({MeldType.KONG, MeldType.ADDED_KONG})
_SPECIAL_WINS = (Event.HEAVENLY_WIN, Event.EARTHLY_WIN, Event.HUMAN_WIN)


# Facts a hand may have. An item names those it cannot apply without, so the scorer skips it on
# hands without them (most hands have no event, no kong, few flowers and no honour triplet); the
# check still holds the item's whole condition, and skipping never changes a result. Each is one
# bit, so a hand's facts are one int and an item's needs a mask.
HAND = 1  # the tiles form five sets and a pair (a bare flower win's may not)
ANY_EVENT = 2  # any event at all
FLOWERS = 4
MELDS = 8
HONOURS = 16
SELF_DRAW = 1 << 5  # self-drawn, or 八仙過海 (視同自摸)
CONCEALED = 1 << 6  # no chi, pon or open kong (門清)
DEALER = 1 << 7  # the winner deals
KONGS = 1 << 8  # a kong among the melds
FOUR_FLOWERS = 1 << 9  # four or more flowers
WIND_TRIPLETS = 1 << 10  # three or more of some wind (melds included): a wind triplet may be read
DRAGON_TRIPLETS = 1 << 11  # the same for a dragon
CONCEALED_TRIPLETS = 1 << 12  # three or more kinds could be concealed triplets (暗槓 included)
MANY_TRIPLETS = 1 << 13  # five kinds held three or more times: every set could be a triplet
FIVE_OPEN = 1 << 14  # five open melds (全求人, 半求人)
ONE_SUIT = 1 << 15  # the tiles form a hand and use exactly one numbered suit (清一色, 混一色)
NO_SUIT = 1 << 16  # the tiles form a hand and use no numbered suit (字一色)
# Rule options that turn an item on, as facts too: an item an option leaves off is then skipped.
ANY_FLOWER_ON = 1 << 17
ANY_WIND_ON = 1 << 18
NO_HONORS_NO_FLOWERS_ON = 1 << 19
PLAIN_DISCARD = 1 << 20  # no honours, no flowers, won on a discard (平胡 needs all three)
SINGLE_WAIT = 1 << 21  # 獨聽 may apply: the hand waited on one tile, or the option scores shapes
CONCEALED_TRIPLETS_COUNT = 1 << 22  # 三/四/五暗刻 may count: 門清, or the option does not ask it


@dataclass(slots=True)
class TaiwanView:
    """What Taiwan items ask of a hand, worked out once per hand and not changed after.

    Hand items look at the view alone; reading items get each reading of the hand in turn beside
    it (``reading`` is the first, for a caller that checks items one view at a time).
    """

    hand: Hand
    ctx: WinContext
    rules: Mapping[str, Any]
    reading: Reading | None
    facts: int
    """Which of the facts above (HAND ... NO_HONORS_NO_FLOWERS_ON) the hand has (their bits)."""
    self_draw: bool
    """Self-drawn, or 八仙過海 declared (視同自摸)."""
    concealed: bool
    open_melds: int
    concealed_kongs: int
    open_kongs: int
    suits: tuple[Suit, ...]
    """The numbered suits the hand's tiles use, melds included."""
    has_honors: bool
    flower_sets: tuple[tuple[Tile, ...], ...]
    """Complete sets of four flowers held (四季 春夏秋冬, 四君子 梅蘭菊竹)."""

    @classmethod
    def of(cls, hand: Hand, readings: list[Reading]) -> TaiwanView:
        melds = hand.melds
        ctx = hand.context
        if melds:
            concealed_kongs = sum(1 for m in melds if m.type is _CONCEALED_KONG)
            open_melds = len(melds) - concealed_kongs
            open_kongs = sum(1 for m in melds if m.type in _OPEN_KONGS)
        else:
            concealed_kongs = open_melds = open_kongs = 0
        self_draw = ctx.self_draw  # 八仙過海 included (Taiwan.score)
        facts = (
            (ANY_EVENT if ctx.events else 0)
            | (FLOWERS if hand.flowers else 0)
            | (FOUR_FLOWERS if len(hand.flowers) >= 4 else 0)
            | (MELDS if melds else 0)
            | (KONGS if open_kongs or concealed_kongs else 0)
            | (SELF_DRAW if self_draw else 0)
            | (CONCEALED if not open_melds else 0)
            | (DEALER if ctx.is_dealer else 0)
            | (FIVE_OPEN if open_melds == SETS else 0)
        )
        rules = hand.rules
        if rules["single_wait"] != "one_tile":
            facts |= SINGLE_WAIT
        if not open_melds or not rules["concealed_triplets_need_menqing"]:
            facts |= CONCEALED_TRIPLETS_COUNT
        if rules["any_flower"]:
            facts |= ANY_FLOWER_ON
        if rules["any_wind"]:
            facts |= ANY_WIND_ON
        if rules["no_honors_no_flowers"]:
            facts |= NO_HONORS_NO_FLOWERS_ON
        suits: tuple[Suit, ...] = ()
        has_honors = False
        if readings:
            # Suits and honours of the tiles a reading covers (melds included), and which
            # triplets any reading could hold.
            shared = readings[0].shared
            man, pin, sou, has_honors = shared.suits_used
            suits = _SUITS_USED[man, pin, sou]
            kinds = shared.triplet_kinds
            facts |= (
                HAND
                | (HONOURS if has_honors else 0)
                | (WIND_TRIPLETS if kinds & _WIND_KINDS else 0)
                | (DRAGON_TRIPLETS if kinds & _DRAGON_KINDS else 0)
                | (CONCEALED_TRIPLETS if shared.concealed_triplet_kinds >= 3 else 0)
                | (PLAIN_DISCARD if not (has_honors or hand.flowers or self_draw) else 0)
                | (SINGLE_WAIT if len(shared.waits) == 1 else 0)
                | (MANY_TRIPLETS if kinds.bit_count() >= SETS else 0)
                | (ONE_SUIT if len(suits) == 1 else NO_SUIT if not suits else 0)
            )
        return cls(
            hand,
            ctx,
            rules,
            readings[0] if readings else None,
            facts,
            self_draw,
            not open_melds,
            open_melds,
            concealed_kongs,
            open_kongs,
            suits,
            has_honors,
            _complete_flower_sets(hand.flowers),
        )


_SUITS_USED = {
    (man, pin, sou): tuple(
        suit for suit, used in zip(NUMBERED_SUITS, (man, pin, sou), strict=True) if used
    )
    for man in (False, True)
    for pin in (False, True)
    for sou in (False, True)
}
_WIND_KINDS = 0b1111 << 27
_DRAGON_KINDS = 0b111 << 31


def _complete_flower_sets(flowers: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], ...]:
    if len(flowers) < 4:
        return ()
    held = set(flowers)
    return tuple(group for group in (SEASONS, PLANTS) if held.issuperset(group))


HandTest = Callable[[TaiwanView], Hit | None]
ReadingTest = Callable[[TaiwanView, Reading], Hit | None]


class HandCheck:
    """An item's check on the hand as a whole, with the facts it cannot apply without."""

    def __init__(self, test: HandTest, *requires: int) -> None:
        self.test = test
        self.requires = sum(set(requires))

    def __call__(self, v: TaiwanView) -> Hit | None:
        return self.test(v) if self.requires & ~v.facts == 0 else None


class ReadingCheck:
    """An item's check on one reading (its groups, its wait): run once per reading."""

    def __init__(self, test: ReadingTest, *requires: int) -> None:
        self.test = test
        self.requires = sum({HAND, *requires})

    def __call__(self, v: TaiwanView) -> Hit | None:
        if v.reading is None or self.requires & ~v.facts:
            return None
        return self.test(v, v.reading)


# --- 役滿級 and special wins -------------------------------------------------------------------


def _heavenly(v: TaiwanView) -> Hit | None:
    if Event.HEAVENLY_WIN in v.ctx.events:
        return Hit(1, "dealer's first 17 tiles complete, self-drawn")
    return None


def _earthly(v: TaiwanView) -> Hit | None:
    if Event.EARTHLY_WIN in v.ctx.events:
        return Hit(1, "non-dealer self-drew on the first draw, nobody called before")
    return None


def _human(v: TaiwanView) -> Hit | None:
    if Event.HUMAN_WIN in v.ctx.events:
        return Hit(1, "non-dealer won a discard in the first go-round before drawing")
    return None


def _big_four_winds(v: TaiwanView, r: Reading) -> Hit | None:
    if v.has_honors and r.wind_triplets == 4:
        return Hit(1, "triplets of all four winds")
    return None


def _small_four_winds(v: TaiwanView, r: Reading) -> Hit | None:
    if v.has_honors and r.wind_triplets == 3 and r.pair_index in _WIND_INDICES:
        return Hit(1, "three wind triplets and a wind pair")
    return None


def _big_three_dragons(v: TaiwanView, r: Reading) -> Hit | None:
    if v.has_honors and r.dragon_triplets == 3:
        return Hit(1, "triplets of 中 發 白")
    return None


def _small_three_dragons(v: TaiwanView, r: Reading) -> Hit | None:
    if v.has_honors and r.dragon_triplets == 2 and r.pair_index in _DRAGON_INDICES:
        return Hit(1, "two dragon triplets and a dragon pair")
    return None


def _all_honors(v: TaiwanView) -> Hit | None:
    return Hit(1, "only honour tiles") if not v.suits else None


def _full_flush(v: TaiwanView) -> Hit | None:
    if len(v.suits) == 1 and not v.has_honors:
        return Hit(1, f"one suit only ({SUIT_NAMES[v.suits[0]]}), no honours")
    return None


def _half_flush(v: TaiwanView) -> Hit | None:
    if len(v.suits) == 1 and v.has_honors:
        return Hit(1, f"one suit ({SUIT_NAMES[v.suits[0]]}) and honours")
    return None


def _all_triplets(v: TaiwanView, r: Reading) -> Hit | None:
    return Hit(1, "five triplets or kongs, no sequence") if r.all_triplets else None


def _heavenly_ready(v: TaiwanView) -> Hit | None:
    if Event.HEAVENLY_READY in v.ctx.events:
        return Hit(1, "dealer was ready on the first discard")
    return None


def _earthly_ready(v: TaiwanView) -> Hit | None:
    if Event.EARTHLY_READY in v.ctx.events:
        return Hit(1, "ready within the first 8 discards, no calls")
    return None


# --- 暗刻 ---------------------------------------------------------------------------------------


def _concealed_triplets(v: TaiwanView, r: Reading) -> int:
    """Triplets and kongs never claimed (reading 2); 0 in an open hand under 000's rule."""
    if v.rules["concealed_triplets_need_menqing"] and not v.concealed:
        return 0
    count = r.concealed_triplets
    if not v.rules["concealed_kong_counts_as_concealed_triplet"]:
        count -= v.concealed_kongs
    return count


def _n_concealed(n: int) -> ReadingTest:
    def check(v: TaiwanView, r: Reading) -> Hit | None:
        if _concealed_triplets(v, r) != n:
            return None
        return Hit(1, f"{n} triplets never claimed, hand concealed")

    return check


# --- 小牌型 -------------------------------------------------------------------------------------


def _pinghu(v: TaiwanView, r: Reading) -> Hit | None:
    if not (r.all_sequences and not v.has_honors and not v.hand.flowers and not v.self_draw):
        return None
    # 非獨聽, as the table scores 獨聽: 000's 聽多張 (and its table's 非單吊), or with
    # single_wait="shape" 001's 不是偏崁獨. Either way a reading that scores 獨聽 is no 平胡.
    if v.rules["single_wait"] == "shape":
        if r.wait is not WaitShape.TWO_SIDED:
            return None
    elif len(r.waits) < 2 or r.wait is WaitShape.SINGLE:
        return None
    return Hit(1, f"all sequences, no honours, no flowers, {_wait_said(r)}, won on a discard")


def _wait_said(r: Reading) -> str:
    if r.wait is WaitShape.TWO_SIDED:
        return "two-sided wait"
    return f"waited on {len(r.waits)} tiles"


def _all_claimed(v: TaiwanView) -> Hit | None:
    if v.open_melds == SETS and not v.self_draw:
        return Hit(1, "five open melds, won the pair tile on a discard")
    return None


def _half_claimed(v: TaiwanView) -> Hit | None:
    if v.open_melds == SETS and v.self_draw:
        return Hit(1, "five open melds, self-drew the pair tile")
    return None


# --- 事件台 -------------------------------------------------------------------------------------


def _self_draw(v: TaiwanView) -> Hit | None:
    if v.self_draw:
        eight = Event.EIGHT_FLOWERS in v.ctx.events
        why = "八仙過海 counts as a self-draw" if eight else "drew the winning tile"
        return Hit(1, why)
    return None


def _menqing(v: TaiwanView) -> Hit | None:
    return Hit(1, "no chi, pon or open kong") if v.concealed else None


def _bu_qiu_ren(v: TaiwanView) -> Hit | None:
    if v.concealed and v.self_draw and v.rules["bu_qiu_ren"]:
        return Hit(v.rules["bu_qiu_ren"], "concealed hand and self-draw (門清一摸三)")
    return None


def _last_tile(v: TaiwanView) -> Hit | None:
    if Event.LAST_TILE in v.ctx.events and v.ctx.self_draw:
        return Hit(1, "self-drew the last tile of the wall")
    return None


def _last_discard(v: TaiwanView) -> Hit | None:
    events = v.ctx.events
    last = Event.LAST_DISCARD in events or Event.LAST_TILE in events
    if v.rules["last_discard"] and last and not v.ctx.self_draw:
        return Hit(1, "won the last discard")
    return None


def _after_kong(v: TaiwanView) -> Hit | None:
    if not v.ctx.self_draw:
        return None
    if Event.AFTER_KONG in v.ctx.events:
        return Hit(1, "self-drew the replacement tile after a kong")
    if Event.AFTER_FLOWER in v.ctx.events:
        return Hit(1, "self-drew the replacement tile after a flower", "槓上開花(補花)")
    return None


def _robbing_kong(v: TaiwanView) -> Hit | None:
    if Event.ROBBING_KONG in v.ctx.events:
        return Hit(1, "won the tile another player added to a kong")
    return None


def _single_wait(v: TaiwanView, r: Reading) -> Hit | None:
    if v.rules["single_wait"] == "one_tile":
        if len(r.waits) != 1:
            return None
        only = next(iter(r.waits))
        return Hit(1, f"waited on {only.code} ({_name(only)}) alone", _WAIT_NAMES.get(r.wait))
    if r.wait in _WAIT_NAMES:
        return Hit(1, f"won in a {_WAIT_NAMES[r.wait]} wait", _WAIT_NAMES[r.wait])
    return None


# --- 刻子台, 槓台 --------------------------------------------------------------------------------


def _has_triplet_of(v: TaiwanView, r: Reading, tile: Tile) -> bool:
    # Most hands hold no honour at all: answer those without looking at the groups.
    return v.has_honors and r.has_triplet(tile_index(tile))


def _wind_triplet(round_or_seat: str) -> ReadingTest:
    def check(v: TaiwanView, r: Reading) -> Hit | None:
        wind = v.ctx.round_wind if round_or_seat == "round" else v.ctx.seat_wind
        tile = WIND_TILES[wind]
        if _has_triplet_of(v, r, tile):
            return Hit(1, f"triplet of {_name(tile)}, the {round_or_seat} wind")
        return None

    return check


def _dragon_triplet(tile: Tile) -> ReadingTest:
    def check(v: TaiwanView, r: Reading) -> Hit | None:
        return Hit(1, f"triplet of {_name(tile)}") if _has_triplet_of(v, r, tile) else None

    return check


def _open_kongs(v: TaiwanView) -> Hit | None:
    n = v.open_kongs
    return Hit(n, f"{n} open kong(s), added kongs included") if n else None


def _concealed_kongs(v: TaiwanView) -> Hit | None:
    n = v.concealed_kongs
    return Hit(n, f"{n} concealed kong(s)") if n else None


# --- 莊家/連莊 -----------------------------------------------------------------------------------


def _dealer(v: TaiwanView) -> Hit | None:
    if v.ctx.is_dealer and v.ctx.dealer_streak == 0:
        return Hit(1, "the dealer won")
    return None


def _dealer_streak(v: TaiwanView) -> Hit | None:
    n = v.ctx.dealer_streak
    if v.ctx.is_dealer and n > 0:
        return Hit(2 * n + 1, f"dealer has won {n} in a row: 2×{n}+1", f"連{n}拉{n}")
    return None


# --- 花 ----------------------------------------------------------------------------------------


def _loose_flowers(v: TaiwanView) -> list[Tile]:
    """Flowers outside a set of four that 花槓 scored (all of them when 花槓 is off): those that
    can be 正花."""
    if not v.rules["flower_kong"]:
        return list(v.hand.flowers)
    in_sets = {t for s in v.flower_sets for t in s}
    return [f for f in v.hand.flowers if f not in in_sets]


def _flower_kong(v: TaiwanView) -> Hit | None:
    sets = v.flower_sets if v.rules["flower_kong"] else ()
    if sets:
        names = " and ".join("".join(t.name for t in s) for s in sets)
        return Hit(len(sets), f"complete set(s) {names}")
    return None


def _seat_flower(v: TaiwanView) -> Hit | None:
    if not v.hand.flowers:
        return None
    seat = SEATS.index(v.ctx.seat_wind) + 1
    own = [f for f in _loose_flowers(v) if f.number in (seat, seat + 4)]
    if own:
        names = " ".join(_name(f) for f in own)
        return Hit(len(own), f"{names}: seat {v.ctx.seat_wind}'s flower")
    return None


def _seven_flowers(v: TaiwanView) -> Hit | None:
    if Event.SEVEN_FLOWERS_ROB in v.ctx.events:
        return Hit(1, "held seven flowers and robbed the eighth")
    return None


def _eight_flowers(v: TaiwanView) -> Hit | None:
    if len(v.hand.flowers) == 8 and Event.SEVEN_FLOWERS_ROB not in v.ctx.events:
        return Hit(1, "all eight flowers")
    return None


def _any_flower(v: TaiwanView) -> Hit | None:
    # Every flower, those of a 花槓 set too: 001's 見花見台 is "一張花牌就計一台", and its 花槓
    # "不計正花" takes away 正花 alone, so 花槓 adds beside it (four flowers of a set score 2 + 4).
    # Counting only the flowers outside a set made a fourth flower that completes one lower the
    # total (1235f: 4, 1234f: 2).
    if not v.rules["any_flower"] or not v.hand.flowers:
        return None
    n = len(v.hand.flowers)
    return Hit(n, f"{n} flower(s)")


def _any_wind(v: TaiwanView, r: Reading) -> Hit | None:
    if not v.rules["any_wind"] or not v.has_honors:
        return None
    n = r.wind_triplets
    return Hit(n, f"{n} wind triplet(s)") if n else None


def _no_honors_no_flowers(v: TaiwanView) -> Hit | None:
    if v.rules["no_honors_no_flowers"] and not v.has_honors and not v.hand.flowers:
        return Hit(1, "no honour tiles and no flowers")
    return None


_SPECIAL_WIN_DROPS = ("menqing", "self_draw", "bu_qiu_ren", "single_wait")
# The table in the rule texts' order: 000's, then the items only 001 has. Value is per time the
# item applies. After each check: the facts it cannot apply without (see HAND ... HONOURS above).
TABLE: tuple[RuleItem[TaiwanView], ...] = (
    # 役滿級 (000)
    RuleItem(
        "heavenly_win",
        "天胡",
        24,
        "莊家配牌完直接胡牌（門清自摸；001：不可暗槓）",
        HandCheck(_heavenly, HAND, ANY_EVENT),
        _SPECIAL_WIN_DROPS,
    ),
    RuleItem(
        "earthly_win",
        "地胡",
        16,
        "閒家第一輪摸牌直接胡牌（無人出牌前，門清自摸）",
        HandCheck(_earthly, HAND, ANY_EVENT),
        _SPECIAL_WIN_DROPS,
    ),
    RuleItem(
        "big_four_winds",
        "大四喜",
        16,
        "東南西北四組刻子（001：不計風刻台）",
        ReadingCheck(_big_four_winds, HONOURS, WIND_TRIPLETS),
        ("small_four_winds", "round_wind", "seat_wind", "any_wind"),
    ),
    RuleItem(
        "all_honors",
        "字一色",
        16,
        "全部是字牌（東南西北中發白）",
        HandCheck(_all_honors, HAND, HONOURS, NO_SUIT),
    ),
    # 大牌型 8台
    RuleItem(
        "full_flush",
        "清一色",
        8,
        "只有一種數牌（萬/筒/條），無字牌",
        HandCheck(_full_flush, HAND, ONE_SUIT),
        ("half_flush",),
    ),
    RuleItem(
        "big_three_dragons",
        "大三元",
        8,
        "中、發、白三組刻子（001：不計三元刻）",
        ReadingCheck(_big_three_dragons, HONOURS, DRAGON_TRIPLETS),
        ("small_three_dragons", "red_dragon", "green_dragon", "white_dragon"),
    ),
    RuleItem(
        "small_four_winds",
        "小四喜",
        8,
        "東南西北其中三組刻子 + 一組做將",
        ReadingCheck(_small_four_winds, HONOURS, WIND_TRIPLETS),
    ),
    RuleItem(
        "heavenly_ready",
        "天聽",
        8,
        "莊家配牌17張就聽牌，打出第一張牌即聽（001：不計門清，其餘另計）",
        HandCheck(_heavenly_ready, HAND, ANY_EVENT),
        ("menqing", "earthly_ready"),
    ),
    RuleItem(
        "five_concealed",
        "五暗刻",
        8,
        "門清，五組刻子都是自己摸的",
        ReadingCheck(_n_concealed(5), CONCEALED_TRIPLETS, CONCEALED_TRIPLETS_COUNT),
    ),
    # 中牌型 4~5台
    RuleItem(
        "half_flush",
        "混一色",
        4,
        "只有一種數牌 + 字牌",
        HandCheck(_half_flush, HAND, HONOURS, ONE_SUIT),
    ),
    RuleItem(
        "all_triplets",
        "碰碰胡",
        4,
        "全部是刻子，無順子",
        ReadingCheck(_all_triplets, MANY_TRIPLETS),
    ),
    RuleItem(
        "small_three_dragons",
        "小三元",
        4,
        "中發白其中兩組刻子 + 一組做將（001：不計三元刻）",
        ReadingCheck(_small_three_dragons, HONOURS, DRAGON_TRIPLETS),
        ("red_dragon", "green_dragon", "white_dragon"),
    ),
    RuleItem(
        "four_concealed",
        "四暗刻",
        5,
        "門清，四組刻子都是自己摸的",
        ReadingCheck(_n_concealed(4), CONCEALED_TRIPLETS, CONCEALED_TRIPLETS_COUNT),
    ),
    RuleItem(
        "earthly_ready",
        "地聽",
        4,
        "起牌後8張牌內聽牌，四家無吃碰槓（地聽不與獨聽重複計台）",
        HandCheck(_earthly_ready, HAND, ANY_EVENT),
        ("single_wait",),
    ),
    # 小牌型 2台
    RuleItem(
        "pinghu",
        "平胡",
        2,
        "全順子 + 無字牌 + 非自摸 + 非獨聽（聽多張，兩面）+ 無花",
        ReadingCheck(_pinghu, PLAIN_DISCARD),
    ),
    RuleItem(
        "all_claimed",
        "全求人",
        2,
        "5組副露（暗槓不算，001），手牌只剩將牌，榮胡（不計單吊）",
        HandCheck(_all_claimed, HAND, MELDS, FIVE_OPEN),
        ("single_wait",),
    ),
    RuleItem(
        "three_concealed",
        "三暗刻",
        2,
        "門清，三組刻子都是自己摸的",
        ReadingCheck(_n_concealed(3), CONCEALED_TRIPLETS, CONCEALED_TRIPLETS_COUNT),
    ),
    # 事件台 1台
    RuleItem(
        "self_draw", "自摸", 1, "自己摸牌胡（八仙過海視同自摸）", HandCheck(_self_draw, SELF_DRAW)
    ),
    RuleItem("menqing", "門清", 1, "沒有吃、碰、明槓（可暗槓）", HandCheck(_menqing, CONCEALED)),
    RuleItem(
        "last_tile",
        "海底撈月",
        1,
        "牌堆最後一張牌自摸胡",
        HandCheck(_last_tile, HAND, ANY_EVENT),
    ),
    RuleItem(
        "after_kong",
        "槓上開花",
        1,
        "槓牌或補花後補牌自摸胡",
        HandCheck(_after_kong, HAND, ANY_EVENT),
    ),
    RuleItem(
        "single_wait",
        "獨聽",
        1,
        "只聽一張牌（邊張、崁張、單吊）",
        ReadingCheck(_single_wait, SINGLE_WAIT),
    ),
    RuleItem(
        "half_claimed",
        "半求人",
        1,
        "5組副露，手牌只剩將牌，自摸（不計單吊）",
        HandCheck(_half_claimed, HAND, MELDS, SELF_DRAW, FIVE_OPEN),
        ("single_wait",),
    ),
    # 刻子台
    RuleItem(
        "round_wind",
        "圈風刻",
        1,
        "圈風的刻子（例如東風圈有東刻）",
        ReadingCheck(_wind_triplet("round"), HONOURS, WIND_TRIPLETS),
    ),
    RuleItem(
        "seat_wind",
        "門風刻",
        1,
        "自己風位的刻子（圈風+門風同一刻 2 台）",
        ReadingCheck(_wind_triplet("seat"), HONOURS, WIND_TRIPLETS),
    ),
    RuleItem(
        "red_dragon",
        "中刻",
        1,
        "中的刻子（非三元系列時）",
        ReadingCheck(_dragon_triplet(RED), HONOURS, DRAGON_TRIPLETS),
    ),
    RuleItem(
        "green_dragon",
        "發刻",
        1,
        "發的刻子（非三元系列時）",
        ReadingCheck(_dragon_triplet(GREEN), HONOURS, DRAGON_TRIPLETS),
    ),
    RuleItem(
        "white_dragon",
        "白刻",
        1,
        "白的刻子（非三元系列時）",
        ReadingCheck(_dragon_triplet(WHITE), HONOURS, DRAGON_TRIPLETS),
    ),
    # 槓台
    RuleItem(
        "open_kong", "明槓", 1, "每個明槓（含加槓）1 台", HandCheck(_open_kongs, MELDS, KONGS)
    ),
    RuleItem(
        "concealed_kong",
        "暗槓",
        2,
        "每個暗槓 2 台（不與明槓重複）",
        HandCheck(_concealed_kongs, MELDS, KONGS),
    ),
    # 莊家/連莊
    RuleItem("dealer", "莊家", 1, "莊家胡牌", HandCheck(_dealer, DEALER)),
    RuleItem(
        "dealer_streak",
        "連N拉N",
        1,
        "莊家連莊N次 (2N+1)台（包含莊家台）",
        HandCheck(_dealer_streak, DEALER),
        ("dealer",),
    ),
    # Only in 001
    RuleItem(
        "bu_qiu_ren",
        "不求人",
        1,
        "門清的情況下自摸（門清一摸三）",
        HandCheck(_bu_qiu_ren, CONCEALED, SELF_DRAW),
    ),
    RuleItem(
        "seat_flower",
        "正花",
        1,
        "拿到與座位相同的花（東1 南2 西3 北4）",
        HandCheck(_seat_flower, FLOWERS),
    ),
    RuleItem(
        "robbing_kong",
        "搶槓",
        1,
        "別人加槓的牌正是自己能胡的牌",
        HandCheck(_robbing_kong, HAND, ANY_EVENT),
    ),
    RuleItem(
        "flower_kong",
        "花槓",
        2,
        "拿齊四季或四君子，每組 2 台，不計正花",
        HandCheck(_flower_kong, FLOWERS, FOUR_FLOWERS),
    ),
    RuleItem(
        "seven_flowers_rob",
        "七搶一",
        8,
        "持7張花牌搶別家1張花牌而胡，被搶者如放槍",
        HandCheck(_seven_flowers, ANY_EVENT, FLOWERS),
        ("flower_kong", "seat_flower", "any_flower"),
    ),
    RuleItem(
        "eight_flowers",
        "八仙過海",
        8,
        "取得全部8張花牌而胡，視同自摸",
        HandCheck(_eight_flowers, FLOWERS, FOUR_FLOWERS),
        ("flower_kong", "seat_flower", "any_flower"),
    ),
    RuleItem(
        "human_win",
        "人胡",
        16,
        "閒家第一巡未摸牌前，無吃碰槓，胡他人牌",
        HandCheck(_human, HAND, ANY_EVENT),
        _SPECIAL_WIN_DROPS,
    ),
    # Options, off by default (001's second table; 河底撈魚 is the discard twin of 海底撈月)
    RuleItem(
        "last_discard",
        "河底撈魚",
        1,
        "最後一張打出的牌胡（選項）",
        HandCheck(_last_discard, HAND, ANY_EVENT),
    ),
    RuleItem(
        "any_flower",
        "見花見台",
        1,
        "一張花牌就計一台，不必對位（選項）",
        HandCheck(_any_flower, FLOWERS, ANY_FLOWER_ON),
        ("seat_flower",),
    ),
    RuleItem(
        "any_wind",
        "見風見台",
        1,
        "一組風牌刻子就算一台，不必對位（選項）",
        ReadingCheck(_any_wind, HONOURS, WIND_TRIPLETS, ANY_WIND_ON),
        ("round_wind", "seat_wind"),
    ),
    RuleItem(
        "no_honors_no_flowers",
        "無字無花",
        2,
        "完全沒有花牌跟字牌（選項）",
        HandCheck(_no_honors_no_flowers, HAND, NO_HONORS_NO_FLOWERS_ON),
    ),
)


@cache
def hand_items(facts: int) -> tuple[tuple[RuleItem[TaiwanView], HandTest], ...]:
    """The hand items that can apply to a hand with these facts, each with its test."""
    return tuple(
        (item, item.check.test)
        for item in TABLE
        if isinstance(item.check, HandCheck) and item.check.requires & ~facts == 0
    )


@cache
def reading_items(facts: int) -> tuple[tuple[RuleItem[TaiwanView], ReadingTest], ...]:
    """The reading items that can apply to a hand with these facts, each with its test."""
    return tuple(
        (item, item.check.test)
        for item in TABLE
        if isinstance(item.check, ReadingCheck) and item.check.requires & ~facts == 0
    )


_SPECIAL_WIN_CODES = ("heavenly_win", "earthly_win", "human_win")
_NONE_WAIVED: frozenset[tuple[str, str]] = frozenset()


def _total(hits: list[tuple[RuleItem[TaiwanView], Hit]], waived: frozenset[tuple[str, str]]) -> int:
    """The total ``resolve_hits`` would give these hits, without building the items."""
    removed = superseded(hits, waived)
    return sum(
        item.value * hit.times for item, hit in hits if hit.times > 0 and item.code not in removed
    )


def _waived(rules: Mapping[str, Any]) -> frozenset[tuple[str, str]]:
    """The supersessions that rule options turn off."""
    if not (rules["special_wins_score_menqing"] or rules["big_four_winds_scores_wind_triplets"]):
        return _NONE_WAIVED
    waived: set[tuple[str, str]] = set()
    if rules["special_wins_score_menqing"]:
        waived |= {(w, d) for w in _SPECIAL_WIN_CODES for d in _SPECIAL_WIN_DROPS}
    if rules["big_four_winds_scores_wind_triplets"]:
        waived |= {("big_four_winds", "round_wind"), ("big_four_winds", "seat_wind")}
    return frozenset(waived)


_TAIWAN_PAIRS = (
    # A hand declares 聽 once: 天聽 with the dealer's first discard, 地聽 with a later one.
    (Event.HEAVENLY_READY, Event.EARTHLY_READY),
    # 七搶一 wins on a flower robbed from another player: a flower is never discarded (so it is
    # not the last discard, nor 人胡's discard) and is not a tile added to a kong. One win is one
    # of them.
    (Event.SEVEN_FLOWERS_ROB, Event.ROBBING_KONG),
    (Event.SEVEN_FLOWERS_ROB, Event.HUMAN_WIN),
    (Event.SEVEN_FLOWERS_ROB, Event.LAST_DISCARD),
)
_NEVER_TOGETHER = NEVER_TOGETHER + READY_BEFORE_FIRST_DRAW + _TAIWAN_PAIRS


def _check_last_tile_discarded(events: frozenset[Event]) -> None:
    """``last_tile`` on a discard win is the last discard (``_last_discard`` scores it as 河底撈魚),
    so it meets none of the events the last discard meets (人胡, 搶槓, ...)."""
    said = "last_tile (won on a discard: the last discard)"
    for pair in _NEVER_TOGETHER:
        if Event.LAST_DISCARD not in pair:
            continue
        (other,) = (e for e in pair if e is not Event.LAST_DISCARD)
        if other in events:
            first, second = (said if e is Event.LAST_DISCARD else e.value for e in pair)
            raise HandError(f"{first} and {second} cannot both happen")


class Taiwan(Variant):
    name = "taiwan"
    aliases = ("tw",)
    title = "台灣十六張麻將"
    unit = "台"
    rule_texts = ("000_5f047b8ec90f621f.txt", "001_6e4cc907945df12a.txt")
    hand_size = HAND_SIZE
    events = EVENTS
    options = OPTIONS
    uses_flowers = True
    draw_reasons = (WALL,)

    def score_draw(self, data: Any) -> dict[str, Any]:
        """流局 (荒莊): nobody pays (the texts pay only a win); the dealer deals again, one more
        in the streak (連N拉N), unless the table passes the deal (``draw_keeps_deal``)."""
        draw = read_wind_draw(data, self)
        deal = DEALER_WINS if draw.rules["draw_keeps_deal"] else DEAL_PASSES
        return draw_result(self.name, draw, [], deal, data)

    def _is_flower_win(self, hand: Hand) -> bool:
        return not hand.context.events.isdisjoint(_FLOWER_WINS)

    def expected_sizes(self, hand: Hand) -> tuple[int, ...]:
        # A flower win may come before the 17th tile is drawn.
        return (HAND_SIZE - 1, HAND_SIZE) if self._is_flower_win(hand) else (HAND_SIZE,)

    def needs_win_tile(self, hand: Hand) -> bool:
        return not self._is_flower_win(hand)

    def check_context(self, hand: Hand) -> None:
        """The generic checks, then the events that only fit some wins (one line each)."""
        super().check_context(hand)
        ctx = hand.context
        if ctx.players != 4:  # the payments are the three other seats' (or the discarder's)
            raise HandError(f"taiwan is played by 4 players, got players {ctx.players}")
        if ctx.dealer is not None and ctx.dealer != (ctx.seat_wind == DEALER_SEAT):
            raise HandError(
                f"dealer is {str(ctx.dealer).lower()} for seat {ctx.seat_wind}: in taiwan the"
                " dealer sits East"
            )
        events = ctx.events
        if not events:
            return  # every check below is about an event
        specials = [e for e in _SPECIAL_WINS if e in events]
        if len(specials) > 1:
            raise HandError(f"{specials[0].value} and {specials[1].value} cannot both happen")
        if specials and hand.melds:
            raise HandError(
                f"{specials[0].value} is won on the first tiles: no chi, pon or kong before it"
            )
        if Event.HEAVENLY_WIN in events and not (ctx.is_dealer and ctx.self_draw):
            raise HandError("heavenly_win (天胡) is the dealer's self-draw on the first draw")
        if Event.EARTHLY_WIN in events and (ctx.is_dealer or not ctx.self_draw):
            raise HandError("earthly_win (地胡) is a non-dealer's self-draw on the first draw")
        if Event.HUMAN_WIN in events and (ctx.is_dealer or ctx.self_draw):
            raise HandError("human_win (人胡) is a non-dealer winning a discard before drawing")
        check_human_win_discarder(hand)
        if Event.HEAVENLY_READY in events and not ctx.is_dealer:
            raise HandError("heavenly_ready (天聽) is for the dealer only")
        for ready in (Event.HEAVENLY_READY, Event.EARTHLY_READY):
            claimed = next((m for m in hand.melds if m.is_open), None)
            if ready in events and claimed is not None:
                # 000: 天聽 "不能換牌", 地聽 "四家沒有碰牌吃牌明槓": the hand stood as declared.
                raise HandError(
                    f"{ready.value} is declared on the dealt hand, which no chi, pon or open kong"
                    f" changes after it: {claimed.type.value}"
                )
        if Event.ROBBING_KONG in events and ctx.self_draw:
            raise HandError("robbing_kong (搶槓) wins another player's tile, not a self-draw")
        if Event.LAST_DISCARD in events and ctx.self_draw:
            raise HandError("last_discard (河底撈魚) is a win on the last discard, not a self-draw")
        check_never_together(hand, _NEVER_TOGETHER)
        if Event.LAST_TILE in events and not ctx.self_draw:
            _check_last_tile_discarded(events)
        check_robbed_tile(hand)
        for drawn in (Event.AFTER_KONG, Event.AFTER_FLOWER):
            if drawn in events and not ctx.self_draw:
                raise HandError(f"{drawn.value} (槓上開花) is a self-drawn win: set self_draw")
        check_kong_for(hand, Event.AFTER_KONG, "槓上開花")
        # The flowers the events below need are the hand's to show: not checked before it has any.
        unseen = hand.shows_no_tiles
        if Event.AFTER_FLOWER in events and not hand.flowers and not unseen:
            raise HandError("after_flower (槓上開花, 補花) needs a flower among the flowers")
        if Event.SEVEN_FLOWERS_ROB in events:
            if len(hand.flowers) not in (7, 8) and not unseen:
                raise HandError(
                    f"seven_flowers_rob (七搶一) needs seven flowers, got {len(hand.flowers)}"
                )
            # The robbed player pays as a discarder would (the table's 被搶者如放槍): a 七搶一
            # that names nobody is refused, not scored for nobody to pay.
            if ctx.discarder is None or Event.EIGHT_FLOWERS in events:
                raise HandError(
                    "seven_flowers_rob (七搶一) robs another player's flower: name them as"
                    " discarder, no self_draw"
                )
        if Event.EIGHT_FLOWERS in events:
            if len(hand.flowers) != 8 and not unseen:
                raise HandError(
                    f"eight_flowers (八仙過海) needs all eight flowers, got {len(hand.flowers)}"
                )
            if ctx.discarder is not None:
                raise HandError("eight_flowers (八仙過海) counts as a self-draw: no discarder")

    def as_scored(self, hand: Hand) -> Hand:
        ctx = hand.context
        # 001: 八仙過海 "視同自摸", for every check and item: a triplet the winning tile
        # completed is concealed (暗刻), and no event of a discard win comes with it. A
        # discarder named with it is refused (check_context).
        eight = bool(ctx.events) and _EIGHT_FLOWERS in ctx.events
        if eight and not ctx.self_draw and ctx.discarder is None:
            return replace(hand, context=replace(ctx, self_draw=True))
        return hand

    def score(self, hand: Hand) -> ScoreResult:
        rules = hand.rules
        counts = hand.concealed_counts
        readings = standard_readings(hand, SETS, counts) if hand.win_tile is not None else []
        if not readings and not self._is_flower_win(hand):
            return self._not_winning(hand)
        view = TaiwanView.of(hand, readings)
        waived = _waived(rules)
        best_hits = [(item, hit) for item, test in hand_items(view.facts) if (hit := test(view))]
        best_reading = readings[0] if readings else None
        if readings:
            per_reading = reading_items(view.facts)
            hand_hits = best_hits
            best_total = 0
            for index, reading in enumerate(readings):
                hits = hand_hits + [
                    (item, hit) for item, test in per_reading if (hit := test(view, reading))
                ]
                if len(readings) == 1:
                    best_hits = hits
                    break
                total = _total(hits, waived)
                # Ties keep the first reading (readings come in a fixed order from the tile counts).
                if index == 0 or total > best_total:
                    best_hits, best_total, best_reading = hits, total, reading
        best_items = resolve_hits(best_hits, waived)
        best_total = sum(i.value for i in best_items)
        minimum = rules["minimum_tai"]
        if best_total < minimum:
            why = f"a winning hand counts at least {minimum} 台"
            best_items.append(ScoreItem("minimum", "保底", minimum - best_total, why))
            best_total = minimum
        if best_reading is not None:
            waits = [_CODES[i] for i in best_reading.shared.wait_indices]
            shape = best_reading.wait
        else:
            # A flower win's tiles form no hand; say what they were waiting on.
            waits = _codes(frozenset(hand_waits(hand, SETS)))
            shape = WaitShape.NONE
        return build(
            ScoreResult,
            variant=self.name,
            winning=True,
            total=best_total,
            unit=self.unit,
            items=tuple(best_items),
            payments=tuple(self.payments(hand, best_total, view.self_draw)),
            decomposition=best_reading.describe() if best_reading else "",
            extra={"waits": waits, "wait_shape": _WAIT_VALUES[shape]},
        )

    def _not_winning(self, hand: Hand) -> ScoreResult:
        return ScoreResult(
            variant=self.name,
            winning=False,
            total=0,
            unit=self.unit,
            items=(),
            payments=(),
            decomposition="",
            extra={
                "waits": [],
                "wait_shape": WaitShape.NONE.value,
                "reason": "the tiles do not form five sets and a pair",
            },
        )

    def payments(self, hand: Hand, total: int, self_draw: bool) -> list[Payment]:
        """Each payer pays 底 + 台 × 台值; a dealer paying a non-dealer adds (2N+1) × 台值.

        On a self-draw (八仙過海 included) the three others pay; otherwise the discarder (the
        player robbed of a kong tile or of a flower for 七搶一) pays alone, and nobody else.
        """
        ctx = hand.context
        rules = hand.rules
        winner = ctx.seat_wind
        if self_draw:
            payers = [s for s in SEATS if s != winner]
        elif ctx.discarder is not None:
            payers = [ctx.discarder]
        else:
            return []
        out = []
        for payer in payers:
            amount = rules["base"] + total * rules["tai_value"]
            if payer == DEALER_SEAT and not ctx.is_dealer and rules["dealer_pays_streak"]:
                amount += (2 * ctx.dealer_streak + 1) * rules["tai_value"]
            key = (payer, winner, amount)
            payment = _PAYMENTS.get(key) if type(amount) is int else None
            if payment is None:
                payment = build(Payment, payer=payer, payee=winner, amount=amount)
                if type(amount) is int and len(_PAYMENTS) < 4096:
                    _PAYMENTS[key] = payment
            out.append(payment)
        return out


# The frozen ``Payment`` of each (payer, payee, amount) made so far, shared by the results that
# pay it. Not a cache of hands: a few seats and amounts ("W pays S 160") recur across many
# different hands, and a payment holds nothing else. Int amounts only, at most 4096 kept.
_PAYMENTS: dict[tuple[str, str, int], Payment] = {}


_CODES = [t.code for t in MAHJONG_TILES]
_WAIT_VALUES = {shape: shape.value for shape in WaitShape}


def _codes(tiles: frozenset[Tile]) -> list[str]:
    return [t.code for t in sorted(tiles, key=tile_index)]
