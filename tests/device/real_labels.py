"""A labelling folder for the robustness tests: two real label files (1536 x 2048, with notes
and a tile set) beside flat stand-in photos of that size, and how the tests run `tilescore label`
on it."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np

REAL = Path(__file__).resolve().parents[2] / "datasets" / "real" / "labels"
NAMES = ("IMG_3085", "IMG_3086")


def labelling_folder(root: Path) -> Path:
    """ROOT/photos and ROOT/labels; nothing reads the stand-in photos' pixels but the yolo and
    crops exports, which read whatever is there. Each is its label's size, as a label's photo
    must be."""
    photos, labels = root / "photos", root / "labels"
    photos.mkdir()
    labels.mkdir()
    for name in NAMES:
        label = json.loads((REAL / f"{name}.json").read_text())
        flat = np.full((label["height"], label["width"], 3), 180, np.uint8)
        cv2.imwrite(str(photos / f"{name}.jpg"), flat)
        shutil.copy(REAL / f"{name}.json", labels / f"{name}.json")
    return root


def label_cmd(folder, *args):
    return ["label", str(folder / "photos"), "--labels", str(folder / "labels"), *map(str, args)]


def one_line_error(capsys, *says):
    """The one error line, with each of ``says`` in it."""
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for text in says:
        assert str(text) in err, err
    return err
