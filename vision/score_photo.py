"""``tilescore score PHOTO``: detect, rebuild the hand from the layout, score, show it all."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2

from scoring.cli import format_result, hand_from_options
from scoring.errors import TilescoreError
from scoring.hand_json import score_json, wins_under
from scoring.variant import red_fives_in_play
from vision.images import load_photo
from vision.layout import Reading, reconstruct
from vision.pipeline import load_pipeline
from vision.tile_sets import backs_from_args


def score_photo_command(args: argparse.Namespace) -> int:
    photo = Path(args.source)
    backs = backs_from_args(args)
    decoded = load_photo(photo)
    variant = args.variant or "taiwan"
    pipeline = load_pipeline(Path(args.models or "models"), variant=variant)
    read = pipeline.read(decoded.pixels, red_fives=_red_fives(args), backs=backs)
    tiles = [t.to_json() for t in read.scaled(*decoded.scale).tiles]
    # The hand was laid down because it won: a reading that is no winning hand under these rules
    # is completed by the doubtful tiles' runner-ups where they make it one.
    wins = wins_under(hand_from_options(_with_hand(args, "")))
    layout_reading = reconstruct(tiles, variant, wins=wins)
    layout = layout_reading.to_json()
    context = hand_from_options(_with_hand(args, layout["hand"]))
    hand: dict[str, Any] = {**context, **{k: layout[k] for k in ("hand", "win_tile", "flowers")}}
    hand["melds"] = layout["melds"]
    if not hand["win_tile"]:
        hand.pop("win_tile")
    result = score_json(hand)
    if args.annotate:
        _annotate(decoded.pixels, read.tiles, layout_reading, result, Path(args.annotate))
    if args.json:
        out = {"tiles": tiles, "reading": layout, "result": result, "problems": layout["problems"]}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{photo}: {len(tiles)} tiles read")
    for problem in layout["problems"]:
        print(f"  ! {problem}")
    if "error" in result:
        print(f"error: {result['error']}")
        return 2
    melds = [f"{m['type']}:{m['tiles']}" for m in layout["melds"]]
    print(format_result({**hand, "melds": melds}, result))
    return 0


def _red_fives(args: argparse.Namespace) -> bool:
    """Whether the variant and its rule options count red fives; if not, a red-painted five is
    read as the plain five it is (and the rule options are checked before any model runs)."""
    context = hand_from_options(_with_hand(args, ""))
    return red_fives_in_play(context["variant"], context.get("rules"))


def _with_hand(args: argparse.Namespace, hand: str) -> argparse.Namespace:
    copy = argparse.Namespace(**vars(args))
    copy.hand = hand
    return copy


def _annotate(
    image: Any, tiles: Any, layout: Reading, result: dict[str, Any], target: Path
) -> None:
    from vision.annotate import annotate, draw_groups

    win = f" +{layout.win_tile}" if layout.win_tile else ""
    score = f"{result['total']} {result['unit']}" if "total" in result else result.get("error", "")
    summary = f"{layout.hand_json()['hand']}{win}  {score}"
    groups = [(g.role, g.tiles, g.label) for g in layout.groups]
    out = draw_groups(annotate(image, tiles), [t.box for t in tiles], groups, summary)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(target), out):
        raise TilescoreError(f"cannot write the annotated photo to {str(target)!r}")
