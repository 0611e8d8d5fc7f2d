"""Keys of a keyboard, cut as the detector boxes them, for the classifier to call no tile.

    python -m datasets.synth.key_crops --out datasets/build/keys --count 6000 --seed 18

A key is the size and shape of a tile, and a silver laptop's keys are as pale as a tile's face:
on the real photos the shipped pair read them as 西 and 白 (10 of its 33 extra boxes, all on two
photos whose tiles it read right). Scenes with keyboards teach them slowly, a few keys a scene;
this draws keyboards alone, in all three styles (``backgrounds.keyboard``), and cuts each key as
the runtime would: its box a little off, sometimes a key and a half, sometimes turned a quarter,
enlarged to a photo's scale and softened, lit unevenly, noisy and JPEG-compressed. Writes
``classify/train/not_a_tile`` and ``classify/val/not_a_tile`` under ``--out``, ready to merge.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.backgrounds import keyboard
from datasets.synth.build import upright_crop

CANVAS = 320  # texture pixels of keyboard drawn at a time (about 17 keys across)
VAL_SHARE = 0.1
KEYS_PER_BOARD = 12
LETTER_CONTRAST = 40  # grey levels between a key's cap and its letter, at least
STYLES = {"silver": 0.6, "dark": 0.25, "light deck": 0.15}
"""Mostly silver: scenes already hold many dark keyboards, and no silver one before these."""


def key_crops(rng: random.Random, count: int) -> list[np.ndarray]:
    """``count`` crops of keys from freshly drawn keyboards."""
    crops: list[np.ndarray] = []
    while len(crops) < count:
        crops.extend(_board_crops(rng, min(KEYS_PER_BOARD, count - len(crops))))
    return crops


def _board_crops(rng: random.Random, wanted: int) -> list[np.ndarray]:
    canvas = np.zeros((CANVAS, CANVAS, 3), np.uint8)
    style = rng.choices(list(STYLES), list(STYLES.values()))[0]
    keys = [
        k
        for k in keyboard(canvas, rng, (0, 0, CANVAS, CANVAS), style)
        if _whole(k) and _lettered(canvas, k)
    ]
    if not keys:
        return []
    # keyboard() draws mirrored for the scene's camera, which mirrors back; here no camera does.
    canvas = np.ascontiguousarray(canvas[:, ::-1])
    keys = [(CANVAS - 1 - x2, y1, CANVAS - 1 - x1, y2) for x1, y1, x2, y2 in keys]
    # A tile is about 150 photo pixels wide and a key about 20 texture pixels: enlarge to match.
    scale = rng.uniform(4.0, 8.0)
    photo = cv2.resize(canvas, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    photo = _camera(photo, rng)
    crops = []
    for key in rng.sample(keys, min(wanted, len(keys))):
        x1, y1, x2, y2 = (float(v) for v in key)
        width, height = x2 - x1, y2 - y1
        if rng.random() < 0.2:  # a key and a half: the detector's box over a gap
            x2 += width * 0.5
        jitter = [rng.uniform(-0.12, 0.12) * scale for _ in range(4)]
        box = (
            x1 * scale + jitter[0] * width,
            y1 * scale + jitter[1] * height,
            x2 * scale + jitter[2] * width,
            y2 * scale + jitter[3] * height,
        )
        crop = upright_crop(photo, box, rotated=rng.random() < 0.3)
        if rng.random() < 0.5:
            crop = np.ascontiguousarray(crop[::-1, ::-1])  # seen from across the table
        crops.append(_jpeg(crop, rng))
    return crops


def _whole(key: tuple[int, int, int, int]) -> bool:
    x1, y1, x2, y2 = key
    return x1 >= 0 and y1 >= 0 and x2 < CANVAS and y2 < CANVAS and x2 - x1 > 4 and y2 - y1 > 4


def _lettered(canvas: np.ndarray, key: tuple[int, int, int, int]) -> bool:
    """Whether a key carries a letter. A pale key with none is a blank 白 to any eye (the first
    classifier taught with unlettered keys lost three more 白 on the real photos); real keys are
    lettered."""
    x1, y1, x2, y2 = key
    inside = canvas[y1 + 2 : y2 - 1, x1 + 2 : x2 - 1]
    return inside.size > 0 and float(np.ptp(inside)) > LETTER_CONTRAST


def _camera(photo: np.ndarray, rng: random.Random) -> np.ndarray:
    """Uneven light, a little blur and sensor noise."""
    size = photo.shape[0]  # square
    gen = np.random.default_rng(rng.randrange(2**31))
    ramp = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.9, 1.25), size, dtype=np.float32)
    light = ramp[None, :, None] if rng.random() < 0.5 else ramp[:, None, None]  # across or down
    tint = np.array([rng.uniform(0.92, 1.0), 1.0, rng.uniform(1.0, 1.06)], np.float32)  # warm
    out = photo.astype(np.float32) * light * tint
    out += gen.normal(0, rng.uniform(1, 6), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    blur = rng.choice((0, 3, 5, 7))
    blurred: np.ndarray = cv2.GaussianBlur(out, (blur, blur), 0) if blur else out
    return blurred


def _jpeg(crop: np.ndarray, rng: random.Random) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 95)])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else crop


def write(out: Path, count: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    crops = key_crops(rng, count)
    written = {"train": 0, "val": 0}
    for split in written:
        (out / "classify" / split / "not_a_tile").mkdir(parents=True, exist_ok=True)
    for i, crop in enumerate(crops):
        split = "val" if i % round(1 / VAL_SHARE) == 0 else "train"
        cv2.imwrite(str(out / "classify" / split / "not_a_tile" / f"key{seed}_{i:05d}.jpg"), crop)
        written[split] += 1
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("datasets/build/keys"))
    parser.add_argument("--count", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args(argv)
    if args.count < 1:
        print("--count must be at least 1", file=sys.stderr)
        return 2
    print(write(args.out, args.count, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
