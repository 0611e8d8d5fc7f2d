"""32-tile xiangqi mahjong (憨兒象棋麻將32張), scored in 台 with its own point table.

Implements ``shared/rules/003``. The pieces and shapes are in ``xiangqi_shapes``, points and
payments in ``xiangqi_points``, drawn hands in ``xiangqi_draws``; this module holds the 台 table, the
checks of a hand, and scoring. Readings chosen where the text is unclear (each an option where a
table may play it otherwise; docs/variants/xiangqi.md explains them):

1. A laid-down meld, a kong of four or five soldiers too, stands for the 面子: a hand is five tiles
   counting a meld as three. So 五兵合縱/五卒連橫 need all five soldiers as 面子 + 對子 (a kong of
   five 兵 plus a pair of something else is 兵卒全槓, not 五兵合縱); 兵車行 and 兵卒戮力 read the 面子
   (kong or not) as the soldiers and the 對子 as the chariots or the other soldiers.
2. Every other item adds on a special shape (the text's 複合 notes say so for 兵卒襲將 and 偏兩對);
   option ``special_shapes_stack`` false lets the shapes worth 1 台 or more (五路聯軍, 純兩對,
   偏鐵支, 將帥領兵, 純鐵支) score without 將, 帥, 斷頭尾 and 清一色. 兵卒襲將 and 偏兩對 keep them
   either way: the text says they always combine with 將/帥 or 斷頭尾, so they can win.
3. Kongs are counted as kong actions: a kong of four is one, a kong of five (明槓加槓 / 暗槓加槓) two.
   單槓 is exactly one; 槓 +125 is paid once when 單槓 applies (option ``kong_bonus``).
4. 兵卒全槓 needs an exposed (副露) kong of five: 暗槓 is not 副露 (option ``soldier_kong_concealed``).
5. 連莊 +125 × n is added when the dealer wins again, 胡莊家 +50 × n when a non-dealer beats the
   dealer, n = ``dealer_streak`` (options ``streak_bonus``, ``dealer_bonus``).
6. 天胡/地胡 also score 門清自摸, and 槓頂槓自摸 also 槓上開花 (all items add unless the text says).
7. 天聽 replaces 聽 (聽 is "非天聽"); 天聽 and 聽 need a concealed hand.
8. ``dealer`` false or missing means the winner does not deal. Seats are relative: ``left`` (上家),
   ``across``, ``right``; a chi's ``from`` must be ``left``.
9. When the pieces read more than one way, the reading that can win with the most 基本點 counts.

A drawn hand (流局) is scored by ``Xiangqi.score_draw`` from a JSON object with a ``draw`` key
(``xiangqi_draws.draw_json``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from scoring.drawn_hands import draw_rules
from scoring.errors import HandError, shown
from scoring.event_checks import (
    NEVER_TOGETHER,
    READY_BEFORE_FIRST_DRAW,
    check_human_win_discarder,
    check_never_together,
    check_robbed_tile,
)
from scoring.hand import Event, Hand, Meld, MeldType, WinContext
from scoring.notation import format_tiles, sort_tiles
from scoring.result import ScoreItem, ScoreResult
from scoring.rules import Hit, RuleItem, RuleOption, apply_table
from scoring.tiles import Suit, Tile
from scoring.variant import Variant
from scoring.variants.xiangqi_draws import DRAW_REASONS, READY_PAYMENT, draw_json
from scoring.variants.xiangqi_points import (
    SHAPE_BONUS,
    PointsPart,
    Table,
    points_for_tai,
    seats_for,
    streak_parts,
    surcharges,
    win_payments,
)
from scoring.variants.xiangqi_shapes import (
    BLACK_GENERAL,
    BLACK_SOLDIER,
    CHARIOT,
    GENERAL,
    RED_GENERAL,
    RED_SOLDIER,
    SOLDIER,
    Reading,
    Shape,
    copies_in_set,
    is_chi,
    is_soldier,
    other_colour,
    read_hand,
)

HAND_SIZE = 5
DRAW_INPUT_KEYS = frozenset({"variant", "players", "dealer_streak", "rules", "draw", "id"})

OPTIONS = (
    RuleOption(
        "minimum_tai",
        1,
        "台 a hand needs to win (0 台 never wins; the text lets a table set more)",
        minimum=1,
    ),
    RuleOption(
        "special_shapes_stack",
        True,
        "將, 帥, 斷頭尾, 清一色 add on the special shapes; false: not on 五路聯軍, 兩對 (純), 鐵支,"
        " 將帥領兵 (兵卒襲將 and 偏兩對 always combine, as the text says)",
    ),
    RuleOption(
        "kong_bonus",
        "single_kong",
        "槓 +125: 'single_kong' once when 單槓 applies; 'per_kong' 125 for every kong action",
        ("single_kong", "per_kong"),
    ),
    RuleOption(
        "soldier_kong_concealed",
        False,
        "兵卒全槓 also for a concealed kong of five (暗槓加槓); the text says 副露",
    ),
    RuleOption(
        "streak_bonus",
        "dealer_win",
        "連莊 +125×n: 'dealer_win' when the dealer wins again; 'every_win' on every win",
        ("dealer_win", "every_win"),
    ),
    RuleOption(
        "dealer_bonus",
        "non_dealer_win",
        "胡莊家 +50×n: 'non_dealer_win' a non-dealer beats the dealer; 'dealer_discard' only off the"
        " dealer's discard (needs dealer_seat); 'dealer_win' the dealer wins",
        ("non_dealer_win", "dealer_discard", "dealer_win"),
    ),
    RuleOption("special_wins_score_self_draw", True, "天胡/地胡 also score 門清自摸 (3 台)"),
    RuleOption("kong_after_kong_scores_after_kong", True, "槓頂槓自摸 also scores 槓上開花"),
    RuleOption("draws_in_a_row", 0, "連續流局次數: drawn hands just before this one"),
    RuleOption(
        "ready_payment",
        READY_PAYMENT,
        "流局 by the wall: what each player who is not 聽 pays each 聽 player (the text gives no"
        " amount; 250 = 1 台)",
    ),
    RuleOption(
        "dealer_seat",
        "",
        "where the dealer sits when the winner does not deal ('' = not given)",
        ("", "left", "across", "right"),
    ),
)

EVENTS = frozenset(
    {
        Event.DECLARED_READY,
        Event.HEAVENLY_READY,
        Event.AFTER_KONG,
        Event.KONG_AFTER_KONG,
        Event.ROBBING_KONG,
        Event.LAST_TILE,
        Event.LAST_DISCARD,
        Event.HEAVENLY_WIN,
        Event.EARTHLY_WIN,
        Event.HUMAN_WIN,
        Event.FURITEN,
    }
)


def kong_actions(melds: tuple[Meld, ...]) -> int:
    """Kongs declared: one for a kong of four, two for a kong of five (a kong added onto a kong)."""
    return sum(len(m.tiles) - 3 for m in melds if m.is_kong)


@dataclass(frozen=True)
class XiangqiView:
    """One reading of a hand, with what the items ask."""

    hand: Hand
    reading: Reading
    rules: dict[str, Any] = field(hash=False)

    @property
    def ctx(self) -> WinContext:
        return self.hand.context

    @property
    def shape(self) -> Shape:
        return self.reading.shape

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        return self.hand.all_tiles

    @property
    def is_open(self) -> bool:
        """副露: a chi, pon or open kong (暗槓 is not 副露)."""
        return not self.hand.is_concealed

    @property
    def self_draw(self) -> bool:
        return self.ctx.self_draw

    def starred(self, full: int) -> int:
        """The starred items lose 1 台 with 副露."""
        return full - 1 if self.is_open else full


Check = Callable[[XiangqiView], Hit | None]


def _holds(tile: Tile) -> Check:
    return lambda v: Hit(1, f"holds {tile.name}") if tile in v.tiles else None


def _shape(shape: Shape, why: str, pure: bool | None = None) -> Check:
    def check(v: XiangqiView) -> Hit | None:
        if v.shape is shape and (pure is None or v.reading.pure is pure):
            return Hit(1, why)
        return None

    return check


def _event(event: Event, why: str, self_draw: bool | None = None) -> Check:
    def check(v: XiangqiView) -> Hit | None:
        if v.ctx.has(event) and (self_draw is None or v.self_draw is self_draw):
            return Hit(1, why)
        return None

    return check


def _single_kong(v: XiangqiView) -> Hit | None:
    return Hit(1, "declared exactly one kong") if kong_actions(v.hand.melds) == 1 else None


def _ready(v: XiangqiView) -> Hit | None:
    return Hit(1, "declared ready (喊聽)") if v.ctx.has(Event.DECLARED_READY) else None


def _after_kong(v: XiangqiView) -> Hit | None:
    again = v.ctx.has(Event.KONG_AFTER_KONG)
    if v.self_draw and (v.ctx.has(Event.AFTER_KONG) or again):
        return Hit(1, "self-drew the tile drawn after a kong")
    return None


def _all_claimed_single(v: XiangqiView) -> Hit | None:
    if v.is_open and not v.self_draw:
        return Hit(1, "has a claimed meld and won another player's discard")
    return None


def _soldiers_body(v: XiangqiView) -> Suit | None:
    """The colour of a standard reading's 面子 when it is soldiers (three, or a kong)."""
    if v.shape is not Shape.STANDARD or not all(is_soldier(t) for t in v.reading.body):
        return None
    return v.reading.body[0].suit


