"""The detector in 8-bit integers, for its second look: half the time of a look on a CPU.

    python -m vision.training.quantize [--models models] [--variant xiangqi]
        [--calibration datasets/build/synth25/detect/images/val] [--count 64]

``tilescore train detector`` (and a detector ``--soup``) runs it on the model it writes, calibrated
on its data's validation scenes (``quantize_trained``), unless ``--no-int8``.

onnxruntime's static quantization (QDQ: weights per channel in int8, activations in uint8),
calibrated on synthetic scenes letterboxed as the pipeline letterboxes a photo, never on the real
photos the pair is judged on. The head's decoding (the last module's reshapes, distribution-to-box
and concatenation: everything in it but the box and class convolutions) stays in float: its one
output holds box corners in input pixels (0-640) beside class scores (0-1), and one 8-bit scale
for both reads every score as zero (quantized whole, the detector found nothing).

Writes ``NAME.int8.onnx`` beside the detector's ONNX and names it in the detector's metadata as
``second_look_onnx``: the pipeline runs it for the second look only (vision/pipeline.py). For
the whole photo it loses a few tiles (benchmarks/quantized_detector.py); in the second look,
where the tiles it looks at are shown enlarged, it read as many (docs/vision.md, "Speed").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from vision.boxes import letterbox
from vision.crops import to_batch
from vision.errors import ModelError
from vision.images import load_image
from vision.models import SECOND_LOOK_KEY, SHIPPED_MODELS, ModelInfo, find_models, load_info

DEFAULT_SCENES = Path("datasets/build/synth25/detect/images/val")
SCENE_SUFFIXES = (".jpg", ".png")


def validation_folder(data_yaml: Path) -> Path:
    """The validation images of a YOLO detect dataset (``path`` joined with ``val``; the first,
    where ``val`` lists several): the scenes a detector trained on it is calibrated on."""
    import yaml  # type: ignore[import-untyped]  # no stubs installed; ultralytics brings it

    try:
        spec = yaml.safe_load(data_yaml.read_text())
    except (OSError, yaml.YAMLError) as error:
        raise ModelError(f"cannot read {data_yaml}: {error}") from None
    val = spec.get("val") if isinstance(spec, dict) else None
    if isinstance(val, list):
        val = val[0] if val else None
    if not isinstance(val, str):
        raise ModelError(f"{data_yaml} names no validation images (val:)")
    root = Path(spec.get("path") or data_yaml.parent)
    if not root.is_absolute():
        root = data_yaml.parent / root
    return root / val


def float_decoding(node_names: list[str]) -> list[str]:
    """The nodes of an ultralytics detector's head that decode boxes, to leave in float: every
    node of the last ``/model.N/`` module but its box (cv2) and class (cv3) convolutions."""
    layers = [
        int(name.split("/")[1].split(".")[1]) for name in node_names if name.startswith("/model.")
    ]
    if not layers:
        raise ModelError("not an ultralytics detector: no /model.N/ nodes to find its head by")
    prefix = f"/model.{max(layers)}/"
    return [
        name
        for name in node_names
        if name.startswith(prefix) and "/cv2" not in name and "/cv3" not in name
    ]


def calibration_scenes(folder: Path, count: int) -> list[Path]:
    """``count`` of the scenes in ``folder``, the same ones each time (shuffled by seed 0); a
    folder with none is a ModelError saying how to draw some."""
    scenes = sorted(path for suffix in SCENE_SUFFIXES for path in folder.glob(f"*{suffix}"))
    if not scenes:
        raise ModelError(
            f"no scenes in {folder}: draw some first "
            "(python -m datasets.synth --out datasets/build/synth25 --scenes 200 --seed 34)"
        )
    random.Random(0).shuffle(scenes)
    return scenes[:count]


def quantize_detector(
    info: ModelInfo, out: Path, scenes: list[Path], method: str = "MinMax"
) -> Path:
    """The detector ``info`` in int8 at ``out``, calibrated on ``scenes``."""
    import onnx
    from onnxruntime.quantization import (  # type: ignore[import-untyped]  # no stubs
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import (  # type: ignore[import-untyped]
        quant_pre_process,
    )

    if not scenes:
        raise ModelError("no calibration scenes: draw some with python -m datasets.synth")
    size = info.input_size[0]

    class Scenes(CalibrationDataReader):  # type: ignore[misc]  # untyped base
        def __init__(self) -> None:
            self.paths = iter(scenes)

        def get_next(self) -> dict[str, np.ndarray] | None:
            path = next(self.paths, None)
            if path is None:
                return None
            image, _ = letterbox(load_image(path), size)
            return {"images": to_batch([image], info.scale, info.channel_order)}

    prepared = out.with_name(out.name + ".prepared")
    try:
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
    finally:
        prepared.unlink(missing_ok=True)
    return out


def install_second_look(meta_path: Path, scenes: list[Path], note: str) -> Path:
    """Quantize the detector ``meta_path`` describes and name the result in it as its second
    look's network; returns the int8 file."""
    info = load_info(meta_path)
    out = info.onnx_path.with_suffix(".int8.onnx")
    quantize_detector(info, out, scenes)
    metadata = {**info.metadata, SECOND_LOOK_KEY: out.name, "second_look_note": note}
    meta_path.write_text(json.dumps(metadata, indent=2, ensure_ascii=False) + "\n")
    return out


def quantize_trained(meta_path: Path, data_yaml: Path | None, count: int = 64) -> Path:
    """After ``train detector`` or a detector soup: the int8 second look of the detector
    ``meta_path`` describes, calibrated on ``count`` of its training data's validation scenes
    (``data_yaml``; the default scenes where none is given, as for a soup without --data)."""
    folder = validation_folder(data_yaml) if data_yaml is not None else DEFAULT_SCENES
    scenes = calibration_scenes(folder, count)
    return install_second_look(meta_path, scenes, calibration_note(scenes, folder))


def calibration_note(scenes: list[Path], folder: Path) -> str:
    """The metadata's ``second_look_note``: how the int8 file was made."""
    return (
        f"the detector in int8 (vision/training/quantize.py: MinMax calibration on "
        f"{len(scenes)} scenes of {folder}), run for the second look only"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=SHIPPED_MODELS)
    parser.add_argument(
        "--calibration",
        type=Path,
        default=DEFAULT_SCENES,
        help="synthetic scenes to calibrate on (a datasets.synth build's detect/images/val)",
    )
    parser.add_argument("--count", type=int, default=64, help="calibration scenes")
    parser.add_argument(
        "--variant", help="the detector the folder names for this rule set's tables (xiangqi)"
    )
    args = parser.parse_args(argv)
    try:
        scenes = calibration_scenes(args.calibration, args.count)
        meta_path = find_models(args.models, args.variant)[0]
        started = time.perf_counter()
        out = install_second_look(meta_path, scenes, calibration_note(scenes, args.calibration))
    except ModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except ImportError as error:  # onnx comes with the train extra, not the Pi's runtime
        print(
            f"error: {error.name or error} is not installed: pip install -e '.[train]'",
            file=sys.stderr,
        )
        return 2
    print(f"{out} written in {time.perf_counter() - started:.0f} s; {meta_path.name} names it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
