"""Reading a 12-megapixel photo decoded whole against decoded at a reduced size: same tiles?

    PYTHONPATH=. python benchmarks/decode_size.py [--models models] [--labels datasets/real/labels]
        [--photos ../shared/data/real-photos-unlabeled] [--long-side 4000] [--threads 1]

``tilescore detect``, ``score`` and ``evaluate`` decode a JPEG longer than
``vision.images.KEEP_LONG_SIDE`` at half (or a quarter, an eighth) of its size, where libjpeg
decodes fastest. The labelled real photos are 2048 pixels long, so they never show what that
costs: here each is scaled up to ``--long-side`` pixels (its labels with it) and saved as a JPEG,
then read both ways with the same models. A scaled-up photo holds no more detail than its
source, so this says whether the reduced decode loses what the 2048-pixel photos hold, not
what a true 12-megapixel sensor would add. Two more rows give the scale of the noise: the
source photos as labelled, and saved again as JPEGs at their own size (no decode change at all).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import add_photo_arguments  # noqa: E402
from vision.evaluate import Evaluation, PhotoResult, match_photo  # noqa: E402
from vision.images import Photo, load_image, load_photo  # noqa: E402
from vision.labels import LabelledPhoto, find_photo, load_labels  # noqa: E402
from vision.pipeline import load_pipeline  # noqa: E402
from vision.tile_sets import beside, load_tile_sets, tile_set_named  # noqa: E402


def scaled_label(label: LabelledPhoto, factor: float) -> LabelledPhoto:
    def box(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        return (b[0] * factor, b[1] * factor, b[2] * factor, b[3] * factor)

    return dataclasses.replace(
        label,
        width=round(label.width * factor),
        height=round(label.height * factor),
        tiles=tuple(dataclasses.replace(t, box=box(t.box)) for t in label.tiles),
        ignored=tuple(box(b) for b in label.ignored),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--long-side", type=int, default=4000)
    parser.add_argument("--threads", type=int, default=1)
    add_photo_arguments(parser)
    args = parser.parse_args()
    labels = load_labels(args.labels)
    tile_sets = load_tile_sets(beside(args.labels))
    pipeline = load_pipeline(args.models, threads=args.threads)
    # (source or 12 MP copy, how it is decoded): the source photo as labelled, the source saved
    # again as a JPEG (what any re-save alone moves), and the 12 MP copy decoded both ways.
    ways = {
        "source, as it is": ("source", _whole),
        "source saved again (JPEG 92)": ("resaved", _whole),
        f"{args.long_side} px copy, decoded whole": ("large", _whole),
        f"{args.long_side} px copy, decoded reduced": ("large", load_photo),
    }
    results: dict[str, list[PhotoResult]] = {way: [] for way in ways}
    times: dict[str, dict[str, list[float]]] = {way: {"decode": [], "total": []} for way in ways}
    sizes: dict[str, set[str]] = {way: set() for way in ways}
    with tempfile.TemporaryDirectory() as folder:
        for number, label in enumerate(labels, 1):
            source = find_photo(label, args.photos)
            image = load_image(source)
            factor = args.long_side / max(image.shape[:2])
            large = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
            files = {
                "source": (source, label),
                "resaved": (Path(folder) / "resaved.jpg", label),
                "large": (
                    Path(folder) / "large.jpg",
                    scaled_label(label, large.shape[1] / image.shape[1]),
                ),
            }
            cv2.imwrite(str(files["resaved"][0]), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            cv2.imwrite(str(files["large"][0]), large, [cv2.IMWRITE_JPEG_QUALITY, 92])
            options = tile_set_named(tile_sets, label.tile_set).read_options
            for way, (copy, load) in ways.items():
                path, truth = files[copy]
                start = time.perf_counter()
                photo = load(path)
                decode = (time.perf_counter() - start) * 1000
                reading = pipeline.read(photo.pixels, **options)
                results[way].append(match_photo(truth, reading.scaled(*photo.scale).tiles))
                times[way]["decode"].append(decode)
                times[way]["total"].append(decode + reading.timing_ms["total"])
                sizes[way].add(f"{photo.pixels.shape[1]}x{photo.pixels.shape[0]}")
            print(f"\r{number}/{len(labels)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{len(labels)} labelled photos scaled to {args.long_side} px, {args.threads} thread(s)")
    print(
        "| photo, decoded | pixels read | tiles right | photos right | extra boxes | decode ms | total ms |"
    )
    print("|---|---|---|---|---|---|---|")
    for way in ways:
        every = Evaluation(tuple(results[way]))
        right = sum(p.all_right for p in every.photos)
        extra = sum(len(p.extra) for p in every.photos)
        decode = statistics.median(times[way]["decode"])
        total = statistics.median(times[way]["total"])
        print(
            f"| {way} | {', '.join(sorted(sizes[way]))} | {every.tile_accuracy:.1%} "
            f"| {right}/{len(labels)} | {extra} | {decode:.0f} | {total:.0f} |"
        )
    return 0


def _whole(path: Path) -> Photo:
    image = load_image(path)
    return Photo(image, image.shape[1], image.shape[0])


if __name__ == "__main__":
    raise SystemExit(main())
