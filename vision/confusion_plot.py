"""The confusion matrix as a PNG, drawn with OpenCV (no matplotlib on the Pi)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError
from vision.evaluate import EXTRA, MISSED, class_order

CELL = 30
FONT = cv2.FONT_HERSHEY_SIMPLEX


def draw_confusion(counts: Counter[tuple[str, str]], title: str = "") -> np.ndarray:
    """Rows: what the label says; columns: what was read. Cells shaded by share of the row:
    the diagonal in green (right), everything else in red (wrong)."""
    names = sorted({n for pair in counts for n in pair} - {EXTRA, MISSED}, key=class_order)
    rows, columns = [*names, EXTRA], [*names, MISSED]
    margin_left, margin_top = 90, 110
    width = margin_left + CELL * len(columns) + 20
    height = margin_top + CELL * len(rows) + 40
    image = np.full((height, width, 3), 255, np.uint8)
    cv2.putText(image, title[:80], (10, 22), FONT, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(image, "read as ->", (margin_left, 45), FONT, 0.45, (80, 80, 80), 1, cv2.LINE_AA)
    cv2.putText(image, "label", (10, margin_top - 8), FONT, 0.45, (80, 80, 80), 1, cv2.LINE_AA)
    for r, truth in enumerate(rows):
        total = sum(counts[truth, guess] for guess in columns) or 1
        y = margin_top + r * CELL
        _text(image, truth, (8, y + CELL - 10), 0.42)
        for c, guess in enumerate(columns):
            x = margin_left + c * CELL
            count = counts[truth, guess]
            if count:
                share = count / total
                right = truth == guess
                # Blend from white towards green (right) or red (wrong) by the share of the row.
                target = np.array((60, 170, 60) if right else (50, 50, 220), np.float64)
                colour = tuple(int(v) for v in 255 - (255 - target) * (0.25 + 0.75 * share))
                cv2.rectangle(image, (x, y), (x + CELL, y + CELL), colour, -1)
                _text(image, str(count), (x + 3, y + CELL - 10), 0.38 if count < 100 else 0.3)
            cv2.rectangle(image, (x, y), (x + CELL, y + CELL), (210, 210, 210), 1)
    for c, guess in enumerate(columns):
        # Column names written upwards so they fit the cell width.
        label = np.full((CELL, margin_top - 50, 3), 255, np.uint8)
        _text(label, guess, (4, CELL - 10), 0.42)
        rotated = cv2.rotate(label, cv2.ROTATE_90_COUNTERCLOCKWISE)
        x = margin_left + c * CELL
        image[50:margin_top, x : x + CELL] = rotated
    return image


def _text(image: np.ndarray, text: str, origin: tuple[int, int], scale: float) -> None:
    cv2.putText(image, text, origin, FONT, scale, (0, 0, 0), 1, cv2.LINE_AA)


def save_confusion(counts: Counter[tuple[str, str]], path: Path, title: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), draw_confusion(counts, title)):
        raise ImageError(f"{path}: cannot write the confusion matrix")
    return path
