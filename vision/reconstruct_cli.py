"""``tilescore reconstruct --json [FILE|-]``: detections of one photo in, a hand out."""

from __future__ import annotations

import argparse

from scoring.cli import read_json, write_json
from scoring.errors import TilescoreError
from scoring.hand_json import wins_under
from scoring.variant import variant_name
from vision.layout import reconstruct


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="?", default="-", help="detect JSON file, or - for stdin")
    parser.add_argument("--json", action="store_true", help="JSON out (the default is JSON too)")
    parser.add_argument("--variant", default="taiwan", help="sets the expected hand size")
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
    # Geometry alone by default: what the photo shows, for chaining into `score` with the
    # table's own options, which decide what wins.
    wins = wins_under({"variant": args.variant}) if args.complete else None
    reading = reconstruct(data["tiles"], args.variant, wins=wins)
    # The rule set it was read for, so `tilescore score --json` takes the output as it is.
    write_json({"variant": variant, **reading.to_json()})
    return 0
