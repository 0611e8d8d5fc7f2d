"""``tilescore detect PHOTO...``: find and read every tile, many photos in one process.

The models load once; each photo is read on its own, so one bad photo gives an ``error`` entry and
the others still run (the exit status is 1 when any photo failed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from scoring.errors import TilescoreError
from vision.models import thread_count
from vision.tile_sets import UNSAID_BACKS, Backs, add_back_options, backs_from_args


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", type=Path, metavar="PHOTO", help="photos to read")
    parser.add_argument(
        "--json", action="store_true", help="print JSON (an object for one photo, else a list)"
    )
    parser.add_argument(
        "--annotate", type=Path, metavar="OUT_DIR", help="also write each photo with boxes drawn"
    )
    parser.add_argument(
        "--models", type=Path, default=Path("models"), metavar="DIR", help="model folder"
    )
    parser.add_argument(
        "--threads",
        type=thread_count,
        default=None,
        metavar="N",
        help="onnxruntime threads (default: all)",
    )
    parser.add_argument(
        "--variant",
        metavar="RULES",
        help="the rule set the photos are of (taiwan, riichi, mingjiang, xiangqi): the model "
        "folder may name a detector for its tables",
    )
    parser.add_argument(
        "--no-red-fives",
        dest="red_fives",
        action="store_false",
        help="the tile set has no red fives: a five read as red is a plain five",
    )
    add_back_options(parser)


def run(args: argparse.Namespace) -> int:
    from vision.pipeline import load_pipeline

    backs = backs_from_args(args)
    pipeline = load_pipeline(args.models, threads=args.threads, variant=args.variant)
    results: list[dict[str, Any]] = []
    for path in args.photos:
        try:
            results.append(read_photo(pipeline, path, args.annotate, args.red_fives, backs))
        except TilescoreError as error:
            results.append({"image": str(path), "error": str(error)})
        if not args.json:
            print(_format(results[-1]), file=sys.stderr if "error" in results[-1] else sys.stdout)
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, ensure_ascii=False))
    return 1 if any("error" in r for r in results) else 0


def read_photo(
    pipeline: Any,
    path: Path,
    annotate_dir: Path | None,
    red_fives: bool = True,
    backs: Backs = UNSAID_BACKS,
) -> dict[str, Any]:
    """The detect JSON of one photo (docs/contracts.md); writes the annotated copy if asked."""
    from vision.images import load_photo

    start = time.perf_counter()
    photo = load_photo(path)
    decode_ms = round((time.perf_counter() - start) * 1000, 2)
    reading = pipeline.read(photo.pixels, red_fives=red_fives, backs=backs)
    timing = {"decode": decode_ms, **reading.timing_ms}
    timing["total"] = round(decode_ms + reading.timing_ms["total"], 2)
    if annotate_dir is not None:
        # Drawn on the pixels read: a 12-megapixel photo's copy is written at half its size.
        _write_annotated(photo.pixels, reading.tiles, annotate_dir / f"{path.stem}.annotated.jpg")
    return {
        "image": str(path),
        "width": photo.width,
        "height": photo.height,
        "tiles": [tile.to_json() for tile in reading.scaled(*photo.scale).tiles],
        "timing_ms": timing,
    }


def _write_annotated(image: Any, tiles: Any, target: Path) -> None:
    import cv2

    from vision.annotate import annotate
    from vision.errors import ImageError

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ImageError(f"{target.parent}: cannot write there ({error.strerror})") from None
    if not cv2.imwrite(str(target), annotate(image, tiles)):
        raise ImageError(f"{target}: cannot write the annotated photo")


def _format(result: dict[str, Any]) -> str:
    """A readable table: one line per tile, codes in reading order on the first line."""
    if "error" in result:
        return f"error: {result['error']}"
    tiles = result["tiles"]
    codes = " ".join("back" if t["face_down"] else t["code"] for t in tiles)
    lines = [
        f"{result['image']}: {result['width']}x{result['height']}, {len(tiles)} tiles, "
        f"{result['timing_ms']['total']:.0f} ms",
        f"  {codes}" if tiles else "  (no tiles found)",
    ]
    if tiles:
        lines.append(f"  {'#':>3}  {'code':<5} {'conf':>5}  {'box (x1,y1)-(x2,y2)':<26} notes")
    for number, tile in enumerate(tiles, 1):
        code = "back" if tile["face_down"] else tile["code"]
        notes = []
        if tile["rotated"]:
            notes.append("sideways")
        if tile["low_confidence"]:
            maybe = ", ".join(f"{c} {p:.2f}" for c, p in tile.get("alternatives", []))
            notes.append(f"unsure{' (or ' + maybe + ')' if maybe else ''}")
        x1, y1, x2, y2 = (int(v) for v in tile["box"])
        box = f"({x1},{y1})-({x2},{y2})"
        lines.append(
            f"  {number:>3}  {code:<5} {tile['confidence']:5.2f}  {box:<26} {' '.join(notes)}"
        )
    return "\n".join(lines)
