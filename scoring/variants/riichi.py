"""Japanese riichi mahjong (日本麻將), scored in 翻 and 符 by the ``mahjong`` library.

Implements ``shared/rules/004``. The yaku, 符 and points come from the library (through
``riichi_adapter``); this module checks the hand and the events, and turns the library's answer
into our result: items named as 004 names them (``riichi_names``), ``han``, ``fu``, ``limit`` and
who pays (``riichi_points``). docs/variants/riichi.md explains the readings:

1. What the library refuses is a one-line error: a complete hand with no yaku (一翻起胡; 懸賞 do not
   count), tiles that are not a winning hand, and events the hand cannot have (立直 with an open
   hand, 一發 without 立直, 嶺上開花 without a kong ...; most are caught before the library runs).
2. 赤懸賞 only with the rule option ``red_fives``; without it a red five is an error.
3. 流局滿貫 (event ``nagashi_mangan``) is given without tiles and paid as a self-drawn 滿貫; it is a
   draw, so 本場 and 供託 are not paid with it.
4. Items count a 役滿 as 13 翻 and a 雙役滿 as 26, so ``total`` is always the 翻 the library used.
5. 供託 is paid by the ``"table"``; ``riichi_sticks`` counts every stick on it, this hand's too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_response import HandResponse

from scoring.drawn_hands import (
    WALL,
    DealMove,
    DrawReason,
    Streak,
    WindDraw,
    draw_result,
    read_wind_draw,
    ready_payments,
)
from scoring.errors import HandError, NoYakuError
from scoring.event_checks import (
    DEAD_WALL_PAIRS,
    NEVER_TOGETHER,
    check_kong_for,
    check_never_together,
    check_robbed_tile,
)
from scoring.hand import Event, Hand, WinContext, check_copies
from scoring.result import Payment, ScoreItem, ScoreResult
from scoring.rules import RuleOption
from scoring.tiles import Tile
from scoring.variant import Variant
from scoring.variants.riichi_adapter import library_call, nagashi_call
from scoring.variants.riichi_names import BASE_FU_NAMES, FU_NAMES, YAKU_NAMES
from scoring.variants.riichi_points import LIMITS, points
from scoring.variants.riichi_reading import scored_reading

EVENTS = frozenset(
    {
        Event.RIICHI,
        Event.DOUBLE_RIICHI,
        Event.IPPATSU,
        Event.LAST_TILE,
        Event.LAST_DISCARD,
        Event.AFTER_KONG,
        Event.ROBBING_KONG,
        Event.HEAVENLY_WIN,
        Event.EARTHLY_WIN,
        Event.NAGASHI_MANGAN,
        Event.FURITEN,  # 振聽: no flag of the library; it only bars a discard win
    }
)
RIICHI_EVENTS = frozenset({Event.RIICHI, Event.DOUBLE_RIICHI})
FIRST_DRAW_WINS = frozenset({Event.HEAVENLY_WIN, Event.EARTHLY_WIN})

NOTEN_SHARES = 12
"""罰符 is shared alike by 1, 2 or 3 players on each side (3, 4 or 3 payments): 3,000 splits so,
1,000 paid 333 and lost one."""

OPTIONS = (
    RuleOption(
        "red_fives",
        False,
        "赤懸賞: the red fives 0m 0p 0s are in the set and each counts one 懸賞 翻",
    ),
    RuleOption(
        "noten_payment",
        3000,
        "流局罰符: what the players not ready pay those ready on a drawn hand, in all (3k點)",
        check=lambda value: (
            None
            if value % NOTEN_SHARES == 0
            else f"must share alike among 1 to 3 players on each side: a multiple of {NOTEN_SHARES}"
        ),
    ),
)

WALL_READY = replace(WALL, takes_ready=True)
"""荒牌流局 as riichi plays it: who was ready collects 罰符 and keeps the deal."""
ABORTIVE = DrawReason(
    "abortive",
    "途中流局",
    "四風連打, 四槓算了, 九種九牌, 三家和 or 四立直: the hand stopped before the wall ran out",
)
NAGASHI = DrawReason(
    "nagashi",
    "流局滿貫",
    "the wall ran out and someone made 流局滿貫: a self-drawn 滿貫 to each, paid instead of 罰符",
    takes_ready=True,
    asks="nagashi",
    asks_name="who made 流局滿貫",
)

MAX_INDICATORS = 5
"""懸賞 indicators: the first, and one more for each of at most four kongs (每槓一次多開一張)."""

NOT_WINNING = "not a winning hand: the tiles do not form four sets and a pair, 七對子 or 國士無雙"
NO_YAKU = "no yaku: 004 is 一翻起胡 and 懸賞 do not count toward it"

# The library's refusals as our one-line errors. Beyond the first two, our checks normally catch
# them first; they are kept so that a refusal is never silent.
LIBRARY_ERRORS = {
    HandCalculator.ERR_HAND_NOT_WINNING: NOT_WINNING,
    HandCalculator.ERR_NO_YAKU: NO_YAKU,
    HandCalculator.ERR_NO_WINNING_TILE: "the winning tile is not in the hand",
    HandCalculator.ERR_OPEN_HAND_RIICHI: "riichi needs a concealed hand",
    HandCalculator.ERR_OPEN_HAND_DABURI: "double_riichi needs a concealed hand",
    HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI: "ippatsu needs riichi or double_riichi",
}


def _names(events: frozenset[Event]) -> str:
    return " ".join(sorted(e.value for e in events))


class Riichi(Variant):
    name = "riichi"
    aliases = ("jp", "japanese", "日麻")
    title = "日本麻將 (立直麻將)"
    unit = "翻"
    rule_texts = ("004_1d05b532e3343436.txt",)
    hand_size = 14
    events = EVENTS
    options = OPTIONS
    uses_pao = True  # 004: 確定役滿包
    riichi_counters = True
    unseen_events = (Event.RIICHI,)
    draw_reasons = (WALL_READY, ABORTIVE, NAGASHI)

    def score_draw(self, data: Any) -> dict[str, Any]:
        """流局: after the wall ran out (``wall``), who was not ready (聽) pays 罰符 to who was,
        and the dealer deals again if ready; a hand stopped early (``abortive``, 中途流局) pays
        nothing and the dealer deals again (中途流局一律連莊). ``nagashi``: the wall ran out and
        the chairs in ``draw.nagashi`` made 流局滿貫, each paid as a self-drawn 滿貫 instead of
        罰符. Every draw adds a 本場; the sticks on the table stay there for the next winner."""
        draw = read_wind_draw(data, self)
        if draw.reason == ABORTIVE.code:
            return draw_result(self.name, draw, [], DealMove(True, Streak.UP), data)
        deal = DealMove(dealer_stays="E" in draw.ready, streak=Streak.UP)
        if draw.named:  # the makers of 流局滿貫 (reason nagashi)
            nagashi = [seat for seat in draw.chairs if seat in draw.named]
            payments = [p for seat in nagashi for p in self._nagashi_paid(seat, draw)]
            return draw_result(self.name, draw, payments, deal, data, nagashi=nagashi)
        total = int(draw.rules["noten_payment"])
        return draw_result(
            self.name, draw, ready_payments(draw.ready, draw.chairs, total), deal, data
        )

    def _nagashi_paid(self, seat: str, draw: WindDraw) -> tuple[Payment, ...]:
        """What the players pay ``seat`` for its 流局滿貫: the hand ``nagashi_mangan`` scores."""
        context = WinContext(seat_wind=seat, events=frozenset({Event.NAGASHI_MANGAN}))
        return self.score(
            Hand(concealed=(), win_tile=None, context=context, rules=draw.rules)
        ).payments

    # --- checks -------------------------------------------------------------------------------

    def uses_red_fives(self, rules: Mapping[str, Any]) -> bool:
        return bool(rules.get("red_fives", False))

    def check_hand(self, hand: Hand) -> None:
        if Event.NAGASHI_MANGAN in hand.context.events:
            self._check_nagashi(hand)
            return
        red = self.allows_red_fives(hand)
        if not red:
            for tile in hand.all_tiles:
                if tile.is_red_five:
                    raise HandError(
                        f"red five {tile.code} is not used unless the rule option red_fives is on"
                    )
        super().check_hand(hand)
        if red:
            plain_fives = Counter(t for t in hand.all_tiles if t.number == 5 and t.is_suited)
            for five, count in plain_fives.items():
                if count == 4:
                    raise HandError(
                        f"four plain {five.code} with red fives in play: one of them is"
                        f" {Tile(five.suit, 0).code}"
                    )
        self._check_indicators(hand, red)

    def _check_indicators(self, hand: Hand, red: bool) -> None:
        ctx = hand.context
        for label, tiles in (
            ("dora_indicators", ctx.dora_indicators),
            ("ura_dora_indicators", ctx.ura_dora_indicators),
        ):
            for tile in tiles:
                if not (tile.is_suited or tile.is_honor):
                    raise HandError(f"{label} {tile.code} is not a mahjong tile")
                if tile.is_red_five and not red:
                    raise HandError(
                        f"{label} {tile.code}: red fives are not used unless red_fives is on"
                    )
        dora, ura = ctx.dora_indicators, ctx.ura_dora_indicators
        if len(dora) > MAX_INDICATORS:
            raise HandError(f"{len(dora)} dora_indicators: a table shows at most {MAX_INDICATORS}")
        if ura and not ctx.events & RIICHI_EVENTS:
            raise HandError("ura_dora_indicators are only turned over after riichi")
        if len(ura) > len(dora):
            raise HandError(
                f"{len(ura)} ura_dora_indicators but {len(dora)} dora_indicators:"
                " each 裏懸賞 lies under one 懸賞 indicator"
            )
        if dora or ura:
            check_copies(hand.all_tiles + dora + ura)

    def check_context(self, hand: Hand) -> None:
        super().check_context(hand)
        ctx = hand.context
        events = ctx.events
        if ctx.dealer is not None and ctx.dealer != (ctx.seat_wind == "E"):
            raise HandError(
                f"dealer {str(ctx.dealer).lower()} with seat_wind {ctx.seat_wind}:"
                " in riichi the dealer is the East seat"
            )
        if ctx.dealer_streak:
            raise HandError("dealer_streak is not used in riichi: give honba (本場) instead")
        if ctx.players != 4:
            raise HandError(f"riichi is scored for 4 players, got players {ctx.players}")
        for label, count in (("honba", ctx.honba), ("riichi_sticks", ctx.riichi_sticks)):
            if count < 0:
                raise HandError(f"{label} {count} is negative")
        opened = next((m for m in hand.melds if m.is_open), None)
        if opened is not None:
            for event in (Event.RIICHI, Event.DOUBLE_RIICHI, Event.IPPATSU):
                if event in events:
                    raise HandError(
                        f"{event.value} needs a concealed hand, but {opened} is an open meld"
                    )
        if Event.IPPATSU in events and not events & RIICHI_EVENTS:
            raise HandError("ippatsu (一發) needs riichi or double_riichi")
        self._check_timing(hand)

    def _check_timing(self, hand: Hand) -> None:
        """Events that say how the tile came must agree with self_draw and with each other."""
        ctx = hand.context
        events = ctx.events
        draw_only = (Event.LAST_TILE, Event.AFTER_KONG, *FIRST_DRAW_WINS)
        for event in draw_only:
            if event in events and not ctx.self_draw:
                raise HandError(f"{event.value} is a self-drawn win: set self_draw")
        if Event.FURITEN in events and not ctx.self_draw:
            # 004: 振聽 "則不能夠胡別人打的牌": a furiten hand wins by its own draw only.
            raise HandError("furiten (振聽) cannot win on another player's tile: only self_draw")
        for event in (Event.LAST_DISCARD, Event.ROBBING_KONG):
            if event in events and ctx.self_draw:
                raise HandError(f"{event.value} is a win on another player's tile, not self_draw")
        check_never_together(hand, NEVER_TOGETHER + DEAD_WALL_PAIRS)
        check_kong_for(hand, Event.AFTER_KONG, "嶺上開花")
        if {Event.AFTER_KONG, Event.IPPATSU} <= events:
            # 嶺上開花 is won on the tile drawn for a kong the winner just declared, after riichi;
            # 004: 一發 "若有吃碰槓則失效" (any call, kong included, ends it).
            raise HandError(
                "ippatsu (一發) ends with the kong that after_kong (嶺上開花) was won on"
            )
        check_robbed_tile(hand, shown=ctx.dora_indicators + ctx.ura_dora_indicators)
        first = events & FIRST_DRAW_WINS
        if first:
            if hand.melds:
                raise HandError(f"{_names(first)} is won before any meld: {hand.melds[0]}")
            if events & (RIICHI_EVENTS | {Event.IPPATSU}):
                raise HandError(f"{_names(first)} is won before anyone can declare riichi")
        if Event.HEAVENLY_WIN in events and not hand.context.is_dealer:
            raise HandError("heavenly_win (天和) is the dealer's: seat_wind must be E")
        if Event.EARTHLY_WIN in events and hand.context.is_dealer:
            raise HandError("earthly_win (地和) is a non-dealer's: the dealer wins 天和")

    def _check_nagashi(self, hand: Hand) -> None:
        ctx = hand.context
        if hand.concealed or hand.melds or hand.win_tile is not None:
            raise HandError(
                "nagashi_mangan (流局滿貫) is scored without tiles: leave out hand, win_tile, melds"
            )
        others = ctx.events - {Event.NAGASHI_MANGAN}
        if others:
            raise HandError(f"nagashi_mangan is a draw: it takes no other event ({_names(others)})")
        if ctx.self_draw or ctx.discarder is not None:
            raise HandError("nagashi_mangan is a draw: no self_draw and no discarder")
        if ctx.dora_indicators or ctx.ura_dora_indicators:
            raise HandError("nagashi_mangan is a fixed 滿貫: it takes no dora indicators")
        self.check_context(hand)

    def needs_tiles(self, events: frozenset[Event]) -> bool:
        return Event.NAGASHI_MANGAN not in events

    # --- scoring ------------------------------------------------------------------------------

    def score(self, hand: Hand) -> ScoreResult:
        events = hand.context.events
        if events and Event.NAGASHI_MANGAN in events:
            return self._nagashi(hand)
        red_fives = bool(hand.rules.get("red_fives", False))
        call = library_call(hand, red_fives)
        response = call.run()
        if response.error is not None:
            refused = NoYakuError if response.error == HandCalculator.ERR_NO_YAKU else HandError
            raise refused(refusal(response.error))
        # Found when the result is written out: ten points of the adapter's speed otherwise
        # (benchmarks/bench_riichi.py), spent on every "does it win" the layout asks.
        return self._result(
            hand,
            response,
            lambda: scored_reading(hand, call, response, lambda: library_call(hand, red_fives)),
        )

    def _result(
        self, hand: Hand, response: HandResponse, reading: Callable[[], str]
    ) -> ScoreResult:
        cost = response.cost
        han = response.han
        assert cost is not None and han is not None and response.yaku is not None
        is_open = response.is_open_hand
        items = []
        for yaku in response.yaku:
            row = YAKU_NAMES[yaku.yaku_id]
            value = yaku.han_open if is_open and yaku.han_open else yaku.han_closed
            items.append(ScoreItem(row.code, row.name, value, _why(row.why, yaku, value)))
        pao = _pao_value(hand, response)
        payout, payments = points(hand, cost, hand.context.self_draw, pao)
        fu = response.fu or None
        extra: dict[str, Any] = {
            "han": han,
            "fu": fu,
            "fu_details": _fu_details(response),
            "limit": LIMITS[cost["yaku_level"]],
            "points": payout,
        }
        return ScoreResult(
            variant=self.name,
            winning=True,
            total=han,
            unit=self.unit,
            items=tuple(items),
            payments=tuple(payments),
            decomposition=reading,
            extra=extra,
        )

    def _nagashi(self, hand: Hand) -> ScoreResult:
        if hand.context.pao is not None:
            raise HandError(PAO_WITHOUT_LIMIT)
        response = nagashi_call(hand).run()
        cost = response.cost
        assert cost is not None and response.han is not None
        payout, payments = points(hand, cost, self_draw=True)
        row = YAKU_NAMES[10]
        item = ScoreItem(
            row.code,
            row.name,
            response.han,
            f"{row.why}: paid as a self-drawn 滿貫; a draw, so 本場 and 供託 are not paid",
        )
        return ScoreResult(
            variant=self.name,
            winning=True,
            total=response.han,
            unit=self.unit,
            items=(item,),
            payments=tuple(payments),
            decomposition="",
            extra={
                "han": response.han,
                "fu": None,
                "fu_details": [],
                "limit": "mangan",
                "points": payout,
                "drawn": True,  # a draw, paid as a 滿貫: the deal moves as after any draw
            },
        )


def refusal(error: str) -> str:
    """The library's refusal as our one-line error."""
    return LIBRARY_ERRORS.get(error, f"the hand cannot be scored: {error}")


