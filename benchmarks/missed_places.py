"""Reading the places where the layout says a tile the detector missed lies.

    PYTHONPATH=. python benchmarks/missed_places.py [--models models]
        [--labels datasets/real/labels] [--photos ../shared/data/real-photos-unlabeled]

A hand a tile short is read again where the missed tile may lie (``vision.layout.missed_places``):
a gap of one tile in the row, a tile past either end, the middle or ends of a meld of two. The
classifier reads each place (``TilePipeline.read_places``), and a face read at least
``PLACE_READ_AT_LEAST`` surely is taken. How often is that right, and how often does an empty
place read as a tile?

1. On the 30 labelled real photos (no photo of a laid-down winning hand exists): every labelled
   upright tile with a labelled tile either side along one line, a tile's step apart, is a tile
   "missed" in a row. Its place is worked out as the layout works it out, from the two
   neighbours' boxes as the shipped models found them (``gap.box_between``), and read: right,
   wrong (another face), or nothing taken. A place one to two steps (``STEPS_PAST``) past a
   tile with a neighbour on one side and no labelled tile there is empty table (or the edge of
   something unlabelled): read as a face there is a tile made up.
2. On the shipped example photos (laid-down hands, composed from real faces), each tile's box
   is dropped from the models' reads in turn, as if the detector had missed it, and the hand
   rebuilt with the table's rules without and with reading the places: how many of the hands
   read as the whole photo reads, and of those how many with a tile read in its place (the
   rest by the layout's own guess of the tile, as without looking).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.pipeline as pipeline_module  # noqa: E402
from benchmarks.threshold_sweep import add_photo_arguments  # noqa: E402
from scoring.hand_json import wins_under  # noqa: E402
from vision.boxes import iou_matrix  # noqa: E402
from vision.images import load_photo  # noqa: E402
from vision.labels import find_photo, load_labels  # noqa: E402
from vision.layout import reconstruct  # noqa: E402
from vision.layout.gap import box_between  # noqa: E402
from vision.layout.missed_places import STEPS_PAST, box_past  # noqa: E402
from vision.layout.tiles import LayoutTile  # noqa: E402
from vision.models import SHIPPED_MODELS  # noqa: E402
from vision.pipeline import TilePipeline, load_pipeline  # noqa: E402
from vision.tile_sets import plain_five  # noqa: E402

Box = tuple[float, float, float, float]
THRESHOLDS = (0.7, 0.8, 0.9, 0.95, 0.99)
EXAMPLES = ("taiwan-pinghu", "taiwan-melds")
SHIPPED_AT_LEAST = pipeline_module.PLACE_READ_AT_LEAST


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=SHIPPED_MODELS)
    add_photo_arguments(parser)
    args = parser.parse_args()
    pipeline = load_pipeline(args.models)
    filled, empty = _real_places(pipeline, args.labels, args.photos)
    print(f"real photos: {len(filled)} places where a tile lies, {len(empty)} empty places")
    print(f"{'at least':>9} | {'right':>6} {'wrong':>6} {'none':>6} | empty read as a tile")
    for least in THRESHOLDS:
        right = sum(truth == code and p >= least for truth, code, p in filled)
        wrong = sum(code not in (truth, None) and p >= least for truth, code, p in filled)
        made_up = sum(code is not None and p >= least for code, p in empty)
        marker = " (shipped)" if least == SHIPPED_AT_LEAST else ""
        print(
            f"{least:>9} | {right:>6} {wrong:>6} {len(filled) - right - wrong:>6} | "
            f"{made_up} of {len(empty)}{marker}"
        )
    print()
    print("example photos, each tile's box dropped in turn: hands read as the whole photo reads")
    print(
        f"{'photo':<15} {'tiles':>6} {'without':>8} {'reading the places':>19} {'(a tile read)':>14}"
    )
    for name in EXAMPLES:
        tiles, before, after, read_there = _dropped_each(args.models, name)
        print(f"{name:<15} {tiles:>6} {before:>8} {after:>19} {read_there:>14}")


def _real_places(
    pipeline: TilePipeline, labels_dir: Path, photos_dir: Path
) -> tuple[list[tuple[str, str | None, float]], list[tuple[str | None, float]]]:
    """(truth, read, probability) of each filled place and (read, probability) of each empty
    one, read with no threshold (the sweep sets it)."""
    pipeline_module.PLACE_READ_AT_LEAST = 0.0  # every place's best face, for the sweep
    filled: list[tuple[str, str | None, float]] = []
    empty: list[tuple[str | None, float]] = []
    for label in load_labels(labels_dir):
        photo = load_photo(find_photo(label, photos_dir))
        across, down = photo.scale
        read_tiles = pipeline.read(photo.pixels, red_fives=False).tiles
        found = [t.box for t in read_tiles]
        faces = [t.box for t in read_tiles if t.code is not None]  # the set's white beside
        upright = [
            LayoutTile(
                i, t.code, (t.box[0] / across, t.box[1] / down, t.box[2] / across, t.box[3] / down)
            )
            for i, t in enumerate(label.tiles)
            if not t.rotated and not t.face_down and t.code not in (None, "other")
        ]
        every = [
            (t.box[0] / across, t.box[1] / down, t.box[2] / across, t.box[3] / down)
            for t in label.tiles
        ]
        places: list[Box] = []
        truths: list[str] = []
        for tile, before, after in _between(upright):
            left, right = _found(before.box, found), _found(after.box, found)
            if left is not None and right is not None:
                places.append(box_between(_as_tile(left), _as_tile(right)))
                truths.append(plain_five(tile.code or ""))
        reads = pipeline.read_places(photo.pixels, places, red_fives=False, beside=faces)
        by_place = {d.box: d for d in reads}
        for place, truth in zip(places, truths, strict=True):
            read = by_place.get(tuple(float(v) for v in place))  # type: ignore[call-overload]
            filled.append((truth, read.code if read else None, read.confidence if read else 0.0))
        nowhere = [
            box for box in _past_ends(upright, found, every) if _inside(box, photo.pixels.shape)
        ]
        reads = pipeline.read_places(photo.pixels, nowhere, red_fives=False, beside=faces)
        by_place = {d.box: d for d in reads}
        for place in nowhere:
            read = by_place.get(tuple(float(v) for v in place))  # type: ignore[call-overload]
            empty.append((read.code if read else None, read.confidence if read else 0.0))
    pipeline_module.PLACE_READ_AT_LEAST = SHIPPED_AT_LEAST
    return filled, empty


def _between(tiles: Sequence[LayoutTile]) -> list[tuple[LayoutTile, LayoutTile, LayoutTile]]:
    """Each tile with a neighbour either side along one line, a tile's step apart."""
    out = []
    for tile in tiles:
        step = min(tile.box[2] - tile.box[0], tile.box[3] - tile.box[1])
        near = [t for t in tiles if t is not tile and 0.8 * step < _distance(t, tile) < 1.6 * step]
        for before in near:
            for after in near:
                if before.index < after.index and _opposite(before, tile, after):
                    out.append((tile, before, after))
    return out


