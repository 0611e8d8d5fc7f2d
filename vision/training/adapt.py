"""Adapt the classifier to a table's tile set from photos nobody labelled.

``tilescore train classifier --adapt PHOTO_OR_FOLDER...``:

1. the current pair reads the photos, and every tile it reports is cut as the classifier sees it
   (an upright crop of the full-resolution photo);
2. the classifier's BatchNorm statistics (each layer's mean and variance of its inputs) are
   measured again on those crops and mixed into the ones it learnt on the synthetic tiles, a
   ``SHARE`` of the table's to the rest; no weight is trained and no label is needed;
3. the adapted classifier is exported and installed in place of the current one, which goes to
   ``MODELS/previous/`` (``tilescore train classifier --rollback`` swaps it back).

Why it helps: the synthetic tiles and a real table's differ as a whole (the set's inks and
ivory, the camera's blur and white balance), and a network's BatchNorm layers normalise by the
statistics of what they were trained on. Measured again on the table's own tiles, they normalise
what the camera sees. On the 30 real photos, photos held out from the adaptation read better
(docs/training.md, "Adapting to your tile set without labels").
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.training.finetune import (
    CANDIDATE_DIR,
    FineTuneError,
    current_model,
    find_checkpoint,
    install,
    model_files,
)

SHARE = 0.2
"""How far the statistics move from the synthetic tiles' to the table's. Chosen on the real
photos (docs/training.md): with all 15 photos of one half, 0.2 and 0.3 read the other half
best (0.4 as many whole photos and fewer tiles, 0.6 three photos fewer, 1.0 five); with 2-8 photos (20-165 tiles, 32 draws)
0.2 gained 75 tiles and lost a whole photo twice, while shares that shrink with fewer tiles (0.1,
or n / (n + 1000)) gained 45-52 and lost one 10-11 times: a small move tips borderline reads
without fixing the set's."""
MIN_CROPS = 30
"""Fewer tiles than this (two or three photos of a hand) say too little about a tile set."""
BATCH = 512  # crops a forward pass: about 0.5 GB at 64 pixels

Progress = Callable[[str], None]


class AdaptError(FineTuneError):
    """Adapting cannot start or finish: no photos, too few tiles, no checkpoint."""


@dataclass(frozen=True)
class AdaptSettings:
    photos: tuple[Path, ...]  # photo files, or folders of them
    models_dir: Path = Path("models")
    checkpoint: Path | None = None  # default: the classifier's own (finetune.find_checkpoint)
    share: float = SHARE
    threads: int | None = None


@dataclass(frozen=True)
class TableCrops:
    """The tiles the current pair found in the photos, as the classifier sees them."""

    crops: tuple[np.ndarray, ...]
    photos_read: tuple[str, ...]
    unreadable: tuple[str, ...]  # "path: why", one a photo that could not be read


def photo_files(given: Sequence[Path]) -> list[Path]:
    """The photos named, folders expanded to the photos in them (sorted); a name that is
    neither is an error."""
    from vision.labels import PHOTO_SUFFIXES

    files: list[Path] = []
    for path in given:
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        elif path.is_file():
            files.append(path)
        else:
            raise AdaptError(f"photo {str(path)!r} not found")
    if not files:
        raise AdaptError(
            f"no photos in {', '.join(str(p) for p in given)} "
            f"(looked for {', '.join(PHOTO_SUFFIXES)})"
        )
    return files


