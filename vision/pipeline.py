"""Two-stage reading of a photo: the detector finds tiles, the classifier reads each upright crop.

A 17-tile hand shrunk into a 640-pixel input leaves about 30 pixels per tile; the classifier reads
each tile from the full-resolution photo instead, all crops in one batch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.boxes import decode_yolo, letterbox, nms, to_original
from vision.images import to_model_rgb
from vision.models import ModelInfo, OnnxModel, find_pair, load_info

DETECT_CONFIDENCE = 0.25
NMS_IOU = 0.5
MAX_BOXES = 400  # a full table with four hands, melds and flowers is 150+ tiles
LOW_CONFIDENCE = 0.5
NOT_A_TILE = "not_a_tile"


@dataclass(frozen=True)
class Detection:
    """One tile found in a photo; ``box`` is (x1, y1, x2, y2) in original-image pixels."""

    code: str | None
    box: tuple[float, float, float, float]
    confidence: float
    detector_confidence: float
    classifier_confidence: float
    face_down: bool
    rotated: bool
    low_confidence: bool
    alternatives: tuple[tuple[str, float], ...] = ()
    """The next best readings, for the display to ask "8s or 9s?"."""

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
            "face_down": self.face_down,
            "rotated": self.rotated,
            "low_confidence": self.low_confidence,
            "alternatives": [[c, round(p, 3)] for c, p in self.alternatives],
        }


@dataclass(frozen=True)
class PhotoReading:
    tiles: tuple[Detection, ...]
    timing_ms: dict[str, float]


def crop_upright(
    image: np.ndarray, box: np.ndarray, rotated: bool, size: tuple[int, int]
) -> np.ndarray:
    """The classifier's view of one tile: the box from the full photo, turned a quarter when the
    tile lies sideways, squeezed to the input size (as the training crops were made)."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    crop = image[y1:y2, x1:x2]
    if crop.size == 0:
        return np.zeros((size[0], size[1], 3), np.uint8)
    if rotated:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(crop, (size[1], size[0]), interpolation=cv2.INTER_AREA)


def _to_batch(images: list[np.ndarray], scale: float) -> np.ndarray:
    batch = np.stack([to_model_rgb(i) for i in images]).astype(np.float32) * scale
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))


