"""Teach the classifier a tile set: fine-tune it on labelled photos, keep it only if it reads better.

``tilescore train classifier --from LABELS``:

1. the labelled photos (label status ``done``, or no status as in datasets/real/labels) are split
   by photo exactly as ``tilescore label --export`` splits them: about one in five is held out;
2. the other photos' tiles are cut as upright crops (datasets/label_export.py), repeated so they
   weigh about a third of an epoch, and mixed with a sample of the synthetic classify data so the
   tiles the photos lack are not forgotten;
3. the current classifier's checkpoint trains on them for a few epochs (vision/training/train.py)
   and is exported as a candidate into ``MODELS/candidate/``;
4. the current detector reads the held-out photos with the current classifier and with the
   candidate (vision/evaluate.py); the candidate is installed only if it reads more whole hands
   right (on a tie, more tiles right). The replaced files go to ``MODELS/previous/``, and
   ``tilescore train classifier --rollback`` swaps them back.

Both scores and the decision are written into the candidate's metadata JSON (``fine_tune``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoring.cli import json_text
from scoring.errors import TilescoreError
from vision.adaptation import FOLDED_SUFFIX, MEASURE_SUFFIX
from vision.models import SHIPPED_MODELS

HELD_OUT_SHARE = 0.2  # datasets.label_export.split_of's default
MIN_HELD_OUT = 2
CANDIDATE_DIR = "candidate"
PREVIOUS_DIR = "previous"
# A classifier's files; the metadata last, as it names the ONNX file. The measuring graph and
# folded-layer file make it adaptable without torch (vision/adaptation.py); a fine-tune has
# none, and installing it removes the old ones, which no longer describe it.
SUFFIXES = (".onnx", ".pt", MEASURE_SUFFIX, FOLDED_SUFFIX, ".json")
MAX_REPEATS = 10
MIN_EPOCH_IMAGES = 200

Progress = Callable[[str], None]


class FineTuneError(TilescoreError):
    """Fine-tuning cannot start or finish: no labels, too few, no current model, no checkpoint."""


# --- scores and the decision -----------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """How a model pair read the held-out photos."""

    photos: int
    hands_right: int  # photos with every tile right and nothing extra
    tiles: int
    tiles_right: int

    @property
    def hand_rate(self) -> float:
        return self.hands_right / self.photos if self.photos else 0.0

    @property
    def tile_rate(self) -> float:
        return self.tiles_right / self.tiles if self.tiles else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "photos": self.photos,
            "hands_right": self.hands_right,
            "tiles": self.tiles,
            "tiles_right": self.tiles_right,
            "photo_accuracy": round(self.hand_rate, 4),
            "tile_accuracy": round(self.tile_rate, 4),
        }

    @classmethod
    def of(cls, evaluation: Any) -> Score:
        """From a ``vision.evaluate.Evaluation``."""
        return cls(
            photos=len(evaluation.photos),
            hands_right=sum(p.all_right for p in evaluation.photos),
            tiles=evaluation.labelled_tiles,
            tiles_right=sum(p.right for p in evaluation.photos),
        )


@dataclass(frozen=True)
class Decision:
    install: bool
    reason: str


def decide(current: Score, candidate: Score) -> Decision:
    """Install only a candidate that reads more whole hands right; on a tie, more tiles right.
    Anything else, a tie on both included, keeps the current model."""
    if (current.photos, current.tiles) != (candidate.photos, candidate.tiles):
        raise ValueError("the two scores are not on the same photos")
    hands = (
        f"whole hands right {current.hands_right} -> {candidate.hands_right} of {current.photos}"
    )
    tiles = f"tiles right {current.tiles_right} -> {candidate.tiles_right} of {current.tiles}"
    if candidate.hands_right != current.hands_right:
        better = candidate.hands_right > current.hands_right
        return Decision(better, f"{'more' if better else 'fewer'} {hands}")
    if candidate.tiles_right > current.tiles_right:
        return Decision(True, f"as many {hands}, more {tiles}")
    return Decision(False, f"no better: {hands}, {tiles}")


# --- the labelled photos ---------------------------------------------------------------------


@dataclass
class LabelledSet:
    labels_dir: Path
    photos_dir: Path
    train: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)
    held_out: list[tuple[Path, Any]] = field(default_factory=list)  # (photo, LabelledPhoto)
    skipped_proposed: int = 0


def resolve_folders(labels: Path, photos: Path | None) -> tuple[Path, Path]:
    """(photo folder, label folder) for ``--from LABELS [--photos DIR]``.

    LABELS is the label folder, its photos in ``--photos`` or else in its parent (the layout
    ``tilescore label PHOTOS`` makes: PHOTOS/labels). A photo folder given as LABELS means its
    ``labels`` folder.
    """
    from vision.labels import PHOTO_SUFFIXES

    if labels.exists() and not labels.is_dir():
        raise FineTuneError(f"label folder {str(labels)!r} is a file, not a folder")
    if not labels.is_dir():
        raise FineTuneError(f"label folder {str(labels)!r} does not exist")
    if photos is not None:
        return photos, labels
    if any(p.suffix.lower() in PHOTO_SUFFIXES for p in labels.iterdir()):
        return labels, labels / "labels"
    return labels.parent, labels


def collect_labels(
    labels: Path, photos: Path | None = None, seed: int = 0, min_held_out: int = MIN_HELD_OUT
) -> LabelledSet:
    """The finished labels (status ``done`` or none), split by photo into train and held out."""
    from datasets.label_export import split_of
    from device.labels import LabelStore
    from vision.labels import load_label

    photos_dir, labels_dir = resolve_folders(labels, photos)
    if not labels_dir.is_dir():
        raise FineTuneError(f"no labels in {str(labels_dir)!r}: label photos with tilescore label")
    store = LabelStore(photos_dir, labels_dir)
    found = LabelledSet(labels_dir, photos_dir)
    matched = 0
    for name in store.photo_names():
        label = store.load(name)
        if label is None:
            continue
        matched += 1
        if label.get("status", "done") != "done":
            found.skipped_proposed += 1
            continue
        photo = store.photo_path(name)
        # Read as evaluate reads it, in either split: a box nobody named stopped a held-out
        # photo and was dropped without a word from a training one.
        checked = load_label(store.label_path(name))
        store.check_size(name, label)  # boxes of a photo since replaced: taught on other pixels
        if split_of(photo.name, seed, HELD_OUT_SHARE) == "val":
            found.held_out.append((photo, checked))
        else:
            found.train.append((photo, label))
    files = len(list(labels_dir.glob("*.json")))
    if files and not matched:
        raise FineTuneError(
            f"the {files} labels in {str(labels_dir)!r} name no photo in {str(photos_dir)!r}: "
            "give the photo folder with --photos"
        )
    done = len(found.train) + len(found.held_out)
    if not done:
        waiting = f" ({found.skipped_proposed} proposed, not yet marked done)" * bool(matched)
        raise FineTuneError(
            f"no finished labels in {str(labels_dir)!r}{waiting}: label photos with "
            "tilescore label PHOTOS and mark them done"
        )
    if len(found.held_out) < min_held_out:
        raise FineTuneError(
            f"{done} labelled photos leave {len(found.held_out)} held out to compare the models "
            f"on (at least {min_held_out} are needed; about one photo in five is held out): "
            "label more photos, or try another --seed"
        )
    if not found.train:
        raise FineTuneError(f"all {done} labelled photos are held out: label more photos")
    return found


# --- the current model -----------------------------------------------------------------------


@dataclass(frozen=True)
class CurrentModel:
    detector_meta: Path
    classifier_meta: Path
    stem: str  # file names: STEM.json, STEM.onnx, STEM.pt
    classes: tuple[str, ...]
    imgsz: int
    pieces_meta: Path | None = None  # the folder's piece reader, which a fine-tune leaves as it is


def current_model(models_dir: Path) -> CurrentModel:
    from vision.errors import ModelError
    from vision.models import find_models, load_info

    try:
        detector_meta, classifier_meta, pieces_meta = find_models(models_dir)
        if classifier_meta is None:
            raise FineTuneError(f"{models_dir / 'default.json'} names no classifier to fine-tune")
        load_info(detector_meta)
        info = load_info(classifier_meta)
    except ModelError as error:
        raise FineTuneError(f"no current model to fine-tune: {error}") from None
    if info.task != "classify":
        raise FineTuneError(f"{classifier_meta.name} is not a classifier (task {info.task})")
    return CurrentModel(
        detector_meta,
        classifier_meta,
        classifier_meta.stem,
        tuple(c.name for c in info.classes),
        info.input_size[0],
        pieces_meta,
    )


def find_checkpoint(current: CurrentModel, given: Path | None = None) -> Path:
    """The classifier's ultralytics checkpoint: MODELS/STEM.pt, else its training run's weights.
    An ONNX file cannot be trained on."""
    if given is not None:
        if not given.is_file():
            raise FineTuneError(f"checkpoint {str(given)!r} not found")
        return given
    folder = current.classifier_meta.parent
    weights = folder / "runs" / current.stem / "weights"
    candidates = [folder / f"{current.stem}.pt", weights / "best.pt", weights / "last.pt"]
    for path in candidates:
        if path.is_file():
            return path
    raise FineTuneError(
        f"no checkpoint of {current.stem} to train on (looked for "
        f"{', '.join(str(p) for p in candidates[:2])}; an ONNX file cannot be trained): "
        "give one with --resume-from"
    )


def checkpoint_names(checkpoint: Path) -> tuple[str, ...]:
    import vision.training.offline  # noqa: F401  (before ultralytics)

    try:
        import torch

        data = torch.load(checkpoint, map_location="cpu", weights_only=False)
        model = data.get("ema") or data["model"]
        names = model.names
    except Exception as error:  # a torch or pickle error of any kind: not a checkpoint we can use
        raise FineTuneError(
            f"{str(checkpoint)!r} is not an ultralytics checkpoint ({type(error).__name__})"
        ) from None
    if isinstance(names, dict):
        return tuple(str(names[i]) for i in range(len(names)))
    return tuple(str(n) for n in names)


# --- the training data -----------------------------------------------------------------------


@dataclass(frozen=True)
class DatasetCounts:
    labelled_crops: int
    repeats: int
    synthetic_train: int
    synthetic_val: int
    skipped_classes: tuple[str, ...]

    @property
    def train_images(self) -> int:
        return self.labelled_crops * self.repeats + self.synthetic_train


def build_dataset(
    labelled: Sequence[tuple[Path, dict[str, Any]]],
    out: Path,
    classes: Sequence[str],
    synthetic: Path | None,
    per_class: int,
    seed: int = 0,
) -> DatasetCounts:
    """An ultralytics classify folder (OUT/data/train|val/CLASS) with exactly ``classes``:
    the labelled crops, repeated, plus up to ``per_class`` synthetic crops a class."""
    from datasets.label_export import export_crops

    crops_dir = out / "labelled"
    export_crops(labelled, crops_dir, seed)
    data = out / "data"
    for split in ("train", "val"):
        for name in classes:
            (data / split / name).mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    synth_train = synth_val = 0
    if synthetic is not None:
        for name in classes:
            synth_train += _sample(
                synthetic / "train" / name, data / "train" / name, per_class, rng
            )
            synth_val += _sample(
                synthetic / "val" / name, data / "val" / name, max(1, per_class // 5), rng
            )
    crops = sorted(p for split in ("train", "val") for p in (crops_dir / split).glob("*/*.jpg"))
    skipped = sorted({p.parent.name for p in crops if p.parent.name not in classes})
    crops = [p for p in crops if p.parent.name in classes]
    if not crops:
        raise FineTuneError(
            "the labelled photos outside the held-out set have no face-up tiles "
            "the classifier knows"
        )
    target = max(synth_train / 2, MIN_EPOCH_IMAGES)
    repeats = max(1, min(MAX_REPEATS, round(target / len(crops))))
    for crop in crops:
        for r in range(repeats):
            shutil.copyfile(crop, data / "train" / crop.parent.name / f"real_{r}_{crop.name}")
    if synth_val == 0:
        # Something for ultralytics to validate each epoch on; the decision is the held-out photos.
        for crop in crops:
            shutil.copyfile(crop, data / "val" / crop.parent.name / f"real_{crop.name}")
    return DatasetCounts(len(crops), repeats, synth_train, synth_val, tuple(skipped))


def _sample(source: Path, target: Path, count: int, rng: random.Random) -> int:
    if not source.is_dir():
        return 0
    files = sorted(p for p in source.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    chosen = rng.sample(files, min(count, len(files)))
    for path in chosen:
        shutil.copyfile(path, target / f"synth_{path.name}")
    return len(chosen)


# --- comparing -------------------------------------------------------------------------------


def evaluate(
    detector_meta: Path,
    classifier_meta: Path,
    held_out: Sequence[tuple[Path, Any]],
    progress: Progress | None = None,
    threads: int | None = None,
    labels_dir: Path | None = None,
    pieces_meta: Path | None = None,
) -> Any:
    """The ``vision.evaluate.Evaluation`` of one model pair on the held-out photos; a tile set
    is read with the facts ``tile_sets.json`` beside ``labels_dir`` gives it (no red fives, white
    backs), as ``tilescore evaluate`` reads it."""
    from vision.evaluate import Evaluation, match_photo
    from vision.images import load_image
    from vision.pipeline import load_pipeline
    from vision.tile_sets import beside, load_tile_sets, tile_set_named

    tile_sets = load_tile_sets(beside(labels_dir)) if labels_dir is not None else {}

    pipeline = load_pipeline(
        detector_meta=detector_meta,
        classifier_meta=classifier_meta,
        pieces_meta=pieces_meta,
        threads=threads,
    )
    results = []
    for number, (photo, label) in enumerate(held_out, 1):
        facts = tile_set_named(tile_sets, label.tile_set)
        reading = pipeline.read(load_image(photo), **facts.read_options)
        results.append(match_photo(label, reading.tiles, reading.timing_ms))
        if progress:
            progress(f"{number}/{len(held_out)} {photo.name}")
    return Evaluation(tuple(results), tuple(m.name for m in pipeline.models))


# --- installing and rolling back -------------------------------------------------------------


def model_files(folder: Path, stem: str) -> dict[str, Path]:
    return {suffix: folder / f"{stem}{suffix}" for suffix in SUFFIXES}


def empty_candidate(models_folder: Path, stem: str) -> dict[str, Path]:
    """MODELS/candidate/STEM.*, with no file of an earlier candidate left there."""
    candidate = model_files(models_folder / CANDIDATE_DIR, stem)
    candidate[".json"].parent.mkdir(parents=True, exist_ok=True)
    for path in candidate.values():
        path.unlink(missing_ok=True)
    return candidate


def install(models_folder: Path, *stems: str) -> Path:
    """Put MODELS/candidate/STEM.* in place of MODELS/STEM.* for each stem, the replaced files
    copied to MODELS/previous/ first. MODELS/previous/ holds one generation: the readers this
    install replaces, and no older file of any reader (so ``rollback`` undoes this install and
    nothing before it). Every file is replaced atomically, the metadata last, so a reader always
    finds a whole model. Returns the previous folder."""
    for stem in stems:
        candidate = model_files(models_folder / CANDIDATE_DIR, stem)
        if not candidate[".json"].is_file() or not candidate[".onnx"].is_file():
            raise FineTuneError(f"no candidate {stem} in {models_folder / CANDIDATE_DIR}")
    previous_dir = models_folder / PREVIOUS_DIR
    if (previous_dir / ROLLBACK_JOURNAL).exists():
        raise FineTuneError(
            "a rollback was stopped half way: tilescore train classifier --rollback finishes "
            "it, then install again"
        )
    previous_dir.mkdir(parents=True, exist_ok=True)
    for stem in {*stems, *_reader_stems(models_folder)}:  # one generation back
        for path in model_files(previous_dir, stem).values():
            path.unlink(missing_ok=True)
    for stem in stems:
        candidate = model_files(models_folder / CANDIDATE_DIR, stem)
        current = model_files(models_folder, stem)
        previous = model_files(previous_dir, stem)
        for suffix in SUFFIXES:
            if current[suffix].is_file():
                _copy_then_replace(current[suffix], previous[suffix])
        for suffix in SUFFIXES:
            if candidate[suffix].is_file():
                os.replace(candidate[suffix], current[suffix])
            else:
                current[suffix].unlink(missing_ok=True)  # a checkpoint of the old model only
    with contextlib.suppress(OSError):  # emptied by the install: no empty folder left behind
        (models_folder / CANDIDATE_DIR).rmdir()
    return previous_dir


def rollback(models_dir: Path) -> dict[str, Any]:
    """Swap the classifier named by default.json, and the piece reader if it names one, with
    their files in MODELS/previous/ (those the last install replaced): byte for byte, and a
    second rollback swaps them back."""
    from vision.errors import ModelError

    try:
        metas = _reader_metas(models_dir)
    except ModelError as error:
        raise FineTuneError(f"nothing to roll back: {error}") from None
    if not metas:
        raise FineTuneError(f"{models_dir / 'default.json'} names no classifier")
    journal = models_dir / PREVIOUS_DIR / ROLLBACK_JOURNAL
    # A rollback stopped half way (Ctrl-C, power) is finished first, not started over: started
    # over it swapped back what it had swapped, and a reader's two generations were lost.
    pending = _read_journal(journal)
    if pending is not None:
        kept = [meta for meta in metas if meta.stem in pending["stems"]]
        done = set(pending["done"])
    else:
        kept = [meta for meta in metas if _has_previous(meta)]
        done = set()
    if not kept:
        previous = model_files(metas[0].parent / PREVIOUS_DIR, metas[0].stem)
        raise FineTuneError(
            f"nothing to roll back to: {previous['.json']} does not exist "
            "(a fine-tune that installed a new classifier leaves the old one there)"
        )
    stems = [meta.stem for meta in kept]
    _write_json(journal, {"stems": stems, "done": sorted(done)})
    for meta in kept:
        if meta.stem not in done:
            _swap_with_previous(meta.parent, meta.stem)
            done.add(meta.stem)
            _write_json(journal, {"stems": stems, "done": sorted(done)})
        # Its step marker goes once the journal says it is swapped: gone before, a stop in
        # between would have the next rollback start its swap again.
        _aside_marker(meta.parent, meta.stem).unlink(missing_ok=True)
    journal.unlink()
    restored = json.loads(kept[0].read_text("utf-8"))
    return {
        "restored": str(kept[0]),
        "date": restored.get("date"),
        "previous": str(kept[0].parent / PREVIOUS_DIR),
        "readers": [str(meta) for meta in kept],
    }


ROLLBACK_JOURNAL = ".rollback.json"
"""In MODELS/previous/ while a rollback runs: the readers it swaps and those it has swapped."""


def _read_journal(path: Path) -> dict[str, list[str]] | None:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), list) and all(isinstance(v, str) for v in data[k])
        for k in ("stems", "done")
    ):
        return None
    return data


def _reader_metas(models_dir: Path) -> list[Path]:
    """The metadata of the classifier and the piece reader the folder's default.json names:
    none without a classifier, as a piece reader stands in for one."""
    from vision.models import find_models

    _, classifier, pieces = find_models(models_dir)
    if classifier is None:
        return []
    return [classifier] + ([pieces] if pieces is not None else [])


def _reader_stems(models_folder: Path) -> list[str]:
    """The stems of the readers the folder's default.json names, if it names any."""
    from vision.errors import ModelError

    try:
        return [meta.stem for meta in _reader_metas(models_folder)]
    except ModelError:
        return []