def _soldiers_chariots(v: XiangqiView) -> Hit | None:
    suit = _soldiers_body(v)
    if suit is None:
        return None
    chariot = Tile(other_colour(suit), CHARIOT)
    if v.reading.pair == (chariot, chariot):
        soldier = Tile(suit, SOLDIER)
        return Hit(1, f"{soldier.name}×{len(v.reading.body)} with {chariot.name}{chariot.name}")
    return None


def _soldiers_united(v: XiangqiView) -> Hit | None:
    suit = _soldiers_body(v)
    if suit is None:
        return None
    other = Tile(other_colour(suit), SOLDIER)
    if v.reading.pair == (other, other):
        mine = Tile(suit, SOLDIER)
        return Hit(v.starred(3), f"{mine.name} 面子 with a {other.name}{other.name} 對子")
    return None


def _five_soldiers(soldier: Tile) -> Check:
    def check(v: XiangqiView) -> Hit | None:
        if len(v.tiles) == HAND_SIZE and all(t == soldier for t in v.tiles):
            return Hit(1, f"all five {soldier.name}")
        return None

    return check


def _no_ends(v: XiangqiView) -> Hit | None:
    if any(t.number in (GENERAL, SOLDIER) for t in v.tiles):
        return None
    return Hit(v.starred(2), "no 將 帥 卒 兵" + (" (副露: 1 台)" if v.is_open else ""))