def table_crops(
    models_dir: Path, photos: Sequence[Path], threads: int | None, say: Progress
) -> TableCrops:
    """Every tile the pair in ``models_dir`` reports in ``photos``, cut at the classifier's input
    size; a photo that cannot be read is listed, and the others still count."""
    from vision.crops import crop_upright
    from vision.errors import ImageError
    from vision.images import load_image
    from vision.pipeline import load_pipeline

    pipeline = load_pipeline(models_dir, threads)
    assert pipeline.classifier is not None  # current_model checked that one is named
    size = pipeline.classifier.info.input_size
    crops: list[np.ndarray] = []
    read: list[str] = []
    unreadable: list[str] = []
    for number, photo in enumerate(photos, 1):
        say(f"\r    {number}/{len(photos)} {photo.name}")
        try:
            image = load_image(photo)
        except ImageError as error:  # its message names the photo
            unreadable.append(str(error))
            continue
        tiles = pipeline.read(image).tiles
        crops += [crop_upright(image, tile.box, tile.rotated, size) for tile in tiles]
        read.append(photo.name)
    return TableCrops(tuple(crops), tuple(read), tuple(unreadable))


def adapt_batchnorm(model: Any, batch: np.ndarray, share: float) -> int:
    """Measure every BatchNorm layer's input mean and variance on ``batch`` (N×3×H×W, the
    classifier's input) and move the layer's running statistics ``share`` of the way to them.
    The weights are not touched. Returns how many layers were adapted."""
    import torch

    # Any: torch types the running statistics as optional; a network's BatchNorm tracks them.
    layers: list[Any] = [
        m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)
    ]
    learnt = [(m.running_mean.clone(), m.running_var.clone()) for m in layers]
    model.eval()
    for layer in layers:
        layer.reset_running_stats()
        layer.train()
    # In batches (a few thousand crops at once would take gigabytes), in a shuffled order so
    # each batch holds many photos; each batch moves the statistics by its share of the crops
    # seen so far, so every crop counts once, whatever the batch sizes.
    order = np.random.default_rng(0).permutation(len(batch))
    seen = 0
    with torch.no_grad():
        for start in range(0, len(batch), BATCH):
            part = batch[order[start : start + BATCH]]
            seen += len(part)
            for layer in layers:
                layer.momentum = len(part) / seen
            model(torch.from_numpy(np.ascontiguousarray(part)))
    for layer, (mean, variance) in zip(layers, learnt, strict=True):
        layer.running_mean.mul_(share).add_(mean, alpha=1 - share)
        layer.running_var.mul_(share).add_(variance, alpha=1 - share)
        layer.momentum = 0.1  # ultralytics' own, should the checkpoint be trained on
    model.eval()
    return len(layers)


