"""``tilescore score``: a photo goes through the vision pipeline, anything else to the scorer.

Kept here, above both, so ``scoring`` never imports ``vision``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scoring import cli as scoring_cli
from scoring.errors import TilescoreError
from scoring.strict_json import NotTextError
from vision.labels import PHOTO_SUFFIXES


def configure(parser: argparse.ArgumentParser) -> None:
    scoring_cli.configure(parser)
    from vision.tile_sets import add_back_options

    add_back_options(parser)  # photos only: the scorer's own options stay in scoring


TYPED_HAND = {"hand": "--hand", "win_tile": "--win", "melds": "--melds", "flowers": "--flowers"}
"""The options that type a hand: a photo's hand is what it shows."""


def run(args: argparse.Namespace) -> int:
    if args.source and Path(args.source).suffix.lower() in PHOTO_SUFFIXES:
        from vision.score_photo import score_photo_command

        typed = [option for key, option in TYPED_HAND.items() if getattr(args, key, None)]
        if typed:  # they were read past without a word
            raise TilescoreError(
                f"{typed[0]} types a hand, and a photo's hand is what it shows: score the photo "
                "alone, or type the whole hand with --hand"
            )
        return score_photo_command(args)
    try:
        return scoring_cli.run(args)
    except NotTextError as error:
        if args.source in (None, "-"):
            raise  # stdin: no photo comes that way
        # A GIF, or a photo saved without its extension, is no hand either: say both.
        raise TilescoreError(
            f"{error}: neither a hand as JSON nor a photo tilescore reads "
            f"({' '.join(PHOTO_SUFFIXES)})"
        ) from None
