"""How much a classifier leans on the ink's colour: its crops read as they are and in grey.

    PYTHONPATH=. python benchmarks/colour_reliance.py [CLASSIFIER_JSON...]
        [--crops datasets/build/all2526k/classify/val] [--per-class 200]
        [--labels datasets/real/labels] [--photos ../shared/data/real-photos-unlabeled]

Only the tiles a grey crop still names are counted (datasets/synth/merge.py
``grey_crop_classes``: not the fives, whose red may be what makes them red fives, nor the blank
白 and the back, nor xiangqi pieces). Two sources: the synthetic validation crops of a build
(``--crops``, at most ``--per-class`` a class), and the real photos' labelled tiles cut from
their labelled boxes as the pipeline cuts them. A classifier that reads its own validation 9s in
colour and not in grey tells the 9s from the 6s by the red of the middle column, not by the
three rows, and a set that inks its bamboo otherwise (or a warm lamp) defeats it: session 23
found the shipped one did (docs/training.md).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets.synth.merge import grey_crop_classes, to_grey  # noqa: E402
from vision.crops import crop_upright, to_batch  # noqa: E402
from vision.images import load_image, load_photo  # noqa: E402
from vision.labels import find_photo, load_labels  # noqa: E402
from vision.models import OnnxModel, load_info  # noqa: E402

Sample = tuple[str, np.ndarray]  # the class the crop shows, the crop (BGR, the classifier's size)


def synthetic_samples(folder: Path, per_class: int, size: tuple[int, int]) -> list[Sample]:
    samples = []
    for label in sorted(grey_crop_classes()):
        for path in sorted((folder / label).glob("*.jpg"))[:per_class]:
            crop = cv2.resize(load_image(path), (size[1], size[0]), interpolation=cv2.INTER_AREA)
            samples.append((label, crop))
    return samples


def real_samples(labels: Path, photos: Path, size: tuple[int, int]) -> list[Sample]:
    samples = []
    greyable = grey_crop_classes()
    for label in load_labels(labels):
        photo = None
        for tile in label.tiles:
            if tile.face_down or tile.code not in greyable:
                continue
            photo = photo if photo is not None else load_photo(find_photo(label, photos)).pixels
            samples.append((tile.code, crop_upright(photo, tile.box, tile.rotated, size)))
    return samples


def reads(model: OnnxModel, crops: list[np.ndarray]) -> list[str]:
    names = [c.code or c.name for c in model.info.classes]
    out: list[str] = []
    for start in range(0, len(crops), 256):
        batch = to_batch(crops[start : start + 256], model.info.scale, model.info.channel_order)
        out += [names[i] for i in model.run(batch).argmax(axis=1)]
    return out


def rates(samples: list[Sample], read: list[str]) -> Counter[str]:
    right: Counter[str] = Counter()
    for (label, _), got in zip(samples, read, strict=True):
        right[label] += got == label
    return right


def report(title: str, samples: list[Sample], models: list[OnnxModel], paths: list[Path]) -> None:
    """One source's two tables: each classifier's rates as taken and in grey, then the tiles the
    first classifier loses most in grey, each classifier's rates beside."""
    counts = Counter(label for label, _ in samples)
    print(f"### {title} ({len(samples)} crops of {len(counts)} tiles a grey crop still names)\n")
    results = []
    for model in models:
        as_taken = rates(samples, reads(model, [crop for _, crop in samples]))
        in_grey = rates(samples, reads(model, [to_grey(crop) for _, crop in samples]))
        results.append((as_taken, in_grey))
    print("| classifier | right as taken | right in grey |\n|---|---|---|")
    for path, (as_taken, in_grey) in zip(paths, results, strict=True):
        taken, greyed = sum(as_taken.values()) / len(samples), sum(in_grey.values()) / len(samples)
        print(f"| {path} | {taken:.1%} | {greyed:.1%} |")
    first_taken, first_grey = results[0]
    drop = sorted(counts, key=lambda code: (first_grey[code] - first_taken[code]) / counts[code])
    heads = " | ".join(f"{path.parent.name}: taken, grey" for path in paths)  # its folder
    print(f"\n| tile (crops) | {heads} |\n|---|" + "---|" * len(paths))
    for code in drop[:8]:
        cells = [f"{a[code] / counts[code]:.0%}, {g[code] / counts[code]:.0%}" for a, g in results]
        print(f"| {code} ({counts[code]}) | " + " | ".join(cells) + " |")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "classifiers", type=Path, nargs="*", default=[ROOT / "models/tile-classifier.json"]
    )
    parser.add_argument("--crops", type=Path, default=ROOT / "datasets/build/all2526k/classify/val")
    parser.add_argument("--per-class", type=int, default=200)
    parser.add_argument("--labels", type=Path, default=ROOT / "datasets/real/labels")
    parser.add_argument(
        "--photos", type=Path, default=ROOT.parent / "shared/data/real-photos-unlabeled"
    )
    args = parser.parse_args()
    models = [OnnxModel(load_info(path)) for path in args.classifiers]
    size = models[0].info.input_size
    sources = []
    if args.crops.is_dir():
        synthetic = synthetic_samples(args.crops, args.per_class, size)
        sources.append(("synthetic validation crops", synthetic))
    if args.labels.is_dir() and args.photos.is_dir():
        sources.append(
            ("real photos, labelled boxes", real_samples(args.labels, args.photos, size))
        )
    if not sources:
        print("error: neither --crops nor --labels/--photos is there to read", file=sys.stderr)
        return 2
    for title, samples in sources:
        report(title, samples, models, args.classifiers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
