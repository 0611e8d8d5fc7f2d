"""Several model folders on the same labelled photos, split in halves: which to ship.

    PYTHONPATH=. python benchmarks/compare_models.py MODELS_DIR... [--labels datasets/real/labels]
        [--photos ../shared/data/real-photos-unlabeled]

Each folder is read as `tilescore evaluate --models DIR` reads it (its own thresholds, the
tile-set facts beside the labels). The photos are split as in threshold_sweep.py (even and odd
positions): choose on the even half, and the odd half says whether the choice holds, or the
choice is tuned on its own test set. Used to pick the shipped classifier soup (docs/training.md).
The last column: photos right or with every mistake flagged for the display to ask (every tile
found), all and by half (``tilescore evaluate``'s "right or asked").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import (  # noqa: E402
    HEAD,
    add_photo_arguments,
    halves,
    labelled_photos,
    whole,
)
from vision import pipeline as pipeline_module  # noqa: E402
from vision.detection import Detection  # noqa: E402
from vision.evaluate import match_photo  # noqa: E402
from vision.labels import LabelledPhoto  # noqa: E402


def right_or_asked(labels: list[LabelledPhoto], reads: list[tuple[Detection, ...]]) -> str:
    """Photos right or with every mistake asked: all, even half, odd half, as one cell."""
    asked = [match_photo(label, t).right_or_asked for label, t in zip(labels, reads, strict=True)]
    return f"{sum(asked):>3} {sum(asked[0::2]):>4} {sum(asked[1::2]):>4}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", type=Path, nargs="+", metavar="MODELS_DIR")
    add_photo_arguments(parser)
    args = parser.parse_args()
    labels, photos = labelled_photos(args.labels, args.photos)
    width = max(len(str(m)) for m in args.models)
    print("tiles: found and read right; photos: every tile right, nothing extra")
    print(
        f"{'':>{width}} | {'all':^23} | {'even photos':^31} | {'odd photos':^31} | right or asked"
    )
    print(
        f"{'models':>{width}} | {'tiles':>7} {'photos':>7} {'extra':>7} | {HEAD} | {HEAD} | "
        "all even odd"
    )
    for folder in args.models:
        reader = pipeline_module.load_pipeline(folder)
        reads = [reader.read(image, **facts.read_options).tiles for image, facts in photos]
        print(
            f"{folder!s:>{width}} | {whole(labels, reads)} | {halves(labels, reads)} | "
            f"{right_or_asked(labels, reads)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
