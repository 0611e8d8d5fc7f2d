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
   complete set of four, which then scores no 正花.
5. 大四喜 scores no wind triplets; 小四喜 keeps them; 大/小三元 score no 三元刻.
6. 天胡/地胡/人胡 add no 門清/自摸/不求人/獨聽; dealer 台 and flowers still count.
7. The dealer's 2N+1 counts once: in the dealer's own hand when the dealer wins, or paid on top by
   the dealer when the dealer pays a non-dealer; never both.
8. 海底撈月 is a self-draw of the last tile; 河底撈魚, 見花見台, 見風見台, 無字無花 are options, off.
9. A hand worth 0 台 counts 1 (保底).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from scoring.errors import HandError
from scoring.hand import SEATS, Event, Hand, WinContext
from scoring.predicates import (
    count_dragon_triplets,
    count_kongs,
    count_wind_triplets,
    has_honors,
    has_triplet_of,
    is_all_sequences,
    is_all_triplets,
    pair_is_dragon,
    pair_is_wind,
    suits_used,
)
from scoring.reading import Reading, WaitShape, standard_readings
from scoring.result import Payment, ScoreItem, ScoreResult
from scoring.rules import Hit, RuleItem, RuleOption, apply_table
from scoring.tiles import Suit, Tile, wind_tile
from scoring.variant import Variant

SETS = 5
HAND_SIZE = 17
WHITE, GREEN, RED = Tile(Suit.HONOR, 5), Tile(Suit.HONOR, 6), Tile(Suit.HONOR, 7)
SEASONS = tuple(Tile(Suit.FLOWER, n) for n in range(1, 5))
PLANTS = tuple(Tile(Suit.FLOWER, n) for n in range(5, 9))

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


@dataclass(frozen=True)
class HandFacts:
    """Facts of the hand itself, the same in every reading: computed once per hand."""

    tiles: tuple[Tile, ...]
    kinds: frozenset[Tile]
    open_melds: int

    @classmethod
    def of(cls, hand: Hand) -> HandFacts:
        tiles = hand.all_tiles
        return cls(
            tiles, frozenset(t.plain for t in tiles), sum(1 for m in hand.melds if m.is_open)
        )


@dataclass(frozen=True)
class TaiwanView:
    """One reading of a hand with the facts Taiwan items ask, computed once."""

    hand: Hand
    reading: Reading | None
    rules: dict[str, Any] = field(hash=False)
    facts: HandFacts = field(hash=False)

    @property
    def ctx(self) -> WinContext:
        return self.hand.context

    @cached_property
    def self_draw(self) -> bool:
        # 八仙過海 "視同自摸": eight flowers is treated as a self-draw.
        return self.ctx.self_draw or self.ctx.has(Event.EIGHT_FLOWERS)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return self.facts.tiles

    @property
    def open_melds(self) -> int:
        return self.facts.open_melds


Check = Callable[[TaiwanView], Hit | None]


def _reading(check: Callable[[TaiwanView, Reading], Hit | None]) -> Check:
    """Wrap a check that needs a complete reading (special flower wins may have none)."""
    return lambda v: None if v.reading is None else check(v, v.reading)


def _concealed_triplets(v: TaiwanView, r: Reading) -> int:
    if v.rules["concealed_triplets_need_menqing"] and not v.hand.is_concealed:
        return 0
    count = r.concealed_triplets
    if not v.rules["concealed_kong_counts_as_concealed_triplet"]:
        count -= count_kongs(r, concealed=True)
    return count


def _n_concealed(n: int) -> Check:
    def check(v: TaiwanView, r: Reading) -> Hit | None:
        count = _concealed_triplets(v, r)
        if count != n:
            return None
        return Hit(1, f"{n} triplets never claimed, hand concealed")

    return _reading(check)


def _heavenly(v: TaiwanView) -> Hit | None:
    if v.ctx.has(Event.HEAVENLY_WIN):
        if not v.ctx.is_dealer or not v.ctx.self_draw:
            raise HandError("heavenly_win (天胡) is the dealer's self-draw on the first draw")
        return Hit(1, "dealer's first 17 tiles complete, self-drawn")
    return None


