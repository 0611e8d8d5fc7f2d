"""Draw what was read onto the photo: a box per tile, its code, colour by suit."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.pipeline import Detection

SUIT_COLOURS = {  # BGR
    "m": (60, 60, 230),
    "p": (230, 140, 40),
    "s": (60, 180, 60),
    "z": (40, 170, 240),
    "f": (200, 90, 200),
    "b": (40, 40, 40),
    "r": (40, 100, 255),
}
BACK_COLOUR = (160, 160, 160)


def colour_of(code: str | None) -> tuple[int, int, int]:
    return SUIT_COLOURS.get(code[-1], (255, 255, 255)) if code else BACK_COLOUR


def annotate(image: np.ndarray, tiles: Iterable[Detection]) -> np.ndarray:
    out = image.copy()
    thickness = max(2, round(max(image.shape[:2]) / 500))
    font_scale = max(0.6, max(image.shape[:2]) / 1400)
    for tile in tiles:
        x1, y1, x2, y2 = (int(round(v)) for v in tile.box)
        colour = colour_of(tile.code)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thickness)
        label = "back" if tile.face_down else (tile.code or "?")
        if tile.rotated:
            label += "~"
        if tile.low_confidence:
            label += "?"
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
        top = max(th + 4, y1)
        # Label on a filled block so it reads on any background.
        cv2.rectangle(out, (x1, top - th - 4), (x1 + tw + 4, top), colour, -1)
        cv2.putText(
            out,
            label,
            (x1 + 2, top - 3),
            cv2.FONT_HERSHEY_SIMPLEX,
            font_scale,
            (255, 255, 255),
            max(1, thickness - 1),
            cv2.LINE_AA,
        )
    return out
