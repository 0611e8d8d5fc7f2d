"""``tilescore train detector|classifier``: ultralytics on CPU (or a GPU), exported to ONNX."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scoring.errors import TilescoreError

DEFAULTS = {
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


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", choices=sorted(DEFAULTS), help="which model to train")
    parser.add_argument("--data", help="dataset (YOLO data.yaml, or a classify folder)")
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--imgsz", type=int)
    parser.add_argument("--batch", type=int)
    parser.add_argument("--device", default="cpu", help="cpu, or a GPU index such as 0")
    parser.add_argument("--resume-from", type=Path, help="checkpoint to train on from")
    parser.add_argument("--fraction", type=float, default=1.0, help="share of the data to use")
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--name", help="model name (file names in --out)")
    parser.add_argument("--json", action="store_true", help="print the metadata as JSON")


def run(args: argparse.Namespace) -> int:
    defaults = DEFAULTS[args.model]
    data = Path(args.data or defaults["data"])
    if not data.exists():
        raise TilescoreError(
            f"training data {str(data)!r} not found: build it with python -m datasets.synth"
        )
    if args.resume_from is not None and not args.resume_from.exists():
        raise TilescoreError(f"checkpoint {str(args.resume_from)!r} not found")
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
    )
    meta = train(settings, command_line())
    if args.json:
        print(meta.read_text())
    else:
        info = json.loads(meta.read_text())
        print(f"shipped {info['onnx']} and {meta.name}: {info['metrics']['synthetic_val']}")
    return 0