def _has_previous(meta: Path) -> bool:
    previous = model_files(meta.parent / PREVIOUS_DIR, meta.stem)
    return previous[".json"].is_file() and previous[".onnx"].is_file()


def _swap_with_previous(folder: Path, stem: str) -> None:
    """Swap MODELS/STEM.* with MODELS/previous/STEM.*, in steps that a second call finishes
    where the first stopped: 1. the current files are copied aside (``.swap``; then a marker
    names them), 2. each previous file is copied into place, 3. its aside copy moved into
    previous/ (a kind the current model had none of: the previous file moved in). The marker
    is left for ``rollback``."""
    current = model_files(folder, stem)
    previous = model_files(folder / PREVIOUS_DIR, stem)
    swapped = {s: previous[s].with_name(f".{previous[s].name}.swap") for s in SUFFIXES}
    marker = _aside_marker(folder, stem)
    aside = _read_aside(marker)
    if aside is None:  # step 1 not finished: nothing but the aside copies was touched
        for path in swapped.values():
            path.unlink(missing_ok=True)
        aside = [suffix for suffix in SUFFIXES if current[suffix].is_file()]
        for suffix in aside:
            _copy_then_replace(current[suffix], swapped[suffix])
        _write_json(marker, aside)
    for suffix in SUFFIXES:
        if suffix in aside:
            if not swapped[suffix].is_file():
                continue  # swapped before a stop
            if previous[suffix].is_file():
                _copy_then_replace(previous[suffix], current[suffix])
            else:
                current[suffix].unlink(missing_ok=True)
            os.replace(swapped[suffix], previous[suffix])
        elif previous[suffix].is_file():
            _copy_then_replace(previous[suffix], current[suffix])
            previous[suffix].unlink()