class TilePipeline:
    def __init__(self, detector: OnnxModel, classifier: OnnxModel | None) -> None:
        self.detector = detector
        self.classifier = classifier
        if classifier is None and not detector.info.is_single_stage:
            raise ValueError("a two-stage detector needs a classifier")
        if classifier is not None:
            codes = [c.code for c in classifier.info.classes]
            self._piece_mask = np.array([c is not None and c[-1] in "br" for c in codes])
            self._not_tile = np.array([c is None for c in codes])

    @property
    def models(self) -> tuple[ModelInfo, ...]:
        infos = [self.detector.info]
        if self.classifier is not None:
            infos.append(self.classifier.info)
        return tuple(infos)

    def read(self, image: np.ndarray) -> PhotoReading:
        timing: dict[str, float] = {}
        start = time.perf_counter()
        size = self.detector.info.input_size[0]
        boxed, params = letterbox(image, size)
        batch = _to_batch([boxed], self.detector.info.scale)
        timing["preprocess"] = _ms(start)
        t = time.perf_counter()
        output = self.detector.run(batch)
        timing["detector"] = _ms(t)
        t = time.perf_counter()
        boxes, scores, class_ids = decode_yolo(output, DETECT_CONFIDENCE)
        keep = nms(boxes, scores, NMS_IOU, MAX_BOXES)
        boxes = to_original(boxes[keep], params)
        h, w = image.shape[:2]
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        scores, class_ids = scores[keep], class_ids[keep]
        timing["postprocess"] = _ms(t)
        classes = self.detector.info.classes
        if self.classifier is None:
            tiles = tuple(
                self._single_stage(box, float(score), classes[int(cid)].code)
                for box, score, cid in zip(boxes, scores, class_ids, strict=True)
            )
            timing["total"] = _ms(start)
            return PhotoReading(_reading_order(tiles), timing)
        t = time.perf_counter()
        to_read = [i for i, cid in enumerate(class_ids) if not classes[int(cid)].face_down]
        crops = [
            crop_upright(
                image, boxes[i], classes[int(class_ids[i])].rotated, self.classifier.info.input_size
            )
            for i in to_read
        ]
        timing["crops"] = _ms(t)
        t = time.perf_counter()
        probabilities = self._classify(crops)
        timing["classifier"] = _ms(t)
        read = dict(zip(to_read, range(len(to_read)), strict=True))
        tiles_list: list[Detection] = []
        for i, (box, score, cid) in enumerate(zip(boxes, scores, class_ids, strict=True)):
            kind = classes[int(cid)]
            box_tuple = tuple(float(v) for v in box)
            if kind.face_down:
                tiles_list.append(
                    Detection(
                        None,
                        box_tuple,
                        float(score),
                        float(score),
                        1.0,
                        True,
                        kind.rotated,
                        float(score) < LOW_CONFIDENCE,
                    )
                )
                continue
            detection = self._read_tile(probabilities[read[i]], box_tuple, float(score), kind)
            if detection is not None:
                tiles_list.append(detection)
        timing["total"] = _ms(start)
        return PhotoReading(_reading_order(tuple(tiles_list)), timing)

    def _classify(self, crops: list[np.ndarray]) -> np.ndarray:
        assert self.classifier is not None
        if not crops:
            return np.zeros((0, len(self.classifier.info.classes)), np.float32)
        batch = _to_batch(crops, self.classifier.info.scale)
        if self.classifier.dynamic_batch:
            return self.classifier.run(batch)
        return np.concatenate([self.classifier.run(batch[i : i + 1]) for i in range(len(batch))])

    def _read_tile(
        self, probs: np.ndarray, box: tuple[float, float, float, float], det_score: float, kind
    ) -> Detection | None:  # type: ignore[no-untyped-def]
        assert self.classifier is not None
        is_piece = kind.name == "piece"
        # A round piece is read among the 14 pieces only; a tile never as a piece.
        allowed = self._piece_mask if is_piece else ~self._piece_mask
        masked = np.where(allowed | self._not_tile, probs, 0.0)
        best = int(masked.argmax())
        total = float(masked.sum()) or 1.0
        best_p = float(masked[best]) / total
        code = self.classifier.info.classes[best].code
        if code is None:
            return None  # the classifier says this box is no tile
        order = np.argsort(-masked)[1:3]
        alternatives = tuple(
            (self.classifier.info.classes[j].code or NOT_A_TILE, float(masked[j]) / total)
            for j in order
            if masked[j] > 0.05
        )
        confidence = det_score * best_p
        return Detection(
            code,
            box,
            confidence,
            det_score,
            best_p,
            False,
            kind.rotated,
            confidence < LOW_CONFIDENCE,
            alternatives,
        )

    @staticmethod
    def _single_stage(box: np.ndarray, score: float, code: str | None) -> Detection:
        box_tuple = tuple(float(v) for v in box)
        return Detection(
            code,
            box_tuple,
            score,
            score,
            1.0,
            code is None,
            False,  # type: ignore[arg-type]
            score < LOW_CONFIDENCE,
        )


def _reading_order(tiles: tuple[Detection, ...]) -> tuple[Detection, ...]:
    """Top to bottom, left to right, so output is stable and easy to read."""
    return tuple(sorted(tiles, key=lambda d: (round(d.box[1] / 40), d.box[0])))


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)


def load_pipeline(
    models_dir: Path = Path("models"),
    threads: int | None = None,
    detector_meta: Path | None = None,
    classifier_meta: Path | None = None,
) -> TilePipeline:
    """The model pair named by ``models/default.json`` (or the given metadata files)."""
    if detector_meta is None:
        detector_meta, classifier_meta = find_pair(Path(models_dir))
    detector = OnnxModel(load_info(detector_meta), threads)
    classifier = None
    if not detector.info.is_single_stage:
        if classifier_meta is None:
            from vision.errors import ModelError

            raise ModelError("the detector reads no tile codes and no classifier is named")
        classifier = OnnxModel(load_info(classifier_meta), threads)
    return TilePipeline(detector, classifier)
