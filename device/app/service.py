"""What the app does with a photo: read the tiles, rebuild the hand, score it, and redo it on a fix.

Kept apart from the web layer so the same steps run from tests without a browser.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.errors import TilescoreError
from scoring.hand_json import score_json
from scoring.tiles import tile_from_code

CONTEXT_KEYS = (
    "variant",
    "seat_wind",
    "round_wind",
    "dealer_streak",
    "self_draw",
    "discarder",
    "events",
    "rules",
    "dealer",
    "players",
    "dora_indicators",
    "ura_dora_indicators",
    "honba",
    "riichi_sticks",
)


@dataclass
class Reader:
    """Loads the model pair once, on first use, and keeps the error if it cannot."""

    models_dir: Path
    threads: int | None = None
    _pipeline: Any = field(default=None, init=False)
    error: str | None = field(default=None, init=False)

    def pipeline(self) -> Any:
        if self._pipeline is None:
            from vision.pipeline import load_pipeline

            try:
                self._pipeline = load_pipeline(self.models_dir, threads=self.threads)
                self.error = None
            except TilescoreError as error:
                self.error = str(error)
                raise
        return self._pipeline

    def read(self, image: np.ndarray, red_fives: bool = True) -> list[dict[str, Any]]:
        reading = self.pipeline().read(image, red_fives=red_fives)
        return [detection_json(d) for d in reading.tiles]


def uses_red_fives(context: dict[str, Any]) -> bool:
    """Whether the table's variant and rule options count red fives; when they do not, a five
    painted red (as on most Chinese sets) is read as a plain five."""
    from scoring.variant import find_variant

    variant = find_variant(context.get("variant") or "taiwan")
    return variant.uses_red_fives(variant.resolve_rules(dict(context.get("rules") or {})))


def detection_json(detection: Any) -> dict[str, Any]:
    return {
        "code": detection.code,
        "box": [round(float(v), 1) for v in detection.box],
        "confidence": round(float(detection.confidence), 4),
        "face_down": bool(detection.face_down),
        "rotated": bool(detection.rotated),
        "low_confidence": bool(getattr(detection, "low_confidence", False)),
    }


def reconstruct(
    detections: list[dict[str, Any]], variant: str, size: tuple[int, int]
) -> dict[str, Any]:
    """The hand the layout shows, in score-JSON notation, with problems for a person to fix."""
    from vision.layout import reconstruct_json

    photo = {"image": "", "width": size[0], "height": size[1], "tiles": detections}
    return dict(reconstruct_json(photo, variant=variant))


def score_reading(reading: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    data = {k: v for k, v in reading.items() if k in ("hand", "win_tile", "melds", "flowers")}
    data.update({k: v for k, v in context.items() if k in CONTEXT_KEYS and v is not None})
    return score_json(data)


def apply_tile_fix(
    detections: list[dict[str, Any]], index: int, code: str | None, face_down: bool = False
) -> list[dict[str, Any]]:
    """A tile read again by a person: its code (validated) or face-down; confidence becomes 1."""
    if not 0 <= index < len(detections):
        raise TilescoreError(f"no tile number {index} in this photo")
    if code is not None:
        code = tile_from_code(code).code
    fixed = [dict(d) for d in detections]
    fixed[index].update(
        code=None if face_down else code,
        face_down=face_down,
        confidence=1.0,
        low_confidence=False,
        corrected=True,
    )
    return fixed


def encode_jpeg(image: np.ndarray, quality: int = 90) -> bytes:
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise TilescoreError("could not encode the photo as JPEG")
    return bytes(buffer)


def decode_upload(data: bytes) -> np.ndarray:
    array = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(array, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise TilescoreError("the uploaded file is not a readable photo")
    return image


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
