"""``tilescore reconstruct --json [FILE|-]``: detections of one photo in, a hand out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scoring.errors import TilescoreError
from vision.layout import reconstruct_json


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="?", default="-", help="detect JSON file, or - for stdin")
    parser.add_argument("--json", action="store_true", help="JSON out (the default is JSON too)")
    parser.add_argument("--variant", default="taiwan", help="sets the expected hand size")


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.source == "-" else Path(args.source).read_text("utf-8")
        data = json.loads(text)
    except OSError as error:
        raise TilescoreError(f"cannot read {args.source!r}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise TilescoreError(f"{args.source!r} is not valid JSON: {error.msg}") from None
    if isinstance(data, list):
        if len(data) != 1:
            raise TilescoreError("give the detections of one photo (a list of several was given)")
        data = data[0]
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise TilescoreError("expected the JSON of tilescore detect --json: an object with tiles")
    print(json.dumps(reconstruct_json(data, args.variant), ensure_ascii=False))
    return 0
