"""A classifier's BatchNorm statistics, measured on a table's tiles and written into its ONNX file,
with onnxruntime and numpy alone: ``tilescore train classifier --adapt`` on a Raspberry Pi.

The shipped ONNX classifier has each BatchNorm layer folded into the convolution before it
(weights ``W γ/σ``, bias ``β - μ γ/σ``, with ``σ = sqrt(var + eps)``). Two files beside it make it
adaptable without torch (vision/training/adapt.py ``prepare`` writes them, where torch is):

- ``STEM.measure.onnx``: the same network unfolded, each BatchNorm layer normalising by the
  statistics of the batch it is given, as in training; its outputs are each layer's batch mean
  and variance. Weights only: it serves the classifier however its statistics move.
- ``STEM.bn.npz`` (``Folded``): for each layer, γ, β, eps, the statistics now folded into the ONNX
  file, and where the folded weights and bias lie in the file's bytes, with the file's SHA-256.

Adapting measures the statistics on the table's crops, moves the folded ones a share of the way
there, and writes the folded weights again in place: the same bytes but those, so the result is
an ONNX file like any other (no graph editing, no ``onnx`` package).
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from scoring.errors import TilescoreError

MEASURE_SUFFIX = ".measure.onnx"
FOLDED_SUFFIX = ".bn.npz"
BATCH = 512  # crops a measuring pass: about 0.5 GB at 64 pixels


class AdaptationError(TilescoreError):
    """The adaptation files are missing, or belong to another classifier."""


@dataclass(frozen=True)
class FoldedLayer:
    """One BatchNorm layer folded into the convolution before it, in an ONNX file's bytes."""

    name: str  # the layer's module path in the checkpoint, e.g. model.0.bn
    weight_offset: int  # where the folded convolution weights' float32 bytes start
    weight_shape: tuple[int, ...]
    bias_offset: int
    gamma: np.ndarray
    beta: np.ndarray
    eps: float
    mean: np.ndarray  # the statistics folded in now
    var: np.ndarray

    @property
    def channels(self) -> int:
        return int(self.gamma.shape[0])


@dataclass(frozen=True)
class Folded:
    """The folded layers of one ONNX classifier file (its SHA-256), in the measuring graph's
    output order, and that graph's SHA-256."""

    onnx_sha256: str
    measure_sha256: str
    layers: tuple[FoldedLayer, ...]

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {}
        index = []
        for i, layer in enumerate(self.layers):
            for field in ("gamma", "beta", "mean", "var"):
                arrays[f"{i}.{field}"] = getattr(layer, field).astype(np.float32)
            index.append(
                {
                    "name": layer.name,
                    "weight_offset": layer.weight_offset,
                    "weight_shape": list(layer.weight_shape),
                    "bias_offset": layer.bias_offset,
                    "eps": layer.eps,
                }
            )
        facts = {"onnx_sha256": self.onnx_sha256, "measure_sha256": self.measure_sha256}
        arrays["index"] = np.frombuffer(json.dumps(facts | {"layers": index}).encode(), np.uint8)
        temporary = path.with_name(f".{path.name}.tmp.npz")
        np.savez(temporary, **arrays)  # type: ignore[arg-type]
        temporary.replace(path)

    @staticmethod
    def load(path: Path) -> Folded:
        try:
            with np.load(path) as data:
                facts = json.loads(bytes(data["index"]).decode())
                layers = tuple(
                    FoldedLayer(
                        name=entry["name"],
                        weight_offset=int(entry["weight_offset"]),
                        weight_shape=tuple(entry["weight_shape"]),
                        bias_offset=int(entry["bias_offset"]),
                        gamma=data[f"{i}.gamma"],
                        beta=data[f"{i}.beta"],
                        eps=float(entry["eps"]),
                        mean=data[f"{i}.mean"],
                        var=data[f"{i}.var"],
                    )
                    for i, entry in enumerate(facts["layers"])
                )
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
            raise AdaptationError(f"{path} cannot be read ({error})") from None
        return Folded(facts["onnx_sha256"], facts["measure_sha256"], layers)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def adaptation_files(onnx_path: Path) -> tuple[Path, Path]:
    """The measuring graph and the folded layers' file beside ``STEM.onnx``."""
    stem = onnx_path.with_suffix("")
    return stem.with_name(stem.name + MEASURE_SUFFIX), stem.with_name(stem.name + FOLDED_SUFFIX)


