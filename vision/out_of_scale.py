"""Weak reads out of scale with the photo's tiles: a box far bigger than its tiles, or a sliver at the frame's edge.

One photo's tiles are all about one size: perspective makes a near tile bigger than a far one,
but on the real photos no tile read right was more than 2.4 times the photo's median tile area.
A weak read whose box is over ``OVERSIZE`` times that median is no tile (a shadowed floor, a
box lid, a patch of table read as a back). And a weak read whose box touches the frame's edge and
covers under ``CUT_OFF`` of the median is a tile (or a thing) the frame cuts off: too little of
it shows to read, and a player photographing a hand keeps the hand in the frame. The real photos'
labels leave such slivers out; the tiles they label at the edge show nearly whole (1.0-1.1 times
the median).

Confident reads are never judged, as in the other checks of a read (vision/face_colour.py,
vision/weak_boxes.py): a tile read surely is a tile whatever its size. With few reads the median
says little, so under ``MIN_READS`` nothing is judged.
"""

from __future__ import annotations

import numpy as np

from vision.boxes import areas

OVERSIZE = 4.0  # twice as wide and twice as tall as the photo's median tile
CUT_OFF = 0.5  # under half a tile's area showing, at the edge
EDGE = 4.0  # pixels from the frame's border: the box touches the edge
MIN_READS = 5


def out_of_scale(boxes: np.ndarray, weak: np.ndarray, width: int, height: int) -> np.ndarray:
    """Which ``weak`` boxes (a boolean mask over N×4 ``boxes``, x1 y1 x2 y2, in a ``width`` ×
    ``height`` photo) are far bigger than the photo's tiles, or slivers cut off at its edge."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    if len(boxes) < MIN_READS:
        return np.zeros(len(boxes), bool)
    area = areas(boxes)
    scale = area / max(float(np.median(area)), 1e-9)
    at_edge = (
        (boxes[:, 0] <= EDGE)
        | (boxes[:, 1] <= EDGE)
        | (boxes[:, 2] >= width - EDGE)
        | (boxes[:, 3] >= height - EDGE)
    )
    outliers: np.ndarray = weak & ((scale > OVERSIZE) | (at_edge & (scale < CUT_OFF)))
    return outliers
