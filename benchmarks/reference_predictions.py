"""Run the single-stage reference (PyPI ``mahjong-detector``) on photos and save detect JSON.

    /tmp/benchvenv/bin/python benchmarks/reference_predictions.py PHOTOS_DIR OUT_DIR
    tilescore evaluate --labels datasets/real/labels --predictions OUT_DIR

The reference is a single-stage YOLO11n with the 34 riichi faces as classes (no flowers, backs,
red fives, rotation or xiangqi). Its predictions go through our evaluator on the same labelled
photos as our two-stage pair, which is how docs/vision.md compares the two designs. It runs in
its own virtual environment (``python -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install
mahjong-detector``) so it never mixes with ours; this file imports nothing from the project.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from mahjong_detector.predict import CLASS_NAMES, predict
from mahjong_detector.preprocess import preprocess_image
from PIL import Image, ImageOps

HONOURS = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z"}
HONOURS["chun"] = "7z"


def code_of(name: str) -> str:
    return HONOURS.get(name, name)


def main(photos: Path, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    paths = sorted(p for p in photos.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    for path in paths:
        start = time.perf_counter()
        # Our labels are in EXIF-upright pixels; PIL does not turn the photo by itself.
        image = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
        prepared, padding = preprocess_image(image)
        found = predict(prepared, padding)
        elapsed = (time.perf_counter() - start) * 1000
        tiles = [
            {
                "code": code_of(CLASS_NAMES[d.class_id]),
                "box": [d.x1, d.y1, d.x2, d.y2],
                "confidence": round(float(d.confidence), 4),
                "face_down": False,
                "rotated": False,
            }
            for d in found
        ]
        record = {
            "image": path.name,
            "width": image.width,
            "height": image.height,
            "tiles": tiles,
            "timing_ms": {"total": round(elapsed, 1)},
        }
        (out / f"{path.stem}.json").write_text(json.dumps(record) + "\n")
        print(f"{path.name}: {len(tiles)} tiles, {elapsed:.0f} ms", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    raise SystemExit(main(Path(sys.argv[1]), Path(sys.argv[2])))