def _earthly(v: TaiwanView) -> Hit | None:
    if v.ctx.has(Event.EARTHLY_WIN):
        if v.ctx.is_dealer or not v.ctx.self_draw:
            raise HandError("earthly_win (地胡) is a non-dealer's self-draw on the first draw")
        return Hit(1, "self-drawn on the first draw, nobody called before")
    return None


def _human(v: TaiwanView) -> Hit | None:
    if v.ctx.has(Event.HUMAN_WIN):
        if v.ctx.is_dealer or v.ctx.self_draw:
            raise HandError("human_win (人胡) is a non-dealer winning a discard before drawing")
        return Hit(1, "won a discard in the first go-round before drawing")
    return None


def _heavenly_ready(v: TaiwanView) -> Hit | None:
    if v.ctx.has(Event.HEAVENLY_READY):
        if not v.ctx.is_dealer:
            raise HandError("heavenly_ready (天聽) is for the dealer only")
        return Hit(1, "dealer was ready after the first discard")
    return None


def _big_four_winds(v: TaiwanView, r: Reading) -> Hit | None:
    return Hit(1, "triplets of all four winds") if count_wind_triplets(r) == 4 else None


def _small_four_winds(v: TaiwanView, r: Reading) -> Hit | None:
    if count_wind_triplets(r) == 3 and pair_is_wind(r):
        return Hit(1, "three wind triplets and a wind pair")
    return None


def _big_three_dragons(v: TaiwanView, r: Reading) -> Hit | None:
    return Hit(1, "triplets of 中 發 白") if count_dragon_triplets(r) == 3 else None


def _small_three_dragons(v: TaiwanView, r: Reading) -> Hit | None:
    if count_dragon_triplets(r) == 2 and pair_is_dragon(r):
        return Hit(1, "two dragon triplets and a dragon pair")
    return None


def _all_honors(v: TaiwanView) -> Hit | None:
    return Hit(1, "only honour tiles") if all(t.is_honor for t in v.facts.kinds) else None


def _full_flush(v: TaiwanView) -> Hit | None:
    suits = suits_used(v.facts.kinds)
    if len(suits) == 1 and not has_honors(v.facts.kinds):
        return Hit(1, f"one suit only ({next(iter(suits)).value}), no honours")
    return None


def _half_flush(v: TaiwanView) -> Hit | None:
    suits = suits_used(v.facts.kinds)
    if len(suits) == 1 and has_honors(v.facts.kinds):
        return Hit(1, f"one suit ({next(iter(suits)).value}) and honours")
    return None


def _all_triplets(v: TaiwanView, r: Reading) -> Hit | None:
    return Hit(1, "five triplets or kongs, no sequence") if is_all_triplets(r) else None


def _earthly_ready(v: TaiwanView) -> Hit | None:
    return (
        Hit(1, "ready within the first 8 discards, no calls")
        if v.ctx.has(Event.EARTHLY_READY)
        else None
    )


def _pinghu(v: TaiwanView, r: Reading) -> Hit | None:
    if (
        is_all_sequences(r)
        and not has_honors(v.facts.kinds)
        and not v.hand.flowers
        and not v.self_draw
        and r.wait is WaitShape.TWO_SIDED
        and len(r.waits) > 1
    ):
        return Hit(1, "all sequences, no honours, no flowers, two-sided wait, won on a discard")
    return None


def _all_claimed(v: TaiwanView) -> Hit | None:
    if v.open_melds == SETS and not v.self_draw:
        return Hit(1, "five open melds, won the pair tile on a discard")
    return None


def _half_claimed(v: TaiwanView) -> Hit | None:
    if v.open_melds == SETS and v.self_draw:
        return Hit(1, "five open melds, self-drew the pair tile")
    return None


def _self_draw(v: TaiwanView) -> Hit | None:
    return Hit(1, "drew the winning tile") if v.self_draw else None


def _menqing(v: TaiwanView) -> Hit | None:
    return Hit(1, "no chi, pon or open kong") if v.hand.is_concealed else None