def adapt(
    settings: AdaptSettings, command: str | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Adapt the current classifier to the photos and install it; returns what was done."""
    say = progress or (lambda _: None)
    photos = photo_files(settings.photos)
    current = current_model(settings.models_dir)
    checkpoint = find_checkpoint(current, settings.checkpoint)
    say(f"1/3 reading {len(photos)} photo{'s' * (len(photos) != 1)} with the current models")
    table = table_crops(settings.models_dir, photos, settings.threads, say)
    if len(table.crops) < MIN_CROPS:
        raise AdaptError(
            f"the current models found {len(table.crops)} tiles in {len(table.photos_read)} "
            f"readable photo{'s' * (len(table.photos_read) != 1)}: adapting needs at least "
            f"{MIN_CROPS} (photograph a few more hands of the set)"
        )
    share = settings.share
    say(
        f"2/3 measuring the classifier's statistics on {len(table.crops)} tiles "
        f"(they weigh {share:.0%} against the synthetic tiles' {1 - share:.0%})"
    )
    if command is None:
        from vision.training.train import command_line

        command = command_line()
    folder = current.classifier_meta.parent
    candidate = model_files(folder / CANDIDATE_DIR, current.stem)
    current_meta = json.loads(current.classifier_meta.read_text("utf-8"))
    adapted_facts = {
        "photos": list(table.photos_read),
        "unreadable": list(table.unreadable),
        "tiles": len(table.crops),
        "share": share,
        "started_from": str(checkpoint),
        "command": command,
        "date": dt.date.today().isoformat(),
    }
    changed = _export_adapted(
        checkpoint, current_meta, current.stem, table.crops, share, adapted_facts, candidate
    )
    say(f"3/3 installing the adapted {current.stem}")
    previous = install(folder, current.stem)
    return adapted_facts | {
        "reads_changed": changed,
        "model": str(current.classifier_meta),
        "previous": str(previous),
    }


def _export_adapted(
    checkpoint: Path,
    current_meta: dict[str, Any],
    stem: str,
    crops: Sequence[np.ndarray],
    share: float,
    facts: dict[str, Any],
    candidate: dict[str, Path],
) -> int:
    """Adapt the checkpoint's network, write it as the candidate's checkpoint, ONNX and
    metadata; returns on how many of the crops the adapted classifier's best class differs."""
    import torch

    import vision.training.offline  # noqa: F401  (configures ultralytics before it is imported)
    from vision.crops import to_batch
    from vision.training.train import export_onnx

    try:
        saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
        network = (saved.get("ema") or saved["model"]).float()
    except Exception as error:  # a torch or pickle error of any kind: not a checkpoint we can use
        raise AdaptError(
            f"{str(checkpoint)!r} is not an ultralytics checkpoint ({type(error).__name__})"
        ) from None
    normalisation = current_meta.get("normalisation", {})
    batch = to_batch(
        list(crops),
        float(normalisation.get("scale", 1 / 255)),
        normalisation.get("channel_order", "RGB"),
    )
    before = _best_classes(network, batch)
    adapted = copy.deepcopy(network)
    adapt_batchnorm(adapted, batch, share)
    changed = int((_best_classes(adapted, batch) != before).sum())
    saved = dict(saved)
    saved.update(model=adapted.half(), ema=None, optimizer=None, train_results=None)
    imgsz = int(current_meta["input_size"][0])
    with tempfile.TemporaryDirectory(prefix="tilescore-adapt-") as folder:
        # Made whole in a work folder first: a failed export leaves the models as they were.
        work = Path(folder)
        torch.save(saved, work / f"{stem}.pt")
        onnx_path, names = export_onnx(work / f"{stem}.pt", "classify", imgsz, work, stem)
        if [c["name"] for c in current_meta["classes"]] != list(names):
            raise AdaptError(
                f"{str(checkpoint)!r} lists other classes than {stem}.json: they are not one model"
            )
        meta = dict(current_meta)
        meta["onnx"] = onnx_path.name
        meta["date"] = facts["date"]
        meta["adapted"] = facts
        # Its scores were the unadapted model's: kept, under a name that says so.
        meta["metrics"] = {"before_adapting": current_meta.get("metrics", {})}
        (work / f"{stem}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
        candidate[".json"].parent.mkdir(parents=True, exist_ok=True)
        for suffix in (".pt", ".onnx", ".json"):  # the metadata last: it names the ONNX file
            shutil.copyfile(work / f"{stem}{suffix}", candidate[suffix])
    return changed


def _best_classes(network: Any, batch: np.ndarray) -> np.ndarray:
    import torch

    network.eval()
    best = []
    with torch.no_grad():
        for start in range(0, len(batch), BATCH):
            output = network(torch.from_numpy(np.ascontiguousarray(batch[start : start + BATCH])))
            output = output[0] if isinstance(output, (tuple, list)) else output
            best.append(output.argmax(dim=1).numpy())
    return np.concatenate(best)


def format_report(report: dict[str, Any]) -> str:
    lines = [
        f"adapted the classifier to {len(report['photos'])} photos: {report['tiles']} tiles, "
        f"weighing {report['share']:.0%} against the synthetic tiles",
        f"its best guess changed on {report['reads_changed']} of those {report['tiles']} tiles",
    ]
    lines += [f"not read: {line}" for line in report["unreadable"]]
    lines.append(
        f"installed {report['model']}; the old one is in {report['previous']}: "
        "tilescore train classifier --rollback puts it back"
    )
    return "\n".join(lines)
