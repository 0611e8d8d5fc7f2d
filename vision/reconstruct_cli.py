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
    variant_name(args.variant)  # an unknown rule set is a one-line error, before any input is read
    data = read_json(args.source)
    if isinstance(data, list):
        if len(data) != 1:
            raise TilescoreError("give the detections of one photo (a list of several was given)")
        data = data[0]
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise TilescoreError("expected the JSON of tilescore detect --json: an object with tiles")
    # Geometry alone by default: what the photo shows, for chaining into `score` with the
    # table's own options, which decide what wins.
    wins = wins_under({"variant": args.variant}) if args.complete else None
    reading = reconstruct(data["tiles"], args.variant, wins=wins)
    write_json(reading.to_json())
    return 0