def _one_colour(v: XiangqiView) -> Hit | None:
    colours = {t.suit for t in v.tiles}
    if len(colours) != 1:
        return None
    name = "black" if Suit.BLACK in colours else "red"
    return Hit(v.starred(2), f"all {name}" + (" (副露: 1 台)" if v.is_open else ""))


def _soldier_kong(v: XiangqiView) -> Hit | None:
    for meld in v.hand.melds:
        exposed = meld.is_open or v.rules["soldier_kong_concealed"]
        if meld.is_kong and len(meld.tiles) == 5 and exposed:
            return Hit(1, f"kong of five {meld.tiles[0].name}")
    return None


def _concealed_self_draw(v: XiangqiView) -> Hit | None:
    return Hit(1, "no claimed meld, self-drawn") if not v.is_open and v.self_draw else None


_CONTENT_ITEMS = ("general", "marshal", "no_ends", "one_colour")
# The special shapes that may stand alone; 兵卒襲將 and 偏兩對 (0 台) always combine with 將/帥 or
# 斷頭尾 (the text's 複合 notes), so they supersede nothing.
_SPECIAL_SHAPES = (
    "five_armies",
    "pure_two_pairs",
    "partial_iron",
    "general_leads",
    "pure_iron",
)

# The table in the order of the text. Value is 台 per time the item applies (the starred items
# return 2 or 3 times, one less with 副露).
TABLE: tuple[RuleItem[XiangqiView], ...] = (
    # 0台，基本點+125
    RuleItem(
        "soldiers_raid",
        "兵卒襲將",
        0,
        "將兵兵兵兵/帥卒卒卒卒（+125）",
        _shape(Shape.SOLDIERS_RAID, "將 with four 兵, or 帥 with four 卒"),
    ),
    RuleItem(
        "partial_two_pairs",
        "偏兩對",
        0,
        "兩對，胡之前的四張不是兩對（+125）",
        _shape(Shape.TWO_PAIRS, "兩對 completed by a pair tile", pure=False),
    ),
    RuleItem(
        "last_discard",
        "河底撈魚",
        0,
        "胡別人時河底剩0張牌（+125）",
        _event(Event.LAST_DISCARD, "won a discard with no tile left to draw", self_draw=False),
    ),
    RuleItem("single_kong", "單槓", 0, "槓過剛好1次（槓 +125）", _single_kong),
    # 1台
    RuleItem("general", "將", 1, "有將", _holds(BLACK_GENERAL)),
    RuleItem("marshal", "帥", 1, "有帥", _holds(RED_GENERAL)),
    RuleItem("ready", "聽", 1, "有喊聽牌且非天聽", _ready),
    RuleItem(
        "robbing_kong",
        "搶槓",
        1,
        "別人加槓的牌胡",
        _event(Event.ROBBING_KONG, "won the piece another player added to a kong"),
    ),
    RuleItem("after_kong", "槓上開花", 1, "槓後摸的那張自摸", _after_kong),
    RuleItem("all_claimed_single", "全求單騎", 1, "有副露，並胡別人", _all_claimed_single),
    RuleItem(
        "last_tile",
        "海底撈月",
        1,
        "最後一張牌自摸",
        _event(Event.LAST_TILE, "self-drew the last tile", self_draw=True),
    ),
    RuleItem("soldiers_chariots", "兵車行", 1, "兵兵兵車車/卒卒卒俥俥", _soldiers_chariots),
    RuleItem(
        "five_armies",
        "五路聯軍",
        1,
        "士象車馬包/仕相俥傌炮",
        _shape(Shape.FIVE_ARMIES, "one of each officer of one colour"),
        _CONTENT_ITEMS,
    ),
    # 2台*
    RuleItem("no_ends", "斷頭尾", 1, "將、帥、卒、兵都沒有（2台*，副露1台）", _no_ends),
    RuleItem("one_colour", "清一色", 1, "全黑或全紅（2台*，副露1台）", _one_colour),
    # 2台
    RuleItem(
        "heavenly_ready",
        "天聽",
        2,
        "有人鳴牌前，第一次輪到自己就喊聽",
        _event(Event.HEAVENLY_READY, "declared ready on the first turn, before any call"),
        ("ready",),
    ),
    RuleItem("soldier_kong", "兵卒全槓", 2, "有副露五張兵或五張卒的槓子", _soldier_kong),
    RuleItem(
        "partial_iron",
        "偏鐵支",
        2,
        "鐵支，胡之前的四張不是兩對",
        _shape(Shape.IRON, "鐵支 completed by a pair tile", pure=False),
        _CONTENT_ITEMS,
    ),
    RuleItem(
        "pure_two_pairs",
        "純兩對",
        2,
        "手上四張已是兩對，以兩對胡",
        _shape(Shape.TWO_PAIRS, "held two pairs, won on the prey", pure=True),
        _CONTENT_ITEMS,
    ),
    RuleItem(
        "general_leads",
        "將帥領兵",
        2,
        "將卒卒卒卒/帥兵兵兵兵",
        _shape(Shape.GENERAL_LEADS, "a general with four soldiers of his colour"),
        _CONTENT_ITEMS,
    ),
    # 3台*
    RuleItem(
        "soldiers_united", "兵卒戮力", 1, "三兵二卒或三卒二兵（3台*，副露2台）", _soldiers_united
    ),
    # 3台
    RuleItem("concealed_self_draw", "門清自摸", 3, "無副露並自摸胡牌", _concealed_self_draw),
    RuleItem(
        "human_win",
        "人胡",
        3,
        "有人鳴牌前，沒摸過牌就胡別人",
        _event(Event.HUMAN_WIN, "won a discard before ever drawing, before any call"),
    ),
    # 4台
    RuleItem(
        "kong_after_kong",
        "槓頂槓自摸",
        4,
        "槓後馬上用摸到那張加槓，再馬上用摸到那張自摸",
        _event(Event.KONG_AFTER_KONG, "kong, added to it with the next tile, then self-drew"),
        ("after_kong",),
    ),
    # 5台
    RuleItem(
        "pure_iron",
        "純鐵支",
        5,
        "手上四張已是同階兩對，以鐵支胡",
        _shape(Shape.IRON, "held the two pairs of one rank, won on the next rank", pure=True),
        _CONTENT_ITEMS,
    ),
    # 8台
    RuleItem("five_red_soldiers", "五兵合縱", 8, "五張兵", _five_soldiers(RED_SOLDIER)),
    RuleItem("five_black_soldiers", "五卒連橫", 8, "五張卒", _five_soldiers(BLACK_SOLDIER)),
    RuleItem(
        "earthly_win",
        "地胡",
        8,
        "有人鳴牌前，閒家第一張就自摸",
        _event(Event.EARTHLY_WIN, "non-dealer self-drew on the first draw, before any call"),
        ("concealed_self_draw",),
    ),
    RuleItem(
        "heavenly_win",
        "天胡",
        8,
        "莊家第一張就自摸",
        _event(Event.HEAVENLY_WIN, "dealer self-drew on the first draw"),
        ("concealed_self_draw",),
    ),
)

