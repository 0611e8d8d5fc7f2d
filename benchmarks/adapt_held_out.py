"""What adapting the classifier to unlabelled photos of a set gains, on photos held out from it.

    PYTHONPATH=. python benchmarks/adapt_held_out.py [--models models]
        [--labels datasets/real/labels] [--photos ../shared/data/real-photos-unlabeled]
        [--seeds 0 1 2 3 4 5] [--share 0.2] [--draws 4 --sizes 2 3 5 8]

For each split, ``tilescore train classifier --adapt`` (vision/training/adapt.py) runs on a copy
of the models with one part of the photos, unlabelled; the labels of the other part then judge
the adapted pair against the models as they were. The splits: the even photos adapt and the odd
are read, and the other way round (the halves the other benchmarks use), then the held-out
splits ``train classifier --from --seed N`` compares on (about one photo in five held out), so
the two ways of teaching a set can be set side by side (docs/training.md). With ``--draws N``, a
last table adapts on a few photos only: N random draws of each size from each half, each read
on the other half, as a table that has taken only a few photos would. Tile-set facts come from
tile_sets.json beside the labels, as ``tilescore evaluate`` reads them.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import add_photo_arguments, labelled_photos  # noqa: E402
from datasets.label_export import split_of  # noqa: E402
from vision.detection import Detection  # noqa: E402
from vision.evaluate import Evaluation, match_photo  # noqa: E402
from vision.labels import LabelledPhoto, find_photo  # noqa: E402
from vision.pipeline import TilePipeline, load_pipeline  # noqa: E402
from vision.training.adapt import SHARE, AdaptError, AdaptSettings, adapt  # noqa: E402
from vision.training.finetune import HELD_OUT_SHARE  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2, 3, 4, 5])
    parser.add_argument("--share", type=float, default=SHARE)
    parser.add_argument("--draws", type=int, default=0, help="draws of a few photos each")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 5, 8])
    add_photo_arguments(parser)
    args = parser.parse_args()
    labels, photos = labelled_photos(args.labels, args.photos)
    count = len(labels)
    splits = [
        ("even photos adapt", [i for i in range(count) if i % 2 == 0]),
        ("odd photos adapt", [i for i in range(count) if i % 2 == 1]),
    ]
    for seed in args.seeds:
        held = {
            i
            for i, label in enumerate(labels)
            if split_of(label.image, seed, HELD_OUT_SHARE) == "val"
        }
        splits.append((f"--from --seed {seed} split", [i for i in range(count) if i not in held]))
    before = read(load_pipeline(args.models), photos)
    print("held out: photos the adaptation did not see; tiles right, photos whole, extra boxes")
    print(
        f"{'split':>24} | {'adapted on':>10} | {'share':>5} | {'held out':>8} | "
        f"{'tiles right':>15} | {'whole photos':>12} | {'extra boxes':>11}"
    )
    totals = [0, 0, 0, 0, 0, 0, 0]
    for name, adapt_on in splits:
        held_out = [i for i in range(count) if i not in adapt_on]
        report, after = adapted_reads(args, labels, photos, adapt_on, held_out)
        old = score([labels[i] for i in held_out], [before[i] for i in held_out])
        new = score([labels[i] for i in held_out], [after[i] for i in held_out])
        totals = [t + v for t, v in zip(totals, (*old, *new[1:]), strict=True)]
        print(
            f"{name:>24} | {len(adapt_on):>3} photos | {report['share']:>5.2f} | "
            f"{len(held_out):>8} | {old[1]:>3} -> {new[1]:>3} of {old[0]:>3} | "
            f"{old[2]:>5} -> {new[2]:<4} | {old[3]:>4} -> {new[3]:<4}",
            flush=True,
        )
        if name == "odd photos adapt":  # the halves: one total; the seeds' splits: another
            halves, totals = totals, [0] * 7
            print(total_line("both halves", halves))
    if args.seeds:
        print(total_line("the --from splits", totals))
    if args.draws:
        print_draws(args, labels, photos, before)
    return 0


def adapted_reads(
    args: argparse.Namespace,
    labels: list[LabelledPhoto],
    photos: Sequence[tuple],  # type: ignore[type-arg]
    adapt_on: Sequence[int],
    held_out: Sequence[int],
) -> tuple[dict, list[tuple[Detection, ...]]]:  # type: ignore[type-arg]
    """``train classifier --adapt`` on a copy of the models with the ``adapt_on`` photos; the
    adapted pair's reads of the ``held_out`` photos (the others' places left empty)."""
    sources = [find_photo(labels[i], args.photos) for i in adapt_on]
    with adapted_models(args.models, sources, args.share, "benchmarks/adapt_held_out.py") as (
        report,
        models,
    ):
        pipeline = load_pipeline(models)
        after: list[tuple[Detection, ...]] = [() for _ in photos]
        for i in held_out:
            image, facts = photos[i]
            after[i] = pipeline.read(image, **facts.read_options).tiles
    return report, after


@contextlib.contextmanager
def adapted_models(
    models: Path, photos: Sequence[Path], share: float, command: str
) -> Iterator[tuple[dict, Path]]:  # type: ignore[type-arg]
    """``train classifier --adapt`` on a throwaway copy of ``models`` with ``photos`` (linked
    into a folder of their own): the report, and the adapted copy's folder while it lasts."""
    with tempfile.TemporaryDirectory(prefix="adapt-bench-") as folder:
        work = Path(folder)
        copy = work / "models"
        shutil.copytree(models, copy, ignore=shutil.ignore_patterns("runs", "previous"))
        (work / "photos").mkdir()
        for photo in photos:
            (work / "photos" / photo.name).symlink_to(photo.resolve())
        settings = AdaptSettings(photos=(work / "photos",), models_dir=copy, share=share)
        yield adapt(settings, command), copy


