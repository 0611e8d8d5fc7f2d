"""``tilescore score PHOTO``: detect, rebuild the hand from the layout, score, show it all."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scoring.cli import exit_status, format_result, hand_from_options, write_json, write_text
from scoring.errors import TilescoreError
from scoring.hand_json import check_context, score_json, wins_under
from scoring.variant import flowers_in_play, red_fives_in_play
from vision.annotate import (
    annotate,
    annotation_target,
    draw_groups,
    draw_unseen,
    write_image,
)
from vision.detection import PhotoReading
from vision.images import load_photo
from vision.layout import Reading, reconstruct
from vision.models import SHIPPED_MODELS
from vision.pipeline import load_pipeline
from vision.tile_sets import backs_from_args


def score_photo_command(args: argparse.Namespace) -> int:
    photo = Path(args.source)
    backs = backs_from_args(args)
    # Where the drawing goes is checked before any work, so a bad name wastes no reading.
    if args.annotate is not None and not args.annotate.strip():
        raise TilescoreError("--annotate needs a file name for the drawing")
    target = annotation_target(Path(args.annotate), photo) if args.annotate else None
    # The table's options are checked before any model runs: reading a photo takes seconds on
    # a Pi, and a --seat Q or --honba -2 said only after it wastes them.
    table = _table(args)
    check_context(table)
    decoded = load_photo(photo)
    variant = table["variant"]
    pipeline = load_pipeline(Path(args.models or SHIPPED_MODELS), variant=variant)
    # A five painted red is read as the plain five where the rule set counts no red fives.
    red_fives = red_fives_in_play(variant, table.get("rules"))
    flowers = flowers_in_play(variant)
    read = pipeline.read(decoded.pixels, red_fives=red_fives, backs=backs, flowers=flowers)
    tiles = [t.to_json() for t in read.scaled(*decoded.scale).tiles]
    # The hand was laid down because it won: a reading that is no winning hand under these rules
    # is completed by the doubtful tiles' runner-ups where they make it one; a hand short of
    # tiles is read again where the layout says a missed one lies.
    wins = wins_under(table)
    look = pipeline.place_reader(decoded.pixels, decoded.scale, red_fives, flowers, backs, tiles)
    layout_reading = reconstruct(tiles, variant, wins=wins, look=look)
    tiles += [t.to_json() for t in layout_reading.looked]
    layout = layout_reading.to_json()
    hand: dict[str, Any] = {**table, **{k: layout[k] for k in ("hand", "win_tile", "flowers")}}
    hand["melds"] = layout["melds"]
    if not hand["win_tile"]:
        hand.pop("win_tile")
    result = score_json(hand)
    if target is not None:
        across, down = decoded.scale
        looked = PhotoReading(layout_reading.looked).scaled(1 / across, 1 / down).tiles
        drawn = (*read.tiles, *looked)
        _annotate(decoded.pixels, drawn, layout_reading, result, target, decoded.scale)
    if args.json:
        out = {"tiles": tiles, "reading": layout, "result": result, "problems": layout["problems"]}
        write_json(out)
        return exit_status([result])
    print(f"{photo}: {len(tiles)} tiles read")
    for problem in layout["problems"]:
        print(f"  ! {problem}")
    if "error" in result:
        sys.stdout.flush()  # the lines above first, then the error on stderr
        raise TilescoreError(result["error"])
    melds = [f"{m['type']}:{m['tiles']}" for m in layout["melds"]]
    write_text(lambda: format_result({**hand, "melds": melds}, result))
    return 0


def _table(args: argparse.Namespace) -> dict[str, Any]:
    """The hand's context from the command's options, its tiles still to be read."""
    return hand_from_options(argparse.Namespace(**{**vars(args), "hand": ""}))


def _annotate(
    image: Any,
    tiles: Any,
    layout: Reading,
    result: dict[str, Any],
    target: Path,
    scale: tuple[float, float],
) -> None:
    """The photo as decoded, with ``tiles`` (in its pixels) and ``layout`` (in the photo's own
    pixels, ``scale`` times those) drawn on it."""
    win = f" +{layout.win_tile}" if layout.win_tile else ""
    score = f"{result['total']} {result['unit']}" if "total" in result else result.get("error", "")
    summary = f"{layout.hand_json()['hand']}{win}  {score}"
    groups = [(g.role, g.tiles, g.label) for g in layout.groups]
    out = draw_groups(annotate(image, tiles), [t.box for t in tiles], groups, summary)
    if layout.unseen is not None:
        across, down = scale
        x1, y1, x2, y2 = layout.unseen.box
        box = (x1 / across, y1 / down, x2 / across, y2 / down)
        out = draw_unseen(out, box, layout.unseen.code, min(box[2] - box[0], box[3] - box[1]))
    write_image(target, out, "the annotated photo")
