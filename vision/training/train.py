"""Train the detector or the classifier from scratch (or on from a checkpoint) and ship it as ONNX.

The shipped files are ``models/NAME.onnx`` and ``models/NAME.json`` (classes with their tile
codes, input size, normalisation, training data and command, metrics, date; see
docs/contracts.md). The detector's ultralytics checkpoint is kept as ``models/NAME.pt`` so a later
session can train on from it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import vision.training.offline  # noqa: F401  (configures ultralytics before it is imported)
from scoring.tiles import tile_from_code

DETECTOR_CLASSES = ("tile", "tile_rotated", "back", "back_rotated", "piece")


@dataclass(frozen=True)
class TrainSettings:
    task: str  # "detect" or "classify"
    data: Path
    out_dir: Path
    name: str
    epochs: int
    imgsz: int
    batch: int
    device: str
    start_from: Path | None
    workers: int = 2
    fraction: float = 1.0
    hours: float | None = None  # a time budget: ultralytics fits the epochs (and lr schedule) to it
    cache: bool = False  # decoded images in RAM: a GPU waits on JPEG decoding otherwise
    lr0: float | None = None  # the starting rate, in place of the task's default below
    # The detector learns on mosaics of four scenes (more tiles a batch, more sizes); without, on
    # whole scenes as a camera frames them, as ultralytics' close_mosaic does for a long run's
    # last epochs. Short CPU runs never reach those epochs, so a run can ask for it.
    mosaic: bool = True
    # Keep the weights every this many epochs (runs/NAME/weights/epochN.pt) as well as the last
    # and best: a long GPU run's middle epochs are candidates too, on their own or averaged.
    save_period: int | None = None


def class_entry(task: str, name: str) -> dict[str, Any]:
    if task == "classify":
        if name == "back":  # a face-down tile
            return {"name": name, "code": None, "face_down": True}
        code = None if name == "not_a_tile" else tile_from_code(name).code
        return {"name": name, "code": code}
    if name in DETECTOR_CLASSES:
        return {
            "name": name,
            "code": None,
            "face_down": name.startswith("back"),
            "rotated": name.endswith("_rotated"),
        }
    # A single-stage baseline: detector classes are tile codes.
    return {"name": name, "code": tile_from_code(name).code, "face_down": False, "rotated": False}


def train(settings: TrainSettings, command: str) -> Path:
    """Train, export ONNX, write the metadata; returns the metadata path."""
    # ultralytics rounds the input size up to a multiple of the network stride (32).
    settings = replace(settings, imgsz=-(-settings.imgsz // 32) * 32)
    import torch
    from ultralytics.models import YOLO  # what ultralytics.YOLO lazily re-exports, typed

    torch.set_num_threads(max(1, torch.get_num_threads()))
    if settings.start_from is not None:
        model = YOLO(str(settings.start_from))
    else:
        model = YOLO("yolo11n-cls.yaml" if settings.task == "classify" else "yolo11n.yaml")
    run_dir = settings.out_dir / "runs"
    started = time.time()
    options = train_options(settings, run_dir)
    results = model.train(**options)
    minutes = (time.time() - started) / 60
    # With a time budget ultralytics picks the epoch count itself.
    epochs_run = int(getattr(model.trainer, "epoch", settings.epochs - 1)) + 1
    weights = run_dir / settings.name / "weights"
    best = weights / "best.pt" if (weights / "best.pt").exists() else weights / "last.pt"
    # Every file is made beside the models first and moved in once all are whole: a run that
    # failed (or was stopped) while exporting left the shipped ONNX replaced and its metadata
    # stale, which no rollback could mend.
    work = Path(tempfile.mkdtemp(prefix=f".{settings.name}-", dir=settings.out_dir))
    try:
        run = {"minutes": minutes, "epochs": epochs_run, "lr0": options["lr0"]}
        meta_path = _export_all(settings, best, results, work, command, run)
        return install_files(work, settings.out_dir, settings.name, meta_path)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def install_files(work: Path, out_dir: Path, name: str, meta_path: Path) -> Path:
    """Move a model's files made in ``work`` into ``out_dir``, the metadata last (it names the
    ONNX file, so a reader never finds metadata ahead of its model); returns the metadata."""
    from vision.training.finetune import SUFFIXES

    made = [s for s in SUFFIXES if (work / f"{name}{s}").is_file() and s != ".json"]
    for suffix in [*made, ".json"]:
        os.replace(work / f"{name}{suffix}", out_dir / f"{name}{suffix}")
    return out_dir / meta_path.name


def _export_all(
    settings: TrainSettings,
    best: Path,
    results: Any,
    work: Path,
    command: str,
    run: dict[str, Any],
) -> Path:
    """The ONNX file, its adaptation files, the checkpoint and the metadata, made in ``work``."""
    shipped_onnx, names = export_onnx(best, settings.task, settings.imgsz, work, settings.name)
    # Both checkpoints ship: the detector's to continue training next session, the classifier's
    # for `train classifier --from` (fine-tuning on a table's own photos starts from it).
    _save_checkpoint(best, work / f"{settings.name}.pt")
    metrics = _metrics(results, settings.task)
    training = {
        "data": str(settings.data),
        "command": command,
        "epochs": run["epochs"],
        "hours": settings.hours,
        "imgsz": settings.imgsz,
        "batch": settings.batch,
        "device": settings.device,
        "minutes": round(run["minutes"], 1),
        "started_from": str(settings.start_from) if settings.start_from else "scratch",
        "lr0": run["lr0"],
        **({"mosaic": settings.mosaic} if settings.task == "detect" else {}),
        "ultralytics": _version("ultralytics"),
    }
    metadata = model_metadata(
        settings.name,
        settings.task,
        shipped_onnx,
        settings.imgsz,
        names,
        training,
        {"synthetic_val": metrics},
    )
    meta_path = work / f"{settings.name}.json"
    meta_path.write_text(json.dumps(metadata, indent=2, ensure_ascii=False) + "\n")
    return meta_path


def train_options(settings: TrainSettings, run_dir: Path) -> dict[str, Any]:
    """The arguments ultralytics' ``train`` gets for these settings (augmentation, rate)."""
    options: dict[str, Any] = {
        "data": str(settings.data),
        "epochs": settings.epochs,
        "imgsz": settings.imgsz,
        "batch": settings.batch,
        "device": settings.device,
        "workers": settings.workers,
        "project": str(run_dir.resolve()),
        "name": settings.name,
        "exist_ok": True,
        "plots": False,
        # With a checkpoint to continue from, its weights must survive: ultralytics' classifier
        # trainer resets every layer when pretrained is False.
        "pretrained": settings.start_from is not None,
        "amp": False,
        "fraction": settings.fraction,
        "verbose": True,
        # Short CPU runs: one warm-up epoch, not three.
        "warmup_epochs": 1,
        "cache": "ram" if settings.cache else False,
    }
    if settings.hours:
        options["time"] = settings.hours
    if settings.save_period:
        options["save_period"] = settings.save_period
    if settings.task == "classify":
        # Tiles must stay whole and unmirrored (a mirrored 7 is no tile); the data already has
        # the 180° turns a photo from across the table gives.
        options.update(
            scale=0.1,
            fliplr=0.0,
            flipud=0.0,
            erasing=0.0,
            auto_augment=None,
            hsv_h=0.01,
            hsv_s=0.4,
            hsv_v=0.4,
            # ultralytics' "auto" picks lr 0.00016 for 60 classes, which learns from scratch far
            # too slowly in a dozen CPU epochs (top-1 0.47 after four); 0.002 with AdamW does.
            optimizer="AdamW",
            lr0=0.002,
        )
    else:
        options.update(
            fliplr=0.5,
            flipud=0.5,
            degrees=10.0,
            mosaic=1.0 if settings.mosaic else 0.0,
            close_mosaic=2,
            hsv_h=0.01,
            hsv_s=0.5,
            hsv_v=0.4,
            scale=0.5,
            # ultralytics' "auto" scales AdamW's rate by 1/(4 + classes) on short runs: 0.0011
            # for the 5-class detector but 0.00016 for the 63-class single-stage baseline, which
            # would handicap the comparison. One fixed rate for both.
            optimizer="AdamW",
            lr0=0.001,
        )
        if settings.start_from is not None:
            # Continuing from a checkpoint: ultralytics' warm-up starts biases at lr 0.1 and a
            # short CPU run is all warm-up; the first such fine-tune (1.7 epochs) traded 14 points
            # of real-photo recall for precision. No warm-up and half the rate keep what it knew.
            options.update(warmup_epochs=0, lr0=0.0005)
    if settings.lr0 is not None:
        options["lr0"] = settings.lr0
    return options


