"""Measuring a model set on labelled photos: matching, per-class metrics, tile and photo accuracy.

A prediction matches a labelled tile when their boxes overlap with IoU >= 0.5 (best first, each
used once), whatever either says the tile is: the detector is judged on finding tiles and the
reading on what it says about the ones it found. A labelled tile is right only when it was found
AND its code and face-down state are right; a photo is right when every tile is and nothing extra
was reported. Predictions on tiles labelled ``other`` count neither way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from vision.boxes import iou_matrix
from vision.detection import Detection
from vision.labels import LabelledPhoto, LabelledTile

INTERVAL_RESAMPLES = 2000  # photo resamples behind the accuracy intervals (Evaluation.intervals)

MATCH_IOU = 0.5
MISSED = "(missed)"  # confusion-matrix column: a labelled tile nothing was found on
EXTRA = "(extra)"  # confusion-matrix row: a prediction on no labelled tile


def predicted_name(detection: Detection) -> str:
    return "back" if detection.face_down else str(detection.code)


@dataclass(frozen=True)
class PhotoResult:
    """One photo's matches: (label index, prediction index) pairs and what was left over."""

    image: str
    pairs: tuple[tuple[int, int], ...]
    missed: tuple[int, ...]
    extra: tuple[int, ...]
    labels: tuple[LabelledTile, ...]
    predictions: tuple[Detection, ...]
    timing_ms: dict[str, float] = field(default_factory=dict)

    @property
    def right(self) -> int:
        return sum(_reads_right(self.labels[li], self.predictions[pi]) for li, pi in self.pairs)

    @property
    def all_right(self) -> bool:
        return self.right == len(self.labels) and not self.extra

    @property
    def misreads(self) -> list[tuple[str, str]]:
        """(labelled, read) names of the tiles found and read wrong."""
        return [
            (self.labels[li].name, predicted_name(self.predictions[pi]))
            for li, pi in self.pairs
            if not _reads_right(self.labels[li], self.predictions[pi])
        ]

    @property
    def missed_names(self) -> list[str]:
        return [self.labels[li].name for li in self.missed]

    @property
    def asked(self) -> int:
        """Boxes flagged low confidence (on a labelled tile or extra): the display's questions."""
        judged = [pi for _, pi in self.pairs] + list(self.extra)
        return sum(self.predictions[pi].low_confidence for pi in judged)

    @property
    def asked_right(self) -> int:
        """Questions about tiles read right: a tap to confirm, nothing to mend."""
        return sum(
            self.predictions[pi].low_confidence
            for li, pi in self.pairs
            if _reads_right(self.labels[li], self.predictions[pi])
        )

    @property
    def unasked_misreads(self) -> int:
        """Tiles read wrong with no flag: a wrong count nobody is asked to check."""
        return sum(
            not self.predictions[pi].low_confidence
            for li, pi in self.pairs
            if not _reads_right(self.labels[li], self.predictions[pi])
        )

    @property
    def unasked_extra(self) -> int:
        return sum(not self.predictions[pi].low_confidence for pi in self.extra)

    @property
    def right_or_asked(self) -> bool:
        """Every tile found, and every wrong read and extra box flagged: a photo the player
        gets right by answering the display's questions."""
        return not self.missed and not self.unasked_misreads and not self.unasked_extra


def _reads_right(label: LabelledTile, prediction: Detection) -> bool:
    if label.face_down or prediction.face_down:
        return label.face_down == prediction.face_down
    return label.code == prediction.code


def match_photo(
    label: LabelledPhoto,
    predictions: Sequence[Detection],
    timing_ms: dict[str, float] | None = None,
) -> PhotoResult:
    """Greedy matching, most confident prediction first, each box used at most once."""
    predicted = np.array([p.box for p in predictions], np.float64).reshape(-1, 4)
    labelled = np.array([t.box for t in label.tiles], np.float64).reshape(-1, 4)
    ious = iou_matrix(predicted, labelled) if len(predicted) and len(labelled) else None
    taken: set[int] = set()
    pairs: list[tuple[int, int]] = []
    unmatched: list[int] = []
    for pi in sorted(range(len(predictions)), key=lambda i: -predictions[i].confidence):
        best = -1
        if ious is not None:
            row = ious[pi].copy()
            row[list(taken)] = 0.0
            if row.max() >= MATCH_IOU:
                best = int(row.argmax())
        if best >= 0:
            taken.add(best)
            pairs.append((best, pi))
        else:
            unmatched.append(pi)
    extra = tuple(sorted(_not_on_ignored(unmatched, predicted, label.ignored)))
    missed = tuple(i for i in range(len(label.tiles)) if i not in taken)
    return PhotoResult(
        label.image,
        tuple(sorted(pairs)),
        missed,
        extra,
        label.tiles,
        tuple(predictions),
        dict(timing_ms or {}),
    )


