"""Vision runtime speed on 12-megapixel photos, warm, stage by stage, next to a reference.

    PYTHONPATH=. python benchmarks/bench_vision.py [--models models] [--photos DIR] [--count 3]
        [--runs 5] [--threads 1] [--reference-python /tmp/benchvenv/bin/python]

Each source photo is scaled up (cover, then centre crop) to 4000x3000 (or 3000x4000) and saved as
a JPEG, so "decode" is what a 12 MP camera frame costs. The pipeline loads once, reads each photo
once untimed, then ``--runs`` times timed; the table shows median [min-max] milliseconds per
stage. Without ``--photos`` it uses /work/shared/data/real-photos-unlabeled when present, else
generated photos.

The reference is the PyPI package ``mahjong-detector`` (a single-stage YOLO11n, weights inside
the wheel, no download), installed in its own virtual environment so it never mixes with ours:

    python -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install mahjong-detector

It runs in a subprocess with its onnxruntime session limited to the same thread count.

The projected Raspberry Pi 5 time is 4x the one-thread time here (a Pi 5 core runs these
networks about 4x slower than one core of this machine; see docs/vision.md). GFLOPs are counted
from the ONNX graph (2 x multiply-adds of Conv, MatMul and Gemm, batch 1).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.images import load_image, load_photo  # noqa: E402
from vision.pipeline import load_pipeline  # noqa: E402

SHARED_PHOTOS = Path("/work/shared/data/real-photos-unlabeled")
LONG_SIDE, SHORT_SIDE = 4000, 3000
PI5_FACTOR = 4.0
STAGES = (
    "decode",
    "letterbox",
    "detector",
    "nms",
    "crops",
    "classifier",
    "second_opinion",
    "total",
)

REFERENCE_SCRIPT = r"""
import json, sys, time
import onnxruntime as rt
import mahjong_detector.predict
predict = sys.modules["mahjong_detector.predict"]
from mahjong_detector import detect_tiles

threads, runs, paths = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
options = rt.SessionOptions()
options.intra_op_num_threads = threads
options.inter_op_num_threads = 1
session = rt.InferenceSession(str(predict.model_path), options, providers=["CPUExecutionProvider"])
predict.get_inference_session = lambda: session
results = []
for path in paths:
    tiles = detect_tiles(path)  # warm
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        tiles = detect_tiles(path)
        times.append((time.perf_counter() - start) * 1000)
    results.append({"photo": path, "tiles": len(tiles), "total": times})
