"""``tilescore reconstruct --json [FILE|-]``: detections of one photo in, a hand out."""

from __future__ import annotations

import argparse
from typing import Any

from scoring.cli import read_json, write_json
from scoring.errors import TilescoreError
from scoring.hand_json import wins_under
from scoring.variant import red_fives_in_play, variant_name
from vision.layout import reconstruct
from vision.tile_sets import plain_five


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="?", default="-", help="detect JSON file, or - for stdin")
    parser.add_argument("--json", action="store_true", help="JSON out (the default is JSON too)")
    parser.add_argument("--variant", default="taiwan", help="sets the expected hand size")
    parser.add_argument(
        "--red-fives",
        action="store_true",
        help="the table plays red fives (riichi's rule red_fives): they stay red, and the output "
        "says so to score; without it a five read as red is a plain five, as score PHOTO reads it",
    )
    parser.add_argument(
        "--complete",
        action="store_true",
        help="a hand that is no winning hand under the variant's rules (default options) is "
        "completed by a doubtful tile's runner-up read, as `tilescore score PHOTO` does; each "
        "change is listed in problems",
    )


def run(args: argparse.Namespace) -> int:
    # An unknown rule set is a one-line error, before any input is read.
    variant = variant_name(args.variant)
    data = read_json(args.source)
    if isinstance(data, list):
        if len(data) != 1:
            given = "an empty list" if not data else "a list of several"
            raise TilescoreError(f"give the detections of one photo ({given} was given)")
        data = data[0]
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise TilescoreError("expected the JSON of tilescore detect --json: an object with tiles")
    rules = {"red_fives": True} if _keeps_red_fives(variant, args.red_fives) else {}
    tiles = data["tiles"] if rules else [_plain_fives(item) for item in data["tiles"]]
    # Geometry alone by default: what the photo shows, for chaining into `score` with the
    # table's own options, which decide what wins.
    wins = wins_under({"variant": args.variant, "rules": rules}) if args.complete else None
    reading = reconstruct(tiles, args.variant, wins=wins)
    # The rule set it was read for, so `tilescore score --json` takes the output as it is.
    write_json({"variant": variant, **({"rules": rules} if rules else {}), **reading.to_json()})
    return 0


def _keeps_red_fives(variant: str, asked: bool) -> bool:
    """Whether the red fives read stay red: only where asked, and the rule set can play them."""
    if not asked:
        return False
    try:
        playable = red_fives_in_play(variant, {"red_fives": True})
    except TilescoreError:  # no such rule option: never played with red fives
        playable = False
    if not playable:
        raise TilescoreError(f"{variant} is played without red fives: leave out --red-fives")
    return True


def _plain_fives(item: Any) -> Any:
    """A detection with a five read as red made plain, as a photo read for a rule set without
    red fives reads it (a detect run without --no-red-fives chained into taiwan's score was
    refused: "red five 0m is not used in taiwan")."""
    if not isinstance(item, dict):
        return item  # said as the detection's error by the layout
    out = dict(item)
    if isinstance(out.get("code"), str):
        out["code"] = plain_five(out["code"])
    alternatives = out.get("alternatives")
    if isinstance(alternatives, list):
        plain = [_plain_alternative(a) for a in alternatives]
        # 0m and 5m both offered are one tile offered once.
        named = [
            a if isinstance(a, str) else a[0] if isinstance(a, list) and a else None for a in plain
        ]
        out["alternatives"] = [
            a for i, a in enumerate(plain) if named[i] is None or named[i] not in named[:i]
        ]
    return out


def _plain_alternative(entry: Any) -> Any:
    if isinstance(entry, str):
        return plain_five(entry)
    if isinstance(entry, list) and entry and isinstance(entry[0], str):
        return [plain_five(entry[0]), *entry[1:]]
    return entry
