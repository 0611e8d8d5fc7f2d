"""Render a photo of one given hand laid out as players are asked to, with its true reading.

    python -m datasets.synth.example_photo --hand 123456789m23456p11s --win 7p \
        --melds "pon:777z" --flowers 1f --out examples/photos/taiwan-1.jpg

Only faces we may share are used (the CC0 art and faces we render), so the photos can be
committed as examples and test fixtures. The truth JSON beside the photo has the detect-label
shape (one entry per tile) and the hand in score-JSON notation.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.backgrounds import background
from datasets.synth.faces import FaceLibrary
from datasets.synth.scene import BACK_COLOURS, SceneMaker, _light
from scoring.notation import parse_tiles

CANVAS = (1600, 1200)


def render_hand(
    hand: str,
    win: str,
    melds: list[str],
    flowers: str,
    seed: int,
    tile_width: int = 64,
) -> tuple[np.ndarray, list[dict[str, object]]]:
    rng = random.Random(seed)
    faces = FaceLibrary(shareable_only=True)
    maker = SceneMaker(faces)
    canvas = background(rng, *CANVAS)
    placed: list = []  # type: ignore[type-arg]
    back = rng.choice(BACK_COLOURS)
    concealed = [t.code for t in parse_tiles(hand)]
    concealed.remove(win)
    x, y = 80.0, CANVAS[1] * 0.45
    angle = rng.uniform(-3, 3)
    for code in concealed:
        maker._place(canvas, rng, placed, code, (x + tile_width / 2, y), angle, tile_width, back)
        x += tile_width + 1
    x += tile_width * 0.7
    maker._place(canvas, rng, placed, win, (x + tile_width / 2, y), angle, tile_width, back)
    mx, my = 80.0, y + tile_width * 2.2
    height = tile_width * 1.35
    for meld in melds:
        kind, _, text = meld.partition(":")
        codes = [t.code for t in parse_tiles(text)]
        for j, code in enumerate(codes):
            down = kind == "concealed_kong" and j in (0, len(codes) - 1)
            sideways = kind in ("chi", "pon", "kong") and j == 0
            if sideways:
                centre = (mx + height / 2, my + (height - tile_width) / 2)
                maker._place(canvas, rng, placed, code, centre, angle + 90, tile_width, back, down)
                mx += height + 2
            else:
                maker._place(
                    canvas,
                    rng,
                    placed,
                    code,
                    (mx + tile_width / 2, my),
                    angle,
                    tile_width,
                    back,
                    down,
                )
                mx += tile_width + 1
        mx += tile_width * 0.8
    fx = CANVAS[0] - 100.0
    for code in [t.code for t in parse_tiles(flowers)] if flowers else []:
        maker._place(canvas, rng, placed, code, (fx, 150.0), rng.uniform(-10, 10), tile_width, back)
        fx -= tile_width * 1.6
    image = _light(canvas, rng)
    labels = [
        {
            "code": t.code,
            "box": [round(v, 1) for v in t.box()],
            "face_down": t.code is None,
            "rotated": bool(t.rotated),
        }
        for t in placed
    ]
    return image, labels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hand", required=True)
    parser.add_argument("--win", required=True)
    parser.add_argument("--melds", default="")
    parser.add_argument("--flowers", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    image, labels = render_hand(args.hand, args.win, args.melds.split(), args.flowers, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    truth = {
        "image": args.out.name,
        "width": image.shape[1],
        "height": image.shape[0],
        "tiles": labels,
        "hand": {
            "hand": args.hand,
            "win_tile": args.win,
            "melds": args.melds.split(),
            "flowers": args.flowers,
        },
    }
    args.out.with_suffix(".json").write_text(json.dumps(truth, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
