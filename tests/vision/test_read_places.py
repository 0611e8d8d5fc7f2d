"""The shipped classifier reading places where the layout says a missed tile lies, on the shipped
example photos: a tile's place reads it, an empty place reads nothing; through ``score PHOTO``
and the table app, a tile the detector missed is read where it lies, said, and kept."""

from __future__ import annotations

import json

import pytest

from device.cli import main
from tests.device.typed_hands import PHOTOS
from tests.layout.test_layout import same
from vision.annotate import label_of
from vision.images import load_photo
from vision.layout.gap import box_between
from vision.layout.tiles import LayoutTile
from vision.models import SHIPPED_MODELS
from vision.pipeline import TilePipeline, load_pipeline

PINGHU = PHOTOS / "taiwan-pinghu.jpg"
MISSED = "4p"  # in the row, between 3p and 5p
WHOLE_HAND = "123456789m234567p11s"  # the 7p apart, the winning tile


@pytest.fixture(scope="module")
def pinghu():
    photo = load_photo(PINGHU)
    pipeline = load_pipeline(SHIPPED_MODELS)
    return photo, pipeline, pipeline.read(photo.pixels).tiles


def _place_of(tiles, code):
    index = next(i for i, t in enumerate(tiles) if t.code == code)
    before, after = (LayoutTile(0, None, tiles[i].box) for i in (index - 1, index + 1))
    return index, box_between(before, after)


def test_a_tiles_place_reads_it_and_an_empty_place_reads_nothing(pinghu):
    photo, pipeline, tiles = pinghu
    _, place = _place_of(tiles, MISSED)
    (read,) = pipeline.read_places(photo.pixels, [place])
    assert read.code == MISSED and read.detector_confidence == 0.0
    assert read.confidence >= 0.9 and not read.rotated
    x1, y1, x2, y2 = place
    felt = (x1, y1 - 3 * (y2 - y1), x2, y2 - 3 * (y2 - y1))  # three tiles above the row
    assert pipeline.read_places(photo.pixels, [felt]) == []


def test_a_place_mostly_past_the_photos_edge_is_not_read(pinghu):
    # A third of a 3m, at the edge of a photo cut through it, stretched to a tile's size, read
    # as a blank 白 at 0.82.
    photo, pipeline, tiles = pinghu
    x1, y1, x2, y2 = next(t for t in tiles if t.code == "3m").box
    cut = photo.pixels[:, int(x1 + 0.7 * (x2 - x1)) :]
    shift = photo.pixels.shape[1] - cut.shape[1]
    assert pipeline.read_places(cut, [(x1 - shift, y1, x2 - shift, y2)]) == []


def test_a_flowers_place_reads_it_only_where_flowers_are_in_play(pinghu):
    photo, pipeline, tiles = pinghu
    flower = next(t for t in tiles if t.code == "2f")
    assert [t.code for t in pipeline.read_places(photo.pixels, [flower.box])] == ["2f"]
    assert pipeline.read_places(photo.pixels, [flower.box], flowers=False) == []


def test_a_tile_read_in_its_place_is_drawn_as_a_doubtful_one(pinghu):
    photo, pipeline, tiles = pinghu
    _, place = _place_of(tiles, MISSED)
    (read,) = pipeline.read_places(photo.pixels, [place])
    sure = next(t for t in tiles if t.code == MISSED)
    assert (label_of(read), label_of(sure)) == ("4p?", "4p")


def _detector_missing(monkeypatch, code):
    """The pipeline's reads without the tile ``code``: as if the detector had missed it."""
    read = TilePipeline.read

    def missing(self, image, *args, **kwargs):
        reading = read(self, image, *args, **kwargs)
        return type(reading)(tuple(t for t in reading.tiles if t.code != code), reading.timing_ms)

    monkeypatch.setattr(TilePipeline, "read", missing)


def test_score_photo_reads_a_missed_tile_where_it_lies(monkeypatch, capsys):
    _detector_missing(monkeypatch, MISSED)
    assert main(["score", str(PINGHU), "--seat", "S", "--discarder", "N", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["result"]["winning"] is True
    assert same(out["reading"]["hand"], WHOLE_HAND)
    said = "tile 4p not found by the detector, read in its place in the hand: check it"
    assert said in out["problems"]
    # The tile read is the photo's last, where the reading's tile numbers say it is.
    assert out["tiles"][-1]["code"] == MISSED and out["tiles"][-1]["placed"] is True


def test_the_app_keeps_a_missed_tile_read_where_it_lies(monkeypatch, tmp_path):
    from device.app.web import create_app
    from tests.device.bare_app import session

    _detector_missing(monkeypatch, MISSED)
    app = create_app(tmp_path / "data", SHIPPED_MODELS, f"dir:{tmp_path / 'camera'}")
    with app.test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "discarder": "N"})
        with open(PINGHU, "rb") as photo:
            hand = client.post("/api/upload", data={"photo": (photo, "hand.jpg")}).get_json()
        assert hand["result"]["winning"] is True, hand
        assert any("4p not found by the detector" in p for p in hand["problems"])
        assert hand["tiles"][-1]["code"] == MISSED
        # Kept with the hand: a fix read from the kept tiles still holds it.
        fixed = client.post(
            f"/api/hands/{hand['id']}/fix", json={"context": {"discarder": "W"}}
        ).get_json()
        assert same(fixed["reading"]["hand"], WHOLE_HAND) and fixed["result"]["winning"] is True
        assert hand["tiles"][-1].get("placed") is True
        assert fixed["tiles"][-1].get("placed") is True  # kept with the hand's tiles
        # Still asked about: the kept tile says it was read in a place, not found.
        assert any("4p not found by the detector" in p for p in fixed["problems"])
        # Read again by a person (tapped, 4p chosen): checked, no longer asked about.
        tile = len(hand["tiles"]) - 1
        checked = client.post(
            f"/api/hands/{hand['id']}/fix", json={"tile": tile, "code": MISSED}
        ).get_json()
        assert not any("not found by the detector" in p for p in checked["problems"])
        assert "placed" not in checked["tiles"][-1] and checked["result"]["winning"] is True
        assert [h["id"] for h in session(client)["hands"]] == [hand["id"]]
