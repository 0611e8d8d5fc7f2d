"""The second look: tiles small in the detector's input are found again in an enlarged part;
the step back: a tile filling the photo is found again in the photo shrunk."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np

from tests.cli_run import REPO
from vision.boxes import iou_matrix
from vision.pipeline import load_pipeline, zoom_region

PHOTOS = REPO / "examples" / "photos"
BELOW = 34.0  # a small tile size, in input pixels, for the zoom_region cases below


def _tiles(size: float, *corners: tuple[float, float]) -> np.ndarray:
    return np.array([(x, y, x + size, y + size * 1.35) for x, y in corners], np.float32)


def _detector_runs(monkeypatch, pipeline) -> list[str]:  # type: ignore[no-untyped-def]
    """A list that grows each time ``pipeline`` runs its detector ("float") or its second look's
    network ("int8")."""
    passes: list[str] = []
    for network, name in ((pipeline.detector, "float"), (pipeline.second_look, "int8")):
        run = network.run
        monkeypatch.setattr(
            network, "run", lambda batch, run=run, name=name: passes.append(name) or run(batch)
        )
    return passes


def test_the_shipped_detector_names_its_small_tile_size() -> None:
    named = json.loads((REPO / "models" / "tile-detector.json").read_text())["zoom_below"]
    assert named > 0
    assert load_pipeline(REPO / "models", threads=1).zoom_below == named


def test_big_tiles_get_no_second_look() -> None:
    # 4000-pixel photo into 640: a tile needs 34/0.16 = 212 photo pixels to be big enough.
    boxes = _tiles(BELOW / 0.16 + 5, (1000, 1000), (1300, 1000))
    assert zoom_region(boxes, 4000, 3000, 640, BELOW) is None


def test_small_tiles_together_get_their_part_with_a_margin_of_three_tiles() -> None:
    boxes = _tiles(100, (1000, 1000), (1100, 1000), (1200, 1000))
    assert zoom_region(boxes, 4000, 3000, 640, BELOW) == (700, 700, 1600, 1435)


def test_small_tiles_spread_over_the_photo_get_no_second_look() -> None:
    boxes = _tiles(100, (100, 100), (3700, 2700))
    assert zoom_region(boxes, 4000, 3000, 640, BELOW) is None
    assert zoom_region(np.zeros((0, 4), np.float32), 4000, 3000, 640, BELOW) is None


def test_the_margin_stops_at_the_photos_edge() -> None:
    boxes = _tiles(100, (50, 2800))
    assert zoom_region(boxes, 4000, 3000, 640, BELOW) == (0, 2500, 450, 3000)


def test_a_far_away_hand_is_read_whole_with_the_second_look(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The shipped example hand at a third of its size on a plain table: a dozen pixels a tile
    # in the detector's input.
    photo = cv2.imread(str(PHOTOS / "taiwan-pinghu.jpg"))
    expected = json.loads((PHOTOS / "taiwan-pinghu.json").read_text())
    h, w = photo.shape[:2]
    small = cv2.resize(photo, (w // 3, h // 3), interpolation=cv2.INTER_AREA)
    table = np.full_like(photo, (60, 120, 50))
    table[h // 3 : h // 3 + small.shape[0], w // 4 : w // 4 + small.shape[1]] = small
    pipeline = load_pipeline(REPO / "models", threads=1)
    passes = _detector_runs(monkeypatch, pipeline)
    reading = pipeline.read(table)
    assert passes == ["float", "int8"]  # the second look runs the detector in int8
    read = Counter(t.code for t in reading.tiles)
    labelled = Counter(t["code"] for t in expected["tiles"])
    # Nothing misread; all 17 hand tiles found (the flower set apart, a third of its size,
    # may be missed).
    assert read <= labelled and read.total() >= labelled.total() - 1
    # Every box lies on the small hand, in the whole photo's pixels.
    for tile in reading.tiles:
        x1, y1, x2, y2 = tile.box
        assert w // 4 - 5 <= x1 < x2 <= w // 4 + small.shape[1] + 5
        assert h // 3 - 5 <= y1 < y2 <= h // 3 + small.shape[0] + 5
    monkeypatch.setattr(pipeline, "zoom_below", None)  # a detector whose metadata names none
    passes.clear()
    pipeline.read(table)
    assert passes == ["float"]


def _close_up(code: str) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """One tile of the shipped example hand, a quarter of a tile's margin round it, enlarged to a
    1400-pixel-high photo (a tile photographed from a hand's breadth), and its box there."""
    photo = cv2.imread(str(PHOTOS / "taiwan-pinghu.jpg"))
    expected = json.loads((PHOTOS / "taiwan-pinghu.json").read_text())
    x1, y1, x2, y2 = next(t["box"] for t in expected["tiles"] if t["code"] == code)
    margin_x, margin_y = (x2 - x1) / 4, (y2 - y1) / 4
    left, top = int(x1 - margin_x), int(y1 - margin_y)
    crop = photo[top : int(y2 + margin_y), left : int(x2 + margin_x)]
    scale = 1400 / crop.shape[0]
    big = cv2.resize(crop, (round(crop.shape[1] * scale), 1400), interpolation=cv2.INTER_CUBIC)
    box = ((x1 - left) * scale, (y1 - top) * scale, (x2 - left) * scale, (y2 - top) * scale)
    return big, box


def test_a_tile_filling_the_photo_is_read_from_a_step_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    photo, box = _close_up("4m")
    pipeline = load_pipeline(REPO / "models", threads=1)
    passes = _detector_runs(monkeypatch, pipeline)
    tiles = pipeline.read(photo).tiles
    assert passes == ["float", "float"]  # the first look found fewer than STEP_BACK_FEWER tiles
    assert [t.code for t in tiles] == ["4m"]
    # The box is mapped back from the shrunk canvas to the photo's own pixels.
    assert iou_matrix(np.array([tiles[0].box]), np.array([box]))[0, 0] > 0.7


def test_a_photo_of_many_tiles_takes_no_step_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    photo = cv2.imread(str(PHOTOS / "taiwan-pinghu.jpg"))
    pipeline = load_pipeline(REPO / "models", threads=1)
    passes = _detector_runs(monkeypatch, pipeline)
    pipeline.read(photo)
    assert passes == ["float"]
