"""Where tile faces come from: the shared data folders, found beside the repository."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def shared_data() -> Path:
    """``../shared/data`` beside the checkout, or ``$TILESCORE_SHARED_DATA``."""
    override = os.environ.get("TILESCORE_SHARED_DATA")
    return Path(override) if override else REPO.parent / "shared" / "data"


# Our labels for camerash's ``untagged-tiles`` (image-name,code): read by the shipped classifier,
# then every read checked by eye on contact sheets and 85 of 1,050 corrected.
CAMERASH_UNTAGGED_LABELS = Path(__file__).with_name("camerash_untagged.csv")

FLUFFY_NAMES = {
    **{f"Man{n}": f"{n}m" for n in range(1, 10)},
    **{f"Pin{n}": f"{n}p" for n in range(1, 10)},
    **{f"Sou{n}": f"{n}s" for n in range(1, 10)},
    "Man5-Dora": "0m",
    "Pin5-Dora": "0p",
    "Sou5-Dora": "0s",
    "Ton": "1z",
    "Nan": "2z",
    "Shaa": "3z",
    "Pei": "4z",
    "Haku": "5z",
    "Hatsu": "6z",
    "Chun": "7z",
}

CAMERASH_LABELS = {
    **{f"dots-{n}": f"{n}p" for n in range(1, 10)},
    **{f"bamboo-{n}": f"{n}s" for n in range(1, 10)},
    **{f"characters-{n}": f"{n}m" for n in range(1, 10)},
    "honors-east": "1z",
    "honors-south": "2z",
    "honors-west": "3z",
    "honors-north": "4z",
    "honors-white": "5z",
    "honors-green": "6z",
    "honors-red": "7z",
    "bonus-spring": "1f",
    "bonus-summer": "2f",
    "bonus-autumn": "3f",
    "bonus-winter": "4f",
    "bonus-plum": "5f",
    "bonus-orchid": "6f",
    "bonus-chrysanthemum": "7f",
    "bonus-bamboo": "8f",
}

# xiangqi-pieces data.yaml order. It holds for half of the photos only: the other half (every
# photo with a box of the undeclared class 14) was labelled with one more class before the red
# pieces, so there 7 is an empty board point (no piece) and 8-14 are the red pieces in this order
# (looked at by eye, 16 boxes of each class id in each half; session 19). ``xiangqi_labels``
# reads a label file either way; nothing else should read these ids.
XIANGQI_CLASSES = {
    0: "2b",  # b_advisor 士
    1: "6b",  # b_cannon 包
    2: "4b",  # b_chariot 車
    3: "3b",  # b_elephant 象
    4: "1b",  # b_general 將
    5: "5b",  # b_horse 馬
    6: "7b",  # b_soldier 卒
    7: "2r",  # r_advisor 仕
    8: "6r",  # r_cannon 炮
    9: "4r",  # r_chariot 俥
    10: "3r",  # r_elephant 相
    11: "1r",  # r_general 帥
    12: "5r",  # r_horse 傌
    13: "7r",  # r_soldier 兵
}
_SHIFTED_MARKER = 14  # only the shifted labelling has this id
_BOARD_POINT = 7  # in the shifted labelling: an empty point of the board, not a piece


@dataclass(frozen=True)
class LabelledPiece:
    """One box of a xiangqi label file: its piece code and YOLO box (centre x, y, width, height,
    shares of the photo's size)."""

    code: str
    box: tuple[float, float, float, float]

    def corners(self, width: int, height: int) -> tuple[float, float, float, float]:
        """The box as x1, y1, x2, y2 in the pixels of a ``width`` x ``height`` photo."""
        cx, cy, w, h = self.box
        return (
            (cx - w / 2) * width,
            (cy - h / 2) * height,
            (cx + w / 2) * width,
            (cy + h / 2) * height,
        )


def xiangqi_labels(text: str) -> list[LabelledPiece]:
    """The pieces of one xiangqi-pieces label file, whichever of its two labellings it uses
    (above); the empty board points of the shifted one are left out."""
    rows = [(int(parts[0]), tuple(float(v) for v in parts[1:])) for parts in _rows(text)]
    shifted = any(class_id == _SHIFTED_MARKER for class_id, _ in rows)
    pieces = []
    for class_id, box in rows:
        if shifted and class_id == _BOARD_POINT:
            continue
        code = XIANGQI_CLASSES.get(
            class_id - 1 if shifted and class_id > _BOARD_POINT else class_id
        )
        if code is not None:
            pieces.append(LabelledPiece(code, box))  # type: ignore[arg-type]
    return pieces


def _rows(text: str) -> list[list[str]]:
    return [parts for parts in (line.split() for line in text.splitlines()) if len(parts) == 5]
