"""``tilescore detect PHOTO...``: find and read every tile, many photos in one process.

The models load once; each photo is read on its own, so one bad photo gives an ``error`` entry and
the others still run (the exit status is 1 when any photo failed).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from scoring.cli import write_json
from scoring.errors import TilescoreError
from scoring.variant import flowers_in_play, red_fives_in_play
from vision.models import SHIPPED_MODELS, thread_count
from vision.tile_sets import UNSAID_BACKS, Backs, add_back_options, backs_from_args


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", type=Path, metavar="PHOTO", help="photos to read")
    parser.add_argument(
        "--json", action="store_true", help="print JSON (an object for one photo, else a list)"
    )
    parser.add_argument(
        "--annotate", metavar="OUT_DIR", help="also write each photo with boxes drawn"
    )
    parser.add_argument(
        "--models", type=Path, default=SHIPPED_MODELS, metavar="DIR", help="model folder"
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
        "folder may name a detector for its tables, and the photos are read as score reads "
        "them for it (red fives as plain fives and no flowers, where its rules have none)",
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
    # Where each drawing goes, settled before a photo is read: a folder that cannot be one is
    # said once, not after every photo's tiles were read and lost.
    drawings = _drawing_paths(args.photos, _drawing_folder(args.annotate))
    pipeline = load_pipeline(args.models, threads=args.threads, variant=args.variant)
    # With a rule set named, read as score PHOTO reads for it (its default options), so that
    # detect | reconstruct | score gives score PHOTO's hand.
    red_fives = args.red_fives and (args.variant is None or red_fives_in_play(args.variant))
    flowers = flowers_in_play(args.variant)
    results: list[dict[str, Any]] = []
    for path, drawing in zip(args.photos, drawings, strict=True):
        try:
            results.append(read_photo(pipeline, path, drawing, red_fives, backs, flowers))
        except TilescoreError as error:
            results.append({"image": str(path), "error": str(error)})
        if not args.json:
            print(_format(results[-1]), file=sys.stderr if "error" in results[-1] else sys.stdout)
    if args.json:
        # Strict UTF-8 whatever a photo's name holds (scoring.cli.write_json).
        write_json(results[0] if len(results) == 1 else results)
    return 1 if any("error" in r for r in results) else 0


def _drawing_folder(given: str | None) -> Path | None:
    """The ``--annotate`` folder, made if need be; a name that cannot be one is a one-line
    error."""
    from vision.errors import ImageError

    if given is None:
        return None
    if not given.strip():
        raise ImageError("--annotate needs a folder name")
    folder = Path(given)
    if folder.exists() and not folder.is_dir():
        raise ImageError(f"{folder}: a file, not a folder to write the drawings in")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ImageError(f"{folder}: cannot write there ({error.strerror})") from None
    return folder


def _drawing_paths(photos: list[Path], folder: Path | None) -> list[Path | None]:
    """Each photo's drawing, ``STEM.annotated.jpg`` in ``folder``: photos of one name from two
    folders (or a .jpg and a .png) get ``STEM-2``, ``STEM-3``..., not one drawing over another,
    nor over a photo being read (``a.annotated.jpg`` given beside ``a.jpg``)."""
    if folder is None:
        return [None] * len(photos)
    inputs = {_where(photo) for photo in photos}
    taken: set[str] = set()
    paths: list[Path | None] = []
    for photo in photos:
        stem, number = photo.stem, 1
        while stem.casefold() in taken or _where(folder / f"{stem}.annotated.jpg") in inputs:
            number += 1
            stem = f"{photo.stem}-{number}"
        taken.add(stem.casefold())
        paths.append(folder / f"{stem}.annotated.jpg")
    return paths


def _where(path: Path) -> str:
    """A path as the file system finds it, letter case folded (two names of one file on a Mac)."""
    return str(path.resolve()).casefold()


def read_photo(
    pipeline: Any,
    path: Path,
    drawing: Path | None,
    red_fives: bool = True,
    backs: Backs = UNSAID_BACKS,
    flowers: bool = True,
) -> dict[str, Any]:
    """The detect JSON of one photo (docs/contracts.md); writes its drawing to ``drawing``, if
    given."""
    from vision.images import load_photo

    start = time.perf_counter()
    photo = load_photo(path)
    decode_ms = round((time.perf_counter() - start) * 1000, 2)
    reading = pipeline.read(photo.pixels, red_fives=red_fives, backs=backs, flowers=flowers)
    timing = {"decode": decode_ms, **reading.timing_ms}
    timing["total"] = round(decode_ms + reading.timing_ms["total"], 2)
    if drawing is not None:
        # Drawn on the pixels read: a 12-megapixel photo's copy is written at half its size.
        _write_annotated(photo.pixels, reading.tiles, drawing)
    return {
        "image": str(path),
        "width": photo.width,
        "height": photo.height,
        "tiles": [tile.to_json() for tile in reading.scaled(*photo.scale).tiles],
        "timing_ms": timing,
    }


def _write_annotated(image: Any, tiles: Any, target: Path) -> None:
    from vision.annotate import annotate, image_written
    from vision.errors import ImageError

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ImageError(f"{target.parent}: cannot write there ({error.strerror})") from None
    if not image_written(target, annotate(image, tiles)):
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
