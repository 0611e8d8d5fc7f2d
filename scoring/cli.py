"""``tilescore score`` for typed hands and JSON hands (photos go through ``device.score_cli``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scoring import strict_json
from scoring.errors import RuleOptionError, TilescoreError
from scoring.hand_json import score_json
from scoring.result_notes import notes, total_note
from scoring.variant import variant_names


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source",
        nargs="?",
        help="a JSON file of hands ('-' for stdin) with --json, or a photo of a laid-down hand",
    )
    parser.add_argument("--json", action="store_true", help="JSON in (FILE or stdin) and out")
    parser.add_argument(
        "--variant",
        default=None,
        help=f"one of {', '.join(variant_names())}; for JSON hands, the rule set of those that"
        " name none",
    )
    parser.add_argument("--hand", help="concealed tiles including the winning tile, e.g. 123m456p")
    parser.add_argument("--win", dest="win_tile", help="the winning tile, e.g. 5p")
    parser.add_argument("--melds", help="melds as type:tiles, e.g. 'chi:123m pon:777z'")
    parser.add_argument("--flowers", help="flowers, e.g. 15f")
    parser.add_argument("--seat", dest="seat_wind", help="winner's seat wind E S W N")
    parser.add_argument("--round", dest="round_wind", help="round wind E S W N")
    parser.add_argument("--self-draw", action="store_true", help="won by drawing the tile")
    parser.add_argument("--discarder", help="seat that discarded the winning tile")
    parser.add_argument("--streak", dest="dealer_streak", type=int, help="dealer's win streak N")
    parser.add_argument(
        "--dealer", action="store_true", default=None, help="winner deals (xiangqi)"
    )
    parser.add_argument("--events", help="comma-separated events, e.g. last_tile,after_kong")
    parser.add_argument("--dora", dest="dora_indicators", help="riichi dora indicators")
    parser.add_argument("--ura", dest="ura_dora_indicators", help="riichi ura-dora indicators")
    parser.add_argument("--honba", type=int)
    parser.add_argument("--riichi-sticks", dest="riichi_sticks", type=int)
    parser.add_argument("--players", type=int, help="number of players (xiangqi: 2-4)")
    parser.add_argument(
        "--pao", help="riichi 役滿包: the seat whose discard, called, made 大三元 or 大四喜 certain"
    )
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule option"
    )
    parser.add_argument("--models", help="model folder for photos (default: the shipped models)")
    parser.add_argument("--annotate", help="write the photo with groups and result drawn")


def parse_rule_value(text: str) -> Any:
    """A --rule NAME=VALUE value: yes/no words as booleans, whole numbers as ints, else text."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def parse_rules(given: list[str]) -> dict[str, Any]:
    """The ``--rule NAME=VALUE`` options as a dict of rule options. A rule given twice is an
    error: the last one was kept without a word, and the table that typed the first thought it
    counted."""
    rules: dict[str, Any] = {}
    for rule in given:
        name, sep, value = rule.partition("=")
        if not sep:
            raise RuleOptionError(f"rule option {rule!r} must be written NAME=VALUE")
        name = name.strip()
        if name in rules:
            raise RuleOptionError(f"rule {name} given twice: give each --rule once")
        rules[name] = parse_rule_value(value.strip())
    return rules


def hand_from_options(args: argparse.Namespace) -> dict[str, Any]:
    data: dict[str, Any] = {"variant": args.variant or "taiwan", "hand": args.hand}
    for key in (
        "win_tile",
        "flowers",
        "seat_wind",
        "round_wind",
        "discarder",
        "dealer_streak",
        "dealer",
        "dora_indicators",
        "ura_dora_indicators",
        "honba",
        "riichi_sticks",
        "players",
        "pao",
    ):
        value = getattr(args, key)
        if value is not None:
            data[key] = value
    if args.melds:
        data["melds"] = args.melds.split()
    if args.self_draw:
        data["self_draw"] = True
    if args.events:
        data["events"] = args.events.replace(",", " ").split()
    rules = parse_rules(args.rule)
    if rules:
        data["rules"] = rules
    return data


def read_json(source: str | None) -> Any:
    """The JSON value in a file, or on stdin for None or ``-``; any problem is one line.

    Read strictly (scoring.strict_json): UTF-8 text only, and no NaN or Infinity (Python reads
    them, JSON has no such numbers, and a result echoing them would not be JSON either)."""
    where = "stdin" if source in (None, "-") else repr(source)
    if source in (None, "-") and sys.stdin is None:  # started with stdin closed (<&-)
        raise TilescoreError("standard input is closed: give the JSON in a FILE")
    try:
        raw = sys.stdin.buffer.read() if source in (None, "-") else Path(source).read_bytes()
    except OSError as error:
        raise TilescoreError(f"cannot read {where}: {error.strerror}") from None
    return strict_json.loads(raw, where)


