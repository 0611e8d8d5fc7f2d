"""Model files: the metadata JSON beside each ONNX file, and one onnxruntime session per model.

Nothing about a model is hard-coded elsewhere: classes, codes, input size and normalisation all
come from its metadata, and the ONNX graph is checked against it when it loads.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from scoring.errors import VariantError
from scoring.tiles import is_tile_code
from scoring.variant import variant_name
from vision.errors import ModelError
from vision.json_values import finite_number

DEFAULT_FILE = "default.json"  # names the models a folder reads with (docs/contracts.md)
SHIPPED_MODELS = Path(__file__).resolve().parent.parent / "models"
"""The shipped models, every command's default: the project's own ``models/``, wherever the
command runs from (a default of ``models`` under the working folder failed everywhere else)."""


# The classifier's metadata key for the least score a first read keeps (vision/pipeline.py).
MIN_READ_KEY = "min_read_confidence"
SCORE_KEYS = ("detect_confidence", "neighbour_confidence", "back_confidence", MIN_READ_KEY)
"""The thresholds the pipeline reads from a model's metadata, each a score from 0 to 1. Checked
as the metadata loads: read as the pipeline starts, "abc" or null was a traceback, and 2, -1 or
NaN a threshold no box passes (or all do), said nowhere."""
ZOOM_BELOW_KEY = "zoom_below"
"""The tile size (input pixels) below which the detector takes a second look; 0: none."""


@dataclass(frozen=True)
class ModelClass:
    """One network output class; ``code`` is a tile code or None (a detector shape class,
    ``not_a_tile``)."""

    name: str
    code: str | None
    face_down: bool = False
    rotated: bool = False


@dataclass(frozen=True)
class ModelInfo:
    """A model's metadata JSON, read and checked."""

    name: str
    task: str
    onnx_path: Path
    input_size: tuple[int, int]
    scale: float
    channel_order: str
    classes: tuple[ModelClass, ...]
    metadata: dict[str, Any]

    def number(self, key: str) -> float | None:
        """The metadata's threshold ``key`` (one of ``SCORE_KEYS`` or ``ZOOM_BELOW_KEY``, checked
        by ``load_info``), or None where it names none."""
        if key not in (*SCORE_KEYS, ZOOM_BELOW_KEY):  # a key read here must be one checked there
            raise ValueError(f"{key!r} is no threshold load_info checks")
        value = self.metadata.get(key)
        return None if value is None else float(value)

    @property
    def is_single_stage(self) -> bool:
        """A detector whose classes are tile codes reads tiles without a classifier."""
        return self.task == "detect" and any(c.code for c in self.classes)


def load_info(meta_path: Path) -> ModelInfo:
    """The metadata at ``meta_path``; the ONNX file it names must exist."""
    try:
        data = json.loads(meta_path.read_text("utf-8"))
    except FileNotFoundError:
        raise ModelError(f"model metadata {str(meta_path)!r} not found") from None
    except json.JSONDecodeError as error:
        raise ModelError(
            f"model metadata {str(meta_path)!r} is not valid JSON: {error.msg}"
        ) from None
    try:
        classes = tuple(
            ModelClass(c["name"], c.get("code"), bool(c.get("face_down")), bool(c.get("rotated")))
            for c in data["classes"]
        )
        height, width = data["input_size"]
        onnx_path = meta_path.parent / data["onnx"]
        norm = data.get("normalisation", {})
        info = ModelInfo(
            name=data["name"],
            task=data["task"],
            onnx_path=onnx_path,
            input_size=(int(height), int(width)),
            scale=float(norm.get("scale", 1 / 255)),
            channel_order=norm.get("channel_order", "RGB"),
            classes=classes,
            metadata=data,
        )
    except KeyError as error:
        raise ModelError(f"model metadata {str(meta_path)!r} has no {error}") from None
    except (TypeError, ValueError) as error:
        raise ModelError(f"model metadata {str(meta_path)!r} is malformed: {error}") from None
    if not all(8 <= side <= 4096 for side in info.input_size):  # onnxruntime's own error, else
        raise ModelError(
            f"model metadata {str(meta_path)!r}: input_size {list(info.input_size)} is no "
            "model's input (8 to 4096 pixels a side)"
        )
    if info.task not in ("detect", "classify"):
        raise ModelError(f"model metadata {str(meta_path)!r}: unknown task {info.task!r}")
    if info.channel_order not in ("RGB", "BGR"):
        raise ModelError(
            f"model metadata {str(meta_path)!r}: channel_order must be RGB or BGR, "
            f"not {info.channel_order!r}"
        )
    _check_numbers(meta_path, data)
    for model_class in classes:
        if model_class.code is not None and not is_tile_code(model_class.code):
            # Found only as the pipeline starts, it read "unknown tile code 'zz'", no file named.
            raise ModelError(
                f"model metadata {str(meta_path)!r}: class {model_class.name!r} has code "
                f"{model_class.code!r}, no tile code"
            )
    if not onnx_path.exists():
        raise ModelError(f"model file {str(onnx_path)!r} named by {meta_path.name} is missing")
    return info