# Items that add 125 to the base points (the 0台 heading): 槓 is handled by the kong_bonus option.
_BONUS_ITEMS = ("soldiers_raid", "partial_two_pairs", "last_discard")


def _waived(rules: dict[str, Any]) -> frozenset[tuple[str, str]]:
    """The supersessions that rule options turn off (by default every item adds)."""
    waived: set[tuple[str, str]] = set()
    if rules["special_shapes_stack"]:
        waived |= {(s, c) for s in _SPECIAL_SHAPES for c in _CONTENT_ITEMS}
    if rules["special_wins_score_self_draw"]:
        waived |= {("earthly_win", "concealed_self_draw"), ("heavenly_win", "concealed_self_draw")}
    if rules["kong_after_kong_scores_after_kong"]:
        waived.add(("kong_after_kong", "after_kong"))
    return frozenset(waived)


def _dealer_seat(hand: Hand) -> str:
    """Where the dealer sits when the winner does not deal: ``rules.dealer_seat``, or "left" at a
    two-player table (the one opponent deals); "" when unknown or when the winner deals."""
    if hand.context.dealer is True:
        return ""
    if hand.context.players == 2:
        return "left"
    return str(hand.rules["dealer_seat"])


@dataclass(frozen=True)
class Scored:
    """One reading scored: its items, 台, and 基本點 with the parts they came from."""

    view: XiangqiView
    items: list[ScoreItem]
    tai: int
    parts: list[PointsPart]

    @property
    def base_points(self) -> int:
        return sum(p.amount for p in self.parts)


