"""明將麻雀 (a Hong Kong / Japanese hybrid), scored in 番: implements ``shared/rules/002``.

136 tiles, no flowers, no red fives, 14-tile hands. The 和種 are the table in ``mingjiang_table``;
points and payments are ``mingjiang_points``; the end-of-game ranking is ``scoring.settle``. This
module reads the hand every way it can be read, keeps the best reading, and applies the 禁例:

1. 例牌 are 十番爆棚 (10 番) and end the game at once (``ends_game`` in the result); no hand counts
   more than 10 番 (``fan_uncapped`` shows the sum when it is more).
2. 最少N番 (小三元 4, 大三元 8, 四歸四 5) adds a 最少N番 item up to N when the items fall short.
3. 雞糊 (0 番): option ``chicken_hand`` = ``"continue"`` (方案一, default: no points, the hand goes
   on, ``hand_continues``; a third 雞糊 in one hand is a drawn hand) or ``"false_win"`` (方案二:
   scored as 詐糊).
4. 振聽 (event ``furiten``: the winning tile is one the winner discarded before) scores as 雞糊,
   self-drawn too (自摸亦受限制; option ``furiten_self_draw``).
5. 詐糊 (event ``false_win``, also for a 過水 or 食替 breach): the winner pays 55 to each other
   player; the tiles are not scored.
6. A hand that is not complete is reported as not winning, without payments: a misread photo
   must not fine anyone; declare ``false_win`` to settle a 詐糊.

docs/variants/mingjiang.md explains every reading and option.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from scoring.drawn_hands import DEAL_PASSES, WALL, draw_result, read_wind_draw
from scoring.errors import HandError
from scoring.event_checks import (
    DEAD_WALL_PAIRS,
    NEVER_TOGETHER,
    check_never_together,
    check_robbed_tile,
)
from scoring.hand import Event, Hand, build
from scoring.result import ScoreItem, ScoreResult
from scoring.rules import RuleOption
from scoring.tiles import tile34
from scoring.variant import Variant
from scoring.variants.mingjiang_facts import (
    KONG,
    PAIR,
    SEQUENCE,
    HandFacts,
    MingjiangView,
    Shape,
    views,
)
from scoring.variants.mingjiang_points import (
    FALSE_WIN_PENALTY,
    LIMIT_FAN,
    base_points,
    false_win_payments,
    seats_out,
    seats_out_wrong,
    win_payments,
)
from scoring.variants.mingjiang_table import (
    LIMIT_CODES,
    MINIMUMS,
    Hits,
    check_items,
    hand_items,
    reading_items,
    resolve,
    waived,
)

OPTIONS = (
    RuleOption(
        "chicken_hand",
        "continue",
        "雞糊 (0 番): 'continue' = 方案一, no points and the hand goes on; 'false_win' = 方案二,"
        " scored as 詐糊",
        ("continue", "false_win"),
    ),
    RuleOption(
        "seats_out",
        "",
        "seats that already won a 雞糊 this hand (方案一), e.g. 'S': they pay nothing on a later"
        " self-draw and their discards cannot be won",
        check=seats_out_wrong,
    ),
    RuleOption("furiten_self_draw", True, "振聽 makes a self-drawn win a 雞糊 too (自摸亦受限制)"),
    RuleOption(
        "dealer_extra_fan",
        False,
        "莊家收支多一番 on top of the share table: payments the dealer makes or takes count 1 番"
        " more",
    ),
    RuleOption(
        "double_wind_counts_twice",
        False,
        "a set of the wind that is both seat and round wind scores 番牌 twice",
    ),
    RuleOption("missing_suit_allows_honours", False, "缺一門 may hold honours"),
    RuleOption("seven_pairs_scores_menqing", True, "七對子 also scores 門前清"),
    RuleOption("honours_and_ends_scores_outside", False, "混么九 also scores 混全帶么"),
)

EVENTS = frozenset(
    {
        Event.AFTER_KONG,
        Event.ROBBING_KONG,
        Event.LAST_TILE,
        Event.LAST_DISCARD,
        Event.HEAVENLY_WIN,
        Event.EARTHLY_WIN,
        Event.HUMAN_WIN,
        Event.FURITEN,
        Event.FALSE_WIN,
    }
)


MINGJIANG_NEVER_TOGETHER = (
    # 002's 地胡 wins the dealer's first discard (食莊家打出嚟嗰隻牌) and its 人胡 any win of the
    # first go-round, self-drawn too (自摸或食出銃): neither is the last tile or discard of a
    # wall of 69 live tiles, nor a tile added to a kong, which needs a pon first.
    (Event.EARTHLY_WIN, Event.LAST_DISCARD),
    (Event.EARTHLY_WIN, Event.ROBBING_KONG),
    (Event.HUMAN_WIN, Event.LAST_TILE),
    # 振聽 is a win on a tile the winner discarded (食嗰隻牌係自己打過): 天胡 and 地胡 win
    # before the winner has discarded anything.
    (Event.HEAVENLY_WIN, Event.FURITEN),
    (Event.EARTHLY_WIN, Event.FURITEN),
)
"""Pairs 明將's own meanings of its events rule out, beside the tables' common ones."""


def _seats_out(hand: Hand) -> tuple[str, ...]:
    """The seats out of the hand (``seats_out``, checked); none under 方案二, whatever the
    option still names: there a 雞糊 is a 詐糊 (唔可以食雞糊) and leaves no seat out (the app
    keeps the option as hands go, and a table may switch 方案 mid-hand).

    A seat out is one whose discards nobody may win (其他人唔可以...食佢打啲牌): a win on one is
    refused here, in the check every hand passes, whatever it would score (a 雞糊 returned
    before the payments were worked out, and was taken). A declared 詐糊 (event ``false_win``)
    is not refused: calling a win on such a discard is one."""
    if hand.rules["chicken_hand"] == "false_win":
        return ()
    ctx = hand.context
    out = seats_out(hand.rules, ctx.seat_wind)
    discarder = None if ctx.self_draw else ctx.discarder
    if (
        discarder is not None
        and discarder in out
        and not (ctx.events and Event.FALSE_WIN in ctx.events)
    ):
        raise HandError(
            f"discarder {discarder} already won a 雞糊 this hand: its discards cannot be won"
        )
    return out


class Mingjiang(Variant):
    name = "mingjiang"
    aliases = ("明將", "明將麻雀")
    title = "明將麻雀"
    unit = "番"
    rule_texts = ("002_aea85c276256f93b.txt",)
    hand_size = 14
    events = EVENTS
    options = OPTIONS
    dealer_repeats = False  # 002: 冇冧莊
    draw_reasons = (WALL,)

    def score_draw(self, data: Any) -> dict[str, Any]:
        """流局: nobody pays (無不聽罰分, 無本場分) and the deal passes (冇冧莊)."""
        draw = read_wind_draw(data, self)
        return draw_result(self.name, draw, [], DEAL_PASSES, data)

    def check_context(self, hand: Hand) -> None:
        super().check_context(hand)
        ctx = hand.context
        if ctx.dealer is not None and ctx.dealer != (ctx.seat_wind == "E"):
            raise HandError(
                f"dealer {str(ctx.dealer).lower()} contradicts seat_wind {ctx.seat_wind}:"
                " in mingjiang the dealer sits East"
            )
        if ctx.players != 4:
            raise HandError(f"mingjiang is played by 4 players, got players {ctx.players}")
        if ctx.dealer_streak:
            # 002: 冇冧莊, 無本場分. Taken without a word, a table that gave one would think it
            # scored (as riichi refuses a dealer_streak, and the others honba).
            raise HandError(
                f"dealer_streak {ctx.dealer_streak} is not counted in mingjiang: the deal passes"
                " every hand (冇冧莊) and no streak is paid (無本場分)"
            )
        _seats_out(hand)
        # 002: 王牌十四隻 (DEAD_WALL_PAIRS)
        check_never_together(hand, NEVER_TOGETHER + DEAD_WALL_PAIRS + MINGJIANG_NEVER_TOGETHER)
        check_robbed_tile(hand)

    def score(self, hand: Hand) -> ScoreResult:
        ctx = hand.context
        rules = hand.rules
        out = _seats_out(hand)
        events = ctx.events
        if events and Event.FALSE_WIN in events:
            return self._false_win(hand, "詐糊 declared (false_win)", "")
        facts = HandFacts(hand)
        found = views(facts)
        if not found:
            return self._not_winning(hand)
        skip = waived(rules)
        first = found[0]
        per_hand = check_items(hand_items(first), first)
        if len(found) == 1:
            kept = resolve(per_hand + check_items(reading_items(first.holds), first), skip)
            view = first
            counted, raw = _tally(kept)
        else:
            best: tuple[int, bool, int, MingjiangView, Hits] | None = None
            for reading in found:
                hits = resolve(per_hand + check_items(reading_items(reading.holds), reading), skip)
                fan, plain = _tally(hits)
                # A 例牌 before an ordinary reading of as many 番: it also ends the game (四暗刻
                # 22233344466688m is 清一色 一色三順 斷么九 門前清 too, 10 番 and more).
                limit = any(item.code in LIMIT_CODES for item, _ in hits)
                # The first of equal readings wins: readings come in a fixed order (shape, then
                # sorted sets), so the result never depends on the order the tiles were typed in.
                if best is None or (fan, limit, plain) > best[:3]:
                    best = (fan, limit, plain, reading, hits)
            assert best is not None
            counted, _, raw, view, kept = best
        decomposition = describe(view)
        furiten = (
            events and Event.FURITEN in events and (not ctx.self_draw or rules["furiten_self_draw"])
        )
        if counted == 0 or furiten:
            why = "振聽: won on a tile the winner had discarded" if furiten else "0 番"
            if rules["chicken_hand"] == "false_win":
                return self._false_win(hand, f"雞糊 ({why}) under 方案二", decomposition)
            return self._chicken(hand, why, counted, out, decomposition)
        items = _items(kept)
        extra: dict[str, Any] = {"base_points": base_points(counted)}
        limits = [i.name for i in items if i.code in LIMIT_CODES]
        if limits:
            extra["limit"] = "、".join(limits)
            extra["ends_game"] = True
        elif raw > LIMIT_FAN:
            extra["fan_uncapped"] = raw
        return build(
            ScoreResult,
            variant=self.name,
            winning=True,
            total=counted,
            unit=self.unit,
            items=items,
            payments=win_payments(ctx, counted, rules, out),
            decomposition=decomposition,
            extra=extra,
        )

    def _chicken(
        self, hand: Hand, why: str, fan: int, out: tuple[str, ...], decomposition: str
    ) -> ScoreResult:
        """方案一: the win stands but pays nothing; the hand goes on without the winner's tiles."""
        extra: dict[str, Any] = {"base_points": 0, "chicken": why}
        if fan:
            extra["fan_without_furiten"] = fan
        if len(out) == 2:
            extra["hand_ends"] = "third 雞糊 in this hand: it counts as a drawn hand (摸和)"
        else:
            extra["hand_continues"] = True
        return ScoreResult(
            variant=self.name,
            winning=True,
            total=0,
            unit=self.unit,
            items=(),
            payments=(),
            decomposition=decomposition,
            extra=extra,
        )

    def _false_win(self, hand: Hand, why: str, decomposition: str) -> ScoreResult:
        return ScoreResult(
            variant=self.name,
            winning=False,
            total=0,
            unit=self.unit,
            items=(),
            payments=tuple(false_win_payments(hand.context.seat_wind)),
            decomposition=decomposition,
            extra={
                "false_win": True,
                "reason": f"{why}: pays {FALSE_WIN_PENALTY} to each other player",
            },
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
                "reason": "the tiles form no winning hand (four sets and a pair, 七對子 or"
                " 十三么九); a declared win with them is 詐糊 (event false_win)"
            },
        )


