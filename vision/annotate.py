"""Draw what was read onto the photo: a box per tile, its code above it, colour by suit.

OpenCV's fonts are ASCII only, so labels are the tile codes (``5m``, ``7z``); ``~`` marks a tile
lying sideways and ``?`` a low-confidence read.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from scoring.errors import TilescoreError
from vision.detection import Detection

SUIT_COLOURS = {  # BGR, one per suit letter of the code
    "m": (50, 50, 220),
    "p": (220, 120, 30),
    "s": (40, 160, 40),
    "z": (20, 150, 230),
    "f": (190, 70, 190),
    "b": (60, 60, 60),
    "r": (30, 90, 250),
}
BACK_COLOUR = (150, 150, 150)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def colour_of(code: str | None) -> tuple[int, int, int]:
    return SUIT_COLOURS.get(code[-1], (255, 255, 255)) if code else BACK_COLOUR


def label_of(tile: Detection) -> str:
    label = "back" if tile.face_down else (tile.code or "?")
    doubtful = tile.low_confidence or tile.placed  # a tile read in its place is checked too
    return label + ("~" if tile.rotated else "") + ("?" if doubtful else "")


def annotate(image: np.ndarray, tiles: Sequence[Detection]) -> np.ndarray:
    """A copy of the BGR photo with every tile drawn."""
    out = image.copy()
    if not tiles:
        return out
    # Size the labels by the tiles, not the photo: a two-letter code about as wide as a tile, so
    # neighbours' labels do not cover each other on a 12-megapixel photo or a small crop alike.
    sides = sorted(min(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in tiles)
    tile_side = sides[len(sides) // 2]
    font_scale = float(np.clip(tile_side / 60, 0.35, 4.0))
    text_thickness = max(1, round(font_scale))
    box_thickness = max(1, round(tile_side / 25))
    for tile in tiles:
        x1, y1, x2, y2 = (int(round(v)) for v in tile.box)
        colour = colour_of(tile.code)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, box_thickness)
        label = label_of(tile)
        (text_w, text_h), baseline = cv2.getTextSize(label, FONT, font_scale, text_thickness)
        top = max(text_h + baseline, y1)
        # The label sits on a filled block so it reads on any table cloth.
        cv2.rectangle(out, (x1, top - text_h - baseline), (x1 + text_w + 4, top), colour, -1)
        cv2.putText(
            out,
            label,
            (x1 + 2, top - baseline),
            FONT,
            font_scale,
            (255, 255, 255),
            text_thickness,
            cv2.LINE_AA,
        )
    return out


GROUP_COLOURS = {  # BGR by the group's role in the reading
    "concealed": (255, 255, 255),
    "win": (0, 215, 255),
    "meld": (255, 160, 0),
    "flowers": (190, 70, 190),
    "ignored": (120, 120, 120),
}


def draw_groups(
    image: np.ndarray,
    boxes: Sequence[Sequence[float]],
    groups: Sequence[tuple[str, Sequence[int], str]],
    summary: str = "",
) -> np.ndarray:
    """Outline each group of the reading (role, tile indices into ``boxes``, label) on a copy
    of ``image`` and write ``summary`` across the top: how the layout was understood."""
    out = image.copy()
    sides = sorted(min(b[2] - b[0], b[3] - b[1]) for b in boxes) or [60.0]
    tile_side = sides[len(sides) // 2]
    pad = int(tile_side * 0.25)
    font_scale = float(np.clip(tile_side / 50, 0.4, 5.0))
    thickness = max(2, round(tile_side / 20))
    for role, indices, label in groups:
        members = [boxes[i] for i in indices if 0 <= i < len(boxes)]
        if not members:
            continue
        x1 = int(min(b[0] for b in members)) - pad
        y1 = int(min(b[1] for b in members)) - pad
        x2 = int(max(b[2] for b in members)) + pad
        y2 = int(max(b[3] for b in members)) + pad
        colour = GROUP_COLOURS.get(role, (255, 255, 255))
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thickness)
        (_, text_h), baseline = cv2.getTextSize(label, FONT, font_scale, thickness)
        # Below the group, where the tile labels (drawn above each tile) do not reach.
        y_text = min(out.shape[0] - baseline, y2 + text_h + baseline + 2)
        _outlined_text(out, label, (max(0, x1), y_text), font_scale, colour, thickness)
    if summary:
        scale = max(0.8, out.shape[1] / 1400)
        _outlined_text(out, summary, (20, int(45 * scale)), scale, (255, 255, 255), 2)
    return out


UNSEEN_COLOUR = (0, 0, 255)  # BGR red: a tile nobody saw, where the player should look


def draw_unseen(
    image: np.ndarray, box: Sequence[float], code: str | None, tile_side: float
) -> np.ndarray:
    """A dashed box on a copy of ``image`` where a tile the detector missed lay, labelled with
    the tile taken for it (``5m?``) or ``?``: the player looks there and checks."""
    out = image.copy()
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    thickness = max(2, round(tile_side / 20))
    dash = max(4, round(tile_side / 8))
    for (ax, ay), (bx, by) in (
        ((x1, y1), (x2, y1)),
        ((x2, y1), (x2, y2)),
        ((x2, y2), (x1, y2)),
        ((x1, y2), (x1, y1)),
    ):
        length = max(abs(bx - ax), abs(by - ay))
        for start in range(0, length, 2 * dash):
            end = min(start + dash, length)
            p = (ax + (bx - ax) * start // length, ay + (by - ay) * start // length)
            q = (ax + (bx - ax) * end // length, ay + (by - ay) * end // length)
            cv2.line(out, p, q, UNSEEN_COLOUR, thickness, cv2.LINE_AA)
    font_scale = float(np.clip(tile_side / 50, 0.4, 5.0))
    (_, text_h), _ = cv2.getTextSize("?", FONT, font_scale, thickness)
    label = f"{code}?" if code else "?"
    _outlined_text(out, label, (x1, max(text_h, y1 - 6)), font_scale, UNSEEN_COLOUR, thickness)
    return out


def _outlined_text(
    image: np.ndarray,
    text: str,
    origin: tuple[int, int],
    scale: float,
    colour: tuple[int, int, int],
    thickness: int,
) -> None:
    # A dark outline keeps the text readable on white tiles and on dark cloth alike.
    cv2.putText(image, text, origin, FONT, scale, (0, 0, 0), thickness + 3, cv2.LINE_AA)
    cv2.putText(image, text, origin, FONT, scale, colour, thickness, cv2.LINE_AA)


ANNOTATION_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
"""What a drawing may be written as: formats every viewer opens, each with an OpenCV writer."""


def annotation_target(path: Path, photo: Path | None = None) -> Path:
    """``path`` checked as a place to write a drawing, before any photo is read: a name ending
    ``ANNOTATION_SUFFIXES``, in a folder that exists or is made now, and never the ``photo``
    itself (the drawing would replace the photo it was drawn on)."""
    if path.suffix.lower() not in ANNOTATION_SUFFIXES or not cv2.haveImageWriter(str(path)):
        raise TilescoreError(
            f"cannot write an image named {str(path)!r}: give a name ending .png, .jpg or .webp"
        )
    if photo is not None and path.exists() and path.resolve() == photo.resolve():
        raise TilescoreError(
            f"--annotate {str(path)!r} is the photo itself: give another name for the drawing"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TilescoreError(
            f"cannot make the folder {str(path.parent)!r}: {error.strerror}"
        ) from None
    return path


def image_written(path: Path, image: np.ndarray) -> bool:
    """Whether ``image`` was written to ``path``, in the format its suffix names.

    Encoded by OpenCV and written by Python: ``cv2.imwrite`` given a name whose bytes are not
    UTF-8 (a photo's, as Python holds it, with lone surrogates) ended the process in a segfault.
    """
    try:
        encoded, data = cv2.imencode(path.suffix, image)
    except cv2.error:  # an unknown suffix; OpenCV's own message is lines of C++ context
        return False
    if not encoded:
        return False
    try:
        path.write_bytes(data.tobytes())
    except OSError:  # a full disk, a folder of that name, a folder we may not write
        return False
    return True


def write_image(path: Path, image: np.ndarray, what: str) -> None:
    """Write ``image`` to ``path``; a failure (a full disk, a folder of that name) is one line."""
    written = image_written(path, image)
    if not written:
        raise TilescoreError(f"cannot write {what} to {str(path)!r}")