def _aside_marker(folder: Path, stem: str) -> Path:
    """Step 1 of a reader's swap done: the kinds of file it put aside (the rollback removes it
    once its journal says the reader is swapped)."""
    return folder / PREVIOUS_DIR / f".{stem}.aside"


def _read_aside(marker: Path) -> list[str] | None:
    """The kinds of file step 1 put aside, or None where it did not finish."""
    try:
        data = json.loads(marker.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, list) and all(s in SUFFIXES for s in data) else None


def _copy_then_replace(source: Path, target: Path) -> None:
    temporary = target.with_name(f".{target.name}.tmp")
    shutil.copy2(source, temporary)
    os.replace(temporary, target)


def _carry_runtime_facts(current_meta: Path, candidate_meta: Path) -> None:
    """The current classifier's runtime facts (``CLASSIFIER_RUNTIME_FACTS``) into the
    candidate's metadata, before both read the held-out photos: a fine-tune of it is read the
    same way, and the two are compared as they would run."""
    from vision.pipeline import CLASSIFIER_RUNTIME_FACTS

    current = json.loads(current_meta.read_text("utf-8"))
    facts = {key: current[key] for key in CLASSIFIER_RUNTIME_FACTS if key in current}
    if facts:
        _write_json(candidate_meta, json.loads(candidate_meta.read_text("utf-8")) | facts)


