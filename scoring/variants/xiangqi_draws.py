"""流局 (drawn hands) of 32-tile xiangqi mahjong (``shared/rules/003``, 流局 and 片甲不留).

A hand is drawn (1) when a player is about to draw and the wall (牌河) holds 6 - players tiles or
fewer, or (2) when, before anyone has called, four 兵 or four 卒 are discarded in a row. After a
drawn hand of kind (1) every player who is 聽 (ready, whatever the 台 would be) collects from every
player who is not; the text gives no amount, so it is ``ready_payment`` (default 250, the points of
1 台). 片甲不留: a player whose discards hold all five 兵 or all five 卒 counts as a 6 台 self-draw
(12 台 with both), on any drawn hand, two such players both collecting.

Seats here are numbers 1..players in turn order (the next seat is the 下家); ``dealer`` names the
dealer's seat. A payment's payer and payee are ``"seat N"``.

>>> from scoring.notation import parse_tiles
>>> is_wall_draw(wall_left=2, players=4), is_wall_draw(wall_left=3, players=4)
(True, False)
>>> is_soldier_run_draw(parse_tiles("士兵兵兵兵"))
True
>>> clean_sweep_tai(parse_tiles("兵兵兵兵兵卒卒卒卒卒車"))
12
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from scoring.errors import HandError
from scoring.hand import Meld
from scoring.result import Payment
from scoring.tiles import Tile
from scoring.variants.xiangqi_points import (
    points_for_tai,
    self_draw_amount,
    streak_parts,
)
from scoring.variants.xiangqi_shapes import BLACK_SOLDIER, COPIES, RED_SOLDIER, SOLDIER, waits

READY_PAYMENT = 250
"""The text says ready players collect on a 流局 but not how much: 250 (1 台) per player each."""
CLEAN_SWEEP_TAI = 6
SOLDIER_RUN = 4


def is_wall_draw(wall_left: int, players: int) -> bool:
    """流局 1: a player is about to draw and the wall holds 6 - players tiles or fewer."""
    return wall_left <= 6 - players


def is_soldier_run_draw(discards_before_first_call: Sequence[Tile]) -> bool:
    """流局 2: four 兵 (or four 卒) discarded one after another before anyone has called.

    Pass the discards of all players in the order they were made, up to the first chi/pon/kong.
    """
    run = 0
    last: Tile | None = None
    for tile in discards_before_first_call:
        if tile.number == SOLDIER:
            run = run + 1 if tile == last else 1
            if run >= SOLDIER_RUN:
                return True
        else:
            run = 0
        last = tile
    return False


def clean_sweep_tai(discards: Iterable[Tile]) -> int:
    """片甲不留: 6 台 for all five 兵 among one's own discards, 6 more for all five 卒."""
    own = list(discards)
    sweeps = [s for s in (RED_SOLDIER, BLACK_SOLDIER) if own.count(s) >= COPIES[SOLDIER]]
    return CLEAN_SWEEP_TAI * len(sweeps)


def is_ready(concealed: Sequence[Tile], melds: Sequence[Meld] = ()) -> bool:
    """聽: some piece would complete the four-tile hand, whatever its 台."""
    return bool(waits(concealed, melds))


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def draw_payments(
    players: int,
    dealer: int,
    ready: Collection[int],
    discards: Mapping[int, Sequence[Tile]] | None = None,
    *,
    wall_draw: bool = True,
    dealer_streak: int = 0,
    draws_in_a_row: int = 0,
    ready_payment: int = READY_PAYMENT,
    streak_bonus: str = "dealer_win",
    dealer_bonus: str = "non_dealer_win",
) -> list[Payment]:
    """Every payment of a drawn hand: 聽 payments (only for a wall draw), then 片甲不留.

    ``ready`` holds the seats that are 聽; ``discards`` each seat's own discards. ``draws_in_a_row``
    counts the drawn hands before this one (流局後自摸 applies to 片甲不留, a self-draw). The
    dealer's streak does not change on a drawn hand.

    >>> [(p.payer, p.payee, p.amount) for p in draw_payments(3, 1, {2})]
    [('seat 1', 'seat 2', 250), ('seat 3', 'seat 2', 250)]
    """
    if players not in (2, 3, 4):
        raise HandError(f"players {players} is not 2, 3 or 4")
    seats = range(1, players + 1)
    for seat in (dealer, *ready, *(discards or {})):
        if seat not in seats:
            raise HandError(f"seat {seat} is not one of 1-{players}")
    out: list[Payment] = []
    if wall_draw:
        for payee in sorted(set(ready)):
            for payer in seats:
                if payer not in ready:
                    out.append(Payment(seat_name(payer), seat_name(payee), ready_payment))
    for sweeper, own in sorted((discards or {}).items()):
        tai = clean_sweep_tai(own)
        if not tai:
            continue
        parts = streak_parts(
            winner_is_dealer=sweeper == dealer,
            dealer_streak=dealer_streak,
            discarder_is_dealer=False,
            streak_bonus=streak_bonus,
            dealer_bonus=dealer_bonus,
        )
        base = points_for_tai(tai) + sum(p.amount for p in parts)
        for payer in seats:
            if payer == sweeper:
                continue
            amount = self_draw_amount(
                base,
                payer_is_dealer=payer == dealer,
                winner_is_dealer=sweeper == dealer,
                dealer_streak=dealer_streak,
                draws=draws_in_a_row,
            )
            out.append(Payment(seat_name(payer), seat_name(sweeper), amount))
    return out