def _bu_qiu_ren(v: TaiwanView) -> Hit | None:
    if v.hand.is_concealed and v.self_draw and v.rules["bu_qiu_ren"]:
        return Hit(v.rules["bu_qiu_ren"], "concealed hand and self-draw (門清一摸三)")
    return None


def _last_tile(v: TaiwanView) -> Hit | None:
    return (
        Hit(1, "self-drew the last tile of the wall")
        if (v.ctx.has(Event.LAST_TILE) and v.ctx.self_draw)
        else None
    )


def _last_discard(v: TaiwanView) -> Hit | None:
    last = v.ctx.has(Event.LAST_DISCARD) or (v.ctx.has(Event.LAST_TILE) and not v.ctx.self_draw)
    if v.rules["last_discard"] and last and not v.ctx.self_draw:
        return Hit(1, "won the last discard")
    return None


def _after_kong(v: TaiwanView) -> Hit | None:
    if v.ctx.self_draw and v.ctx.has(Event.AFTER_KONG):
        return Hit(1, "self-drew the replacement tile after a kong")
    if v.ctx.self_draw and v.ctx.has(Event.AFTER_FLOWER):
        return Hit(1, "self-drew the replacement tile after a flower")
    return None


def _robbing_kong(v: TaiwanView) -> Hit | None:
    if v.ctx.has(Event.ROBBING_KONG):
        if v.ctx.self_draw:
            raise HandError("robbing_kong (搶槓) wins another player's tile, not a self-draw")
        return Hit(1, "won the tile another player added to a kong")
    return None


def _single_wait(v: TaiwanView, r: Reading) -> Hit | None:
    names = {WaitShape.EDGE: "邊張", WaitShape.CLOSED: "崁張", WaitShape.SINGLE: "單吊"}
    if v.rules["single_wait"] == "one_tile":
        if len(r.waits) != 1:
            return None
        only = next(iter(r.waits))
        return Hit(1, f"waited on {only.code} ({only.name}) alone", names.get(r.wait))
    if r.wait in names:
        return Hit(1, f"won in a {names[r.wait]} wait", names[r.wait])
    return None


def _wind_triplet(round_or_seat: str) -> Check:
    def check(v: TaiwanView, r: Reading) -> Hit | None:
        wind = v.ctx.round_wind if round_or_seat == "round" else v.ctx.seat_wind
        tile = wind_tile(wind)
        if has_triplet_of(r, tile):
            return Hit(1, f"triplet of {tile.name}, the {round_or_seat} wind")
        return None

    return _reading(check)


def _dragon_triplet(tile: Tile) -> Check:
    return _reading(
        lambda v, r: Hit(1, f"triplet of {tile.name}") if has_triplet_of(r, tile) else None
    )


def _kongs(concealed: bool) -> Check:
    def check(v: TaiwanView) -> Hit | None:
        count = sum(1 for m in v.hand.melds if m.is_kong and (not m.is_open) == concealed)
        return (
            Hit(count, f"{count} {'concealed' if concealed else 'open'} kong(s)") if count else None
        )

    return check


def _dealer(v: TaiwanView) -> Hit | None:
    if v.ctx.is_dealer and v.ctx.dealer_streak == 0:
        return Hit(1, "the dealer won")
    return None


def _dealer_streak(v: TaiwanView) -> Hit | None:
    n = v.ctx.dealer_streak
    if v.ctx.is_dealer and n > 0:
        return Hit(2 * n + 1, f"dealer has won {n} in a row: 2×{n}+1", f"連{n}拉{n}")
    return None


def _complete_flower_sets(v: TaiwanView) -> list[tuple[Tile, ...]]:
    held = set(v.hand.flowers)
    return [group for group in (SEASONS, PLANTS) if held.issuperset(group)]


def _flower_kong(v: TaiwanView) -> Hit | None:
    sets = _complete_flower_sets(v)
    if sets and v.rules["flower_kong"]:
        names = " and ".join("".join(t.name for t in s) for s in sets)
        return Hit(len(sets), f"complete set(s) {names}")
    return None


