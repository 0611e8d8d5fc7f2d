"""Who pays the riichi winner how much, from the library's cost (rule text 004's payment table).

The library works out the amounts (004's table: 括弧內莊家點, 滿貫 8k ... 役滿 32k, 本場 300,
供託 1,000); this module only says who pays them:

* a discard win: the discarder pays it all, 本場 300 each included;
* a self-draw by the dealer: each of the three pays the same, plus 100 per 本場;
* a self-draw by a non-dealer: the dealer (East) pays the larger share, the other two the smaller,
  each plus 100 per 本場;
* 供託 (riichi sticks on the table, 1,000 each) come from the table, payer ``"table"``.

A discard win with no ``discarder`` given still has its amounts; the payer is then ``None`` in
``points`` and the payment is left out of ``payments`` (as Taiwan leaves it out).
"""

from __future__ import annotations

from typing import Any

from mahjong.hand_calculating.scores import ScoresResult

from scoring.hand import SEATS, Hand
from scoring.result import Payment

TABLE = "table"
"""The payer of 供託: the sticks lie on the table, no player pays them at this win."""

LIMITS = {
    "": None,
    "mangan": "mangan",
    "nagashi mangan": "mangan",
    "haneman": "haneman",
    "baiman": "baiman",
    "sanbaiman": "sanbaiman",
    "yakuman": "yakuman",
    "kazoe yakuman": "yakuman",
    "2x yakuman": "double yakuman",
    "3x yakuman": "triple yakuman",
    "4x yakuman": "quadruple yakuman",
    "5x yakuman": "quintuple yakuman",
    "6x yakuman": "sextuple yakuman",
}
"""The library's ``yaku_level`` as our ``limit`` (004: 滿貫 跳滿 倍滿 三倍滿 役滿; 13+ 翻 is 役滿)."""


def points(
    hand: Hand, cost: ScoresResult, self_draw: bool, pao: int = 0
) -> tuple[dict[str, Any], list[Payment]]:
    """The ``points`` output key and the matching payments to the winner. ``pao``: the points
    (本場 aside) the ``pao`` seat is liable for (役滿包, ``riichi._pao_value``)."""
    ctx = hand.context
    winner = ctx.seat_wind
    dues: list[tuple[str | None, int]]
    if self_draw:
        dues = []
        for seat in SEATS:
            if seat == winner:
                continue
            if seat == "E" or ctx.is_dealer:
                dues.append((seat, cost["main"] + cost["main_bonus"]))
            else:
                dues.append((seat, cost["additional"] + cost["additional_bonus"]))
        honba = cost["main_bonus"] + 2 * cost["additional_bonus"]
        base = cost["main"] + 2 * cost["additional"]
    else:
        dues = [(ctx.discarder, cost["main"] + cost["main_bonus"])]
        honba = cost["main_bonus"]
        base = cost["main"]
    if pao and ctx.pao is not None:
        dues = _with_pao(dues, ctx.pao, min(pao, base), base, honba, self_draw)
    sticks = cost["kyoutaku_bonus"]
    out = {
        "hand": base,
        "honba": honba,
        "riichi_sticks": sticks,
        "total": cost["total"],
        "from": [{"payer": payer, "amount": amount} for payer, amount in dues],
    }
    payments = [Payment(payer, winner, amount) for payer, amount in dues if payer is not None]
    if sticks:
        payments.append(Payment(TABLE, winner, sticks))
    return out, payments


def _with_pao(
    dues: list[tuple[str | None, int]],
    liable: str,
    pao: int,
    base: int,
    honba: int,
    self_draw: bool,
) -> list[tuple[str | None, int]]:
    """The dues with 役滿包: on a self-draw the liable seat pays the 役滿 it fed and every 本場,
    and the rest of the hand (other 役滿 beside it, 有役滿複合) is paid as a self-draw is, shares
    scaled down; on a discard by another seat, the liable seat pays half of its 役滿 and the
    discarder the rest with the 本場. A discard by the liable seat is paid by it as any discard."""
    if self_draw:
        rest = base - pao
        paid = []
        for seat, amount in dues:
            share = (amount - honba // 3) * rest // base  # each 本場 share is honba / 3
            owed = share + (pao + honba if seat == liable else 0)
            if owed:  # a seat the liable one pays for pays nothing: no 0-point payment
                paid.append((seat, owed))
        return paid
    ((discarder, amount),) = dues
    if discarder == liable:
        return dues
    return [(discarder, amount - pao // 2), (liable, pao // 2)]