def print_draws(
    args: argparse.Namespace,
    labels: list[LabelledPhoto],
    photos: Sequence[tuple],  # type: ignore[type-arg]
    before: list[tuple[Detection, ...]],
) -> None:
    """Adapted on a few photos of one half, read on the other half: per size, over the draws."""
    rng = random.Random(7)
    halves = [list(range(0, len(labels), 2)), list(range(1, len(labels), 2))]
    print(
        f"\nadapted on a few photos of one half ({args.draws} draws a size and half), read on the other"
    )
    print(
        f"{'photos':>6} | {'tiles':>9} | {'draws':>5} | {'tiles gained':>12} | "
        f"{'lost a photo':>12} | {'won a photo':>11} | too few tiles to adapt"
    )
    for size in args.sizes:
        tiles, gained, lost, won, draws, refused = [], 0, 0, 0, 0, 0
        for source, target in (halves[1], halves[0]), (halves[0], halves[1]):
            old = score([labels[i] for i in target], [before[i] for i in target])
            for _ in range(args.draws):
                pick = rng.sample(source, size)
                try:
                    report, after = adapted_reads(args, labels, photos, pick, target)
                except AdaptError:  # too few tiles to adapt on: the command says so and stops
                    refused += 1
                    continue
                new = score([labels[i] for i in target], [after[i] for i in target])
                tiles.append(report["tiles"])
                gained += new[1] - old[1]
                lost += new[2] < old[2]
                won += new[2] > old[2]
                draws += 1
        print(
            f"{size:>6} | {min(tiles, default=0):>4}-{max(tiles, default=0):<4} | {draws:>5} | {gained:>+12} | "
            f"{lost:>12} | {won:>11} | {refused}",
            flush=True,
        )


def read(pipeline: TilePipeline, photos: Sequence[tuple]) -> list[tuple[Detection, ...]]:  # type: ignore[type-arg]
    return [pipeline.read(image, **facts.read_options).tiles for image, facts in photos]


def score(
    labels: list[LabelledPhoto], reads: list[tuple[Detection, ...]]
) -> tuple[int, int, int, int]:
    """Labelled tiles, tiles read right, photos whole, extra boxes."""
    every = Evaluation(
        tuple(match_photo(label, tiles) for label, tiles in zip(labels, reads, strict=True))
    )
    return (
        every.labelled_tiles,
        sum(p.right for p in every.photos),
        sum(p.all_right for p in every.photos),
        sum(len(p.extra) for p in every.photos),
    )


def total_line(name: str, totals: list[int]) -> str:
    tiles, right, whole, extra, right_after, whole_after, extra_after = totals
    return (
        f"{'all ' + name:>24} | {'':>10} | {'':>5} | {'':>8} | "
        f"{right:>3} -> {right_after:>3} of {tiles:>3} ({right / tiles:.1%} -> {right_after / tiles:.1%}) | "
        f"{whole:>5} -> {whole_after:<4} | {extra:>4} -> {extra_after:<4}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