def load_folded(onnx_path: Path) -> Folded:
    """The folded layers of ``onnx_path``, checked to describe that very file and its measuring
    graph; an error names what is missing or stale."""
    measure, folded_path = adaptation_files(onnx_path)
    if not measure.is_file() or not folded_path.is_file():
        raise AdaptationError(
            f"{onnx_path.name} has no adaptation files ({measure.name}, {folded_path.name})"
        )
    folded = Folded.load(folded_path)
    if folded.onnx_sha256 != sha256(onnx_path):
        raise AdaptationError(f"{folded_path.name} describes another {onnx_path.name}")
    if folded.measure_sha256 != sha256(measure):
        raise AdaptationError(f"{folded_path.name} describes another {measure.name}")
    return folded


def measure(
    measure_onnx: Path, batch: np.ndarray, threads: int | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each layer's mean and (unbiased) variance of its input over ``batch`` (N×3×H×W, the
    classifier's input), each layer normalising by the batch's own statistics as in training.
    Batches of ``BATCH`` count by their share of the crops, so every crop counts once."""
    from vision.models import onnx_session

    session = onnx_session(measure_onnx, threads)
    name = session.get_inputs()[0].name
    # Shuffled so that each batch holds many photos: a per-batch variance misses the spread
    # between batches' means, which mixing photos in every batch keeps small.
    order = np.random.default_rng(0).permutation(len(batch))
    sums: list[np.ndarray] | None = None
    for start in range(0, len(batch), BATCH):
        part = np.ascontiguousarray(batch[order[start : start + BATCH]])
        outputs = session.run(None, {name: part})
        weighted = [np.asarray(o, np.float64) * len(part) for o in outputs]
        sums = weighted if sums is None else [s + w for s, w in zip(sums, weighted, strict=True)]
    if sums is None:
        raise AdaptationError("no crops to measure")
    means = [s / len(batch) for s in sums]
    return [(means[2 * i], means[2 * i + 1]) for i in range(len(means) // 2)]


def adapted_bytes(
    onnx_bytes: bytes,
    folded: Folded,
    measured: Sequence[tuple[np.ndarray, np.ndarray]],
    share: float,
) -> tuple[bytes, Folded]:
    """The ONNX file with every folded layer's statistics moved ``share`` of the way from the
    folded ones to the ``measured`` ones, and the folded layers as they then are (its SHA-256
    is the caller's to set)."""
    if len(measured) != len(folded.layers):
        raise AdaptationError(
            f"the measuring graph gives {len(measured)} layers, the folded file {len(folded.layers)}"
        )
    data = bytearray(onnx_bytes)
    layers = []
    for layer, (batch_mean, batch_var) in zip(folded.layers, measured, strict=True):
        mean = share * batch_mean + (1 - share) * layer.mean.astype(np.float64)
        var = share * batch_var + (1 - share) * layer.var.astype(np.float64)
        before = np.sqrt(layer.var.astype(np.float64) + layer.eps)
        after = np.sqrt(var + layer.eps)
        weights = _read(data, layer.weight_offset, layer.weight_shape)
        size = int(np.prod(layer.weight_shape)) * 4
        # Folded weights are W γ/σ: only σ changes, so they scale by σ_before / σ_after.
        scale = (before / after).reshape((-1,) + (1,) * (len(layer.weight_shape) - 1))
        _write(data, layer.weight_offset, weights * scale, size)
        bias = layer.beta.astype(np.float64) - mean * layer.gamma.astype(np.float64) / after
        _write(data, layer.bias_offset, bias, layer.channels * 4)
        layers.append(replace(layer, mean=mean.astype(np.float32), var=var.astype(np.float32)))
    return bytes(data), replace(folded, onnx_sha256="", layers=tuple(layers))


def _read(data: bytearray, offset: int, shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape))
    array = np.frombuffer(bytes(data[offset : offset + count * 4]), "<f4")
    return array.astype(np.float64).reshape(shape)


def _write(data: bytearray, offset: int, values: np.ndarray, size: int) -> None:
    raw = np.ascontiguousarray(values, "<f4").tobytes()
    if len(raw) != size:
        raise AdaptationError(f"a folded layer's {size} bytes would become {len(raw)}")
    data[offset : offset + size] = raw
