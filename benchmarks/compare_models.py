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

from benchmarks.threshold_sweep import HEAD, halves  # noqa: E402
from vision import pipeline as pipeline_module  # noqa: E402
from vision.evaluate import Evaluation, match_photo  # noqa: E402
from vision.images import load_image  # noqa: E402
from vision.labels import find_photo, load_labels  # noqa: E402
from vision.tile_sets import beside, load_tile_sets, tile_set_named  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", type=Path, nargs="+", metavar="MODELS_DIR")
    parser.add_argument("--labels", type=Path, default=ROOT / "datasets/real/labels")
    parser.add_argument(
        "--photos", type=Path, default=ROOT.parent / "shared/data/real-photos-unlabeled"
    )
    args = parser.parse_args()
    labels = load_labels(args.labels)
    tile_sets = load_tile_sets(beside(args.labels))
    photos = [
        (load_image(find_photo(label, args.photos)), tile_set_named(tile_sets, label.tile_set))
        for label in labels
    ]
    width = max(len(str(m)) for m in args.models)
    print("tiles: found and read right; photos: every tile right, nothing extra")
    print(f"{'':>{width}} | {'all':^23} | {'even photos':^31} | {'odd photos':^31}")
    print(f"{'models':>{width}} | {'tiles':>7} {'photos':>7} {'extra':>7} | {HEAD} | {HEAD}")
    for folder in args.models:
        reader = pipeline_module.load_pipeline(folder)
        reads = [reader.read(image, **facts.read_options).tiles for image, facts in photos]
        every = Evaluation(
            tuple(match_photo(label, t) for label, t in zip(labels, reads, strict=True))
        )
        right = sum(p.all_right for p in every.photos)
        extra = sum(len(p.extra) for p in every.photos)
        print(
            f"{folder!s:>{width}} | {every.tile_accuracy:>7.1%} {right:>4}/{len(labels):<2} "
            f"{extra:>7} | {halves(labels, reads)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