def _seat_flower(v: TaiwanView) -> Hit | None:
    seat = SEATS.index(v.ctx.seat_wind) + 1
    complete = {t for s in _complete_flower_sets(v) for t in s} if v.rules["flower_kong"] else set()
    own = [f for f in v.hand.flowers if f.number in (seat, seat + 4) and f not in complete]
    if own:
        return Hit(len(own), f"{' '.join(f.name for f in own)}: seat {v.ctx.seat_wind}'s flower")
    return None


def _seven_flowers(v: TaiwanView) -> Hit | None:
    if v.ctx.has(Event.SEVEN_FLOWERS_ROB):
        if len(v.hand.flowers) < 7:
            raise HandError("seven_flowers_rob (七搶一) needs seven flowers in hand")
        return Hit(1, "held seven flowers and robbed the eighth")
    return None


def _eight_flowers(v: TaiwanView) -> Hit | None:
    if v.ctx.has(Event.EIGHT_FLOWERS):
        if len(v.hand.flowers) != 8:
            raise HandError("eight_flowers (八仙過海) needs all eight flowers")
        return Hit(1, "all eight flowers")
    return None


def _any_flower(v: TaiwanView) -> Hit | None:
    n = len(v.hand.flowers)
    return Hit(n, f"{n} flower(s)") if v.rules["any_flower"] and n else None


def _any_wind(v: TaiwanView, r: Reading) -> Hit | None:
    n = count_wind_triplets(r)
    return Hit(n, f"{n} wind triplet(s)") if v.rules["any_wind"] and n else None


def _no_honors_no_flowers(v: TaiwanView) -> Hit | None:
    if v.rules["no_honors_no_flowers"] and not has_honors(v.facts.kinds) and not v.hand.flowers:
        return Hit(1, "no honour tiles and no flowers")
    return None


_SPECIAL_WIN_DROPS = ("menqing", "self_draw", "bu_qiu_ren", "single_wait")

