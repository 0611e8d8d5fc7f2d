"""How the detector's score threshold trades found tiles against extra ones, on labelled photos.

    PYTHONPATH=. python benchmarks/threshold_sweep.py [--labels datasets/real/labels]
        [--photos ../shared/data/real-photos-unlabeled] [--models models]
        [--thresholds 0.02 0.05 ...] [--floors 0.03 0.01 ...] [--zoom-sizes 34 52 ...]

Each photo is read once with a low detector threshold; every threshold in the table is then
applied to those reads (exact: a box below a threshold can only suppress boxes below it too, so
filtering after non-maximum suppression equals thresholding first). The photos are split in two
halves (even and odd positions): pick a threshold on one half and check it holds on the other, or
the number is tuned on its own test set. Tile-set facts (red fives, the backs) come from tile_sets.json
beside the labels, as ``tilescore evaluate`` reads them.

A second table holds the threshold and tries floors for weak boxes beside a confident tile
(the detector's ``neighbour_confidence``, vision/weak_boxes.py), reading the photos once each.
A third tries the tile size under which the detector takes a second, closer look (its
``zoom_below``, vision/pipeline.py ``zoom_region``). A fourth tries the least detector score a back
must have (its ``back_confidence``): a mat of tile-sized blocks reads as rows of backs. A fifth
tries the least classifier score a read must have to be kept (the classifier's
``min_read_confidence``): boxes on logos, keys and between tiles read as no tile in particular.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import pipeline as pipeline_module  # noqa: E402
from vision.detection import Detection  # noqa: E402
from vision.evaluate import Evaluation, match_photo  # noqa: E402
from vision.images import load_image  # noqa: E402
from vision.labels import LabelledPhoto, find_photo, load_labels  # noqa: E402
from vision.tile_sets import TileSet, beside, load_tile_sets, tile_set_named  # noqa: E402

THRESHOLDS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)
NEIGHBOUR_FLOORS = (None, 0.05, 0.03, 0.01, 0.005, 0.002, 0.001, 0.0003)
READ_FLOORS = (0.0, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
ZOOM_SIZES = (None, 26.0, 34.0, 46.0, 52.0, 64.0)
BACK_SCORES = (0.0, 0.1, 0.2, 0.3, 0.35, 0.4, 0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_photo_arguments(parser)
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    # A newly trained detector scores on its own scale: sweep lower than the shipped one's.
    parser.add_argument("--thresholds", type=float, nargs="+", default=THRESHOLDS)
    parser.add_argument(
        "--floors", type=float, nargs="+", help="weak-box floors to try (besides off)"
    )
    parser.add_argument(
        "--read-floors", type=float, nargs="+", default=READ_FLOORS,
        help="least classifier scores to try",
    )  # fmt: skip
    parser.add_argument(
        "--zoom-sizes", type=float, nargs="+", help="second-look tile sizes to try (besides off)"
    )
    parser.add_argument(
        "--back-scores", type=float, nargs="+", default=BACK_SCORES,
        help="least detector scores a back needs to try",
    )  # fmt: skip
    args = parser.parse_args()
    thresholds = sorted(args.thresholds)
    floors = (None, *args.floors) if args.floors else NEIGHBOUR_FLOORS
    zoom_sizes = (None, *args.zoom_sizes) if args.zoom_sizes else ZOOM_SIZES
    labels, photos = labelled_photos(args.labels, args.photos)
    reader = pipeline_module.load_pipeline(args.models)
    shipped = reader.detect_confidence
    shipped_neighbour = reader.neighbour_confidence
    shipped_read_floor = getattr(reader, "min_read_confidence", None)
    shipped_zoom = reader.zoom_below
    shipped_back = reader.back_confidence

    def read_all() -> list[tuple[Detection, ...]]:
        return [reader.read(image, **facts.read_options).tiles for image, facts in photos]

    print(
        f"models: {' + '.join(m.name for m in reader.models)}; its threshold {shipped}, "
        f"its neighbour floor {shipped_neighbour}"
    )
    print("tiles: found and read right; photos: every tile right, nothing extra")
    print(f"{'':>9} | {'even photos':^31} | {'odd photos':^31}")
    print(f"{'threshold':>9} | {HEAD} | {HEAD}")
    try:
        reader.detect_confidence, reader.neighbour_confidence = thresholds[0], None
        reads = read_all()
        for threshold in thresholds:
            kept = [[t for t in tiles if t.detector_confidence >= threshold] for tiles in reads]
            print(f"{threshold:>9.2f} | {halves(labels, kept)}")
        print(f"\nweak boxes beside a confident tile, down to (threshold {shipped}):")
        print(f"{'floor':>9} | {HEAD} | {HEAD}")
        reader.detect_confidence = shipped
        for floor in floors:
            reader.neighbour_confidence = floor
            print(f"{'off' if floor is None else f'{floor:g}':>9} | {halves(labels, read_all())}")
        reader.neighbour_confidence = shipped_neighbour
        print(f"\nsecond look for tiles smaller than (input pixels; its own {shipped_zoom}):")
        print(f"{'below':>9} | {HEAD} | {HEAD}")
        for size in zoom_sizes:
            reader.zoom_below = size
            print(f"{'off' if size is None else f'{size:g}':>9} | {halves(labels, read_all())}")
        reader.zoom_below = shipped_zoom
        print(f"\nleast detector score a back needs (its own {shipped_back:g}):")
        print(f"{'score':>9} | {HEAD} | {HEAD}")
        for back in args.back_scores:
            reader.back_confidence = back
            print(f"{back:>9g} | {halves(labels, read_all())}")
        reader.back_confidence = shipped_back
        if shipped_read_floor is not None:
            print(f"\nleast classifier score a read keeps (its own {shipped_read_floor:g}):")
            print(f"{'floor':>9} | {HEAD} | {HEAD}")
            for read_floor in args.read_floors:
                reader.min_read_confidence = read_floor
                print(f"{read_floor:>9g} | {halves(labels, read_all())}")
    finally:
        reader.detect_confidence, reader.neighbour_confidence = shipped, shipped_neighbour
        reader.zoom_below = shipped_zoom
        reader.back_confidence = shipped_back
        if shipped_read_floor is not None:
            reader.min_read_confidence = shipped_read_floor
    return 0


HEAD = f"{'tiles':>7} {'photos':>7} {'recall':>7} {'precis.':>7}"


def add_photo_arguments(parser: argparse.ArgumentParser) -> None:
    """--labels and --photos, defaulting to the 30 labelled real photos."""
    parser.add_argument("--labels", type=Path, default=ROOT / "datasets/real/labels")
    parser.add_argument(
        "--photos", type=Path, default=ROOT.parent / "shared/data/real-photos-unlabeled"
    )


def labelled_photos(
    labels_dir: Path, photos_dir: Path
) -> tuple[list[LabelledPhoto], list[tuple[np.ndarray, TileSet]]]:
    """The labels, and each photo decoded with its tile set's facts (tile_sets.json beside the
    labels, as ``tilescore evaluate`` reads them): ``reader.read(image, **facts.read_options)``."""
    labels = load_labels(labels_dir)
    tile_sets = load_tile_sets(beside(labels_dir))
    photos = [
        (load_image(find_photo(label, photos_dir)), tile_set_named(tile_sets, label.tile_set))
        for label in labels
    ]
    return labels, photos


def whole(labels: list[LabelledPhoto], reads: Sequence[Sequence[Detection]]) -> str:
    """All the photos' tiles right, photos right and extra boxes, as one table cell."""
    every = Evaluation(tuple(match_photo(label, t) for label, t in zip(labels, reads, strict=True)))
    right = sum(p.all_right for p in every.photos)
    extra = sum(len(p.extra) for p in every.photos)
    return f"{every.tile_accuracy:>7.1%} {right:>4}/{len(labels):<2} {extra:>7}"


def halves(labels: list[LabelledPhoto], reads: Sequence[Sequence[Detection]]) -> str:
    """The even photos' and the odd photos' scores, as two table cells."""
    cells = []
    for half in (0, 1):
        results = [
            match_photo(label, tiles)
            for i, (label, tiles) in enumerate(zip(labels, reads, strict=True))
            if i % 2 == half
        ]
        e = Evaluation(tuple(results))
        cells.append(
            f"{e.tile_accuracy:>7.1%} {e.photo_accuracy:>7.1%} {e.detection_recall:>7.1%} "
            f"{e.detection_precision:>7.1%}"
        )
    return " | ".join(cells)


if __name__ == "__main__":
    raise SystemExit(main())