def export_onnx(
    checkpoint: Path, task: str, imgsz: int, out_dir: Path, name: str
) -> tuple[Path, list[str]]:
    """Export a checkpoint as ``out_dir/NAME.onnx`` (opset 17; a classifier takes any batch);
    returns the file and the model's class names in order."""
    from ultralytics.models import YOLO

    trained = YOLO(str(checkpoint))
    names = [trained.names[i] for i in range(len(trained.names))]
    onnx_path = Path(
        trained.export(
            format="onnx",
            imgsz=imgsz,
            opset=17,
            simplify=False,
            dynamic=task == "classify",
            device="cpu",
        )
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    shipped_onnx = out_dir / f"{name}.onnx"
    if onnx_path.resolve() != shipped_onnx.resolve():  # ultralytics writes beside the checkpoint
        shutil.copyfile(onnx_path, shipped_onnx)
    if task == "classify":
        # The files that let `train classifier --adapt` fit it to a table where there is no
        # torch (vision/adaptation.py), made now, while torch is here: NAME.measure.onnx and
        # NAME.bn.npz beside NAME.onnx.
        from vision.training.adapt import prepare

        prepare(checkpoint, shipped_onnx, imgsz, out_dir)
    return shipped_onnx, names


def model_metadata(
    name: str,
    task: str,
    onnx: Path,
    imgsz: int,
    class_names: list[str],
    training: dict[str, Any],
    metrics: dict[str, Any],
) -> dict[str, Any]:
    """A shipped model's metadata JSON (docs/contracts.md), dated today."""
    return {
        "name": name,
        "task": task,
        "onnx": onnx.name,
        "input_size": [imgsz, imgsz],
        "normalisation": {"scale": 1 / 255, "channel_order": "RGB"},
        "classes": [class_entry(task, n) for n in class_names],
        "training": training,
        "metrics": metrics,
        "date": dt.date.today().isoformat(),
    }


def _save_checkpoint(best: Path, target: Path) -> None:
    """Keep the checkpoint without optimizer state: a third of the size, and enough to train on."""
    import torch

    checkpoint = torch.load(best, map_location="cpu", weights_only=False)
    checkpoint["optimizer"] = None
    torch.save(checkpoint, target)


def _metrics(results: Any, task: str) -> dict[str, float]:
    values = getattr(results, "results_dict", None) or {}
    keep = {}
    for key, value in values.items():
        try:
            keep[key] = round(float(value), 4)
        except (TypeError, ValueError):
            continue
    return keep


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def command_line() -> str:
    return "tilescore " + " ".join(sys.argv[1:])
