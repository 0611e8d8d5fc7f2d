"""Tiny ONNX models with known answers, built with the onnx helper API (no torch, no training).

* The detector ignores its input and outputs fixed YOLO rows ``(1, 4 + 5, anchors)``: a test says
  exactly which boxes the "network" sees, in input pixels.
* The classifier reads a crop's mean colour: class ``c`` scores ``-k * |mean_rgb - colour_c|^2``
  and a softmax makes it a probability, so a tile painted in a class's colour reads as that class.
  It has a dynamic batch, like the shipped classifier.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from scoring.tiles import ALL_TILES

DETECTOR_CLASSES = (
    {"name": "tile", "code": None, "face_down": False, "rotated": False},
    {"name": "tile_rotated", "code": None, "face_down": False, "rotated": True},
    {"name": "back", "code": None, "face_down": True, "rotated": False},
    {"name": "back_rotated", "code": None, "face_down": True, "rotated": True},
    {"name": "piece", "code": None, "face_down": False, "rotated": False},
)
CLASSIFIER_NAMES = tuple(t.code for t in ALL_TILES) + ("not_a_tile",)
FAR_AWAY = (-5.0, -5.0, -5.0)  # a colour no crop can have: classes without a colour never win


def _save(graph: onnx.GraphProto, path: Path, names: Sequence[str] | None = None) -> None:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8  # readable by every onnxruntime the Pi may have
    if names is not None:  # as ultralytics writes it
        entry = model.metadata_props.add()
        entry.key, entry.value = "names", repr(dict(enumerate(names)))
    onnx.checker.check_model(model)
    onnx.save(model, path)


def fixed_detector(
    path: Path,
    rows: np.ndarray,
    size: int = 64,
    batch: int | str = 1,
    names: Sequence[str] = tuple(c["name"] for c in DETECTOR_CLASSES),
) -> None:
    """A detector that outputs ``rows`` (anchors x (4 + classes)) whatever the image."""
    rows = np.asarray(rows, np.float32)
    output = rows.T[None]  # (1, 4 + classes, anchors)
    graph = helper.make_graph(
        [
            helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
            helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
            helper.make_node("Add", ["fixed", "nothing"], ["output0"]),
        ],
        "fixed_detector",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [batch, 3, size, size])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(output.shape))],
        initializer=[
            numpy_helper.from_array(output, "fixed"),
            numpy_helper.from_array(np.array(0, np.float32), "zero"),
        ],
    )
    _save(graph, path, names)


def colour_classifier(
    path: Path,
    colours: dict[str, tuple[int, int, int]],
    size: int = 32,
    batch: int | str = "n",
    names: Sequence[str] = CLASSIFIER_NAMES,
    top_middle: bool = False,
) -> None:
    """A classifier over ``names`` that reads the crop's mean RGB colour (0-255 each); with
    ``top_middle``, the colour of the middle of its top third only (one cell of a 3 x 3 grid),
    so that it reads a crop turned a quarter differently, and one turned a half alike when the
    tile is painted so."""
    prototypes = np.array(
        [np.array(colours[n]) / 255 if n in colours else FAR_AWAY for n in names],
        np.float32,
    )
    third = size // 3
    start, end = ([0, third], [third, 2 * third]) if top_middle else ([0, 0], [size, size])
    graph = helper.make_graph(
        [
            helper.make_node("Slice", ["images", "start", "end", "axes"], ["read"]),
            helper.make_node("ReduceMean", ["read"], ["mean"], axes=[2, 3], keepdims=0),  # (n, 3)
            helper.make_node("Unsqueeze", ["mean", "one"], ["mean3"]),  # (n, 1, 3)
            helper.make_node("Sub", ["mean3", "prototypes"], ["difference"]),  # (n, classes, 3)
            helper.make_node("Mul", ["difference", "difference"], ["squared"]),
            helper.make_node("ReduceSum", ["squared", "last"], ["distance"], keepdims=0),
            helper.make_node("Mul", ["distance", "sharpness"], ["logits"]),
            helper.make_node("Softmax", ["logits"], ["output0"], axis=-1),
        ],
        "colour_classifier",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [batch, 3, size, size])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [batch, len(names)])],
        initializer=[
            numpy_helper.from_array(np.array([1], np.int64), "one"),
            numpy_helper.from_array(np.array([2], np.int64), "last"),
            numpy_helper.from_array(np.array(start, np.int64), "start"),
            numpy_helper.from_array(np.array(end, np.int64), "end"),
            numpy_helper.from_array(np.array([2, 3], np.int64), "axes"),
            numpy_helper.from_array(prototypes, "prototypes"),
            numpy_helper.from_array(np.array(-200.0, np.float32), "sharpness"),
        ],
    )
    _save(graph, path, names)


def write_metadata(
    folder: Path, name: str, task: str, size: int, classes: Sequence[dict[str, object]]
) -> Path:
    meta = {
        "name": name,
        "task": task,
        "onnx": f"{name}.onnx",
        "input_size": [size, size],
        "normalisation": {"scale": 1 / 255, "channel_order": "RGB"},
        "classes": list(classes),
        "training": {"data": "synthetic test graph", "command": "", "images": 0, "epochs": 0},
        "metrics": {},
        "date": "2026-11-22",
    }
    path = folder / f"{name}.json"
    path.write_text(json.dumps(meta, indent=2))
    return path


def classifier_classes(names: Sequence[str] = CLASSIFIER_NAMES) -> list[dict[str, object]]:
    """Metadata classes as training writes them: ``back`` is a face-down tile."""
    return [
        {"name": n, "code": None, "face_down": True}
        if n == "back"
        else {"name": n, "code": None if n == "not_a_tile" else n}
        for n in names
    ]


def two_stage_models(
    folder: Path,
    detector_rows: np.ndarray,
    colours: dict[str, tuple[int, int, int]],
    detector_size: int = 64,
    classifier_size: int = 32,
) -> Path:
    """A models folder (detector, classifier, default.json) with the given fixed answers."""
    folder.mkdir(parents=True, exist_ok=True)
    fixed_detector(folder / "det.onnx", detector_rows, detector_size)
    write_metadata(folder, "det", "detect", detector_size, DETECTOR_CLASSES)
    colour_classifier(folder / "cls.onnx", colours, classifier_size)
    write_metadata(folder, "cls", "classify", classifier_size, classifier_classes())
    (folder / "default.json").write_text(
        json.dumps({"detector": "det.json", "classifier": "cls.json"})
    )
    return folder


def single_stage_models(folder: Path, detector_rows: np.ndarray, codes: Sequence[str]) -> Path:
    """A models folder whose detector's classes are tile codes (the baseline), no classifier."""
    folder.mkdir(parents=True, exist_ok=True)
    fixed_detector(folder / "single.onnx", detector_rows, 64, names=codes)
    classes = [{"name": c, "code": c, "face_down": False, "rotated": False} for c in codes]
    write_metadata(folder, "single", "detect", 64, classes)
    (folder / "default.json").write_text(json.dumps({"detector": "single.json"}))
    return folder


def detector_row(
    box_xyxy: Sequence[float], class_index: int, score: float, classes: int = 5
) -> list[float]:
    """One anchor's output: centre and size in input pixels, then the class scores."""
    x1, y1, x2, y2 = box_xyxy
    scores = [0.0] * classes
    scores[class_index] = score
    return [(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1, *scores]
