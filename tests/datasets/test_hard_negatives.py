"""Mining the detector's mistakes: only boxes mostly off every labelled tile, away from the edges."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.hard_negatives import mine, mistakes

ROOT = Path(__file__).resolve().parents[2]
TILE = np.array([[100, 100, 160, 180]], np.float32)


def test_a_box_on_a_tile_is_no_mistake_even_when_misplaced() -> None:
    found = [(100, 100, 160, 180), (110, 120, 170, 200), (130, 100, 190, 180)]
    assert mistakes(found, TILE, 640, 480) == []


def test_a_box_off_every_tile_is_a_mistake_unless_it_touches_the_edge() -> None:
    found = [(300, 300, 360, 380), (150, 170, 210, 250), (0, 200, 50, 260), (600, 10, 640, 60)]
    # The second lies 1/12 on the tile: mostly off it, a mistake.
    assert mistakes(found, TILE, 640, 480) == [0, 1]


def test_with_no_labelled_tiles_every_inner_box_is_a_mistake() -> None:
    assert mistakes([(10, 10, 50, 60)], np.zeros((0, 4), np.float32), 640, 480) == [0]
    assert mistakes([], TILE, 640, 480) == []


def test_mine_writes_crops_of_the_shipped_detectors_boxes_on_an_unlabelled_scene(
    tmp_path: Path,
) -> None:
    # The shipped example photo with its labels removed: every box the detector finds is off
    # every (now absent) labelled tile, so each becomes a not_a_tile crop.
    images = tmp_path / "detect" / "images" / "train"
    images.mkdir(parents=True)
    photo = cv2.imread(str(next((ROOT / "examples" / "photos").glob("*.jpg"))))
    small = cv2.resize(photo, (photo.shape[1] // 4, photo.shape[0] // 4))
    pad = cv2.copyMakeBorder(small, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(40, 110, 40))
    cv2.imwrite(str(images / "scene.jpg"), pad)
    written = mine(tmp_path, ROOT / "models")
    crops = list((tmp_path / "classify" / "train" / "not_a_tile").glob("scene_hn*.jpg"))
    assert written == len(crops) > 5


def test_cli_names_a_folder_that_is_not_a_build(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "datasets.synth.hard_negatives", "--build", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {tmp_path} has no detect/images/train"
