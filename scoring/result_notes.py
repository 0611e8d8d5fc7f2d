"""What a player reads beside a result's items: the lines its own keys say that the items do not.

A 明將 雞糊 scores 0 番 with no items, and only the result's keys told that the win stands, pays
nothing and the hand goes on; a hand past 十番爆棚 showed items adding to 14 and a total of 10.
The command line's text and the table app both show these lines, written here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.drawn_hands import DealMove, Streak


def total_note(result: Mapping[str, Any]) -> str:
    """Beside the total: the limit where there is one (riichi's 符 then change nothing; a 明將
    例牌), else riichi's 符; empty for the rest."""
    if result.get("limit"):
        return str(result["limit"])
    return f"{result['fu']} 符" if result.get("fu") else ""


def notes(result: Mapping[str, Any]) -> list[str]:
    """The lines under the total, in the order a player asks: is it a win, what does it count,
    does the game go on."""
    lines = []
    unit = result.get("unit", "")
    if "deal" in result:
        lines.append(deal_note(result))
    if result.get("chicken"):
        line = f"雞糊 ({result['chicken']}): the win pays nothing"
        if result.get("fan_without_furiten"):
            line += f"; without 振聽 it counts {result['fan_without_furiten']} {unit}"
        lines.append(line)
    if result.get("hand_continues"):
        lines.append("The hand goes on without the winner's tiles")
    if result.get("hand_ends"):
        lines.append(f"The hand ends: {result['hand_ends']}")
    if result.get("fan_uncapped"):
        lines.append(
            f"十番爆棚: the items add up to {result['fan_uncapped']} {unit}, and no hand counts "
            f"more than {result['total']}"
        )
    if result.get("ends_game"):
        lines.append("A 例牌 ends the game")
    parts = result.get("points") if isinstance(result.get("points"), list) else None
    if parts and "base_points" in result:  # xiangqi: the 基本點 the payments are made of
        made_of = " + ".join(f"{part['name']} {part['amount']}" for part in parts)
        lines.append(f"基本點 {result['base_points']} = {made_of}")
    for part in result.get("surcharges") or []:  # xiangqi: paid beyond 基本點 × the share
        lines.append(f"{part['name']} +{part['amount']}: {part['why']}")
    return lines


STREAK_NOTES = {
    Streak.UP: "one more in the streak",
    Streak.SAME: "the streak stands",
    Streak.RESET: "the streak starts again",
}


def deal_note(result: Mapping[str, Any]) -> str:
    """What a drawn hand does to the deal (its ``deal``: ``scoring.drawn_hands.DealMove``)."""
    move = DealMove.from_json(result.get("deal"))
    if move is None:  # kept by a version with moves this one has not
        return "The deal moves as the table says"
    dealer = "The dealer deals again" if move.dealer_stays else "The deal passes"
    if not _keeps_a_streak(result.get("variant")):  # 明將: the deal passes every hand
        return dealer
    streak = STREAK_NOTES[move.streak]
    if move.streak is Streak.UP and result.get("variant") == "riichi":
        streak = "one more 本場"
    return f"{dealer}; {streak}"


def _keeps_a_streak(variant: Any) -> bool:
    from scoring.errors import TilescoreError
    from scoring.variant import find_variant

    try:
        return bool(find_variant(str(variant)).dealer_repeats)
    except TilescoreError:  # kept by a version with a rule set this one has not
        return True
