"""Teach the classifier the detector's own mistakes: boxes it finds where no tile lies.

    python -m datasets.synth.hard_negatives --build datasets/build/synth4 [--models models]

Runs the detector over a build's detection images and writes every box that covers no labelled
tile (keys of a keyboard, table patterns, the side of a tile) to ``classify/<split>/not_a_tile``
as the runtime would crop it. Random background patches teach "not a tile" only loosely: on the
real photos the classifier read laptop keys the detector boxed as 西 (21 extra tiles in each of
two photos). Only boxes mostly off every tile count: a misplaced box still showing most of a face
would teach the classifier to refuse tiles the detector boxed a little wrong, and a box at the
image's edge may hold a tile cut off there and left unlabelled.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.build import XIANGQI_PREFIX, upright_crop
from vision.pipeline import load_pipeline

ON_TILE = 0.25  # the most of a mistake's area that may lie on any one labelled tile
EDGE = 3  # pixels: boxes this near the image's edge are left out


def mistakes(
    found: list[tuple[float, float, float, float]], labelled: np.ndarray, width: int, height: int
) -> list[int]:
    """Indices of the found boxes that lie mostly off every labelled box and off the edges."""
    if not found:
        return []
    boxes = np.asarray(found, np.float32).reshape(-1, 4)
    labelled = labelled.reshape(-1, 4)
    area = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1.0)
    ix = np.minimum(boxes[:, None, 2], labelled[None, :, 2]) - np.maximum(
        boxes[:, None, 0], labelled[None, :, 0]
    )
    iy = np.minimum(boxes[:, None, 3], labelled[None, :, 3]) - np.maximum(
        boxes[:, None, 1], labelled[None, :, 1]
    )
    on_tile = (np.clip(ix, 0, None) * np.clip(iy, 0, None) / area[:, None]).max(axis=1, initial=0.0)
    inside = (
        (boxes[:, 0] >= EDGE)
        & (boxes[:, 1] >= EDGE)
        & (boxes[:, 2] <= width - EDGE)
        & (boxes[:, 3] <= height - EDGE)
    )
    return [i for i in range(len(found)) if on_tile[i] < ON_TILE and inside[i]]


def _labelled_boxes(label_path: Path, width: int, height: int) -> np.ndarray:
    rows = []
    for line in label_path.read_text().splitlines() if label_path.exists() else []:
        parts = line.split()
        if len(parts) == 5:
            cx, cy, w, h = (float(v) for v in parts[1:])
            rows.append(
                (
                    (cx - w / 2) * width,
                    (cy - h / 2) * height,
                    (cx + w / 2) * width,
                    (cy + h / 2) * height,
                )
            )
    return np.asarray(rows, np.float32).reshape(-1, 4)


def _mine(args: tuple[Path, list[Path], str, Path]) -> int:
    build, images, split, models = args
    pipeline = load_pipeline(models, threads=1)
    target = build / "classify" / split / "not_a_tile"
    written = 0
    for image_path in images:
        image = cv2.imread(str(image_path))
        if image is None:
            continue
        height, width = image.shape[:2]
        label = build / "detect" / "labels" / split / (image_path.stem + ".txt")
        found = pipeline.find(image)
        boxes = [box for box, _, _ in found]
        for i in mistakes(boxes, _labelled_boxes(label, width, height), width, height):
            box, _, kind = found[i]
            crop = upright_crop(image, box, kind.rotated)
            cv2.imwrite(str(target / f"{image_path.stem}_hn{i}.jpg"), crop)
            written += 1
    return written


def mine(build: Path, models: Path, split: str = "train", jobs: int = 1) -> int:
    """Write the detector's mistakes on ``build``'s ``split`` as not_a_tile crops; returns how many."""
    images = sorted((build / "detect" / "images" / split).glob("*.jpg"))
    # Only scenes we composed ourselves: every tile in them is labelled, so a box on nothing
    # labelled is surely a mistake (the real xiangqi photos are left out).
    images = [p for p in images if not p.name.startswith(XIANGQI_PREFIX)]
    (build / "classify" / split / "not_a_tile").mkdir(parents=True, exist_ok=True)
    chunks = [(build, images[k::jobs], split, models) for k in range(max(1, jobs))]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return sum(pool.map(_mine, chunks))
    return _mine(chunks[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=Path, required=True, help="a datasets.synth output folder")
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--split", default="train", choices=("train", "val"))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if not (args.build / "detect" / "images" / args.split).is_dir():
        print(f"error: {args.build} has no detect/images/{args.split}", file=sys.stderr)
        return 2
    written = mine(args.build, args.models, args.split, args.jobs)
    print(f"{written} detector mistakes written to {args.build}/classify/{args.split}/not_a_tile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