def _check_numbers(meta_path: Path, data: dict[str, Any]) -> None:
    for key in (*SCORE_KEYS, ZOOM_BELOW_KEY):
        if key not in data:
            continue
        number = finite_number(data[key])
        if key == ZOOM_BELOW_KEY:
            wanted, fits = "a tile size in pixels, 0 or more", number is not None and number >= 0
        else:
            wanted, fits = "a number from 0 to 1", number is not None and 0 <= number <= 1
        if not fits:
            raise ModelError(
                f"model metadata {str(meta_path)!r}: {key} must be {wanted}, "
                f"got {json.dumps(data[key])}"
            )


MAX_THREADS = 1024
"""More onnxruntime threads than any machine this runs on has cores; past int32 onnxruntime
refuses the number with an error that reads as if the model were broken."""


def thread_count(text: str) -> int:
    """``--threads N`` as argparse takes it: a whole number from 1 to ``MAX_THREADS``."""
    try:
        threads = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= threads <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_THREADS}, not {threads}")
    return threads


def onnx_session(path: Path, threads: int | None = None) -> Any:
    """An onnxruntime CPU session for the ONNX file at ``path``, on ``threads`` threads (default:
    onnxruntime's own choice), its warnings kept quiet."""
    import onnxruntime as ort  # type: ignore[import-untyped]  # ships no stubs or py.typed

    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


# The detector metadata key naming the network its second look runs (vision/pipeline.py).
SECOND_LOOK_KEY = "second_look_onnx"


def second_look_info(info: ModelInfo) -> ModelInfo | None:
    """The network a detector's second look runs, where its metadata names one
    (``SECOND_LOOK_KEY``: the same detector in int8, vision/training/quantize.py), as the
    detector's own metadata with that file; None where it names none."""
    name = info.metadata.get(SECOND_LOOK_KEY)
    if not name:
        return None
    path = info.onnx_path.parent / str(name)
    if not path.exists():
        raise ModelError(
            f"model file {str(path)!r} named by {info.name}'s {SECOND_LOOK_KEY} is missing"
        )
    return replace(info, onnx_path=path)


class OnnxModel:
    """An onnxruntime session for one model, checked against its metadata and warmed up once."""

    def __init__(self, info: ModelInfo, threads: int | None = None) -> None:
        try:
            self.session = onnx_session(info.onnx_path, threads)
        except Exception as error:  # onnxruntime raises its own types; any of them means "bad file"
            first_line = (str(error).strip().splitlines() or ["unknown error"])[0]
            raise ModelError(
                f"model file {str(info.onnx_path)!r} cannot be loaded: {first_line}"
            ) from None
        self.info = info
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        self.dynamic_batch = not isinstance(model_input.shape[0], int)
        self._check_against_metadata()
        self.warm_up()

    def _check_against_metadata(self) -> None:
        name = self.info.onnx_path.name
        output = self.session.get_outputs()[0].shape
        classes = len(self.info.classes)
        if self.info.task == "detect":
            if len(output) != 3:
                raise ModelError(f"{name} is not a YOLO detector: output shape {output}")
            if isinstance(output[1], int) and output[1] != classes + 4:
                raise ModelError(
                    f"{name} outputs {output[1]} values per box (4 + classes) but its metadata "
                    f"lists {classes} classes"
                )
        else:
            if len(output) != 2:
                raise ModelError(f"{name} is not a classifier: output shape {output}")
            if isinstance(output[1], int) and output[1] != classes:
                raise ModelError(
                    f"{name} outputs {output[1]} classes but its metadata lists {classes}"
                )
        in_shape = self.session.get_inputs()[0].shape
        if len(in_shape) != 4:
            raise ModelError(f"{name} does not take an image batch: input shape {in_shape}")
        if all(isinstance(v, int) for v in in_shape[2:]) and tuple(in_shape[2:]) != tuple(
            self.info.input_size
        ):
            raise ModelError(
                f"{name} takes {in_shape[3]}x{in_shape[2]} images but its metadata says "
                f"{self.info.input_size[1]}x{self.info.input_size[0]}"
            )
        embedded = _embedded_names(self.session)
        declared = [c.name for c in self.info.classes]
        if embedded is not None and embedded != declared:
            raise ModelError(
                f"{name} was trained on classes {embedded[:4]}... but its metadata lists "
                f"{declared[:4]}...: the .onnx and .json do not belong together"
            )

    def warm_up(self) -> None:
        """One run at load, so the first photo is not charged for onnxruntime's lazy setup."""
        height, width = self.info.input_size
        self.run(np.zeros((1, 3, height, width), np.float32))

    def run(self, batch: np.ndarray) -> np.ndarray:
        output: np.ndarray = self.session.run(None, {self.input_name: batch})[0]
        return output