class Xiangqi(Variant):
    name = "xiangqi"
    aliases = ("象棋", "象棋麻將")
    title = "憨兒象棋麻將32張"
    unit = "台"
    rule_texts = ("003_e9946701ff292737.txt",)
    hand_size = HAND_SIZE
    events = EVENTS
    options = OPTIONS
    uses_pieces = True
    seats_by_wind = False  # the text has no winds: dealer true or false, seats left/across/right
    draw_reasons = DRAW_REASONS

    # ---- checks: each problem is one line naming the bad input ----

    def check_hand(self, hand: Hand) -> None:
        for tile in hand.all_tiles:
            if not tile.is_piece:
                raise HandError(f"tile {tile.code} ({tile.name}) is not a xiangqi piece")
        if hand.flowers:
            raise HandError("xiangqi is played without flowers")
        for meld in hand.melds:
            self.check_meld(meld)
        for tile, count in Counter(sort_tiles(hand.all_tiles)).items():
            if count > copies_in_set(tile):
                raise HandError(
                    f"{count} copies of {tile.name} ({tile.code}) in the hand:"
                    f" the set has {copies_in_set(tile)}"
                )
        size = len(hand.concealed) + 3 * len(hand.melds)
        if size != HAND_SIZE:
            raise HandError(
                f"a xiangqi hand has {HAND_SIZE} tiles (concealed, winning tile included,"
                f" plus 3 per meld), got {size}"
            )
        if hand.win_tile is None:
            raise HandError("win_tile is missing: name the piece that completed the hand")
        if hand.win_tile not in hand.concealed:
            raise HandError(f"winning tile {hand.win_tile.name} is not among the concealed tiles")
        self.check_context(hand)

    def check_meld(self, meld: Meld) -> None:
        """吃 takes 車馬包/俥傌炮 only; 碰 and the kongs take 兵 or 卒 only."""
        tiles = meld.tiles
        text = f"{meld.type.value}:{format_tiles(tiles, sort=False)}"
        if any(not t.is_piece for t in tiles):
            raise HandError(f"meld {text} holds a tile that is not a xiangqi piece")
        if meld.type is MeldType.CHI:
            if not is_chi(tiles):
                raise HandError(
                    f"meld {text} is not 車馬包 or 俥傌炮: xiangqi chi takes only those"
                )
            return
        sizes = {
            MeldType.PON: (3,),
            MeldType.KONG: (4,),
            MeldType.ADDED_KONG: (4, 5),
            MeldType.CONCEALED_KONG: (4, 5),
        }[meld.type]
        if len(set(tiles)) != 1 or not is_soldier(tiles[0]) or len(tiles) not in sizes:
            counts = " or ".join(str(n) for n in sizes)
            raise HandError(f"meld {text} is not {counts} 兵 or {counts} 卒")
        if meld.type is MeldType.CONCEALED_KONG and meld.claimed_from is not None:
            raise HandError(f"meld {text} is concealed: it is claimed from nobody")

    def check_context(self, hand: Hand) -> None:
        ctx = hand.context
        rules = hand.rules
        if ctx.players not in (2, 3, 4):
            raise HandError(f"players {ctx.players} is not 2, 3 or 4")
        if ctx.seat_wind != "E" or ctx.round_wind != "E":
            raise HandError("xiangqi has no winds: say dealer true or false instead")
        if ctx.dora_indicators or ctx.ura_dora_indicators or ctx.honba or ctx.riichi_sticks:
            raise HandError("dora, honba and riichi sticks are not used in xiangqi")
        if ctx.pao is not None:
            raise HandError("pao (役滿包) is not used in xiangqi")
        if ctx.dealer_streak < 0:
            raise HandError(f"dealer_streak {ctx.dealer_streak} is negative")
        seats = seats_for(ctx.players)
        listed = ", ".join(seats)
        if ctx.discarder is not None:
            if ctx.self_draw:
                raise HandError("a self-drawn win has no discarder")
            if ctx.discarder not in seats:
                raise HandError(
                    f"discarder {ctx.discarder!r} is not a seat of a {ctx.players}-player table"
                    f" ({listed})"
                )
        for meld in hand.melds:
            text = f"{meld.type.value}:{format_tiles(meld.tiles, sort=False)}"
            if meld.type is MeldType.CHI and meld.claimed_from not in (None, "left"):
                raise HandError(
                    f"meld {text} claimed from {meld.claimed_from!r}: chi takes only the left"
                    " player's (上家) discard"
                )
            if meld.claimed_from is not None and meld.claimed_from not in seats:
                raise HandError(
                    f"meld {text} claimed from {meld.claimed_from!r}: seats are {listed}"
                )
        for event in ctx.events:
            if event not in self.events:
                allowed = " ".join(sorted(e.value for e in self.events))
                raise HandError(f"event {event.value!r} is not used in xiangqi (known: {allowed})")
        if rules["dealer_seat"]:  # before the events: 人胡's check counts from the dealer's seat
            if ctx.dealer is True:
                raise HandError("dealer_seat is for a winner who does not deal, but dealer is true")
            if rules["dealer_seat"] not in seats:
                raise HandError(
                    f"dealer_seat {rules['dealer_seat']!r} is not a seat of a"
                    f" {ctx.players}-player table ({listed})"
                )
        self._check_events(hand)

    def _check_events(self, hand: Hand) -> None:
        ctx = hand.context
        dealer = ctx.dealer is True
        concealed = hand.is_concealed

        def need(event: Event, ok: bool, what: str) -> None:
            if ctx.has(event) and not ok:
                raise HandError(f"{event.value} {what}")

        need(
            Event.DECLARED_READY, concealed, "(聽) needs a concealed hand: no chi, pon or open kong"
        )
        need(Event.HEAVENLY_READY, concealed, "(天聽) needs a concealed hand")
        # What an event needs of the tiles (a kong, the robbed 兵) is the hand's to show: not
        # checked before it has any (hand_json.check_context).
        unseen = hand.shows_no_tiles
        need(
            Event.AFTER_KONG,
            ctx.self_draw and (unseen or bool(kong_actions(hand.melds))),
            "(槓上開花) is a self-draw by a hand with a kong",
        )
        need(
            Event.KONG_AFTER_KONG,
            ctx.self_draw and (unseen or kong_actions(hand.melds) >= 2),
            "(槓頂槓自摸) is a self-draw by a hand with a kong of five",
        )
        need(Event.LAST_TILE, ctx.self_draw, "(海底撈月) is a self-draw")
        need(Event.LAST_DISCARD, not ctx.self_draw, "(河底撈魚) wins another player's discard")
        win = hand.win_tile
        need(
            Event.ROBBING_KONG,
            not ctx.self_draw and (unseen or (win is not None and is_soldier(win))),
            "(搶槓) wins a 兵 or 卒 another player added to a kong, not a self-draw",
        )
        need(
            Event.HEAVENLY_WIN,
            dealer and ctx.self_draw and not hand.melds,
            "(天胡) is the dealer's self-draw on the first draw",
        )
        need(
            Event.EARTHLY_WIN,
            not dealer and ctx.self_draw and not hand.melds,
            "(地胡) is a non-dealer's self-draw on the first draw",
        )
        need(
            Event.HUMAN_WIN,
            not dealer and not ctx.self_draw and not hand.melds,
            "(人胡) is a non-dealer winning a discard before drawing",
        )
        self._check_human_win_discarder(hand)
        check_never_together(hand, NEVER_TOGETHER + READY_BEFORE_FIRST_DRAW)
        if win is not None:
            check_robbed_tile(hand, copies=copies_in_set(win))

    @staticmethod
    def _check_human_win_discarder(hand: Hand) -> None:
        """人胡's discarder by chairs: play goes from the dealer round to the winner's left
        (上家), so only the seats from the dealer's to the left have played before the winner."""
        dealer = _dealer_seat(hand)
        after_winner = tuple(reversed(seats_for(hand.context.players)))  # right (下家) .. left
        if dealer in after_winner:  # unknown or the winner's own: nothing to count from
            check_human_win_discarder(hand, after_winner[after_winner.index(dealer) :])

    # ---- scoring ----

    def score(self, hand: Hand) -> ScoreResult:
        rules = dict(hand.rules)
        readings = read_hand(hand.concealed, hand.melds, hand.win_tile)
        if not readings:
            return self._not_winning(
                "the pieces form no 面子 + 對子 and no closed special shape", [], 0, ""
            )
        waived = _waived(rules)
        scored = [self._score_reading(XiangqiView(hand, r, rules), waived) for r in readings]
        # The best reading for the winner: one that can win, then the most points; ties go to the
        # first in reading order.
        best = max(scored, key=lambda s: (s.tai >= rules["minimum_tai"], s.base_points, s.tai))
        decomposition = best.view.reading.describe()
        ctx = hand.context
        if ctx.has(Event.FURITEN) and not ctx.self_draw:
            return self._not_winning(
                "振聽: this hand may not win another player's discard (it may still self-draw)",
                best.items,
                best.tai,
                decomposition,
            )
        if best.tai < rules["minimum_tai"]:
            reason = (
                "0 台 cannot win"
                if best.tai == 0
                else f"{best.tai} 台 is below the {rules['minimum_tai']} 台 this table needs"
            )
            return self._not_winning(reason, best.items, best.tai, decomposition)
        dealer_seat = _dealer_seat(hand)
        table = Table(
            players=ctx.players,
            winner_is_dealer=ctx.dealer is True,
            dealer_seat=dealer_seat,
            dealer_streak=ctx.dealer_streak,
            draws_in_a_row=rules["draws_in_a_row"],
        )
        payments = win_payments(best.base_points, table, ctx.self_draw, ctx.discarder)
        extra = surcharges(table, ctx.self_draw)
        return ScoreResult(
            variant=self.name,
            winning=True,
            total=best.tai,
            unit=self.unit,
            items=tuple(best.items),
            payments=tuple(payments),
            decomposition=decomposition,
            extra={
                "shape": best.view.shape.value,
                "base_points": best.base_points,
                "points": [p.to_json() for p in best.parts],
                **({"surcharges": [p.to_json() for p in extra]} if extra else {}),
            },
        )

    def _score_reading(self, view: XiangqiView, waived: frozenset[tuple[str, str]]) -> Scored:
        items = apply_table(TABLE, view, waived)
        tai = sum(i.value for i in items)
        return Scored(view, items, tai, self._points(view, items, tai))

    def _points(self, view: XiangqiView, items: list[ScoreItem], tai: int) -> list[PointsPart]:
        """基本點: the 台 table, +125 additions, then 連莊 and 胡莊家."""
        rules = view.rules
        ctx = view.ctx
        parts = [PointsPart(f"{tai}台", points_for_tai(tai), f"{tai} 台 in the point table")]
        codes = {i.code: i for i in items}
        for code in _BONUS_ITEMS:
            if code in codes:
                parts.append(PointsPart(codes[code].name, SHAPE_BONUS, "+125"))
        kongs = kong_actions(view.hand.melds)
        if rules["kong_bonus"] == "per_kong" and kongs:
            parts.append(PointsPart("槓", SHAPE_BONUS * kongs, f"{kongs} kong(s): 125×{kongs}"))
        elif "single_kong" in codes:
            parts.append(PointsPart("槓", SHAPE_BONUS, "單槓: +125"))
        dealer_seat = _dealer_seat(view.hand)
        if (
            rules["dealer_bonus"] == "dealer_discard"
            and ctx.dealer is not True
            and not ctx.self_draw
            and ctx.dealer_streak > 0
            and not dealer_seat
        ):
            raise HandError("dealer_bonus 'dealer_discard' needs rules.dealer_seat for this win")
        parts += streak_parts(
            winner_is_dealer=ctx.dealer is True,
            dealer_streak=ctx.dealer_streak,
            discarder_is_dealer=bool(dealer_seat) and ctx.discarder == dealer_seat,
            streak_bonus=rules["streak_bonus"],
            dealer_bonus=rules["dealer_bonus"],
        )
        return parts

    # ---- 流局 ----

    def score_draw(self, data: Any) -> dict[str, Any]:
        """The payments of a drawn hand: ``{"variant": "xiangqi", "players": 4, "dealer_streak": 0,
        "rules": {...}, "draw": {"reason": "wall", "dealer": 1, "hands": {...}, "discards": {...}}}``
        (``xiangqi_draws.draw_json`` describes the ``draw`` object)."""
        resolved = self.resolve_rules(draw_rules(data, DRAW_INPUT_KEYS))
        players, streak = data.get("players", 4), data.get("dealer_streak", 0)
        for key, value in (("players", players), ("dealer_streak", streak)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise HandError(f"{key} must be a whole number, got {shown(value)}")
        if streak < 0:
            raise HandError(f"dealer_streak {streak} is negative")
        result = draw_json(
            data.get("draw"),
            players=players,
            dealer_streak=streak,
            rules=resolved,
            check_meld=self.check_meld,
        )
        if "id" in data:
            result = {"id": data["id"], **result}
        return result

    def _not_winning(
        self, reason: str, items: list[ScoreItem], tai: int, decomposition: str
    ) -> ScoreResult:
        return ScoreResult(
            variant=self.name,
            winning=False,
            total=tai,
            unit=self.unit,
            items=tuple(items),
            payments=(),
            decomposition=decomposition,
            extra={"reason": reason, "base_points": 0},
        )
