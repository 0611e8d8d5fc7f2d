"""``tilescore detect PHOTO...``: find and read every tile, in one process for many photos."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2

from scoring.errors import TilescoreError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", type=Path, help="photos to read")
    parser.add_argument("--json", action="store_true", help="one JSON object per photo")
    parser.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT_DIR",
        help="write each photo with boxes and codes drawn",
    )
    parser.add_argument("--models", type=Path, default=Path("models"), help="model folder")
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads")


def read_photo(pipeline: Any, path: Path, annotate_dir: Path | None) -> dict[str, Any]:
    from vision.images import load_image

    start = time.perf_counter()
    image = load_image(path)
    decode_ms = (time.perf_counter() - start) * 1000
    reading = pipeline.read(image)
    timing = {"decode": round(decode_ms, 2), **reading.timing_ms}
    timing["total"] = round(decode_ms + reading.timing_ms["total"], 2)
    if annotate_dir is not None:
        from vision.annotate import annotate

        annotate_dir.mkdir(parents=True, exist_ok=True)
        target = annotate_dir / (path.stem + ".annotated.jpg")
        cv2.imwrite(str(target), annotate(image, reading.tiles))
    return {
        "image": str(path),
        "width": int(image.shape[1]),
        "height": int(image.shape[0]),
        "tiles": [t.to_json() for t in reading.tiles],
        "timing_ms": timing,
    }


def run(args: argparse.Namespace) -> int:
    from vision.pipeline import load_pipeline

    pipeline = load_pipeline(args.models, threads=args.threads)
    results = []
    failed = 0
    for path in args.photos:
        try:
            results.append(read_photo(pipeline, path, args.annotate))
        except TilescoreError as error:
            failed += 1
            results.append({"image": str(path), "error": str(error)})
            if not args.json:
                print(f"error: {error}", file=sys.stderr)
    if args.json:
        out = results[0] if len(results) == 1 else results
        print(json.dumps(out, ensure_ascii=False))
    else:
        for result in results:
            if "error" not in result:
                print(format_reading(result))
    return 1 if failed else 0


def format_reading(result: dict[str, Any]) -> str:
    lines = [
        f"{result['image']}  {result['width']}x{result['height']}  "
        f"{len(result['tiles'])} tiles  {result['timing_ms']['total']:.0f} ms"
    ]
    for tile in result["tiles"]:
        code = "back" if tile["face_down"] else tile["code"]
        flags = (" sideways" if tile["rotated"] else "") + (" ?" if tile["low_confidence"] else "")
        x1, y1, x2, y2 = (int(v) for v in tile["box"])
        lines.append(f"  {code:<5} {tile['confidence']:.2f}  ({x1},{y1})-({x2},{y2}){flags}")
    return "\n".join(lines)
