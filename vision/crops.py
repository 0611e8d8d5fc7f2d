"""The classifier's view of each tile: an upright crop of the full-resolution photo, batched."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.images import to_model_colours

if TYPE_CHECKING:
    from vision.models import OnnxModel


def crop_upright(
    image: np.ndarray, box: np.ndarray | tuple[float, ...], rotated: bool, size: tuple[int, int]
) -> np.ndarray:
    """The box cut from the photo, turned a quarter when the tile lies sideways, and squeezed to
    ``size`` (height, width) without keeping the aspect ratio.

    This is exactly how the training crops were made (datasets/synth/build.py ``upright_crop``):
    the classifier is invariant to a half turn, so the direction of the quarter turn is free.
    """
    crop = box_pixels(image, box)
    if crop is None:
        return np.zeros((size[0], size[1], 3), np.uint8)
    if rotated:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(crop, (size[1], size[0]), interpolation=cv2.INTER_AREA)


def box_pixels(image: np.ndarray, box: np.ndarray | tuple[float, ...]) -> np.ndarray | None:
    """The photo's pixels inside a box (rounded to whole pixels, cut at the photo's edges), as
    they are; None when nothing of the box lies in the photo."""
    height, width = image.shape[:2]
    x1, y1, x2, y2 = (int(round(float(v))) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(width, x2), min(height, y2)
    if x2 <= x1 or y2 <= y1:
        return None
    return image[y1:y2, x1:x2]


def to_batch(images_bgr: list[np.ndarray], scale: float, channel_order: str = "RGB") -> np.ndarray:
    """BGR uint8 images of one size to the NCHW float32 batch a network takes."""
    batch = np.stack([to_model_colours(i, channel_order) for i in images_bgr]).astype(np.float32)
    batch *= np.float32(scale)
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))


def read_crops(model: OnnxModel, crops: list[np.ndarray]) -> np.ndarray:
    """One classifier's probabilities for the crops, in one batch."""
    info = model.info
    if not crops:
        return np.zeros((0, len(info.classes)), np.float32)
    batch = to_batch(crops, info.scale, info.channel_order)
    if model.dynamic_batch:
        return model.run(batch)
    # A static batch of one: one call per tile (slower; export with dynamic=True instead).
    return np.concatenate([model.run(batch[i : i + 1]) for i in range(len(batch))])
