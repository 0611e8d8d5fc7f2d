"""The table app's API with the folder camera and the real shipped models."""

import io
import json
import shutil
from pathlib import Path

import pytest

from device.app.web import create_app

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"
PHOTOS = REPO / "examples" / "photos"
needs_models = pytest.mark.skipif(
    not (MODELS / "default.json").exists(), reason="no shipped models in models/"
)


@pytest.fixture
def client(tmp_path):
    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(PHOTOS / "taiwan-melds.jpg", camera / "hand.jpg")
    app = create_app(tmp_path / "data", MODELS, f"dir:{camera}")
    app.config["TESTING"] = True
    with app.test_client() as client:
        yield client


def test_status_lists_every_tile_for_the_picker(client):
    status = client.get("/api/status").get_json()
    assert len(status["tiles"]) == 59 and status["camera_error"] is None


def test_preview_is_a_jpeg(client):
    response = client.get("/api/preview.jpg")
    assert response.status_code == 200 and response.data[:2] == b"\xff\xd8"


def test_context_is_remembered_and_unknown_keys_refused(client):
    client.post("/api/context", json={"variant": "taiwan", "seat_wind": "S", "self_draw": True})
    assert client.get("/api/context").get_json()["seat_wind"] == "S"
    bad = client.post("/api/context", json={"colour": "red"})
    assert bad.status_code == 400 and "unknown context key 'colour'" in bad.get_json()["error"]


def test_missing_camera_folder_is_reported_not_fatal(tmp_path):
    app = create_app(tmp_path / "data", MODELS, f"dir:{tmp_path / 'gone'}")
    with app.test_client() as client:
        response = client.post("/api/score")
        assert response.status_code == 503 and "does not exist" in response.get_json()["error"]
        assert client.get("/api/status").status_code == 200


def test_upload_of_a_non_image_is_refused(client):
    data = {"photo": (io.BytesIO(b"hello"), "x.jpg", "image/jpeg")}
    response = client.post("/api/upload", data=data, content_type="multipart/form-data")
    assert response.status_code == 400 and "not a readable photo" in response.get_json()["error"]


@needs_models
def test_score_then_fix_a_tile_rescoring_and_keeping_the_hand(client):
    client.post("/api/context", json={"variant": "taiwan", "seat_wind": "S", "self_draw": True})
    hand = client.post("/api/score").get_json()
    assert "error" not in hand, hand
    assert hand["tiles"], "the models read no tile"
    first = hand["result"]
    index = next(i for i, t in enumerate(hand["tiles"]) if not t["face_down"])
    new_code = "1z" if hand["tiles"][index]["code"] != "1z" else "2z"
    fixed = client.post(f"/api/hands/{hand['id']}/fix", json={"tile": index, "code": new_code})
    after = fixed.get_json()
    assert after["tiles"][index]["code"] == new_code
    assert after["corrections"] == [{"tile": index, "code": new_code}]
    assert after["result"] != first or after["reading"] != hand["reading"]
    session = client.get("/api/session").get_json()
    assert [h["id"] for h in session["hands"]] == [hand["id"]]
    export = json.loads(client.get("/api/export.json").data)
    assert export["hands"][0]["corrections"]
