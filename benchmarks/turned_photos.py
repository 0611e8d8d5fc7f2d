"""The labelled real photos read turned a quarter or a half, and shrunk: what each costs.

    PYTHONPATH=. python benchmarks/turned_photos.py [--models models] [--labels datasets/real/labels]
        [--photos ../shared/data/real-photos-unlabeled] [--long-sides 1280 960] [--threads 2]

A photo reaches the pipeline turned when the camera is: a Pi camera mounted rolled a quarter, a
phone photo whose orientation tag was stripped. The hands in the real photos already lie at every
angle on the table (their rows run across, down and diagonally), so this is not the hand's angle
but the camera's roll: what turns with it is the perspective (far tiles smaller and higher in the
frame). Each photo is turned (OpenCV's exact quarter turns, no resampling) or shrunk, read, and
its boxes mapped back onto the labels (a quarter turn also swaps every box's sideways flag), so
the same matching judges every row (``print_table``, which benchmarks/light_photos.py shares). A shrunk photo is what a lower-resolution camera gives.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import add_photo_arguments, labelled_photos  # noqa: E402
from vision.detection import Detection  # noqa: E402
from vision.evaluate import Evaluation, match_photo  # noqa: E402
from vision.pipeline import load_pipeline  # noqa: E402

Box = tuple[float, float, float, float]


@dataclasses.dataclass(frozen=True)
class Change:
    """A way the camera may give the photo: the pixels it gives, and a found box mapped back."""

    name: str
    apply: Callable[[np.ndarray], np.ndarray]
    box_back: Callable[[Box, int, int], Box]  # a box found in the changed photo, source w, h
    swaps_sideways: bool = False


def unmoved(box: Box, width: int, height: int) -> Box:
    """A box found in a photo changed in its pixels alone (light, blur): where it was."""
    return box


def turns() -> list[Change]:
    return [
        Change("as taken", lambda image: image, unmoved),
        Change(
            "turned a half",
            lambda image: cv2.rotate(image, cv2.ROTATE_180),
            lambda b, w, h: (w - b[2], h - b[3], w - b[0], h - b[1]),
        ),
        Change(  # (x, y) in the source is (h - y, x) turned clockwise
            "turned a quarter clockwise",
            lambda image: cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE),
            lambda b, w, h: (b[1], h - b[2], b[3], h - b[0]),
            swaps_sideways=True,
        ),
        Change(  # (x, y) in the source is (y, w - x) turned counter-clockwise
            "turned a quarter counter-clockwise",
            lambda image: cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE),
            lambda b, w, h: (w - b[3], b[0], w - b[1], b[2]),
            swaps_sideways=True,
        ),
    ]


def shrunk(long_side: int) -> Change:
    def apply(image: np.ndarray) -> np.ndarray:
        factor = long_side / max(image.shape[:2])
        return cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)

    def box_back(box: Box, w: int, h: int) -> Box:
        factor = max(w, h) / long_side
        return (box[0] * factor, box[1] * factor, box[2] * factor, box[3] * factor)

    return Change(f"shrunk to {long_side} px", apply, box_back)


def mapped_back(tile: Detection, change: Change, width: int, height: int) -> Detection:
    rotated = not tile.rotated if change.swaps_sideways else tile.rotated
    return dataclasses.replace(tile, box=change.box_back(tile.box, width, height), rotated=rotated)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--long-sides", type=int, nargs="*", default=[1280, 960])
    parser.add_argument("--threads", type=int, default=2)
    add_photo_arguments(parser)
    args = parser.parse_args()
    changes = turns() + [shrunk(side) for side in args.long_sides]
    print_table(args, changes, "photo")
    return 0


def print_table(args: argparse.Namespace, changes: list[Change], first_column: str) -> None:
    """Read the labelled photos (``args``: models, threads, labels, photos) as each change gives
    them, the boxes mapped back onto the labels: a table row a change."""
    labels, photos = labelled_photos(args.labels, args.photos)
    pipeline = load_pipeline(args.models, threads=args.threads)
    print(f"{len(labels)} labelled photos ({' + '.join(m.name for m in pipeline.models)})")
    print(
        f"| {first_column} | tiles right | photos right | right or asked | extra boxes "
        "| tiles missed | misread |"
    )
    print("|---|---|---|---|---|---|---|")
    for change in changes:
        results = []
        for label, (image, tile_set) in zip(labels, photos, strict=True):
            height, width = image.shape[:2]
            reading = pipeline.read(change.apply(image), **tile_set.read_options)
            tiles = [mapped_back(tile, change, width, height) for tile in reading.tiles]
            results.append(match_photo(label, tiles))
        every = Evaluation(tuple(results))
        right = sum(p.all_right for p in every.photos)
        asked = sum(p.right_or_asked for p in every.photos)
        extra = sum(len(p.extra) for p in every.photos)
        missed = sum(len(p.missed) for p in every.photos)
        misread = sum(len(p.misreads) for p in every.photos)
        print(
            f"| {change.name} | {every.tile_accuracy:.1%} | {right}/{len(labels)} "
            f"| {asked}/{len(labels)} | {extra} | {missed} | {misread} |",
            flush=True,
        )


if __name__ == "__main__":
    raise SystemExit(main())
