"""A tile the detector missed, on a real photo: ``tilescore score PHOTO`` takes the one tile that
wins and points at the gap it left, in its JSON and on the drawing."""

import json

import cv2
import numpy as np

from tests.cli_run import tilescore
from tests.painted import pinghu_without
from vision.annotate import UNSEEN_COLOUR


def _red_share(image, box):
    """The share of pixels on the box's outline drawn in the unseen tile's colour."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    edge = np.concatenate([image[y1, x1:x2], image[y2, x1:x2], image[y1:y2, x1], image[y1:y2, x2]])
    return float(np.mean(np.all(np.abs(edge.astype(int) - UNSEEN_COLOUR) < 60, axis=1)))


def test_the_gap_a_missed_tile_left_is_pointed_at_and_drawn(tmp_path):
    image, five = pinghu_without(4)  # 1234m 6789m: only 5m makes the hand win
    assert five["code"] == "5m"
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), image)
    drawing = tmp_path / "drawn.png"
    run = tilescore("score", photo, "--seat", "S", "--json", "--annotate", drawing)
    assert run.returncode == 0, run.stderr
    reading = json.loads(run.stdout)["reading"]
    assert reading["hand"].startswith("123456789m")
    unseen = reading["unseen"]
    assert unseen["code"] == "5m"
    width = five["box"][2] - five["box"][0]
    assert all(abs(a - b) < 0.2 * width for a, b in zip(unseen["box"], five["box"], strict=True))
    drawn = cv2.imread(str(drawing))
    assert _red_share(drawn, unseen["box"]) > 0.3
    assert _red_share(image, unseen["box"]) < 0.05  # the photo had none there
