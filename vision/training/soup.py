"""A model soup: the weights of several checkpoints of one model, averaged into one model.

Fine-tunes of the shipped classifier on other synthetic data (96-pixel crops, block mats and
hands, cut laptop keys) each read fewer real tiles than the classifier they started from, yet
their average read more than any of them, and more whole photos (docs/training.md). Fine-tunes
from one checkpoint stay in one basin of the loss, so their average is a model too, and what each
learnt off the real photos' way partly cancels out. It costs nothing at run time: the soup is one
network of the same size.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.errors import TilescoreError

# ultralytics' network classes, by the task they do (a checkpoint does not say it otherwise).
NETWORK_TASKS = {"ClassificationModel": "classify", "DetectionModel": "detect"}


class SoupError(TilescoreError):
    """Checkpoints that cannot be averaged: missing, unreadable, or of different models."""


@dataclass(frozen=True)
class SoupSettings:
    checkpoints: tuple[Path, ...]
    weights: tuple[float, ...]  # one a checkpoint; the average is weighted by them
    task: str  # "classify" or "detect": what the checkpoints must be
    out_dir: Path
    name: str
    imgsz: int | None = None  # None: the size the first checkpoint trained at
    data: Path | None = None  # synthetic validation data to measure the soup on


def soup_settings(
    checkpoints: list[Path],
    weights: list[float] | None,
    task: str,
    out_dir: Path,
    name: str,
    imgsz: int | None = None,
    data: Path | None = None,
) -> SoupSettings:
    """Settings checked for what can be told without reading a checkpoint."""
    if len(checkpoints) < 2:
        raise SoupError("a soup needs at least two checkpoints")
    for path in checkpoints:
        if not path.is_file():
            raise SoupError(f"checkpoint {str(path)!r} not found")
    if weights is None:
        weights = [1.0] * len(checkpoints)
    if len(weights) != len(checkpoints):
        raise SoupError(
            f"--weights gives {len(weights)} weights for {len(checkpoints)} checkpoints"
        )
    if not all(math.isfinite(w) and w > 0 for w in weights):  # nan > 0 is False, but so is nan <= 0
        raise SoupError("--weights must all be numbers more than 0")
    if not math.isfinite(sum(weights)):  # 1e308 twice: the average would divide by infinity
        raise SoupError("--weights add up to more than a number can hold: give smaller ones")
    if data is not None and not data.exists():
        raise SoupError(f"validation data {str(data)!r} not found")
    return SoupSettings(tuple(checkpoints), tuple(weights), task, out_dir, name, imgsz, data)


def average(states: list[dict[str, Any]], weights: tuple[float, ...]) -> dict[str, Any]:
    """The weighted mean of state dicts, key by key, in float32. Counters (BatchNorm's
    ``num_batches_tracked``) are not weights: the first checkpoint's are kept."""
    total = sum(weights)
    mean = {}
    for key, first in states[0].items():
        if first.is_floating_point():
            mean[key] = (
                sum(w * s[key].float() for w, s in zip(weights, states, strict=True)) / total
            )
        else:
            mean[key] = first
    return mean