def write_json(value: Any, indent: int | None = None) -> None:
    """Print ``value`` as strict JSON in valid UTF-8; a result that cannot be is one line."""
    print(json_text(value, indent))


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` as strict JSON text that encodes to valid UTF-8; one that cannot be is one line.

    Tile names stay readable (not ``\\uXXXX``) unless the value holds a lone surrogate (a
    ``"\\udcff"`` escape in the input, or a file name whose bytes are not UTF-8), which UTF-8
    cannot carry: then every non-ASCII character is escaped instead."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(value, allow_nan=False, indent=indent)
    except RecursionError:
        raise TilescoreError("the result is nested too deeply to write") from None
    except ValueError as error:
        raise _unwritable(error) from None
    return text


def write_text(render: Callable[[], str]) -> None:
    """Print what ``render`` makes of a result, for a person; what cannot be is one line."""
    try:
        text = render()
    except ValueError as error:
        raise _unwritable(error) from None
    print(text)


def _unwritable(error: ValueError) -> TilescoreError:
    # Python writes no whole number of more digits than its limit: only absurd input makes one
    # (a dealer streak thousands of digits long, times the points per 台).
    if "integer string conversion" in str(error):
        limit = sys.get_int_max_str_digits()
        return TilescoreError(f"the result holds a number of more than {limit} digits")
    return TilescoreError(f"the result cannot be written as JSON: {error}")


def exit_status(results: list[dict[str, Any]]) -> int:
    """The exit status of ``score --json`` (README "Exit status"): 0 when a hand scored, or none
    was given; 2 when every hand given failed, each failure an ``{"error": ...}`` result."""
    return 0 if not results or any("error" not in r for r in results) else 2


HAND_OPTIONS = {
    "win_tile": "--win",
    "melds": "--melds",
    "flowers": "--flowers",
    "seat_wind": "--seat",
    "round_wind": "--round",
    "self_draw": "--self-draw",
    "discarder": "--discarder",
    "dealer_streak": "--streak",
    "dealer": "--dealer",
    "events": "--events",
    "dora_indicators": "--dora",
    "ura_dora_indicators": "--ura",
    "honba": "--honba",
    "riichi_sticks": "--riichi-sticks",
    "players": "--players",
    "pao": "--pao",
    "rule": "--rule",
}
"""The options that say something of one hand typed with --hand or read from a photo."""


def run(args: argparse.Namespace) -> int:
    if args.hand is not None and args.source is not None:
        raise TilescoreError(f"give --hand or {args.source!r}, not both")
    if args.hand is None:
        if not args.json and args.source is None:
            raise TilescoreError("give --hand TILES, or --json with a file of hands, or a photo")
        data = read_json(args.source)
        said = [
            flag
            for key, flag in HAND_OPTIONS.items()
            if getattr(args, key) not in (None, False, [])
        ]
        if said:
            # Taken without a word, the hands were scored as the JSON says, not as the option.
            raise TilescoreError(
                f"{said[0]} is for a hand typed with --hand or read from a photo: a hand given"
                " as JSON says it in its own keys"
            )
        if isinstance(data, list):
            results = [score_json(d, args.variant) for d in data]
            write_json(results)
            return exit_status(results)
        result = score_json(data, args.variant)
        write_json(result)
        return exit_status([result])
    result = score_json(hand_from_options(args))
    if args.json:
        write_json(result, indent=2)
        return exit_status([result])
    if "error" in result:
        raise TilescoreError(result["error"])
    write_text(lambda: format_result(hand_from_options(args), result))
    return 0


def format_result(data: dict[str, Any], result: dict[str, Any]) -> str:
    """The result as a player reads it at the table."""
    lines = [f"Hand     {data.get('hand')}  won on {data.get('win_tile', '?')}"]
    if data.get("melds"):
        lines.append(f"Melds    {' '.join(data['melds'])}")
    if data.get("flowers"):
        lines.append(f"Flowers  {data['flowers']}")
    if result.get("decomposition"):
        lines.append(f"Reading  {result['decomposition']}")
    if result.get("waits"):
        lines.append(f"Waited   {' '.join(result['waits'])} ({result.get('wait_shape', '')})")
    if not result["winning"]:
        lines.append(f"Not a winning hand: {result.get('reason', '')}")
        # A 詐糊 (明將) is paid by the one who declared it: said as any payment is.
        lines += _payment_lines(result)
        return "\n".join(lines)
    lines.append("")
    unit = result["unit"]
    width = max((_display_width(i["name"]) for i in result["items"]), default=4)
    for item in result["items"]:
        pad = " " * (width - _display_width(item["name"]))
        lines.append(f"  {item['name']}{pad}  {item['value']:>3} {unit}  {item['why']}")
    beside = total_note(result)
    lines.append(
        f"  {'Total':<{width}}  {result['total']:>3} {unit}{f'  ({beside})' if beside else ''}"
    )
    lines += [f"  {line}" for line in notes(result)]
    if result.get("payments"):
        lines += _payment_lines(result)
    elif result["total"] and not data.get("self_draw") and not data.get("discarder"):
        lines += ["", "  No one pays until the win is said: --discarder SEAT or --self-draw"]
    return "\n".join(lines)


def _payment_lines(result: dict[str, Any]) -> list[str]:
    payments = result.get("payments") or []
    lines = [f"  {p['payer']} pays {p['payee']} {p['amount']}" for p in payments]
    return [""] + lines if lines else []


def _display_width(text: str) -> int:
    return sum(2 if ord(c) > 0x2E80 else 1 for c in text)
