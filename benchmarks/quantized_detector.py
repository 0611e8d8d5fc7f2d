"""The detector in 8-bit integers: how much faster a look is, and what it costs in reading.

    PYTHONPATH=. python benchmarks/quantized_detector.py [--models models]
        [--calibration datasets/build/synth25/detect/images/val] [--count 64]
        [--method MinMax] [--labels ...] [--photos ...]

onnxruntime's static quantization (QDQ, weights per channel in int8, activations in uint8) of the
folder's detector, calibrated on ``--count`` synthetic scenes letterboxed as the pipeline does
(never on the real photos it is judged on). The head's decoding (the last module's reshapes,
distribution-to-box and concatenation, everything in it but the box and class convolutions) stays
in float: its one output puts box corners in pixels (0-640) beside class scores (0-1), and one
8-bit scale for both reads every score as zero (quantized whole, the detector found nothing).

Prints one look's time (one thread, median of 10, the same input) for each, then both pairs read
on the labelled photos, split in halves as ``compare_models.py`` does. Session 24's numbers and
why the float detector still ships: docs/vision.md, "Speed".
"""

from __future__ import annotations

import argparse
import random
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
from vision.boxes import letterbox  # noqa: E402
from vision.crops import to_batch  # noqa: E402
from vision.images import load_image  # noqa: E402
from vision.models import ModelInfo, find_models, load_info, onnx_session  # noqa: E402


def float_decoding(node_names: list[str]) -> list[str]:
    """The nodes of an ultralytics detector's head that decode boxes: every node of the last
    ``/model.N/`` module but its box (cv2) and class (cv3) convolution branches."""
    layers = [
        int(name.split("/")[1].split(".")[1]) for name in node_names if name.startswith("/model.")
    ]
    prefix = f"/model.{max(layers)}/"
    return [
        name
        for name in node_names
        if name.startswith(prefix) and "/cv2" not in name and "/cv3" not in name
    ]


def quantize(info: ModelInfo, out: Path, images: list[Path], method: str) -> None:
    """The detector ``info`` quantized to ``out``, calibrated on ``images``."""
    import onnx
    from onnxruntime.quantization import (  # type: ignore[import-untyped]
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import (  # type: ignore[import-untyped]
        quant_pre_process,
    )

    size = info.input_size[0]

    class Scenes(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.paths = iter(images)

        def get_next(self) -> dict[str, np.ndarray] | None:
            path = next(self.paths, None)
            if path is None:
                return None
            image, _ = letterbox(load_image(path), size)
            return {"images": to_batch([image], info.scale, info.channel_order)}

    prepared = out.with_suffix(".prepared.onnx")
    quant_pre_process(str(info.onnx_path), str(prepared))
    names = [node.name for node in onnx.load(str(prepared)).graph.node]
    quantize_static(
        str(prepared),
        str(out),
        Scenes(),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        calibrate_method=getattr(CalibrationMethod, method),
        nodes_to_exclude=float_decoding(names),
    )
    prepared.unlink()


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
        default=ROOT / "datasets/build/synth25/detect/images/val",
        help="synthetic scenes to calibrate on (a datasets.synth build's detect/images/val)",
    )
    parser.add_argument("--count", type=int, default=64, help="calibration scenes")
    parser.add_argument("--method", default="MinMax", choices=("MinMax", "Entropy", "Percentile"))
    add_photo_arguments(parser)
    args = parser.parse_args()
    images = sorted(args.calibration.glob("*.jpg"))
    if not images:
        print(
            f"error: no scenes in {args.calibration}: draw some first "
            "(python -m datasets.synth --out datasets/build/synth25 --scenes 200 --seed 34)",
            file=sys.stderr,
        )
        return 2
    random.Random(0).shuffle(images)
    detector_meta = find_models(args.models)[0]
    info = load_info(detector_meta)
    labels, photos = labelled_photos(args.labels, args.photos)
    with tempfile.TemporaryDirectory() as scratch:
        quantized = Path(scratch) / "models"
        shutil.copytree(args.models, quantized, ignore=shutil.ignore_patterns("*.pt", "previous"))
        started = time.perf_counter()
        quantize(info, quantized / info.onnx_path.name, images[: args.count], args.method)
        print(
            f"{info.name} quantized in {time.perf_counter() - started:.0f} s "
            f"({args.method}, {min(args.count, len(images))} scenes from {args.calibration})"
        )
        size = info.input_size[0]
        folders = {"float (shipped)": args.models, "int8": quantized}
        print("one look, one thread:", end="")
        for label, folder in folders.items():
            print(f"  {label} {one_look_ms(folder / info.onnx_path.name, size):.1f} ms", end="")
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