def _tally(kept: Hits) -> tuple[int, int]:
    """The 番 the hand counts (例牌 10, 最少N番 applied, capped at 10) and the plain total."""
    limits = 0
    raw = 0
    minimum = 0
    for item, hit in kept:
        if item.code in LIMIT_CODES:
            limits += 1
        else:
            raw += item.value * hit.times
            minimum = max(minimum, MINIMUMS.get(item.code, 0))
    if limits:
        return LIMIT_FAN, LIMIT_FAN
    raw = max(raw, minimum)
    return min(raw, LIMIT_FAN), raw


def _items(kept: Hits) -> tuple[ScoreItem, ...]:
    """The scored items: a second 例牌 shows 0 (十番爆棚 is the most); 最少N番 adds the shortfall."""
    items: list[ScoreItem] = []
    limit_seen = False
    minimum = 0
    total = 0
    for item, hit in kept:
        code = item.code
        value = item.value * hit.times
        why = hit.why
        if code in LIMIT_CODES:
            if limit_seen:
                value, why = 0, f"{why} (十番爆棚 already)"
            limit_seen = True
        elif code in MINIMUMS:
            minimum = max(minimum, MINIMUMS[code])
        total += value
        items.append(build(ScoreItem, code=code, name=hit.name or item.name, value=value, why=why))
    if total < minimum:
        items.append(
            ScoreItem(
                "minimum",
                f"最少{minimum}番",
                minimum - total,
                f"the hand counts at least {minimum} 番",
            )
        )
    return tuple(items)