def _embedded_names(session: object) -> list[str] | None:
    """The class names ultralytics writes into an exported ONNX file, if any."""
    import ast

    props = session.get_modelmeta().custom_metadata_map  # type: ignore[attr-defined]
    try:
        names = ast.literal_eval(props["names"])
        return [str(names[i]) for i in range(len(names))]
    except (KeyError, ValueError, SyntaxError, TypeError):
        return None


@dataclass(frozen=True)
class NamedModels:
    """The metadata files ``models/default.json`` names for one table's photos."""

    detector: Path
    classifier: Path | None
    pieces: Path | None
    """A classifier with the classifier's classes, for the boxes the detector calls xiangqi
    pieces (vision/pipeline.py); None unless named."""
    second_opinion: Path | None
    """A classifier trained apart whose different read of a tile flags it for a person to
    confirm (vision/second_opinion.py); None unless named (``"second_opinion"``)."""


def named_models(models_dir: Path, variant: str | None = None) -> NamedModels:
    """Every model ``models/default.json`` names, read once (the app looks once a photo): for a
    photo of ``variant``'s table, the detector its ``variants`` entry names, if it names one."""
    named = _default(models_dir)
    return NamedModels(
        *_pair(models_dir, named, variant),
        pieces=_named_file(models_dir, named, "pieces"),
        second_opinion=_named_file(models_dir, named, "second_opinion"),
    )


def find_models(
    models_dir: Path, variant: str | None = None
) -> tuple[Path, Path | None, Path | None]:
    """The detector, classifier and piece reader metadata of ``named_models``."""
    models = named_models(models_dir, variant)
    return models.detector, models.classifier, models.pieces


def variant_detectors(models_dir: Path) -> dict[str, Path]:
    """The detectors ``models/default.json`` names for one rule set's tables
    (``"variants": {"xiangqi": {"detector": "xiangqi-detector.json"}}``). A table of xiangqi
    pieces is read better by a detector trained on more of them, which reads mahjong tiles
    worse (docs/training.md, session 20); the readers stay the folder's own."""
    return _variant_detectors(models_dir, _default(models_dir))


def _pair(models_dir: Path, named: dict[str, Any], variant: str | None) -> tuple[Path, Path | None]:
    try:
        detector = models_dir / named["detector"]
        classifier = models_dir / named["classifier"] if named.get("classifier") else None
    except (KeyError, TypeError):
        raise ModelError(
            f"{str(models_dir / DEFAULT_FILE)!r} must name a detector and a classifier"
        ) from None
    if variant is None:
        return detector, classifier
    own = _variant_detectors(models_dir, named)
    return own.get(variant_name(variant), detector), classifier


def _variant_detectors(models_dir: Path, named: dict[str, Any]) -> dict[str, Path]:
    variants = named.get("variants", {})
    where = str(models_dir / DEFAULT_FILE)
    if not isinstance(variants, dict):
        raise ModelError(f"{where!r}: variants must map a rule set to its models")
    found = {}
    for name, models in variants.items():
        detector = models.get("detector") if isinstance(models, dict) else None
        if not isinstance(detector, str) or set(models) != {"detector"}:
            raise ModelError(f"{where!r}: variants.{name} may name a detector file, and only that")
        try:
            found[variant_name(name)] = models_dir / detector
        except VariantError as error:
            raise ModelError(f"{where!r}: {error}") from None
    return found


def _named_file(models_dir: Path, named: dict[str, Any], key: str) -> Path | None:
    name = named.get(key)
    if name is not None and not isinstance(name, str):
        raise ModelError(f"{str(models_dir / DEFAULT_FILE)!r}: {key} must name a file")
    return models_dir / name if name else None


def _default(models_dir: Path) -> dict[str, Any]:
    default = models_dir / DEFAULT_FILE
    if not default.exists():
        raise ModelError(f"no models in {str(models_dir)!r}: {default.name} is missing")
    try:
        named = json.loads(default.read_text("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        named = None
    if not isinstance(named, dict):
        raise ModelError(f"{str(default)!r} must name a detector and a classifier")
    return named