print(json.dumps({"results": results, "model": str(predict.model_path)}))
"""


def make_12mp_photos(sources: list[Path], folder: Path) -> list[Path]:
    """Each source scaled up to cover 4000x3000 in its own orientation, centre-cropped, saved."""
    photos = []
    for source in sources:
        image = load_image(source)
        height, width = image.shape[:2]
        target_w, target_h = (LONG_SIDE, SHORT_SIDE) if width >= height else (SHORT_SIDE, LONG_SIDE)
        scale = max(target_w / width, target_h / height)
        big = cv2.resize(
            image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_CUBIC
        )
        top, left = (big.shape[0] - target_h) // 2, (big.shape[1] - target_w) // 2
        big = big[top : top + target_h, left : left + target_w]
        path = folder / f"{source.stem}_12mp.jpg"
        cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
        photos.append(path)
    return photos


def generated_sources(folder: Path, count: int) -> list[Path]:
    """Stand-in photos when no real ones are at hand: light tiles in rows on a green cloth."""
    rng = np.random.default_rng(7)
    paths = []
    for i in range(count):
        image = np.zeros((1536, 2048, 3), np.uint8)
        image[:] = (40, 110, 40)
        image = cv2.add(image, rng.integers(0, 25, image.shape, dtype=np.uint8))
        for row in range(3):
            for column in range(14):
                x, y = 200 + column * 115, 300 + row * 350
                cv2.rectangle(image, (x, y), (x + 105, y + 145), (235, 240, 240), -1)
                cv2.putText(
                    image,
                    str((column + row) % 9 + 1),
                    (x + 30, y + 95),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    2,
                    (40, 40, 200),
                    4,
                )
        path = folder / f"generated_{i}.png"
        cv2.imwrite(str(path), image)
        paths.append(path)
    return paths


def bench_pipeline(
    models: Path, photos: list[Path], runs: int, threads: int
) -> list[dict[str, Any]]:
    pipeline = load_pipeline(models, threads=threads)
    rows = []
    for photo in photos:
        pipeline.read(load_photo(photo).pixels)  # warm: first-run allocations are not steady
        samples: dict[str, list[float]] = {stage: [] for stage in STAGES}
        tiles = 0
        for _ in range(runs):
            start = time.perf_counter()
            image = load_photo(photo).pixels  # as `tilescore detect` decodes it
            decode = (time.perf_counter() - start) * 1000
            reading = pipeline.read(image)
            tiles = len(reading.tiles)
            timing = {"decode": decode, **reading.timing_ms}
            timing["total"] = decode + reading.timing_ms["total"]
            for stage in STAGES:
                samples[stage].append(timing.get(stage, 0.0))
        rows.append({"photo": photo.name, "tiles": tiles, **samples})
    return rows


def bench_reference(python: Path, photos: list[Path], runs: int, threads: int) -> dict[str, Any]:
    if not python.exists():
        return {"skipped": f"{python} not found (install mahjong-detector in its own venv)"}
    command = [str(python), "-c", REFERENCE_SCRIPT, str(threads), str(runs), *map(str, photos)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        return {"skipped": f"reference failed: {done.stderr.strip().splitlines()[-1:]}"}
    return json.loads(done.stdout)


def onnx_gflops(path: Path, height: int, width: int) -> float:
    """2 x multiply-adds of every Conv, MatMul and Gemm at batch 1, from the inferred shapes."""
    import onnx
    from onnx import numpy_helper, shape_inference

    model = onnx.load(str(path))
    graph_input = model.graph.input[0].type.tensor_type.shape
    # A dynamic export (the classifier's) has symbolic batch, height and width: pin them.
    for axis, value in enumerate((1, 3, height, width)):
        graph_input.dim[axis].Clear()
        graph_input.dim[axis].dim_value = value
    model = shape_inference.infer_shapes(model)
    shapes = {
        v.name: [
            d.dim_value if d.HasField("dim_value") else 1 for d in v.type.tensor_type.shape.dim
        ]
        for v in list(model.graph.value_info) + list(model.graph.output) + list(model.graph.input)
    }
    weights = {w.name: numpy_helper.to_array(w).shape for w in model.graph.initializer}
    macs = 0
    for node in model.graph.node:
        if node.op_type == "Conv" and node.input[1] in weights:
            kernel = weights[node.input[1]]  # (out, in / groups, kh, kw)
            out = shapes.get(node.output[0])
            if out:
                macs += int(np.prod(out)) * int(np.prod(kernel[1:]))
        elif node.op_type in ("MatMul", "Gemm"):
            a = shapes.get(node.input[0]) or list(weights.get(node.input[0], ()))
            out = shapes.get(node.output[0])
            if a and out:
                macs += int(np.prod(out)) * a[-1]
    return 2 * macs / 1e9


def cell(values: list[float]) -> str:
    if not values or max(values) == 0:
        return "-"
    return f"{statistics.median(values):.0f} [{min(values):.0f}-{max(values):.0f}]"


def report(
    rows: list[dict[str, Any]], reference: dict[str, Any], models: list[tuple[str, str, float]]
) -> str:
    stages = [s for s in STAGES if any(max(r[s]) > 0 for r in rows)]
    lines = ["### tilescore pipeline (ms, median [min-max])", ""]
    lines.append("| photo | tiles | " + " | ".join(stages) + " | Pi 5 projected |")
    lines.append("|---" * (len(stages) + 3) + "|")
    for r in rows:
        projected = statistics.median(r["total"]) * PI5_FACTOR
        cells = " | ".join(cell(r[s]) for s in stages)
        lines.append(f"| {r['photo']} | {r['tiles']} | {cells} | {projected:.0f} |")
    lines += ["", "### reference: mahjong-detector `detect_tiles` (ms)", ""]
    if "skipped" in reference:
        lines.append(f"skipped: {reference['skipped']}")
    else:
        lines.append("| photo | tiles | total | Pi 5 projected |")
        lines.append("|---|---|---|---|")
        for r in reference["results"]:
            projected = statistics.median(r["total"]) * PI5_FACTOR
            name = Path(r["photo"]).name
            lines.append(f"| {name} | {r['tiles']} | {cell(r['total'])} | {projected:.0f} |")
    lines += ["", "### models", "", "| model | input | GFLOPs |", "|---|---|---|"]
    lines += [f"| {name} | {size} | {gflops:.2f} |" for name, size, gflops in models]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--photos", type=Path, default=None)
    parser.add_argument("--count", type=int, default=3, help="how many photos")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per photo")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads, both sides")
    parser.add_argument("--reference-python", type=Path, default=Path("/tmp/benchvenv/bin/python"))
    parser.add_argument("--json", type=Path, default=None, help="also write the raw numbers here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-vision-") as temporary:
        folder = Path(temporary)
        source_dir = args.photos or (SHARED_PHOTOS if SHARED_PHOTOS.is_dir() else None)
        if source_dir is not None:
            sources = sorted(
                p for p in source_dir.iterdir() if p.suffix.lower() in (".jpg", ".png")
            )
            sources = sources[: args.count]
        else:
            sources = generated_sources(folder, args.count)
        photos = make_12mp_photos(sources, folder)
        rows = bench_pipeline(args.models, photos, args.runs, args.threads)
        reference = bench_reference(args.reference_python, photos, args.runs, args.threads)
    pipeline = load_pipeline(args.models, threads=args.threads)
    models = [
        (
            info.name,
            "x".join(map(str, info.input_size[::-1])),
            onnx_gflops(info.onnx_path, *info.input_size),
        )
        for info in pipeline.models
    ]
    if "model" in reference:
        models.append(
            ("mahjong-detector", "640x640", onnx_gflops(Path(reference["model"]), 640, 640))
        )
    print(f"threads {args.threads}, {args.runs} runs per photo, photos {LONG_SIDE}x{SHORT_SIDE}")
    print(report(rows, reference, models))
    if args.json is not None:
        args.json.write_text(json.dumps({"pipeline": rows, "reference": reference}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