# The table, in the order of 000 then 001's additions. Value is per time the item applies.
TABLE: tuple[RuleItem[TaiwanView], ...] = (
    # 役滿級 (000)
    RuleItem(
        "heavenly_win",
        "天胡",
        24,
        "莊家配牌完直接胡牌（門清自摸）",
        _heavenly,
        (*_SPECIAL_WIN_DROPS, "heavenly_ready", "earthly_ready"),
    ),
    RuleItem(
        "earthly_win",
        "地胡",
        16,
        "閒家第一輪摸牌直接胡牌（門清自摸）",
        _earthly,
        (*_SPECIAL_WIN_DROPS, "heavenly_ready", "earthly_ready"),
    ),
    RuleItem(
        "human_win",
        "人胡",
        16,
        "閒家第一巡未摸牌前胡他人牌（001）",
        _human,
        (*_SPECIAL_WIN_DROPS, "heavenly_ready", "earthly_ready"),
    ),
    RuleItem(
        "big_four_winds",
        "大四喜",
        16,
        "東南西北四組刻子",
        _reading(_big_four_winds),
        ("small_four_winds", "round_wind", "seat_wind", "any_wind"),
    ),
    RuleItem("all_honors", "字一色", 16, "全部是字牌", _all_honors, ("half_flush",)),
    # 大牌型 8台
    RuleItem("full_flush", "清一色", 8, "只有一種數牌，無字牌", _full_flush, ("half_flush",)),
    RuleItem(
        "big_three_dragons",
        "大三元",
        8,
        "中、發、白三組刻子",
        _reading(_big_three_dragons),
        ("small_three_dragons", "red_dragon", "green_dragon", "white_dragon"),
    ),
    RuleItem(
        "small_four_winds", "小四喜", 8, "三組風刻 + 一組風牌做將", _reading(_small_four_winds)
    ),
    RuleItem(
        "heavenly_ready",
        "天聽",
        8,
        "莊家打出第一張牌即聽（不計門清）",
        _heavenly_ready,
        ("menqing", "earthly_ready"),
    ),
    RuleItem("five_concealed", "五暗刻", 8, "門清，五組刻子都是自己摸的", _n_concealed(5)),
    RuleItem(
        "seven_flowers_rob",
        "七搶一",
        8,
        "持7張花牌搶別家1張花牌（001）",
        _seven_flowers,
        ("flower_kong", "seat_flower", "any_flower"),
    ),
    RuleItem(
        "eight_flowers",
        "八仙過海",
        8,
        "取得全部8張花牌，視同自摸（001）",
        _eight_flowers,
        ("flower_kong", "seat_flower", "any_flower", "seven_flowers_rob"),
    ),
    # 中牌型 4~5台
    RuleItem("half_flush", "混一色", 4, "只有一種數牌 + 字牌", _half_flush),
    RuleItem("all_triplets", "碰碰胡", 4, "全部是刻子，無順子", _reading(_all_triplets)),
    RuleItem(
        "small_three_dragons",
        "小三元",
        4,
        "中發白其中兩組刻子 + 一組做將",
        _reading(_small_three_dragons),
        ("red_dragon", "green_dragon", "white_dragon"),
    ),
    RuleItem("four_concealed", "四暗刻", 5, "門清，四組刻子都是自己摸的", _n_concealed(4)),
    RuleItem(
        "earthly_ready",
        "地聽",
        4,
        "起牌後8張牌內聽牌，四家無吃碰槓",
        _earthly_ready,
        ("single_wait",),
    ),
    # 小牌型 2台
    RuleItem("pinghu", "平胡", 2, "全順子 + 無字牌 + 非自摸 + 非單吊 + 無花", _reading(_pinghu)),
    RuleItem(
        "all_claimed", "全求人", 2, "手牌只剩將牌，5組副露，榮胡", _all_claimed, ("single_wait",)
    ),
    RuleItem("three_concealed", "三暗刻", 2, "門清，三組刻子都是自己摸的", _n_concealed(3)),
    RuleItem("flower_kong", "花槓", 2, "拿齊四季或四君子（不計正花）（001）", _flower_kong),
    # 事件台 1台
    RuleItem("self_draw", "自摸", 1, "自己摸牌胡", _self_draw),
    RuleItem("menqing", "門清", 1, "沒有吃、碰、明槓", _menqing),
    RuleItem("bu_qiu_ren", "不求人", 1, "門清的情況下自摸（001，門清一摸三）", _bu_qiu_ren),
    RuleItem("last_tile", "海底撈月", 1, "牌堆最後一張牌自摸胡", _last_tile),
    RuleItem("last_discard", "河底撈魚", 1, "最後一張打出的牌胡（選項）", _last_discard),
    RuleItem("after_kong", "槓上開花", 1, "槓牌或補花後補牌自摸胡", _after_kong),
    RuleItem("robbing_kong", "搶槓", 1, "別人加槓的牌正是自己能胡的牌（001）", _robbing_kong),
    RuleItem("single_wait", "獨聽", 1, "只聽一張牌（邊張、崁張、單吊）", _reading(_single_wait)),
    RuleItem(
        "half_claimed", "半求人", 1, "手牌只剩將牌，5組副露，自摸", _half_claimed, ("single_wait",)
    ),
    # 刻子台
    RuleItem("round_wind", "圈風刻", 1, "圈風的刻子", _wind_triplet("round")),
    RuleItem("seat_wind", "門風刻", 1, "自己風位的刻子", _wind_triplet("seat")),
    RuleItem("red_dragon", "中刻", 1, "中的刻子（非三元系列時）", _dragon_triplet(RED)),
    RuleItem("green_dragon", "發刻", 1, "發的刻子（非三元系列時）", _dragon_triplet(GREEN)),
    RuleItem("white_dragon", "白刻", 1, "白的刻子（非三元系列時）", _dragon_triplet(WHITE)),
    # 槓台
    RuleItem("open_kong", "明槓", 1, "每個明槓（含加槓）1 台", _kongs(concealed=False)),
    RuleItem("concealed_kong", "暗槓", 2, "每個暗槓 2 台", _kongs(concealed=True)),
    # 莊家/連莊
    RuleItem("dealer", "莊家", 1, "莊家胡牌", _dealer),
    RuleItem(
        "dealer_streak",
        "連N拉N",
        1,
        "莊家連莊N次 (2N+1)台（包含莊家台）",
        _dealer_streak,
        ("dealer",),
    ),
    # 花 (001)
    RuleItem("seat_flower", "正花", 1, "拿到與座位相同的花", _seat_flower),
    # Options, off by default (001's second table)
    RuleItem(
        "any_flower",
        "見花見台",
        1,
        "一張花牌就計一台，不必對位（選項）",
        _any_flower,
        ("seat_flower",),
    ),
    RuleItem(
        "any_wind",
        "見風見台",
        1,
        "一組風牌刻子就算一台，不必對位（選項）",
        _reading(_any_wind),
        ("round_wind", "seat_wind"),
    ),
    RuleItem(
        "no_honors_no_flowers", "無字無花", 2, "完全沒有花牌跟字牌（選項）", _no_honors_no_flowers
    ),
)

