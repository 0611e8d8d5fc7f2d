"""Letterbox, YOLO output decoding, NMS and mapping boxes back to the photo, in numpy.

>>> import numpy as np
>>> lb = letterbox_params(1000, 500, 640)
>>> lb.scale, lb.pad_x, lb.pad_y
(0.64, 0, 160)
>>> to_original(np.array([[0.0, 160.0, 640.0, 480.0]]), lb).round(1).tolist()
[[0.0, 0.0, 1000.0, 500.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PAD_VALUE = 114  # ultralytics pads with grey 114; the detector saw that while training


@dataclass(frozen=True)
class Letterbox:
    """How a photo was fitted into the square network input: ``input = photo * scale + pad``."""

    scale: float
    pad_x: int
    pad_y: int
    new_width: int
    new_height: int
    size: int


def letterbox_params(width: int, height: int, size: int) -> Letterbox:
    scale = min(size / width, size / height)
    # At least a pixel each way: a strip of a photo (3000 x 1) would otherwise shrink to nothing.
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    # Odd padding puts the extra pixel below and right, as ultralytics does (round(d - 0.1)).
    pad_x, pad_y = round((size - new_w) / 2 - 0.1), round((size - new_h) / 2 - 0.1)
    return Letterbox(scale, pad_x, pad_y, new_w, new_h, size)


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio and pad to a ``size`` square with grey, as ultralytics does."""
    height, width = image.shape[:2]
    params = letterbox_params(width, height, size)
    resized = shrink(image, params.new_width, params.new_height)
    out = np.full((size, size, 3), PAD_VALUE, np.uint8)
    out[
        params.pad_y : params.pad_y + params.new_height,
        params.pad_x : params.pad_x + params.new_width,
    ] = resized
    return out, params


def shrink(image: np.ndarray, new_width: int, new_height: int) -> np.ndarray:
    """Area-averaged shrink, fast on a 12-megapixel photo.

    INTER_AREA rather than ultralytics' INTER_LINEAR: shrinking 4000 px to 640 with a linear
    filter aliases the tile edges, and the training images were shrunk with INTER_AREA too. But
    OpenCV's INTER_AREA is 6x slower at a fractional ratio (4000 -> 640 is 6.25) than at a whole
    one, so the bulk of the shrink goes by a whole factor first (on photo content the
    result is within a grey level or two; tests/vision/test_boxes.py checks it).
    """
    height, width = image.shape[:2]
    factor = int(min(width / new_width, height / new_height))
    if factor >= 2:
        image = cv2.resize(image, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    if image.shape[1] == new_width and image.shape[0] == new_height:
        return image
    return cv2.resize(image, (new_width, new_height), interpolation=cv2.INTER_AREA)


def to_original(boxes_xyxy: np.ndarray, params: Letterbox) -> np.ndarray:
    """Boxes in network-input pixels back to original-image pixels (not clipped)."""
    out = boxes_xyxy.astype(np.float64).copy()
    out[:, [0, 2]] = (out[:, [0, 2]] - params.pad_x) / params.scale
    out[:, [1, 3]] = (out[:, [1, 3]] - params.pad_y) / params.scale
    return out


def clip_boxes(boxes_xyxy: np.ndarray, width: int, height: int) -> np.ndarray:
    """Boxes held inside the photo (a tile at the edge may be predicted past it)."""
    out = boxes_xyxy.copy()
    out[:, [0, 2]] = out[:, [0, 2]].clip(0, width)
    out[:, [1, 3]] = out[:, [1, 3]].clip(0, height)
    return out


def decode_yolo(
    output: np.ndarray, conf_threshold: float, max_candidates: int = 5000
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A YOLOv8/11 head ``(1, 4 + classes, anchors)`` to boxes (xyxy), scores and class ids.

    At most ``max_candidates`` boxes (the best) go on to NMS, so a confused model cannot make
    NMS quadratic in the 8400 anchors; a full table leaves well under that after the threshold.
    """
    boxes, scores, class_ids, _ = decode_yolo_anchors(output, conf_threshold, max_candidates)
    return boxes, scores, class_ids


def decode_yolo_anchors(
    output: np.ndarray, conf_threshold: float, max_candidates: int = 5000
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``decode_yolo``, and the anchor (column of ``output``) each box came from."""
    class_scores = output[0, 4:, :]  # (classes, anchors): reduce over classes without a copy
    class_ids = class_scores.argmax(axis=0)
    scores = class_scores.max(axis=0)
    keep = np.flatnonzero(scores >= conf_threshold)
    if keep.size > max_candidates:
        keep = keep[np.argsort(-scores[keep], kind="stable")[:max_candidates]]
    boxes_cxcywh = output[0, :4][:, keep].T
    scores, class_ids = scores[keep], class_ids[keep]
    boxes = np.empty_like(boxes_cxcywh)
    boxes[:, 0] = boxes_cxcywh[:, 0] - boxes_cxcywh[:, 2] / 2
    boxes[:, 1] = boxes_cxcywh[:, 1] - boxes_cxcywh[:, 3] / 2
    boxes[:, 2] = boxes_cxcywh[:, 0] + boxes_cxcywh[:, 2] / 2
    boxes[:, 3] = boxes_cxcywh[:, 1] + boxes_cxcywh[:, 3] / 2
    return boxes, scores, class_ids, keep


def areas(boxes: np.ndarray) -> np.ndarray:
    """The area of each xyxy box."""
    area: np.ndarray = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return area


def intersection_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise intersection areas of two sets of xyxy boxes."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter: np.ndarray = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    return inter


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise intersection over union of two sets of xyxy boxes."""
    inter = intersection_matrix(a, b)
    iou: np.ndarray = inter / np.maximum(areas(a)[:, None] + areas(b)[None, :] - inter, 1e-9)
    return iou


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float, max_boxes: int) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best first.

    Class-agnostic on purpose: a tile is one object whatever the detector thinks of its side or
    turn, so two boxes on one tile must never both survive.
    """
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while order.size and len(keep) < max_boxes:
        best = order[0]
        keep.append(int(best))
        if order.size == 1:
            break
        overlaps = iou_matrix(boxes[best : best + 1], boxes[order[1:]])[0]
        order = order[1:][overlaps <= iou_threshold]
    return np.array(keep, dtype=np.int64)


def grown(
    box: tuple[float, float, float, float], share: float
) -> tuple[float, float, float, float]:
    """The box ``share`` of its width and height larger on each side."""
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * share, (y2 - y1) * share
    return x1 - dx, y1 - dy, x2 + dx, y2 + dy
