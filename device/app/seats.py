"""The table's seats in the words of a rule set without winds, and its payments back in seats.

The app names every chair by wind, the dealer East (``seat_wind`` is the winner's, ``discarder``
the player who discarded), and keeps its scoreboard by those seats. A rule set without winds
(``Variant.seats_by_wind`` false: xiangqi) takes instead ``dealer`` true or false and names the
other chairs from the winner's: ``left`` (上家, who plays just before), ``across``, ``right``; its
payments name their payer that way too. This module turns one into the other, both ways, so the
app scores such a table without asking its players anything new.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import TilescoreError

DEALER = "E"
TURN_ORDER = {2: ("E", "S"), 3: ("E", "S", "W"), 4: ("E", "S", "W", "N")}
"""The chairs of a table of 2, 3 or 4 in the order they play, the dealer first."""
FROM_WINNER = {2: ("left",), 3: ("left", "right"), 4: ("left", "across", "right")}
"""The other chairs as the winner names them, in the order they play before the winner."""


def chairs(players: Any) -> tuple[str, ...]:
    """The chairs a table of ``players`` has (the first of E S W N, the dealer East); the
    scorer's 4 when the count is unsaid, and none for a count no table has."""
    if players is None:
        return TURN_ORDER[4]
    return TURN_ORDER.get(players, ()) if isinstance(players, int) else ()


def unseated(context: Mapping[str, Any], players: Any) -> tuple[str, str] | None:
    """The first of the winner's, the discarder's and the liable player's (pao) chairs (key,
    chair) that a table of ``players`` does not have, or None when all are there (or unsaid)."""
    seated = chairs(players)
    for key in ("seat_wind", "discarder", "pao"):
        value = context.get(key)
        if value is not None and value not in seated:
            return key, value
    return None


def relative_seat(winner: str, other: str, players: int) -> str:
    """Where ``other`` sits seen from ``winner``'s chair (``left``: the player before)."""
    order = _order(players, winner, other)
    steps_back = (order.index(winner) - order.index(other)) % players
    if steps_back == 0:
        raise TilescoreError(f"seat {other} is the winner's own")
    return FROM_WINNER[players][steps_back - 1] if players > 2 else "left"


def absolute_seat(winner: str, relative: str, players: int) -> str:
    """The chair a seat named from ``winner``'s is (``relative_seat`` undone)."""
    order = _order(players, winner)
    names = FROM_WINNER[players]
    if relative not in names:
        raise TilescoreError(f"{relative!r} is no seat of a {players}-player table")
    steps_back = 1 if players == 2 else names.index(relative) + 1
    return order[(order.index(winner) - steps_back) % players]


APP_SET_RULES = frozenset({"dealer_seat"})
"""Rule options the app sets itself from its chairs (``for_scorer``), never asked of a table."""


def for_scorer(context: Mapping[str, Any], seats_by_wind: bool) -> dict[str, Any]:
    """The app's context as a rule set takes it: as it is for one that names seats by wind;
    for one without winds, the winner deals when sitting East, and the discarder and the
    dealer's chair are named from the winner's."""
    out = dict(context)
    if seats_by_wind:
        return out
    winner = out.pop("seat_wind", None) or DEALER
    out.pop("round_wind", None)
    players = out.get("players") or 4
    out["dealer"] = winner == DEALER
    if out.get("discarder") is not None:
        out["discarder"] = relative_seat(winner, out["discarder"], players)
    rules = dict(out.get("rules") or {})
    rules.pop("dealer_seat", None)  # the app knows where the dealer sits: East
    if winner != DEALER:
        rules["dealer_seat"] = relative_seat(winner, DEALER, players)
    out["rules"] = rules
    return out


def payments_in_seats(
    result: Mapping[str, Any], context: Mapping[str, Any], seats_by_wind: bool
) -> dict[str, Any]:
    """A result whose payments name their payer and payee as the app's chairs (E S W N)."""
    out = dict(result)
    if seats_by_wind or not out.get("payments"):
        return out
    winner = context.get("seat_wind") or DEALER
    players = context.get("players") or 4

    def seat(name: str) -> str:
        if name == "winner":
            return winner
        if name == "discarder" and context.get("discarder"):
            return str(context["discarder"])
        return absolute_seat(winner, name, players)

    # A discard win with no discarder named charges "discarder": nobody pays until the table
    # names one, as the rule sets by wind leave such a payment out (the page says who is
    # missing). Turned into a chair it would be no chair at all.
    named = [
        payment
        for payment in out["payments"]
        if context.get("discarder") or "discarder" not in (payment["payer"], payment["payee"])
    ]
    out["payments"] = [
        {**payment, "payer": seat(payment["payer"]), "payee": seat(payment["payee"])}
        for payment in named
    ]
    return out


def _order(players: int, *seats: str) -> tuple[str, ...]:
    order = TURN_ORDER.get(players)
    if order is None:
        raise TilescoreError(f"players {players} is not 2, 3 or 4")
    for name in seats:
        if name not in order:
            raise TilescoreError(
                f"seat {name} is not at a {players}-player table ({' '.join(order)})"
            )
    return order
