"""Points and payments of 32-tile xiangqi mahjong (``shared/rules/003``, 分數).

基本點 (base points) = the 台 → points table, plus +125 for each of 兵卒襲將 偏兩對 槓 河底撈魚, plus
連莊 +125 × n and 胡莊家 +50 × n. Who pays how many times the base, and the surcharges after a
流局 and on a dealer paying a non-dealer's self-draw, follow the text's list.

Seats are named from the winner's chair: ``left`` (上家, the only player a chi takes from),
``across`` (對家) and ``right`` (下家); two players use ``left`` only, three ``left`` and ``right``.
The winner is ``winner``.

>>> points_for_tai(3), points_for_tai(12), points_for_tai(14)
(1250, 8000, 8500)
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.result import Payment

TAI_POINTS = {
    1: 250,
    2: 750,
    3: 1250,
    4: 2000,
    5: 2500,
    6: 3000,
    7: 3750,
    8: 4500,
    9: 5250,
    10: 6000,
    11: 7000,
    12: 8000,
}
OVER_12_STEP = 250
SHAPE_BONUS = 125
"""兵卒襲將, 偏兩對, 槓, 河底撈魚: +125 each."""
STREAK_BONUS = 125
"""連莊: +125 × 次數."""
DEALER_BONUS = 50
"""胡莊家: +50 × 莊家連莊次數."""
DEALER_SELF_DRAW_SURCHARGE = 100
"""當莊時被閒家自摸: the dealer pays 100 × 連莊次數 more."""
DISCARD_AFTER_DRAW_SURCHARGE = 120
"""流局後放槍: the discarder pays 120 × 連續流局次數 more."""
SELF_DRAW_AFTER_DRAW_SURCHARGE = 40
"""流局後自摸: every other player pays 40 × 連續流局次數 more."""

WINNER = "winner"
SEATS_BY_PLAYERS: dict[int, tuple[str, ...]] = {
    2: ("left",),
    3: ("left", "right"),
    4: ("left", "across", "right"),
}


def points_for_tai(tai: int) -> int:
    """The 台 → points table; above 12 台 each 台 adds 250 (0 台 is worth nothing)."""
    if tai <= 0:
        return 0
    if tai in TAI_POINTS:
        return TAI_POINTS[tai]
    return TAI_POINTS[12] + OVER_12_STEP * (tai - 12)


@dataclass(frozen=True)
class PointsPart:
    """One line of 基本點: the 台 table, a +125 addition, 連莊 or 胡莊家."""

    name: str
    amount: int
    why: str

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "amount": self.amount, "why": self.why}


def seats_for(players: int) -> tuple[str, ...]:
    return SEATS_BY_PLAYERS[players]


@dataclass(frozen=True)
class Table:
    """Who sits where, and the counts the surcharges need."""

    players: int = 4
    winner_is_dealer: bool = False
    dealer_seat: str = ""
    """Where the dealer sits when the winner does not deal; "" when not given."""
    dealer_streak: int = 0
    draws_in_a_row: int = 0


def streak_parts(
    *,
    winner_is_dealer: bool,
    dealer_streak: int,
    discarder_is_dealer: bool,
    streak_bonus: str = "dealer_win",
    dealer_bonus: str = "non_dealer_win",
) -> list[PointsPart]:
    """連莊 +125 × n and 胡莊家 +50 × n, n being the dealer's consecutive wins (``dealer_streak``).

    ``streak_bonus``: "dealer_win" adds 連莊 when the dealer wins again, "every_win" on every win.
    ``dealer_bonus``: "non_dealer_win" adds 胡莊家 when a non-dealer beats a dealer on a streak,
    "dealer_discard" only when the dealer discarded the winning tile, "dealer_win" when the dealer
    wins.
    """
    n = dealer_streak
    if n <= 0:
        return []
    parts = []
    if streak_bonus == "every_win" or winner_is_dealer:
        parts.append(PointsPart("連莊", STREAK_BONUS * n, f"dealer has won {n} in a row: 125×{n}"))
    dealer_bonus_applies = {
        "non_dealer_win": not winner_is_dealer,
        "dealer_discard": not winner_is_dealer and discarder_is_dealer,
        "dealer_win": winner_is_dealer,
    }[dealer_bonus]
    if dealer_bonus_applies:
        parts.append(PointsPart("胡莊家", DEALER_BONUS * n, f"dealer's streak is {n}: 50×{n}"))
    return parts


def self_draw_amount(
    base: int, *, payer_is_dealer: bool, winner_is_dealer: bool, dealer_streak: int, draws: int
) -> int:
    """What one player pays on a self-draw: 莊家自摸 ×2; 閒家自摸 the dealer ×2 and 100 × 連莊次數
    more, the others ×1; after 流局 each adds 40 × draws in a row."""
    after_draw = SELF_DRAW_AFTER_DRAW_SURCHARGE * draws
    if winner_is_dealer:
        return base * 2 + after_draw
    if payer_is_dealer:
        return base * 2 + DEALER_SELF_DRAW_SURCHARGE * dealer_streak + after_draw
    return base + after_draw


def surcharges(table: Table, self_draw: bool) -> list[PointsPart]:
    """What a payer pays beyond 基本點 × its share (the payments hold it; these lines say why):
    流局後放槍 or 流局後自摸 after drawn hands, and 當莊時被閒家自摸."""
    draws = table.draws_in_a_row
    out = []
    if draws and not self_draw:
        amount = DISCARD_AFTER_DRAW_SURCHARGE * draws
        why = f"the discarder pays {DISCARD_AFTER_DRAW_SURCHARGE} × {draws} drawn hands more"
        out.append(PointsPart("流局後放槍", amount, why))
    if draws and self_draw:
        amount = SELF_DRAW_AFTER_DRAW_SURCHARGE * draws
        why = f"each payer pays {SELF_DRAW_AFTER_DRAW_SURCHARGE} × {draws} drawn hands more"
        out.append(PointsPart("流局後自摸", amount, why))
    if self_draw and not table.winner_is_dealer and table.dealer_streak:
        amount = DEALER_SELF_DRAW_SURCHARGE * table.dealer_streak
        why = f"the dealer pays {DEALER_SELF_DRAW_SURCHARGE} × 連莊 {table.dealer_streak} more"
        out.append(PointsPart("當莊時被閒家自摸", amount, why))
    return out


def win_payments(base: int, table: Table, self_draw: bool, discarder: str | None) -> list[Payment]:
    """Who pays the winner, and how much.

    放給閒家 ×4, 放給莊家 ×6 (the discarder pays, +120 × draws in a row); self-draws as in
    ``self_draw_amount``.

    >>> [(p.payer, p.amount) for p in win_payments(1000, Table(dealer_streak=1), True, None)]
    [('dealer', 2100), ('non-dealer', 1000), ('non-dealer', 1000)]
    """
    if not self_draw:
        times = 6 if table.winner_is_dealer else 4
        paid = base * times + DISCARD_AFTER_DRAW_SURCHARGE * table.draws_in_a_row
        return [Payment(discarder or "discarder", WINNER, paid)]
    seats = seats_for(table.players)

    def amount(payer_is_dealer: bool) -> int:
        return self_draw_amount(
            base,
            payer_is_dealer=payer_is_dealer,
            winner_is_dealer=table.winner_is_dealer,
            dealer_streak=table.dealer_streak,
            draws=table.draws_in_a_row,
        )

    if table.winner_is_dealer or table.dealer_seat:
        return [Payment(seat, WINNER, amount(seat == table.dealer_seat)) for seat in seats]
    # Without the dealer's chair the payers are named by role; the table knows who they are.
    return [Payment("dealer", WINNER, amount(True))] + [
        Payment("non-dealer", WINNER, amount(False)) for _ in seats[1:]
    ]
