"""How the detector's score threshold trades found tiles against extra ones, on labelled photos.

    PYTHONPATH=. python benchmarks/threshold_sweep.py [--labels datasets/real/labels]
        [--photos ../shared/data/real-photos-unlabeled] [--models models]

Each photo is read once with a low detector threshold; every threshold in the table is then
applied to those reads (exact: a box below a threshold can only suppress boxes below it too, so
filtering after non-maximum suppression equals thresholding first). The photos are split in two
halves (even and odd positions): pick a threshold on one half and check it holds on the other, or
the number is tuned on its own test set. Tile-set facts (red fives) come from tile_sets.json
beside the labels, as ``tilescore evaluate`` reads them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import pipeline as pipeline_module  # noqa: E402
from vision.evaluate import Evaluation, match_photo  # noqa: E402
from vision.images import load_image  # noqa: E402
from vision.labels import find_photo, load_labels  # noqa: E402
from vision.tile_sets import beside, has_coloured_backs, load_tile_sets, reads_red_fives  # noqa: E402

FLOOR = 0.05
THRESHOLDS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labels", type=Path, default=ROOT / "datasets/real/labels")
    parser.add_argument(
        "--photos", type=Path, default=ROOT.parent / "shared/data/real-photos-unlabeled"
    )
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    args = parser.parse_args()
    labels = load_labels(args.labels)
    tile_sets = load_tile_sets(beside(args.labels))
    reader = pipeline_module.load_pipeline(args.models)
    shipped = reader.detect_confidence
    reader.detect_confidence = FLOOR
    reads = []
    for label in labels:
        image = load_image(find_photo(label, args.photos))
        red_fives = reads_red_fives(tile_sets, label.tile_set)
        coloured_backs = has_coloured_backs(tile_sets, label.tile_set)
        reads.append(reader.read(image, red_fives=red_fives, coloured_backs=coloured_backs).tiles)
    print(f"models: {' + '.join(m.name for m in reader.models)}; its threshold {shipped}")
    print("tiles: found and read right; photos: every tile right, nothing extra")
    head = f"{'tiles':>7} {'photos':>7} {'recall':>7} {'precis.':>7}"
    print(f"{'':>9} | {'even photos':^31} | {'odd photos':^31}")
    print(f"{'threshold':>9} | {head} | {head}")
    for threshold in THRESHOLDS:
        halves = []
        for half in (0, 1):
            results = [
                match_photo(label, [t for t in tiles if t.detector_confidence >= threshold])
                for i, (label, tiles) in enumerate(zip(labels, reads, strict=True))
                if i % 2 == half
            ]
            halves.append(Evaluation(tuple(results)))
        cells = [
            f"{e.tile_accuracy:>7.1%} {e.photo_accuracy:>7.1%} {e.detection_recall:>7.1%} "
            f"{e.detection_precision:>7.1%}"
            for e in halves
        ]
        print(f"{threshold:>9.2f} | {cells[0]} | {cells[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