def describe(view: MingjiangView) -> str:
    """The reading as players write it: ``*`` marks the set the winning tile ended, ``[...]`` a
    claimed meld."""
    if view.shape is not Shape.STANDARD:
        # 七對子 and 十三么九: ``*`` on the pair or single of the winning tile's kind, once (four
        # of a kind are two pairs in 七對子), as riichi marks them.
        counts = view.facts.concealed_counts
        win = view.facts.win_index
        if view.shape is Shape.SEVEN_PAIRS:
            groups = [(PAIR, i) for i, c in enumerate(counts) for _ in range(c // 2)]
        else:
            groups = [(PAIR if c == 2 else -1, i) for i, c in enumerate(counts) if c]
        marked = next((n for n, (_, i) in enumerate(groups) if i == win), None)
        return " ".join(
            _group_text(kind, i, True) + ("*" if n == marked else "")
            for n, (kind, i) in enumerate(groups)
        )
    assert view.pair is not None
    parts = [_group_text(PAIR, view.pair, True) + ("*" if view.win_group is None else "")]
    for n, (kind, first, concealed) in enumerate(view.sets):
        text = _group_text(kind, first, concealed)
        parts.append(text + "*" if n == view.win_group else text)
    return " ".join(parts)


@cache
def _group_text(kind: int, first: int, concealed: bool) -> str:
    tile = tile34(first)
    size = {SEQUENCE: 1, PAIR: 2, KONG: 4, -1: 1}.get(kind, 3)
    if kind == SEQUENCE:
        text = "".join(str(tile.number + i) for i in range(3)) + tile.suit.value
    else:
        text = str(tile.number) * size + tile.suit.value
    return text if concealed else f"[{text}]"
