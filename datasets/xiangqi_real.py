"""Real xiangqi pieces for the classifier: crops cut from the labelled photos in
``../shared/data/xiangqi-pieces``, and which of its test photos are really held out.

The set's own split leaks. Roboflow exported each source photo in three rotations (slightly
recoloured), and 26 of the 61 test photos have a rotation in train or valid: the same board, the
same pieces, the same light. ``near_duplicates`` finds them by thumbnail (below), so a benchmark
reports the 35 clean test photos apart, and the crops here are cut only from train and valid
photos with no rotation in test: every test photo stays unseen by the classifier.

    python -m datasets.xiangqi_real --out datasets/build/xqreal [--copies 3] [--seed 0]
        [--tiles datasets/build/all2223w/classify [--tiles-per-class N]]

writes an ultralytics classify folder (``OUT/train|val/CODE/*.jpg``, valid → val) of 96-pixel
crops. Each labelled piece is cut ``--copies`` times, each time with the box moved and resized a
little (a detector's box is never the label's) and the piece turned by any angle (a round piece
lies on the board every way; the set's rotations are quarter turns only). ``--tiles`` adds every
other class's crops from a synthetic classify folder (hard links), so a classifier trained on
OUT keeps its tiles and ``not_a_tile``; that folder's own piece crops stay out, as they were cut
from the wrongly read labels before session 19.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.merge import link_or_copy
from datasets.synth.sources import XIANGQI_CLASSES, shared_data, xiangqi_labels

SPLITS = ("train", "valid", "test")
THUMB = 64  # thumbnail side for finding rotations of one photo
NEAR_DUPLICATE = 0.3
"""Mean absolute difference of two standardised grey thumbnails (best of four quarter turns)
below which two photos are one photo. Measured on the set: rotations of one source photo lie at
0.0-0.18, the closest other photos (the same cloth, other pieces) at 0.33 and more."""
CROP_SIZE = 96  # as the synthetic classify crops (datasets/synth/build.py)
JITTER = 0.08  # the box's centre moves and its sides grow or shrink by up to this share
MIN_SIDE = 12  # pixels: smaller labelled boxes are slivers at the photo's edge

Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels


@dataclass(frozen=True)
class PiecePhoto:
    image: Path
    labels: Path
    split: str


def photos(root: Path | None = None) -> list[PiecePhoto]:
    """Every labelled photo of the xiangqi set, by split."""
    root = root or shared_data() / "xiangqi-pieces"
    return [photo for split in SPLITS for photo in photos_of_split(root, split)]


def photos_of_split(root: Path, split: str) -> list[PiecePhoto]:
    """The labelled photos of one split folder (``ROOT/SPLIT/labels/*.txt`` and images)."""
    found = []
    for labels in sorted((root / split / "labels").glob("*.txt")):
        image = root / split / "images" / f"{labels.stem}.jpg"
        if image.exists():
            found.append(PiecePhoto(image, labels, split))
    return found


@functools.cache
def thumbnail(path: Path) -> np.ndarray:
    """A standardised grey thumbnail (zero mean, unit spread): recolouring moves it little.
    Kept per process: the held-out split, the training photos and every face library of a build
    compare the same photos (read-only: callers stack or turn it, never write to it)."""
    grey = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if grey is None:
        raise ValueError(f"cannot read {path}")
    small = cv2.resize(grey, (THUMB, THUMB), interpolation=cv2.INTER_AREA).astype(np.float32)
    standardised: np.ndarray = (small - small.mean()) / max(float(small.std()), 1e-6)
    return standardised


def near_duplicates(
    these: list[PiecePhoto], others: list[PiecePhoto]
) -> dict[Path, tuple[Path, float]]:
    """Each of ``these`` photos that is a turned copy of one of ``others``: its image path, the
    other's and their distance."""
    if not others:
        return {}
    other_thumbs = np.stack([thumbnail(p.image) for p in others])
    found = {}
    for photo in these:
        thumb = thumbnail(photo.image)
        distances = np.stack(
            [np.abs(other_thumbs - np.rot90(thumb, k)[None]).mean(axis=(1, 2)) for k in range(4)]
        ).min(axis=0)
        best = int(distances.argmin())
        if distances[best] < NEAR_DUPLICATE:
            found[photo.image] = (others[best].image, float(distances[best]))
    return found


def held_out_split(root: Path | None = None) -> tuple[list[PiecePhoto], list[PiecePhoto]]:
    """The test photos with no turned copy in train or valid (clean), and those with one."""
    every = photos(root)
    test = [p for p in every if p.split == "test"]
    seen = near_duplicates(test, [p for p in every if p.split != "test"])
    return [p for p in test if p.image not in seen], [p for p in test if p.image in seen]


def training_photos(root: Path | None = None) -> list[PiecePhoto]:
    """The train and valid photos with no turned copy in test."""
    every = photos(root)
    test = [p for p in every if p.split == "test"]
    rest = [p for p in every if p.split != "test"]
    copies_of_test = near_duplicates(rest, test)
    return [p for p in rest if p.image not in copies_of_test]


def labelled_pieces(photo: PiecePhoto, width: int, height: int) -> Iterator[tuple[str, Box]]:
    """Each labelled piece: its code and box (x1, y1, x2, y2 pixels)."""
    for piece in xiangqi_labels(photo.labels.read_text()):
        yield piece.code, piece.corners(width, height)


def turned_crop(
    image: np.ndarray, box: Box, rng: random.Random, jitter: float = JITTER
) -> np.ndarray | None:
    """The piece in ``box``, its box moved and resized by up to ``jitter``, turned by a random
    angle about its centre, as a ``CROP_SIZE`` square. None for a sliver."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    if min(w, h) < MIN_SIDE:
        return None
    cx = (x1 + x2) / 2 + rng.uniform(-jitter, jitter) * w
    cy = (y1 + y2) / 2 + rng.uniform(-jitter, jitter) * h
    w *= 1 + rng.uniform(-jitter, jitter)
    h *= 1 + rng.uniform(-jitter, jitter)
    # Turning about the centre and cutting the box's size from the turned photo: the corners
    # the turn brings in are the board around the piece, as a detector's box shows it.
    turn = cv2.getRotationMatrix2D((cx, cy), rng.uniform(0, 360), 1.0)
    turn[:, 2] += np.array([w / 2 - cx, h / 2 - cy])
    crop = cv2.warpAffine(
        image, turn, (max(1, round(w)), max(1, round(h))), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )  # fmt: skip
    return cv2.resize(crop, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_LINEAR)


def build(out: Path, copies: int, seed: int, root: Path | None = None) -> Counter[str]:
    """Write the crops; returns how many a split and class (``"train/1r"``)."""
    rng = random.Random(seed)
    written: Counter[str] = Counter()
    chosen = training_photos(root)
    for n, photo in enumerate(chosen):
        image = cv2.imread(str(photo.image))
        if image is None:
            continue
        split = "train" if photo.split == "train" else "val"
        height, width = image.shape[:2]
        for k, (code, box) in enumerate(labelled_pieces(photo, width, height)):
            for c in range(copies if split == "train" else 1):
                crop = turned_crop(image, box, rng)
                if crop is None:
                    continue
                folder = out / split / code
                folder.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(folder / f"xqr_{photo.image.stem[:40]}_{k}_{c}.jpg"), crop)
                written[f"{split}/{code}"] += 1
        print(f"\r{n + 1}/{len(chosen)} photos", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return written


NOT_A_TILE_WEIGHT = 4  # with a cap a class, "not a tile" keeps this many times the cap
VAL_SHARE = 8  # and each validation class an eighth of it


def add_tiles(out: Path, tiles: Path, per_class: int | None = None, seed: int = 0) -> Counter[str]:
    """Link every class but the pieces from the classify folder ``tiles`` into ``out``: all of
    each class's crops, or a random ``per_class`` of them (``NOT_A_TILE_WEIGHT`` times that of
    ``not_a_tile``, which keeps clutter out)."""
    pieces = set(XIANGQI_CLASSES.values())
    rng = random.Random(seed)
    linked: Counter[str] = Counter()
    for split in ("train", "val"):
        for folder in sorted(p for p in (tiles / split).iterdir() if p.name not in pieces):
            files = sorted(folder.iterdir())
            if per_class is not None:
                cap = per_class if split == "train" else per_class // VAL_SHARE
                cap *= NOT_A_TILE_WEIGHT if folder.name == "not_a_tile" else 1
                files = rng.sample(files, min(cap, len(files)))
            for source in files:
                link_or_copy(source, out / split / folder.name / source.name)
                linked[f"{split}/{folder.name}"] += 1
    return linked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--tiles", type=Path, help="a synthetic classify folder whose other classes to add"
    )
    parser.add_argument("--tiles-per-class", type=int, help="add this many of each (default: all)")
    args = parser.parse_args(argv)
    clean, copied = held_out_split()
    print(f"test photos: {len(clean)} clean, {len(copied)} turned copies of train/valid photos")
    written = build(args.out, args.copies, args.seed)
    for split in ("train", "val"):
        counts = {k.split("/")[1]: v for k, v in sorted(written.items()) if k.startswith(split)}
        print(f"{split}: {sum(counts.values())} crops {counts}")
    if args.tiles is not None:
        linked = add_tiles(args.out, args.tiles, args.tiles_per_class, args.seed)
        print(f"linked {sum(linked.values())} crops of the other classes from {args.tiles}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