def _past_ends(
    tiles: Sequence[LayoutTile], found: Sequence[Box], every: Sequence[Box]
) -> list[Box]:
    """Places ``STEPS_PAST`` steps past a tile, away from its one neighbour, where no labelled
    tile lies: boxes the found box of the end tile moved there."""
    out = []
    for end in tiles:
        step = min(end.box[2] - end.box[0], end.box[3] - end.box[1])
        near = [t for t in tiles if t is not end and 0.8 * step < _distance(t, end) < 1.6 * step]
        box = _found(end.box, found)
        if box is None:
            continue
        for neighbour in near:
            dx = end.centre[0] - neighbour.centre[0]
            dy = end.centre[1] - neighbour.centre[1]
            for steps in STEPS_PAST:
                x, y = end.centre[0] + steps * dx, end.centre[1] + steps * dy
                reach = 0.6 * math.hypot(dx, dy) + 0.5 * step * (steps - 1)
                if any(math.dist(_centre(other), (x, y)) < reach for other in every):
                    continue
                out.append(
                    box_past(
                        _as_tile(_found(neighbour.box, found) or neighbour.box),
                        _as_tile(box),
                        steps,
                    )
                )
    return out


def _dropped_each(models: Path, name: str) -> tuple[int, int, int, int]:
    """The photo's tiles; of the hands with one dropped, those read whole without looking,
    with it, and of those how many with a tile read in its place (the rest the layout's own
    guess, right with or without looking)."""
    photo = load_photo(ROOT / "examples/photos" / f"{name}.jpg")
    pipeline = load_pipeline(models, variant="taiwan")
    read = pipeline.read(photo.pixels, red_fives=False)
    tiles = [t.to_json() for t in read.scaled(*photo.scale).tiles]
    wins = wins_under({"variant": "taiwan"})
    whole = reconstruct(tiles, "taiwan", wins=wins).hand_json()
    look = pipeline.place_reader(photo.pixels, photo.scale, red_fives=False, beside=tiles)
    before = after = read_there = 0
    for k in range(len(tiles)):
        rest = tiles[:k] + tiles[k + 1 :]
        before += reconstruct(rest, "taiwan", wins=wins).hand_json() == whole
        looked = reconstruct(rest, "taiwan", wins=wins, look=look)
        after += looked.hand_json() == whole
        read_there += looked.hand_json() == whole and bool(looked.looked)
    return len(tiles), before, after, read_there


def _found(labelled: Box, found: Sequence[Box]) -> Box | None:
    best = max(found, key=lambda box: _iou(box, labelled), default=None)
    return best if best is not None and _iou(best, labelled) > 0.5 else None


def _as_tile(box: Box) -> LayoutTile:
    return LayoutTile(0, None, box)


def _opposite(before: LayoutTile, tile: LayoutTile, after: LayoutTile) -> bool:
    ax, ay = tile.centre[0] - before.centre[0], tile.centre[1] - before.centre[1]
    bx, by = after.centre[0] - tile.centre[0], after.centre[1] - tile.centre[1]
    cosine = (ax * bx + ay * by) / ((math.hypot(ax, ay) * math.hypot(bx, by)) or 1.0)
    return cosine > 0.97 and 0.8 < math.hypot(bx, by) / (math.hypot(ax, ay) or 1.0) < 1.25


def _distance(first: LayoutTile, second: LayoutTile) -> float:
    return math.dist(first.centre, second.centre)


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _inside(box: Box, shape: tuple[int, ...]) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= shape[1] and box[3] <= shape[0]


def _iou(first: Box, second: Box) -> float:
    return float(iou_matrix(np.array([first]), np.array([second]))[0, 0])


if __name__ == "__main__":
    main()
