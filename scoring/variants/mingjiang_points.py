"""明將麻雀's 計分法 and 授受法 (``shared/rules/002``): base points from 番 and who pays whom.

* n 番 is worth n(n + 1)/2 base points, 十番爆棚: 10 番 (55) is the most a hand counts.
* Discard: 閒 → 閒 pays 3 × base; 莊 → 閒 or 閒 → 莊 pays 4 × base.
* Self-draw: the dealer takes 2 × base from each; a non-dealer 1 × base from each non-dealer and
  2 × base from the dealer.
* 詐糊 pays 55 to each other player, dealer or not.
* "莊家收支會數多一番" is read as already expressed by the share table (option ``dealer_extra_fan``
  adds the extra 番 to every payment the dealer makes or takes).
* 雞糊 方案一: a player who already won a 雞糊 this hand (option ``seats_out``) pays nothing on a
  later self-draw, and nobody may win their discards.

The dealer sits East.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from scoring.errors import HandError
from scoring.hand import SEATS, WinContext, build
from scoring.result import Payment

LIMIT_FAN = 10
FALSE_WIN_PENALTY = 55
DEALER = "E"


def base_points(fan: int) -> int:
    """n(n + 1)/2 for n 番, capped at 十番爆棚.

    >>> [base_points(n) for n in (0, 1, 2, 3, 5, 10, 13)]
    [0, 1, 3, 6, 15, 55, 55]
    """
    n = min(fan, LIMIT_FAN)
    return n * (n + 1) // 2


def seats_out(rules: Mapping[str, Any], winner: str) -> tuple[str, ...]:
    """The seats the ``seats_out`` option names, checked: E S W N, not the winner, no repeats."""
    return _seats_out(rules["seats_out"], winner)


def seats_out_wrong(given: str) -> str | None:
    """What is wrong with a ``seats_out`` value whatever the hand (``RuleOption.check``)."""
    text = _seats_text(given)
    for seat in text:
        if seat not in SEATS:
            return f"{seat!r} is not one of E S W N"
    if len(set(text)) != len(text):
        return "names a seat twice"
    if len(text) > 2:
        return "at most two seats (the winner and a fourth player are never out)"
    return None


@cache
def _seats_out(given: str, winner: str) -> tuple[str, ...]:
    wrong = seats_out_wrong(given)
    if wrong is not None:
        raise HandError(f"seats_out {given!r}: {wrong}")
    text = _seats_text(given)
    if winner in text:
        raise HandError(f"seats_out {given!r} names the winner's own seat {winner}")
    return tuple(text)


def _seats_text(given: str) -> str:
    return given.replace(",", "").replace(" ", "").upper()


def win_payments(
    ctx: WinContext, fan: int, rules: Mapping[str, Any], out: tuple[str, ...]
) -> tuple[Payment, ...]:
    """Who pays the winner, per 授受法. A discard win with no discarder named pays nothing here.
    A discard of a seat in ``out`` the hand's check has refused (``mingjiang._seats_out``)."""
    discarder = None if ctx.self_draw else ctx.discarder
    return _payments(
        ctx.seat_wind, ctx.self_draw, discarder, fan, bool(rules["dealer_extra_fan"]), out
    )


@cache
def _payments(
    winner: str, self_draw: bool, payer: str | None, fan: int, extra: bool, out: tuple[str, ...]
) -> tuple[Payment, ...]:
    """The payments for one situation: a few hundred at most, worked out once each."""
    if not self_draw:
        if payer is None:
            return ()
        shares: tuple[tuple[str, int], ...] = ((payer, 4 if DEALER in (winner, payer) else 3),)
    elif winner == DEALER:
        shares = tuple((p, 2) for p in SEATS if p != winner and p not in out)
    else:
        shares = tuple((p, 2 if p == DEALER else 1) for p in SEATS if p != winner and p not in out)
    base = base_points(fan)
    # 莊家收支多一番 (option): a share the dealer pays or takes counts one 番 more.
    dealer_base = base_points(fan + 1) if extra else base
    return tuple(
        build(
            Payment,
            payer=p,
            payee=winner,
            amount=times * (dealer_base if DEALER in (p, winner) else base),
        )
        for p, times in shares
    )


def false_win_payments(offender: str) -> list[Payment]:
    """詐糊: the offender pays 55 to each other player."""
    return [Payment(offender, s, FALSE_WIN_PENALTY) for s in SEATS if s != offender]
