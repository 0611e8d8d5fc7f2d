"""``tilescore train detector|classifier``: ultralytics on CPU (or a GPU), exported to ONNX.

``tilescore train classifier --from LABELS`` fine-tunes the current classifier on labelled photos
and installs it only if it reads the held-out ones better; ``--rollback`` puts the old one back
(vision/training/finetune.py).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

from scoring.cli import write_json
from scoring.errors import TilescoreError
from vision.folders import check_writable
from vision.models import SHIPPED_MODELS


class Defaults(TypedDict):
    """What a model trains on when the command line does not say."""

    data: str
    imgsz: int
    epochs: int
    batch: int
    name: str


DEFAULTS: dict[str, Defaults] = {
    "detector": {
        "data": "datasets/build/synth/detect/data.yaml",
        "imgsz": 640,
        "epochs": 30,
        "batch": 16,
        "name": "tile-detector",
    },
    "classifier": {
        "data": "datasets/build/synth/classify",
        "imgsz": 96,
        "epochs": 20,
        "batch": 64,
        "name": "tile-classifier",
    },
    "baseline": {
        "data": "datasets/build/synth/detect-codes/data.yaml",
        "imgsz": 640,
        "epochs": 30,
        "batch": 16,
        "name": "baseline-single-stage",
    },
}


def _at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number, ``least`` or more."""

    def whole(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if number < least:
            raise argparse.ArgumentTypeError(f"must be {least} or more, not {number}")
        return number

    return whole


counting = _at_least(1)
"""A count: 0 epochs, a batch of 0 or an input of -32 pixels trained for the default or failed
after minutes, in ultralytics' traceback."""
not_negative = _at_least(0)
"""A count that may be none (data-loading workers: 0 loads in the training process)."""


def positive(text: str) -> float:
    """A rate or a time argparse takes: a number more than 0."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (number > 0 and math.isfinite(number)):
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return number


def share(text: str) -> float:
    """A share of the data: more than 0, at most 1."""
    number = positive(text)
    if number > 1:
        raise argparse.ArgumentTypeError(f"must be at most 1 (all the data), not {text}")
    return number


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", choices=sorted(DEFAULTS), help="which model to train")
    parser.add_argument("--data", help="dataset (YOLO data.yaml, or a classify folder)")
    parser.add_argument("--epochs", type=counting)
    parser.add_argument("--imgsz", type=counting)
    parser.add_argument("--batch", type=counting)
    parser.add_argument("--device", default="cpu", help="cpu, or a GPU index such as 0")
    parser.add_argument("--resume-from", type=Path, help="checkpoint to train on from")
    parser.add_argument(
        "--hours", type=positive, help="train for this long (epochs are fitted to it)"
    )
    parser.add_argument("--workers", type=not_negative, default=2, help="data-loading processes")
    parser.add_argument("--cache", action="store_true", help="keep decoded images in RAM")
    parser.add_argument("--fraction", type=share, default=1.0, help="share of the data to use")
    parser.add_argument(
        "--lr0",
        type=positive,
        metavar="RATE",
        help="starting learning rate (AdamW); default 0.002 for the classifier, 0.001 for the "
        "detector, 0.0005 for a detector trained on from a checkpoint",
    )
    parser.add_argument(
        "--no-mosaic",
        dest="mosaic",
        action="store_false",
        help="detector: train on whole scenes, not mosaics of four (ultralytics' close_mosaic, "
        "for a run that continues a checkpoint)",
    )
    parser.add_argument(
        "--save-period",
        type=counting,
        metavar="N",
        help="also keep the weights every N epochs (runs/NAME/weights/epochN.pt), to compare or "
        "average (--soup) later",
    )
    parser.add_argument(
        "--out", "--models", dest="out", type=Path, default=SHIPPED_MODELS, help="model folder"
    )
    parser.add_argument("--name", help="model name (file names in --out)")
    parser.add_argument(
        "--no-int8",
        dest="int8",
        action="store_false",
        help="detector: leave out the int8 copy the second look runs (NAME.int8.onnx, calibrated "
        "on the data's validation scenes); both looks then run the float detector",
    )
    parser.add_argument("--json", action="store_true", help="print the metadata as JSON")
    soup = parser.add_argument_group(
        "a model soup",
        "With --soup, the checkpoints' weights are averaged into one model, exported like a "
        "trained one to --out; --data, when given, is the validation data to measure it on, and "
        "--imgsz defaults to the first checkpoint's.",
    )
    soup.add_argument(
        "--soup",
        nargs="+",
        type=Path,
        metavar="CHECKPOINT",
        help="checkpoints of this model (fine-tunes of one checkpoint) to average",
    )
    soup.add_argument(
        "--weights",
        nargs="+",
        type=float,
        metavar="W",
        help="one weight a checkpoint (default: all equal)",
    )
    tune = parser.add_argument_group(
        "teaching the classifier your tile set",
        "With --from, --data is the synthetic classify data mixed in, --resume-from overrides "
        "the checkpoint, and --epochs defaults to 3; the new classifier is installed only if it "
        "reads more held-out hands right. --adapt needs no labels and trains no weight: it "
        "measures the classifier's BatchNorm statistics on your photos' tiles (seconds), and "
        "installs the result. --rollback undoes either.",
    )
    tune.add_argument(
        "--from",
        dest="from_labels",
        type=Path,
        metavar="LABELS",
        help="label folder (tilescore label writes PHOTOS/labels) to fine-tune on",
    )
    tune.add_argument(
        "--photos", type=Path, metavar="DIR", help="the labelled photos (default: LABELS/..)"
    )
    tune.add_argument(
        "--per-class", type=counting, default=20, metavar="N", help="synthetic crops per class"
    )
    tune.add_argument("--seed", type=int, default=0, help="held-out split seed (as label --seed)")
    tune.add_argument(
        "--adapt",
        nargs="+",
        type=Path,
        metavar="PHOTO",
        help="photos (or folders) of your tile set, unlabelled: measure the classifier's "
        "statistics on the tiles in them and install the adapted classifier",
    )
    tune.add_argument(
        "--rollback",
        action="store_true",
        help="swap the classifier (and the piece reader) with the ones the last fine-tune or "
        "adaptation replaced",
    )


def run(args: argparse.Namespace) -> int:
    if not args.int8 and args.model != "detector":
        raise TilescoreError("--no-int8 is for the detector: only its second look runs in int8")
    if args.soup is not None:
        return _soup(args)
    if args.weights is not None:
        raise TilescoreError("--weights goes with --soup")
    if args.adapt is not None:
        return _adapt(args)
    if args.rollback or args.from_labels is not None:
        return _finetune(args)
    defaults = DEFAULTS[args.model]
    data = Path(args.data or defaults["data"])
    if not data.exists():
        raise TilescoreError(
            f"training data {str(data)!r} not found: build it with python -m datasets.synth"
        )
    if args.resume_from is not None and not args.resume_from.exists():
        raise TilescoreError(f"checkpoint {str(args.resume_from)!r} not found")
    if not args.mosaic and args.model != "detector":
        raise TilescoreError("--no-mosaic is for the detector: the classifier learns on crops")
    _check_data_kind(data, args.model)
    _check_device(args.device)
    check_writable(args.out, "the models folder")
    from vision.training.train import TrainSettings, command_line, train

    settings = TrainSettings(
        task="classify" if args.model == "classifier" else "detect",
        data=data,
        out_dir=args.out,
        name=args.name or defaults["name"],
        epochs=args.epochs or defaults["epochs"],
        imgsz=args.imgsz or defaults["imgsz"],
        batch=args.batch or defaults["batch"],
        device=args.device,
        start_from=args.resume_from,
        fraction=args.fraction,
        workers=args.workers,
        hours=args.hours,
        cache=args.cache,
        lr0=args.lr0,
        mosaic=args.mosaic,
        save_period=args.save_period,
    )
    from vision.training.finetune import chatter_to_stderr

    with chatter_to_stderr():  # stdout is for the result alone (--json)
        meta = train(settings, command_line())
    _second_look(args, meta, data)
    _report_shipped(meta, args.json)
    return 0


def _check_data_kind(data: Path, model: str) -> None:
    """A detector learns from a YOLO data.yaml, a classifier from a folder of class folders:
    the other kind would fail inside ultralytics, in a page of its traceback."""
    if model == "classifier":
        # ultralytics validates on val/, else validation/ or valid/ (a Roboflow export's).
        given = [name for name in VALIDATION_FOLDERS if (data / name).is_dir()]
        for split in ("train", given[0] if given else "val"):
            folder = data / split
            classes = (
                sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
            )
            if not classes:
                raise TilescoreError(
                    f"training data {str(data)!r}: a classifier trains on a folder with train/ "
                    f"and val/ holding a folder a class ({split}/ holds none)"
                )
            _check_class_names(data, "classify", classes, f" (a folder in {split}/)")
    elif not data.is_file() or data.suffix not in (".yaml", ".yml"):
        raise TilescoreError(
            f"training data {str(data)!r}: a {model} trains on a YOLO data.yaml file"
        )
    else:
        _check_data_yaml(data)


VALIDATION_FOLDERS = ("val", "validation", "valid")
"""The names ultralytics takes for a classify build's validation split, in its order."""


def _check_data_yaml(data: Path) -> None:
    """A data.yaml that names its train and val images and classes, where they are: ultralytics
    finds any other fault only after loading torch, in a page of traceback."""
    import yaml  # type: ignore[import-untyped]  # ultralytics brings it; no stubs installed

    try:
        spec = yaml.safe_load(data.read_text("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, OSError):
        raise TilescoreError(f"training data {str(data)!r} is not YAML text") from None
    if not isinstance(spec, dict) or not {"train", "val", "names"} <= spec.keys():
        raise TilescoreError(
            f"training data {str(data)!r} must name train:, val: and names: (a YOLO data.yaml)"
        )
    names = spec["names"]
    names = list(names.values()) if isinstance(names, dict) else names
    if not isinstance(names, list) or not names:
        raise TilescoreError(f"training data {str(data)!r}: names: must list the classes")
    _check_class_names(data, "detect", [str(n) for n in names], "")
    root = Path(str(spec.get("path") or data.parent))
    root = root if root.is_absolute() else data.parent / root
    for split in ("train", "val"):
        # One folder, or a list of them (a merged build's, datasets.synth.merge).
        given = spec[split] if isinstance(spec[split], list) else [spec[split]]
        for entry in given:
            images = root / str(entry)
            if not images.exists():
                raise TilescoreError(
                    f"training data {str(data)!r}: its {split} images {images} are not there"
                )
            _check_box_labels(data, images, len(names))


def _check_box_labels(data: Path, images: Path, classes: int) -> None:
    """The box labels beside a folder of images (ultralytics reads .../images/x.jpg's boxes
    from .../labels/x.txt) name classes the data.yaml has: a class past them failed inside
    ultralytics' data loading, in a traceback."""
    parts = images.parts
    if not images.is_dir() or "images" not in parts:
        return  # a list file, or a layout ultralytics reads some other way: its own checks
    at = len(parts) - 1 - parts[::-1].index("images")
    labels = Path(*parts[:at], "labels", *parts[at + 1 :])
    if not labels.is_dir():
        raise TilescoreError(f"training data {str(data)!r}: no box labels folder {labels}")
    for path in labels.glob("*.txt"):
        for number, line in enumerate(path.read_text("utf-8", "replace").splitlines(), 1):
            first = line.split(maxsplit=1)[0] if line.strip() else ""
            if first and not (first.isdigit() and int(first) < classes):
                raise TilescoreError(
                    f"training data {str(data)!r}: {path.name} line {number} names class "
                    f"{first!r}; the data.yaml has {classes} (0 to {classes - 1})"
                )


def _check_device(device: str) -> None:
    """GPU indices (0, or 0,1) this machine has: ultralytics finds a missing one after loading
    torch and the data, in its own traceback. Its other words for a device (cpu, cuda:0, mps,
    -1 for an idle GPU) are its own to check."""
    indices = device.split(",")
    if not all(i.strip().isdigit() for i in indices):
        return
    import torch

    count = torch.cuda.device_count()
    missing = [i.strip() for i in indices if int(i) >= count]
    if missing:
        raise TilescoreError(
            f"--device {device}: no GPU {missing[0]} here ({count} GPU{'s' if count != 1 else ''}"
            "; --device cpu trains on the processor)"
        )


def _check_models_writable(models: Path) -> None:
    """A fine-tune, an adaptation or a rollback writes the models folder and its previous/."""
    from vision.training.finetune import PREVIOUS_DIR

    check_writable(models, "the models folder")
    if (models / PREVIOUS_DIR).exists():
        check_writable(models / PREVIOUS_DIR, "the folder of previous models")


def _check_class_names(data: Path, task: str, names: list[str], where: str) -> None:
    """Each class a model would learn is one its metadata can name (a tile code, or one of the
    detector's or classifier's own classes): one that is not failed only after the whole run,
    its exported model already in place of the one shipped."""
    from vision.training.train import class_entry

    for name in names:
        try:
            class_entry(task, name)
        except TilescoreError:
            raise TilescoreError(
                f"training data {str(data)!r}: class {name!r}{where} is no tile code nor one of "
                "the model's own classes"
            ) from None


def _second_look(args: argparse.Namespace, meta: Path, data: Path | None) -> None:
    """A trained or averaged detector gets its int8 copy for the second look (half the time of a
    look on a CPU). Failing that, the float detector stands, whole, and one line says why."""
    if args.model != "detector" or not args.int8:
        return
    from vision.training.quantize import quantize_trained

    print("quantizing the detector for its second look (int8)", file=sys.stderr)
    try:
        quantize_trained(meta, data)
    except ImportError as error:  # onnx: the train extra
        print(
            f"warning: the second look stays in float: {error.name or error} is not installed",
            file=sys.stderr,
        )
    except TilescoreError as error:  # no scenes, an unreadable scene, a file that is no detector
        print(f"warning: the second look stays in float: {error}", file=sys.stderr)
    except Exception as error:  # onnxruntime's quantizer raises its own types
        # The trained detector is written and whole: a warning, not a traceback, loses nothing.
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        print(
            f"warning: the second look stays in float: quantizing failed: {first}", file=sys.stderr
        )


def _report_shipped(meta: Path, as_json: bool, how: str = "") -> None:
    """--json: the metadata as written; else one line naming the files and what they measured."""
    text = meta.read_text()
    if as_json:
        print(text)
        return
    info = json.loads(text)
    measured = info["metrics"].get("synthetic_val", "not measured (no --data)")
    print(f"shipped {info['onnx']} and {meta.name}{how}: {measured}")


class StageLines:
    """Progress on stderr: stage lines, and counting lines (starting with a carriage return)
    that overwrite each other until the next stage line."""

    def __init__(self) -> None:
        self.counting = False

    def __call__(self, line: str) -> None:
        if line.startswith("\r"):
            print(f"{line}\033[K", end="", file=sys.stderr, flush=True)
            self.counting = True
            return
        self.end()
        print(line, file=sys.stderr, flush=True)

    def end(self) -> None:
        """Close a counting line."""
        if self.counting:
            print(file=sys.stderr, flush=True)
            self.counting = False


def _finetune(args: argparse.Namespace) -> int:
    from vision.training import finetune

    if args.model != "classifier":
        raise TilescoreError(
            "--from and --rollback are for the classifier: tilescore train classifier"
        )
    _check_models_writable(args.out)
    if args.rollback:
        if args.from_labels is not None:
            raise TilescoreError("--rollback and --from do not go together")
        result = finetune.rollback(args.out)
        if args.json:
            write_json(result)
        else:
            for restored in result["readers"]:
                print(f"restored {restored}")
            print(f"(from {result['date']}); the files they replaced are in {result['previous']}")
        return 0
    if args.name:
        raise TilescoreError("--name does not go with --from: default.json names the classifier")
    _check_device(args.device)

    progress = StageLines()
    settings = finetune.FineTuneSettings(
        labels=args.from_labels,
        models_dir=args.out,
        photos=args.photos,
        synthetic=Path(args.data or DEFAULTS["classifier"]["data"]),
        per_class=args.per_class,
        epochs=args.epochs or 3,
        imgsz=args.imgsz,
        lr0=args.lr0,
        batch=args.batch or 32,
        device=args.device,
        seed=args.seed,
        checkpoint=args.resume_from,
    )
    try:
        report = finetune.finetune(settings, None, progress)
    finally:
        progress.end()  # an error's line starts a line of its own
    _print_report(report, args.json, finetune.format_report)
    return 0


def _adapt(args: argparse.Namespace) -> int:
    from vision.training import adapt
    from vision.training.finetune import CANDIDATE_DIR

    if args.model != "classifier":
        raise TilescoreError("--adapt is for the classifier: tilescore train classifier --adapt")
    if args.rollback or args.from_labels is not None or args.soup is not None:
        raise TilescoreError("--adapt does not go with --from, --rollback or --soup")
    if args.name:
        raise TilescoreError("--name does not go with --adapt: default.json names the classifier")
    _check_models_writable(args.out)

    progress = StageLines()
    settings = adapt.AdaptSettings(
        photos=tuple(args.adapt), models_dir=args.out, checkpoint=args.resume_from
    )
    try:
        # stdout is for the result alone (--json). Not chatter_to_stderr: that imports
        # ultralytics, and adapting runs where only onnxruntime is (a Raspberry Pi).
        with contextlib.redirect_stdout(sys.stderr):
            report = adapt.adapt(settings, None, progress)
    except TilescoreError:
        # The candidate folder is made before the photos are read; a failed adaptation leaves
        # no empty folder behind (a fine-tune's candidate kept there to look at stays).
        with contextlib.suppress(OSError):
            (args.out / CANDIDATE_DIR).rmdir()
        raise
    finally:
        progress.end()  # an error's line starts a line of its own
    _print_report(report, args.json, adapt.format_report)
    return 0


def _print_report(
    report: dict[str, Any], as_json: bool, format_report: Callable[[dict[str, Any]], str]
) -> None:
    """A fine-tune's or an adaptation's report on stdout. Its photo, label and folder names may
    hold bytes that are not UTF-8 (lone surrogates in Python): the JSON escapes them
    (scoring.cli.write_json) and the text is printed as ``detect`` prints names, stdout escaping
    what it cannot carry (device.cli)."""
    if as_json:
        write_json(report)
    else:
        print(format_report(report))


def _soup(args: argparse.Namespace) -> int:
    if args.rollback or args.from_labels is not None or args.resume_from is not None:
        raise TilescoreError("--soup does not go with --from, --rollback or --resume-from")
    from vision.training.soup import make_soup, soup_settings

    settings = soup_settings(
        checkpoints=args.soup,
        weights=args.weights,
        task="classify" if args.model == "classifier" else "detect",
        out_dir=args.out,
        name=args.name or str(DEFAULTS[args.model]["name"]),
        imgsz=args.imgsz,
        data=Path(args.data) if args.data else None,
    )
    if settings.data is not None:  # of the model's kind, or ultralytics fails in a traceback
        _check_data_kind(settings.data, args.model)
    check_writable(args.out, "the models folder")
    from vision.training.finetune import chatter_to_stderr
    from vision.training.train import command_line  # torch: once the settings hold

    with chatter_to_stderr():  # stdout is for the result alone (--json)
        meta = make_soup(settings, command_line())
    _second_look(args, meta, settings.data)
    _report_shipped(meta, args.json, f", the average of {len(settings.checkpoints)} checkpoints")
    return 0
