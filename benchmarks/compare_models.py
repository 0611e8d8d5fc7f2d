"""Several model folders on the same labelled photos, split in halves: which to ship.

    PYTHONPATH=. python benchmarks/compare_models.py MODELS_DIR... [--labels datasets/real/labels]
        [--photos ../shared/data/real-photos-unlabeled]

Each folder is read as `tilescore evaluate --models DIR` reads it (its own thresholds, the
tile-set facts beside the labels). The photos are split as in threshold_sweep.py (even and odd
positions): choose on the even half, and the odd half says whether the choice holds, or the
choice is tuned on its own test set. Used to pick the shipped classifier soup (docs/training.md).
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", type=Path, nargs="+", metavar="MODELS_DIR")
    add_photo_arguments(parser)
    args = parser.parse_args()
    labels, photos = labelled_photos(args.labels, args.photos)
    width = max(len(str(m)) for m in args.models)
    print("tiles: found and read right; photos: every tile right, nothing extra")
    print(f"{'':>{width}} | {'all':^23} | {'even photos':^31} | {'odd photos':^31}")
    print(f"{'models':>{width}} | {'tiles':>7} {'photos':>7} {'extra':>7} | {HEAD} | {HEAD}")
    for folder in args.models:
        reader = pipeline_module.load_pipeline(folder)
        reads = [reader.read(image, **facts.read_options).tiles for image, facts in photos]
        print(f"{folder!s:>{width}} | {whole(labels, reads)} | {halves(labels, reads)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
