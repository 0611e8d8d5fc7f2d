"""``tilescore score``: a photo goes through the vision pipeline, anything else to the scorer.

Kept here, above both, so ``scoring`` never imports ``vision``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scoring import cli as scoring_cli
from scoring.errors import TilescoreError
from scoring.strict_json import NotTextError
from vision.errors import ImageError
from vision.labels import PHOTO_SUFFIXES


def configure(parser: argparse.ArgumentParser) -> None:
    scoring_cli.configure(parser)
    from vision.tile_sets import add_back_options

    add_back_options(parser)  # photos only: the scorer's own options stay in scoring


TYPED_HAND = {"hand": "--hand", "win_tile": "--win", "melds": "--melds", "flowers": "--flowers"}
"""The options that type a hand: a photo's hand is what it shows."""


def run(args: argparse.Namespace) -> int:
    if args.source and Path(args.source).suffix.lower() in PHOTO_SUFFIXES:
        return _score_photo(args)
    if args.json or args.hand is not None:
        # Options only a photo takes, beside hands typed or given as JSON, were dropped
        # without a word (--annotate wrote nothing).
        photo_only = {
            "--annotate": args.annotate,
            "--models": args.models,
            "--white-backs": not args.coloured_backs,
            "--back-colour": args.back_colour,
        }
        said = [flag for flag, value in photo_only.items() if value]
        if said:
            raise TilescoreError(
                f"{said[0]} is for a photo: a hand typed or given as JSON has none"
            )
    try:
        return scoring_cli.run(args)
    except NotTextError:
        if args.source in (None, "-"):
            raise  # stdin: no photo comes that way
        # Not text, so no hand as JSON: a photo saved without its extension, or in a format
        # OpenCV reads that is not a camera's (a GIF), as ``detect`` reads it.
        try:
            return _score_photo(args)
        except ImageError as not_photo:
            raise TilescoreError(f"{not_photo}, nor a hand as JSON (not UTF-8 text)") from None


def _score_photo(args: argparse.Namespace) -> int:
    from vision.score_photo import score_photo_command

    typed = [option for key, option in TYPED_HAND.items() if getattr(args, key, None)]
    if typed:  # they were read past without a word
        raise TilescoreError(
            f"{typed[0]} types a hand, and a photo's hand is what it shows: score the photo "
            "alone, or type the whole hand with --hand"
        )
    return score_photo_command(args)