def _not_on_ignored(
    unmatched: list[int], predicted: np.ndarray, ignored: Sequence[tuple[float, ...]]
) -> list[int]:
    if not unmatched or not ignored:
        return unmatched
    overlaps = iou_matrix(predicted[unmatched], np.array(ignored, np.float64))
    return [pi for pi, row in zip(unmatched, overlaps, strict=True) if row.max() < MATCH_IOU]


@dataclass(frozen=True)
class ClassMetrics:
    name: str
    labelled: int
    predicted: int
    right: int

    @property
    def precision(self) -> float | None:
        return self.right / self.predicted if self.predicted else None

    @property
    def recall(self) -> float | None:
        return self.right / self.labelled if self.labelled else None


@dataclass(frozen=True)
class Evaluation:
    """Every number ``tilescore evaluate`` reports, from the per-photo matches."""

    photos: tuple[PhotoResult, ...]
    models: tuple[str, ...] = ()

    @property
    def labelled_tiles(self) -> int:
        return sum(len(p.labels) for p in self.photos)

    @property
    def tile_accuracy(self) -> float | None:
        return _ratio(sum(p.right for p in self.photos), self.labelled_tiles)

    @property
    def photo_accuracy(self) -> float | None:
        return _ratio(sum(p.all_right for p in self.photos), len(self.photos))

    @property
    def detection_recall(self) -> float | None:
        """Labelled tiles with a box on them, whatever was read."""
        return _ratio(sum(len(p.pairs) for p in self.photos), self.labelled_tiles)

    @property
    def detection_precision(self) -> float | None:
        found = sum(len(p.pairs) for p in self.photos)
        return _ratio(found, found + sum(len(p.extra) for p in self.photos))

    @property
    def reading_accuracy(self) -> float | None:
        """Of the tiles found, the share read right: the classifier's part alone."""
        return _ratio(sum(p.right for p in self.photos), sum(len(p.pairs) for p in self.photos))

    @property
    def right_or_asked_accuracy(self) -> float | None:
        """Photos read right or with every mistake questioned (PhotoResult.right_or_asked)."""
        return _ratio(sum(p.right_or_asked for p in self.photos), len(self.photos))

    def questions(self) -> dict[str, int]:
        """What the display asks and what it lets pass: the flagged boxes, the flagged ones read
        right, and the misreads and extra boxes with no flag."""
        return {
            "asked": sum(p.asked for p in self.photos),
            "asked_right": sum(p.asked_right for p in self.photos),
            "unasked_misreads": sum(p.unasked_misreads for p in self.photos),
            "unasked_extra": sum(p.unasked_extra for p in self.photos),
            "photos_right_or_asked": sum(p.right_or_asked for p in self.photos),
        }

    @property
    def rotation_accuracy(self) -> float | None:
        pairs = [(p.labels[li], p.predictions[pi]) for p in self.photos for li, pi in p.pairs]
        return _ratio(sum(label.rotated == pred.rotated for label, pred in pairs), len(pairs))

    def confusion(self) -> Counter[tuple[str, str]]:
        """(labelled, predicted) -> count, with MISSED and EXTRA for unmatched boxes."""
        counts: Counter[tuple[str, str]] = Counter()
        for photo in self.photos:
            for li, pi in photo.pairs:
                counts[photo.labels[li].name, predicted_name(photo.predictions[pi])] += 1
            for li in photo.missed:
                counts[photo.labels[li].name, MISSED] += 1
            for pi in photo.extra:
                counts[EXTRA, predicted_name(photo.predictions[pi])] += 1
        return counts

    def per_class(self) -> list[ClassMetrics]:
        labelled: Counter[str] = Counter()
        predicted: Counter[str] = Counter()
        right: Counter[str] = Counter()
        for (truth, guess), count in self.confusion().items():
            if truth != EXTRA:
                labelled[truth] += count
            if guess != MISSED:
                predicted[guess] += count
            if truth == guess:
                right[truth] += count
        names = sorted(set(labelled) | set(predicted), key=class_order)
        return [ClassMetrics(n, labelled[n], predicted[n], right[n]) for n in names]

    def mean_ms(self) -> dict[str, float]:
        keys = {k for p in self.photos for k in p.timing_ms}
        return {
            k: round(float(np.mean([p.timing_ms.get(k, 0.0) for p in self.photos])), 1)
            for k in sorted(keys)
        }

    def intervals(
        self, resamples: int = INTERVAL_RESAMPLES, seed: int = 0
    ) -> dict[str, tuple[float, float] | None]:
        """95% intervals of the tile and photo accuracy, by resampling whole photos.

        Tiles of one photo share its light, angle and focus, so they are not independent draws:
        the photos are the sample. Re-saving the 30 real photos as JPEGs alone moves two of them
        between right and wrong (docs/vision.md, "Speed"); the intervals say how wide that is.
        """
        if not self.photos:
            return {"tile_accuracy": None, "photo_accuracy": None}
        right = np.array([p.right for p in self.photos], float)
        tiles = np.array([len(p.labels) for p in self.photos], float)
        whole = np.array([p.all_right for p in self.photos], float)
        draws = np.random.default_rng(seed).integers(0, len(right), (resamples, len(right)))
        tile_rates = right[draws].sum(1) / np.maximum(tiles[draws].sum(1), 1.0)
        photo_rates = whole[draws].mean(1)

        def middle(rates: np.ndarray) -> tuple[float, float]:
            low, high = np.percentile(rates, [2.5, 97.5])
            return round(float(low), 4), round(float(high), 4)

        return {
            "tile_accuracy": middle(tile_rates) if self.labelled_tiles else None,
            "photo_accuracy": middle(photo_rates),
        }

    def to_json(self) -> dict[str, object]:
        intervals = self.intervals()
        return {
            "models": list(self.models),
            "photos": len(self.photos),
            "labelled_tiles": self.labelled_tiles,
            "tile_accuracy": _rounded(self.tile_accuracy),
            "photo_accuracy": _rounded(self.photo_accuracy),
            "tile_accuracy_interval": _listed(intervals["tile_accuracy"]),
            "photo_accuracy_interval": _listed(intervals["photo_accuracy"]),
            "detection_recall": _rounded(self.detection_recall),
            "detection_precision": _rounded(self.detection_precision),
            "reading_accuracy": _rounded(self.reading_accuracy),
            "rotation_accuracy": _rounded(self.rotation_accuracy),
            "right_or_asked_accuracy": _rounded(self.right_or_asked_accuracy),
            "questions": self.questions(),
            "mean_timing_ms": self.mean_ms(),
            "per_class": {
                c.name: {
                    "labelled": c.labelled,
                    "predicted": c.predicted,
                    "right": c.right,
                    "precision": None if c.precision is None else round(c.precision, 4),
                    "recall": None if c.recall is None else round(c.recall, 4),
                }
                for c in self.per_class()
            },
            "per_photo": [
                {
                    "image": p.image,
                    "tiles": len(p.labels),
                    "right": p.right,
                    "missed": len(p.missed),
                    "extra": len(p.extra),
                    "all_right": p.all_right,
                    "asked": p.asked,
                    "right_or_asked": p.right_or_asked,
                    "wrong": [list(pair) for pair in p.misreads],
                    "missed_tiles": p.missed_names,
                }
                for p in self.photos
            ],
        }


def class_order(name: str) -> tuple[int, str]:
    """Tile codes in ALL_TILES order, then ``back``, then the unmatched markers."""
    from scoring.tiles import ALL_TILES

    codes = [t.code for t in ALL_TILES]
    if name in codes:
        return codes.index(name), name
    return {"back": 100, MISSED: 101, EXTRA: 102}.get(name, 99), name


def _ratio(part: float, whole: float) -> float | None:
    """``part / whole``, or None where there was nothing to count (a photo of no tiles has no
    tile accuracy; 0% would say every tile was missed)."""
    return part / whole if whole else None


def _rounded(share: float | None) -> float | None:
    return None if share is None else round(share, 4)


def _listed(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else list(interval)
