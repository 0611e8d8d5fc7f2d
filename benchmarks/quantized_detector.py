"""The detector in 8-bit integers: how much faster a look is, and what it costs in reading.

    PYTHONPATH=. python benchmarks/quantized_detector.py [--models models]
        [--calibration datasets/build/synth25/detect/images/val] [--count 64]
        [--method MinMax] [--labels ...] [--photos ...]

The folder's detector quantized afresh as ``vision/training/quantize.py`` does it (its docstring
says how and why the head's decoding stays in float), calibrated on ``--count`` synthetic scenes
with ``--method``.

Prints one look's time (one thread, median of 10, the same input) in float and in int8, then the
labelled photos read, split in halves as ``compare_models.py`` does, three ways: the detector in
float for both looks, in int8 for both, and the folder as it is (shipped: the first look in
float, the second in int8, ``vision/training/quantize.py``). Session 24's numbers and why only
the second look runs in int8: docs/vision.md, "Speed".
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import (  # noqa: E402
    HEAD,
    add_photo_arguments,
    halves,
    labelled_photos,
    whole,
)
from vision import pipeline as pipeline_module  # noqa: E402
from vision.errors import ModelError  # noqa: E402
from vision.models import SECOND_LOOK_KEY, find_models, load_info, onnx_session  # noqa: E402
from vision.training.quantize import (  # noqa: E402
    DEFAULT_SCENES,
    calibration_scenes,
    quantize_detector,
)


def one_look_ms(onnx_path: Path, size: int) -> float:
    session = onnx_session(onnx_path, threads=1)
    name = session.get_inputs()[0].name
    batch = np.random.default_rng(0).random((1, 3, size, size), dtype=np.float32)
    for _ in range(3):
        session.run(None, {name: batch})
    times = []
    for _ in range(10):
        start = time.perf_counter()
        session.run(None, {name: batch})
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument(
        "--calibration",
        type=Path,
        default=ROOT / DEFAULT_SCENES,
        help="synthetic scenes to calibrate on (a datasets.synth build's detect/images/val)",
    )
    parser.add_argument("--count", type=int, default=64, help="calibration scenes")
    parser.add_argument("--method", default="MinMax", choices=("MinMax", "Entropy", "Percentile"))
    add_photo_arguments(parser)
    args = parser.parse_args()
    try:
        images = calibration_scenes(args.calibration, args.count)
    except ModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    detector_meta = find_models(args.models)[0]
    info = load_info(detector_meta)
    labels, photos = labelled_photos(args.labels, args.photos)
    with tempfile.TemporaryDirectory() as scratch:
        # Three copies of the folder: the detector in float for both looks (the second look's
        # file unnamed), in int8 for both (quantized afresh with these settings), and as shipped.
        copies = {}
        for name in ("float", "int8"):
            copies[name] = Path(scratch) / name
            shutil.copytree(
                args.models,
                copies[name],
                ignore=shutil.ignore_patterns("*.pt", "previous", "candidates"),
            )
            (copies[name] / detector_meta.name).write_text(
                json.dumps({**info.metadata, SECOND_LOOK_KEY: None})
            )
        started = time.perf_counter()
        quantize_detector(info, copies["int8"] / info.onnx_path.name, images, args.method)
        print(
            f"{info.name} quantized in {time.perf_counter() - started:.0f} s "
            f"({args.method}, {len(images)} scenes from {args.calibration})"
        )
        size = info.input_size[0]
        print("one look, one thread:", end="")
        for name, folder in copies.items():
            print(f"  {name} {one_look_ms(folder / info.onnx_path.name, size):.1f} ms", end="")
        folders = {
            "float, both looks": copies["float"],
            "int8, both looks": copies["int8"],
            f"{args.models.name} as it is": args.models,
        }
        print("\ntiles: found and read right; photos: every tile right, nothing extra")
        width = max(len(label) for label in folders)
        print(f"{'':>{width}} | {'all':^23} | {'even photos':^31} | {'odd photos':^31}")
        print(f"{'detector':>{width}} | {'tiles':>7} {'photos':>7} {'extra':>7} | {HEAD} | {HEAD}")
        for label, folder in folders.items():
            reader = pipeline_module.load_pipeline(folder)
            reads = [reader.read(image, **facts.read_options).tiles for image, facts in photos]
            print(f"{label:>{width}} | {whole(labels, reads)} | {halves(labels, reads)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