def _write_json(path: Path, data: Any) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    # json_text: a labels folder or command named in bytes that are not UTF-8 cannot be
    # written raw (a traceback once the training was done).
    temporary.write_text(json_text(data, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, path)


# --- the whole run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FineTuneSettings:
    labels: Path
    models_dir: Path = SHIPPED_MODELS
    photos: Path | None = None
    synthetic: Path | None = Path("datasets/build/synth/classify")
    per_class: int = 20
    epochs: int = 3
    imgsz: int | None = None  # default: the current classifier's input size
    lr0: float | None = None  # default: the classifier's training rate (vision/training/train.py)
    batch: int = 32
    device: str = "cpu"
    seed: int = 0
    checkpoint: Path | None = None
    min_held_out: int = MIN_HELD_OUT
    workers: int = 2
    threads: int | None = None


def finetune(
    settings: FineTuneSettings, command: str | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Fine-tune, compare, and install the candidate if it is better; returns the comparison."""
    say = progress or (lambda _: None)
    labelled = collect_labels(
        settings.labels, settings.photos, settings.seed, settings.min_held_out
    )
    current = current_model(settings.models_dir)
    checkpoint = find_checkpoint(current, settings.checkpoint)
    names = checkpoint_names(checkpoint)
    if set(names) != set(current.classes):
        raise FineTuneError(
            f"checkpoint {str(checkpoint)!r} has {len(names)} classes but "
            f"{current.classifier_meta.name} lists {len(current.classes)}: they are not one model"
        )
    if list(names) != sorted(names):
        raise FineTuneError(
            f"checkpoint {str(checkpoint)!r} does not list its classes in folder order: "
            "ultralytics cannot fine-tune it on class folders"
        )
    synthetic = settings.synthetic
    if synthetic is not None and not (synthetic / "train").is_dir():
        say(
            f"no synthetic data in {synthetic} (python -m datasets.synth builds it): "
            "fine-tuning on the labelled crops alone: tiles they lack may be forgotten, and "
            "ultralytics will complain of classes with no images"
        )
        synthetic = None
    if command is None:
        from vision.training.train import command_line

        command = command_line()
    folder = current.classifier_meta.parent
    with tempfile.TemporaryDirectory(prefix="tilescore-finetune-") as work:
        work_dir = Path(work)
        say(
            f"1/3 cutting the tiles of {len(labelled.train)} labelled photos "
            f"({len(labelled.held_out)} held out to compare on)"
        )
        counts = build_dataset(
            labelled.train, work_dir, names, synthetic, settings.per_class, settings.seed
        )
        say(
            f"2/3 fine-tuning {current.stem} for {settings.epochs} "
            f"epoch{'s' * (settings.epochs != 1)} on "
            f"{counts.labelled_crops} labelled crops x{counts.repeats} + "
            f"{counts.synthetic_train} synthetic"
        )
        trained_meta = _train(settings, current, checkpoint, work_dir, command)
        candidate = empty_candidate(folder, current.stem)
        from vision.training.train import _save_checkpoint

        run_weights = work_dir / "out" / "runs" / current.stem / "weights"
        best = (
            run_weights / "best.pt"
            if (run_weights / "best.pt").exists()
            else run_weights / "last.pt"
        )
        _save_checkpoint(best, candidate[".pt"])
        # The work folder may be on another file system: move, not rename.
        shutil.move(trained_meta.with_suffix(".onnx"), candidate[".onnx"])
        for suffix in (MEASURE_SUFFIX, FOLDED_SUFFIX):  # made at export: --adapt without torch
            made = trained_meta.with_name(f"{current.stem}{suffix}")
            if made.is_file():
                shutil.move(made, candidate[suffix])
        shutil.move(trained_meta, candidate[".json"])
        _carry_runtime_facts(current.classifier_meta, candidate[".json"])
    say(f"3/3 reading the {len(labelled.held_out)} held-out photos with both classifiers")
    scores = []
    for name, meta in (("current", current.classifier_meta), ("new", candidate[".json"])):

        def tell(line: str, name: str = name) -> None:
            say(f"\r    {name}: {line}")

        evaluation = evaluate(
            current.detector_meta,
            meta,
            labelled.held_out,
            tell,
            settings.threads,
            labelled.labels_dir,
            current.pieces_meta,
        )
        scores.append(Score.of(evaluation))
    before, after = scores
    decision = decide(before, after)
    report: dict[str, Any] = {
        "labels": str(labelled.labels_dir),
        "photos": {
            "train": len(labelled.train),
            "held_out": [p.name for p, _ in labelled.held_out],
            "skipped_proposed": labelled.skipped_proposed,
        },
        "crops": {
            "labelled": counts.labelled_crops,
            "repeats": counts.repeats,
            "synthetic": counts.synthetic_train,
            "synthetic_data": str(synthetic) if synthetic else None,
            "classes_the_model_lacks": list(counts.skipped_classes),
        },
        "started_from": str(checkpoint),
        "current": before.to_json(),
        "candidate": after.to_json(),
        "installed": decision.install,
        "reason": decision.reason,
    }
    meta = json.loads(candidate[".json"].read_text("utf-8"))
    meta["training"]["data"] = f"{len(labelled.train)} labelled photos in {labelled.labels_dir}" + (
        f" + {counts.synthetic_train} crops of {synthetic}" if synthetic else ""
    )
    meta["training"]["started_from"] = str(checkpoint)
    meta.setdefault("metrics", {})["held_out_labels"] = after.to_json()
    meta["fine_tune"] = {k: v for k, v in report.items() if k != "installed"} | {
        "decision": "installed" if decision.install else "kept the current model"
    }
    _write_json(candidate[".json"], meta)
    if decision.install:
        report["previous"] = str(install(folder, current.stem))
        report["model"] = str(current.classifier_meta)
    else:
        report["candidate_model"] = str(candidate[".json"])
    return report


def _train(
    settings: FineTuneSettings, current: CurrentModel, checkpoint: Path, work: Path, command: str
) -> Path:
    from vision.training.train import TrainSettings, train

    train_settings = TrainSettings(
        task="classify",
        data=work / "data",
        out_dir=work / "out",
        name=current.stem,
        epochs=settings.epochs,
        imgsz=settings.imgsz or current.imgsz,
        batch=settings.batch,
        device=settings.device,
        start_from=checkpoint,
        lr0=settings.lr0,
        workers=settings.workers,
    )
    with chatter_to_stderr():
        return train(train_settings, command)


@contextlib.contextmanager
def chatter_to_stderr() -> Iterator[None]:
    """ultralytics logs and draws its progress bars on stdout; keep stdout for our report."""
    import importlib

    import vision.training.offline  # noqa: F401  (before ultralytics)

    LOGGER = importlib.import_module("ultralytics.utils").LOGGER
    handlers = [
        h
        for h in LOGGER.handlers
        if isinstance(h, logging.StreamHandler) and h.stream in (sys.stdout, sys.__stdout__)
    ]
    old = [h.setStream(sys.stderr) for h in handlers]
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        for handler, stream in zip(handlers, old, strict=True):
            handler.setStream(stream)


def format_report(report: dict[str, Any]) -> str:
    current, candidate = report["current"], report["candidate"]
    lines = [
        f"held-out photos: {current['photos']} ({current['tiles']} tiles)",
        f"{'':<12}{'tiles right':>18}{'whole hands right':>22}",
    ]
    for name, score in (("current", current), ("new", candidate)):
        tiles = f"{score['tiles_right']}/{score['tiles']} {score['tile_accuracy']:6.1%}"
        hands = f"{score['hands_right']}/{score['photos']} {score['photo_accuracy']:6.1%}"
        lines.append(f"{name:<12}{tiles:>18}{hands:>22}")
    if report["installed"]:
        lines.append(
            f"installed the new classifier ({report['reason']}); the old one is in "
            f"{report['previous']}: tilescore train classifier --rollback puts it back"
        )
    else:
        lines.append(
            f"kept the current classifier ({report['reason']}); the new one is in "
            f"{report['candidate_model']}"
        )
    return "\n".join(lines)
