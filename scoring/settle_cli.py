"""``tilescore settle``: 明將麻雀's end-of-game settlement (埋數) from the four final scores.

    tilescore settle 230 170 120 80                 # the table has stopped: rank and settle
    tilescore settle 170 160 140 130 --after S4     # after 南四局: 西入 or the end?
    tilescore settle 260 150 110 80 --after E3 --limit   # a 例牌 was won in 東三局
    tilescore settle 230 170 120 80 --json --rule check_total=false

Scores are in seat order from the first dealer: E (起莊), S (下家), W (對家), N (上家), as they
sat in 東一局. ``--json`` prints ``scoring.settle.Settlement.to_json``::

    {"variant": "mingjiang", "ended": true, "reason": "...", "after": "S4", "next_hand": null,
     "start_points": 150, "return_points": 180,
     "standings": [{"seat": "E", "place": 1, "final": 230, "points": 170}, ...]}

Bad input (not four whole numbers, an unknown hand or rule option, a negative start or return, a
total that is not 600) is a one-line ``error: ...`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse

from scoring.cli import parse_rules, write_json, write_text
from scoring.settle import OPTIONS, SEAT_NAMES, GameState, Settlement, check_scores, settle


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "scores",
        nargs="*",
        metavar="SCORE",
        help="the four final scores, E S W N as seated in 東一局 (E = first dealer)",
    )
    parser.add_argument(
        "--after", help="the hand just played, E1-E4 S1-S4 W1-W4 (or 南四); omit when stopped"
    )
    parser.add_argument(
        "--limit", action="store_true", help="that hand was won with a 例牌 (ends the game)"
    )
    parser.add_argument("--json", action="store_true", help="print the settlement as JSON")
    names = ", ".join(f"{o.name} (default {o.default})" for o in OPTIONS)
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help=f"options: {names}"
    )


def run(args: argparse.Namespace) -> int:
    game = GameState(check_scores(args.scores), args.after, args.limit)
    result = settle(game, parse_rules(args.rule))
    if args.json:
        write_json(result.to_json())
    else:
        write_text(lambda: format_settlement(result))
    return 0


def format_settlement(result: Settlement) -> str:
    """The settlement as the table reads it."""
    if result.ended:
        lines = [f"Game over: {result.reason}"]
    else:
        lines = [f"Game goes on: {result.reason}", "If it stopped now:"]
    lines.append(f"  {'place':<6}{'seat':<9}{'final':>6}{'points':>8}")
    for s in result.standings:
        # "E 起莊" is seven columns wide on a terminal: two per Chinese character.
        seat = f"{s.seat} {SEAT_NAMES[s.seat]}  "
        lines.append(f"  {s.place:<6}{seat}{s.final:>6}{s.points:>+8}")
    lines.append(
        f"(start {result.start_points}, return {result.return_points}: 2nd-4th score final −"
        f" {result.return_points}, 1st minus their sum)"
    )
    return "\n".join(lines)