def make_soup(settings: SoupSettings, command: str) -> Path:
    """Average the checkpoints, save the soup as ``NAME.pt``, export ``NAME.onnx`` and write
    ``NAME.json``; returns the metadata path."""
    import copy

    import torch

    import vision.training.offline  # noqa: F401  (configures ultralytics before it is imported)
    from vision.training.train import _metrics, export_onnx, install_files, model_metadata

    checkpoints, models = zip(*(_load(path) for path in settings.checkpoints), strict=True)
    _check_alike(models, settings)
    soup = copy.deepcopy(models[0]).float()
    soup.load_state_dict(average([m.float().state_dict() for m in models], settings.weights))
    train_args = [c.get("train_args") or {} for c in checkpoints]
    imgsz = settings.imgsz or int(train_args[0].get("imgsz") or 64)
    imgsz = -(-imgsz // 32) * 32  # ultralytics rounds the input size up to the stride
    # The first checkpoint's dict with the soup in it, half precision as ultralytics saves:
    # ultralytics loads it, and `train ... --resume-from` trains on from it.
    saved = dict(checkpoints[0])
    saved.update(
        model=soup.half(),
        ema=None,
        optimizer=None,
        train_results=None,
        date=dt.date.today().isoformat(),
    )
    settings.out_dir.mkdir(parents=True, exist_ok=True)
    # Everything is made in a work folder beside --out and moved in only once whole (one file
    # system, so each move is whole): a failed export or validation leaves the models as they were.
    with tempfile.TemporaryDirectory(prefix=f".{settings.name}-", dir=settings.out_dir) as folder:
        work = Path(folder)
        checkpoint = work / f"{settings.name}.pt"
        torch.save(saved, checkpoint)
        onnx_path, names = export_onnx(checkpoint, settings.task, imgsz, work, settings.name)
        metrics: dict[str, Any] = {}
        if settings.data is not None:
            results = _validate(checkpoint, settings.data, imgsz)
            metrics["synthetic_val"] = _metrics(results, settings.task)
        metadata = model_metadata(
            settings.name,
            settings.task,
            onnx_path,
            imgsz,
            names,
            _training(settings, train_args, imgsz, command),
            metrics,
        )
        meta_path = checkpoint.with_suffix(".json")
        meta_path.write_text(json.dumps(metadata, indent=2, ensure_ascii=False) + "\n")
        return install_files(work, settings.out_dir, settings.name, meta_path)


def _training(
    settings: SoupSettings, train_args: list[dict[str, Any]], imgsz: int, command: str
) -> dict[str, Any]:
    """The metadata's ``training``: the command, and each checkpoint with its weight and what
    it was trained on."""
    from vision.training.train import _version

    ingredients = [
        {
            "checkpoint": str(path),
            "weight": weight,
            "data": args.get("data"),
            "started_from": args.get("model"),
            "lr0": args.get("lr0"),
            "imgsz": args.get("imgsz"),
        }
        for path, weight, args in zip(
            settings.checkpoints, settings.weights, train_args, strict=True
        )
    ]
    return {
        "data": " + ".join(dict.fromkeys(str(i["data"]) for i in ingredients)),
        "command": command,
        "soup": ingredients,
        "imgsz": imgsz,
        "ultralytics": _version("ultralytics"),
    }


def _load(path: Path) -> tuple[dict[str, Any], Any]:
    """A checkpoint and the network it holds: its EMA weights when it has them, as ultralytics
    loads (ultralytics' own last.pt holds only those; its "model" is None)."""
    import torch

    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as error:  # a torch file that is no torch file raises anything
        raise SoupError(f"checkpoint {str(path)!r} cannot be read: {error}") from None
    model = (
        (checkpoint.get("ema") or checkpoint.get("model")) if isinstance(checkpoint, dict) else None
    )
    if not hasattr(model, "state_dict"):
        raise SoupError(f"checkpoint {str(path)!r} is not an ultralytics checkpoint")
    return checkpoint, model


def _check_alike(models: tuple[Any, ...], settings: SoupSettings) -> None:
    first_path = settings.checkpoints[0]
    for model, path in zip(models, settings.checkpoints, strict=True):
        task = NETWORK_TASKS.get(type(model).__name__)
        if task != settings.task:
            raise SoupError(
                f"checkpoint {str(path)!r} is a {task or type(model).__name__} model, "
                f"not a {settings.task} one"
            )
    first = models[0]
    shapes = {k: tuple(v.shape) for k, v in first.state_dict().items()}
    for model, path in zip(models[1:], settings.checkpoints[1:], strict=True):
        if dict(model.names) != dict(first.names):
            raise SoupError(f"checkpoint {str(path)!r} has other classes than {str(first_path)!r}")
        other = {k: tuple(v.shape) for k, v in model.state_dict().items()}
        if other != shapes:
            raise SoupError(f"checkpoint {str(path)!r} is another network than {str(first_path)!r}")


def _validate(checkpoint: Path, data: Path, imgsz: int) -> Any:
    from ultralytics.models import YOLO

    return YOLO(str(checkpoint)).val(
        data=str(data), imgsz=imgsz, batch=64, device="cpu", plots=False, verbose=False
    )
