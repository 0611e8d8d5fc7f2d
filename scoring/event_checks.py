"""Events that cannot happen together, or not with the hand given: checked alike by the mahjong
rule sets, each naming the pairs that hold at its table.

A scorer that takes an impossible event scores it: 搶槓 of a tile the winner holds three of
scored 4 台, 槓上開花 with no kong 2, 天聽 after a chi 9.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.errors import HandError
from scoring.hand import SEATS, Event, Hand
from scoring.tiles import Tile

NEVER_TOGETHER = (
    # A tile robbed from a kong is no discard.
    (Event.LAST_DISCARD, Event.ROBBING_KONG),
    (Event.HEAVENLY_WIN, Event.EARTHLY_WIN),
    # The first draw, or a discard before it, is neither the last tile nor a tile robbed from a
    # kong (a kong needs a call or a draw first).
    (Event.HEAVENLY_WIN, Event.LAST_TILE),
    (Event.EARTHLY_WIN, Event.LAST_TILE),
    (Event.HUMAN_WIN, Event.LAST_DISCARD),
    (Event.HUMAN_WIN, Event.ROBBING_KONG),
)
"""Pairs no table sees together."""

READY_BEFORE_FIRST_DRAW = tuple(
    (ready, win)
    for ready in (Event.DECLARED_READY, Event.HEAVENLY_READY, Event.EARTHLY_READY)
    for win in (Event.HEAVENLY_WIN, Event.EARTHLY_WIN, Event.HUMAN_WIN)
)
"""Pairs of the tables that declare 聽 (xiangqi, Taiwan): 聽 is called on one's own turn, with a
discard (xiangqi's 天聽 "第一次輪到自己就喊聽"; Taiwan's 天聽 "打出第一張牌即聽", 地聽 within the
first eight tiles 打進 the sea). 天胡 and 地胡 win on the first draw itself, 人胡 "沒摸過牌就胡別人"
(Taiwan: 第一巡內未摸牌前): none of them after a call of 聽."""

DEAD_WALL_PAIRS = ((Event.LAST_TILE, Event.AFTER_KONG),)
"""Pairs a table with a dead wall (王牌, riichi and 明將) never sees: a kong's replacement comes
from it, never as the last tile of the live wall."""


def check_never_together(hand: Hand, pairs: Iterable[tuple[Event, Event]]) -> None:
    """A one-line error for the first pair of ``pairs`` whose events the hand both names."""
    events = hand.context.events
    if not events:
        return
    for first, second in pairs:
        if first in events and second in events:
            raise HandError(f"{first.value} and {second.value} cannot both happen")


def check_human_win_discarder(hand: Hand, before: Sequence[str] | None = None) -> None:
    """人胡 wins a discard before the winner's first draw (001: 第一巡內未摸牌前; 003: 沒摸過牌就
    胡別人), so only a seat that played ``before`` the winner's first turn can have thrown it: a
    later seat's discard is a one-line error. By winds (the default) play goes E S W N from the
    dealer, East; a table of chairs names its own."""
    ctx = hand.context
    if not ctx.has(Event.HUMAN_WIN) or ctx.discarder is None:
        return
    winner = "the winner"
    if before is None:
        if ctx.seat_wind not in SEATS:
            return
        before, winner = SEATS[: SEATS.index(ctx.seat_wind)], ctx.seat_wind
    if ctx.discarder not in before:
        raise HandError(
            "human_win (人胡) wins a discard before the winner's first draw: only"
            f" {' and '.join(before) or 'nobody'} discarded before {winner}'s first draw,"
            f" not {ctx.discarder}"
        )


def check_robbed_tile(hand: Hand, copies: int = 4, shown: Iterable[Tile] = ()) -> None:
    """搶槓 robs the tile another player adds to a pon: three of it are on the table, so of the
    set's ``copies`` the winner holds at most the others (none in a mahjong set; one more 兵 or
    卒 of xiangqi's five), fewer still for those ``shown`` elsewhere (dora indicators)."""
    robbed = hand.win_tile
    if robbed is None or Event.ROBBING_KONG not in hand.context.events:
        return
    held = sum(1 for tile in hand.all_tiles if tile.plain == robbed.plain)
    seen = sum(1 for tile in shown if tile.plain == robbed.plain)
    if held + seen > copies - 3:
        also = f" and {seen} shown as indicators" if seen else ""
        raise HandError(
            f"robbing_kong (搶槓) takes the {robbed.code} added to another player's pon: three"
            f" of the {copies} are in that pon, so the hand cannot hold {held}{also}"
        )


def check_kong_for(hand: Hand, event: Event, name: str) -> None:
    """``event`` (槓上開花 and its kind) is won on the tile drawn for a kong among the melds."""
    if hand.shows_no_tiles:
        return
    if event in hand.context.events and not any(m.is_kong for m in hand.melds):
        raise HandError(f"{event.value} ({name}) needs a kong among the melds")
