"""Weak boxes: kept when they lie beside a confident tile, dropped when they lie inside a surer one.

Tiles lie in rows and stacks: a box the detector is unsure of (scored under its threshold, above
its ``neighbour_confidence``) that is the size of a confident tile it touches side by side or end
to end is most likely the next tile of that row, if the classifier reads it surely too (keys on
a laptop lie in rows as well). A weak box alone, much larger or smaller than the photo's tiles, or
lying over a confident box (a box across two tiles) stays out. On the real photos this found 4 of
the 38 tiles the threshold lost (three of them blank 白, whose empty face the detector is least
sure of), for 2 more extra boxes (docs/vision.md).

A weak read whose box lies mostly inside the box of a tile read more surely is a piece of that
tile seen again (half a face, a face and its side), which NMS keeps because the two boxes'
sizes differ too much for their IoU to tell.
"""

from __future__ import annotations

import numpy as np

from vision.boxes import areas, intersection_matrix, iou_matrix

SIZE_RATIO = 1.43  # the two tiles' short sides differ by less than this factor
ALIGN = 0.35  # centres in line within this share of the taller (wider) box
GAP = 0.5  # edges apart by less than this share of the weak box's short side
AREA_RANGE = (0.5, 2.0)  # the weak box's area against the median confident box
OVERLAP_LIMIT = 0.15  # more IoU than this with a confident box: it is that tile again, or two
INSIDE_LIMIT = 0.6
"""A weak read with more of its box than this inside a surer tile's box is that tile again. On the
real photos: 6 extra boxes over 0.6, no tile read right; real tiles in piles reached 0.57."""
READ_AT_LEAST = 0.5  # the classifier's score a weak box's reading needs (real tiles: 0.63-0.97)


def beside_confident(boxes: np.ndarray, confident: np.ndarray) -> np.ndarray:
    """Which ``boxes`` (N×4, x1 y1 x2 y2) to keep: the ``confident`` ones (a boolean mask), and
    the weak ones beside a confident tile of their size."""
    keep = confident.copy()
    weak = np.flatnonzero(~confident)
    if not len(weak) or not confident.any():
        return keep
    strong_boxes = boxes[confident].astype(np.float64)
    weak_boxes = boxes[weak].astype(np.float64)
    strong_w, strong_h = _sizes(strong_boxes)
    weak_w, weak_h = _sizes(weak_boxes)
    strong_short = np.minimum(strong_w, strong_h)
    weak_short = np.minimum(weak_w, weak_h)[:, None]
    ratio = weak_short / strong_short[None, :]
    similar = (ratio > 1 / SIZE_RATIO) & (ratio < SIZE_RATIO)
    gap_x = np.maximum(
        strong_boxes[None, :, 0] - weak_boxes[:, None, 2],
        weak_boxes[:, None, 0] - strong_boxes[None, :, 2],
    )
    gap_y = np.maximum(
        strong_boxes[None, :, 1] - weak_boxes[:, None, 3],
        weak_boxes[:, None, 1] - strong_boxes[None, :, 3],
    )
    centre_dx = np.abs(_centre(weak_boxes, 0)[:, None] - _centre(strong_boxes, 0)[None, :])
    centre_dy = np.abs(_centre(weak_boxes, 1)[:, None] - _centre(strong_boxes, 1)[None, :])
    side_by_side = (centre_dy < ALIGN * np.maximum(weak_h[:, None], strong_h[None, :])) & (
        gap_x < GAP * weak_short
    )
    end_to_end = (centre_dx < ALIGN * np.maximum(weak_w[:, None], strong_w[None, :])) & (
        gap_y < GAP * weak_short
    )
    touching = (similar & (side_by_side | end_to_end)).any(axis=1)
    area = weak_w * weak_h / float(np.median(strong_w * strong_h))
    tile_sized = (area > AREA_RANGE[0]) & (area < AREA_RANGE[1])
    apart = iou_matrix(weak_boxes, strong_boxes).max(axis=1) < OVERLAP_LIMIT
    keep[weak[touching & tile_sized & apart]] = True
    return keep


def inside_surer(boxes: np.ndarray, confidence: np.ndarray, weak: np.ndarray) -> np.ndarray:
    """Which ``weak`` boxes (a boolean mask over N×4 ``boxes``) lie more than ``INSIDE_LIMIT``
    of their own area inside the box of a tile with a higher ``confidence``."""
    boxes = boxes.astype(np.float64)
    share_inside = intersection_matrix(boxes, boxes) / np.maximum(areas(boxes), 1e-9)[:, None]
    surer = confidence[None, :] > confidence[:, None]  # row i: the tiles read more surely than i
    inside: np.ndarray = weak & (np.where(surer, share_inside, 0.0).max(axis=1) > INSIDE_LIMIT)
    return inside


def _sizes(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]


def _centre(boxes: np.ndarray, axis: int) -> np.ndarray:
    centre: np.ndarray = (boxes[:, axis] + boxes[:, axis + 2]) / 2
    return centre