PAO_WITHOUT_LIMIT = "pao (役滿包) is for 大三元 or 大四喜, which this hand does not score"
PAO_YAKU = {103: "is_dragon", 111: "is_wind"}
"""The 役滿 a fed call can make certain (004: 確定役滿包), by the library's yaku id: 大三元 (the
third dragon set) and 大四喜 (the fourth wind set), with what their sets are of."""


def _pao_value(hand: Hand, response: HandResponse) -> int:
    """What the ``pao`` seat is liable for: the 役滿 its discard made certain (大三元 one, 大四喜
    two), 32,000 a 役滿 (48,000 to the dealer); 0 when no seat is named."""
    ctx = hand.context
    if ctx.pao is None:
        return 0
    assert response.yaku is not None
    liable = [yaku for yaku in response.yaku if yaku.yaku_id in PAO_YAKU]
    if not liable:
        raise HandError(PAO_WITHOUT_LIMIT)
    kind = PAO_YAKU[liable[0].yaku_id]
    called = [m for m in hand.melds if m.is_open and getattr(m.tiles[0], kind)]
    if not called:
        raise HandError("pao (役滿包) needs the set it made certain called: an open pon or kong")
    fed = {m.claimed_from for m in called}
    if None not in fed and ctx.pao not in fed:  # a set that says no origin may be pao's
        raise HandError(f"pao {ctx.pao}: no called set of the 役滿 came from {ctx.pao}")
    return (liable[0].han_closed // 13) * (48000 if ctx.is_dealer else 32000)


def _why(reason: str, yaku: Any, value: int) -> str:
    """The row's reason, and what sets the value: a count of 懸賞, 役滿, one 翻 less when open."""
    if yaku.yaku_id >= 120:
        return f"{value} 張: {reason}"
    if yaku.is_yakuman:
        level = {13: "役滿", 26: "雙役滿"}.get(value, f"{value // 13}倍役滿")
        return f"{reason} ({level})"
    if yaku.han_open and yaku.han_open < yaku.han_closed and value == yaku.han_open:
        return f"{reason} (鳴牌: one 翻 less open)"
    return reason


def _fu_details(response: HandResponse) -> list[dict[str, Any]]:
    out = []
    for detail in response.fu_details or ():
        reason = detail["reason"]
        fu = detail["fu"]
        name = BASE_FU_NAMES.get(fu, FU_NAMES[reason]) if reason == "base" else FU_NAMES[reason]
        out.append({"fu": fu, "reason": reason, "name": name})
    return out