_SPECIAL_WINS = frozenset({"heavenly_win", "earthly_win", "human_win"})


def _waived(rules: dict[str, Any]) -> frozenset[tuple[str, str]]:
    """The supersessions that rule options turn off."""
    waived: set[tuple[str, str]] = set()
    if rules["special_wins_score_menqing"]:
        waived |= {(w, d) for w in _SPECIAL_WINS for d in _SPECIAL_WIN_DROPS}
    if rules["big_four_winds_scores_wind_triplets"]:
        waived |= {("big_four_winds", "round_wind"), ("big_four_winds", "seat_wind")}
    return frozenset(waived)


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

    def _is_flower_win(self, hand: Hand) -> bool:
        return bool(hand.context.events & {Event.EIGHT_FLOWERS, Event.SEVEN_FLOWERS_ROB})

    def expected_sizes(self, hand: Hand) -> tuple[int, ...]:
        # A flower win may come before the 17th tile is drawn.
        return (HAND_SIZE - 1, HAND_SIZE) if self._is_flower_win(hand) else (HAND_SIZE,)

    def needs_win_tile(self, hand: Hand) -> bool:
        return not self._is_flower_win(hand)

    def score(self, hand: Hand) -> ScoreResult:
        rules = dict(hand.rules)
        readings = standard_readings(hand, SETS) if hand.win_tile is not None else []
        flower_win = self._is_flower_win(hand)
        waived = _waived(rules)
        facts = HandFacts.of(hand)
        views = [TaiwanView(hand, r, rules, facts) for r in readings]
        if not views:
            if not flower_win:
                return self._not_winning(hand)
            views = [TaiwanView(hand, None, rules, facts)]
        scored = [(view, apply_table(TABLE, view, waived)) for view in views]
        totals = [sum(i.value for i in items) for _, items in scored]
        top = max(totals)
        tied = [pair for pair, total in zip(scored, totals, strict=True) if total == top]
        # Ties go to the first reading in written order, so the output never depends on luck.
        view, items = min(tied, key=lambda p: p[0].reading.describe() if p[0].reading else "")
        total = top
        if total < rules["minimum_tai"]:
            items.append(
                ScoreItem(
                    "minimum",
                    "保底",
                    rules["minimum_tai"] - total,
                    f"a winning hand counts at least {rules['minimum_tai']} 台",
                )
            )
            total = rules["minimum_tai"]
        reading = view.reading
        extra = {
            "waits": sorted(t.code for t in reading.waits) if reading else [],
            "wait_shape": reading.wait.value if reading else WaitShape.NONE.value,
        }
        return ScoreResult(
            variant=self.name,
            winning=True,
            total=total,
            unit=self.unit,
            items=tuple(items),
            payments=tuple(self.payments(hand, total, view.self_draw)),
            decomposition=reading.describe() if reading else "",
            extra=extra,
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
            extra={"reason": "the tiles do not form five sets and a pair", "waits": []},
        )

    def payments(self, hand: Hand, total: int, self_draw: bool) -> list[Payment]:
        """Each payer pays 底 + 台 × 台值; a dealer paying a non-dealer adds (2N+1) × 台值."""
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
            if payer == "E" and not ctx.is_dealer and rules["dealer_pays_streak"]:
                amount += (2 * ctx.dealer_streak + 1) * rules["tai_value"]
            out.append(Payment(payer, winner, amount))
        return out
