"""Whether a second, mirrored look at each photo finds more tiles: the detector's test-time flip.

    PYTHONPATH=. python benchmarks/flip_view.py [--labels datasets/real/labels]
        [--photos ../shared/data/real-photos-unlabeled] [--models models]
        [--thresholds 0.04 0.05 ...]

The detector reads the letterboxed photo and its mirror image; a box of one look and the other
look's box over the same tile (IoU >= 0.55) become one box, their scores averaged and their
corners averaged weighted by score; a box only one look saw keeps half its score. The merged
boxes go through the rest of the pipeline unchanged, at each threshold in the table (a box both
looks score 0.1 keeps 0.1; one seen once at 0.1 gets 0.05). The photos are split into halves as
in threshold_sweep.py: pick on the even half, check on the odd one. Session 15 measured it
(docs/vision.md): not adopted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import (  # noqa: E402
    HEAD,
    add_photo_arguments,
    halves,
    labelled_photos,
    whole,
)
from vision import pipeline as pipeline_module  # noqa: E402
from vision.boxes import clip_boxes, decode_yolo, iou_matrix, letterbox, nms, to_original  # noqa: E402
from vision.crops import to_batch  # noqa: E402

THRESHOLDS = (0.04, 0.05, 0.06, 0.075, 0.1)
SAME_TILE_IOU = 0.55
CANDIDATE_FLOOR = 0.005  # boxes under this in both looks are not worth merging


def merge_looks(
    first: tuple[np.ndarray, np.ndarray, np.ndarray],
    second: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two looks' boxes (after NMS each) as one set: matched boxes averaged, the rest halved."""
    (b1, s1, c1), (b2, s2, c2) = first, second
    if not len(b1) or not len(b2):
        return np.concatenate([b1, b2]), np.concatenate([s1, s2]) / 2, np.concatenate([c1, c2])
    overlap = iou_matrix(b1, b2)
    partner = np.full(len(b1), -1)
    taken = np.zeros(len(b2), bool)
    for i in np.argsort(-s1):
        row = np.where(taken, 0.0, overlap[i])
        j = int(row.argmax())
        if row[j] >= SAME_TILE_IOU:
            partner[i], taken[j] = j, True
    paired = partner >= 0
    j = partner[paired]
    w1, w2 = s1[paired, None], s2[j, None]
    boxes = np.concatenate(
        [(b1[paired] * w1 + b2[j] * w2) / np.maximum(w1 + w2, 1e-9), b1[~paired], b2[~taken]]
    )
    scores = np.concatenate([(s1[paired] + s2[j]) / 2, s1[~paired] / 2, s2[~taken] / 2])
    classes = np.concatenate(
        [np.where(s1[paired] >= s2[j], c1[paired], c2[j]), c1[~paired], c2[~taken]]
    )
    return boxes.astype(np.float32), scores.astype(np.float32), classes


class FlipPipeline(pipeline_module.TilePipeline):
    """The shipped pipeline with every detector pass made of two looks, straight and mirrored."""

    def _detect_in(
        self, image: np.ndarray, timing: dict[str, float]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        info = self.detector.info
        start = time.perf_counter()
        boxed, params = letterbox(image, info.input_size[0])
        mirrored = np.ascontiguousarray(boxed[:, ::-1])
        looks = []
        for view in (boxed, mirrored):
            output = self.detector.run(to_batch([view], info.scale, info.channel_order))
            boxes, scores, classes = decode_yolo(output, CANDIDATE_FLOOR)
            keep = nms(boxes, scores, pipeline_module.NMS_IOU, 2000)
            looks.append((boxes[keep], scores[keep], classes[keep]))
        size = boxed.shape[1]
        b2 = looks[1][0]
        looks[1] = (
            np.stack([size - b2[:, 2], b2[:, 1], size - b2[:, 0], b2[:, 3]], 1),
            *looks[1][1:],
        )
        boxes, scores, classes = merge_looks(looks[0], looks[1])
        above = scores >= self.score_floor
        boxes, scores, classes = boxes[above], scores[above], classes[above]
        keep = nms(boxes, scores, pipeline_module.NMS_IOU, pipeline_module.MAX_TILES)
        height, width = image.shape[:2]
        mapped = clip_boxes(to_original(boxes[keep], params), width, height)
        timing["detector"] = timing.get("detector", 0.0) + (time.perf_counter() - start) * 1000
        return mapped.astype(np.float32), scores[keep], classes[keep]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_photo_arguments(parser)
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--thresholds", type=float, nargs="+", default=THRESHOLDS)
    args = parser.parse_args()
    labels, photos = labelled_photos(args.labels, args.photos)
    shipped = pipeline_module.load_pipeline(args.models)
    flipped = FlipPipeline(shipped.detector, shipped.classifier)
    print(f"models: {' + '.join(m.name for m in shipped.models)}")
    print("tiles: found and read right; photos: every tile right, nothing extra")
    print(f"{'':>16} | {'all':^23} | {'':>5} | {'even photos':^31} | {'odd photos':^31}")
    print(
        f"{'look, threshold':>16} | {'tiles':>7} {'photos':>7} {'extra':>7} | {'ms':>5} | {HEAD} | {HEAD}"
    )
    runs = [("one", shipped, shipped.detect_confidence)]
    runs += [("two", flipped, threshold) for threshold in args.thresholds]
    for name, reader, threshold in runs:
        reader.detect_confidence = threshold
        start = time.perf_counter()
        reads = [reader.read(image, **facts.read_options).tiles for image, facts in photos]
        ms = (time.perf_counter() - start) * 1000 / len(photos)
        print(
            f"{name + f', {threshold:g}':>16} | {whole(labels, reads)} | {ms:>5.0f} | "
            f"{halves(labels, reads)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
