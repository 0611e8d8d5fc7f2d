"""The table app's API with the folder camera and the real shipped models."""

import io
import json
import shutil
import sqlite3
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


# -- without the models: a reader that finds nothing, so a hand is made and then fixed by hand --


@pytest.fixture
def hand_client(tmp_path):
    """A client whose reader finds no tiles: the hand is typed in as a correction, as a player
    would after a bad photo, so these tests need no models and no CPU for inference."""
    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(PHOTOS / "taiwan-melds.jpg", camera / "hand.jpg")
    app = create_app(tmp_path / "data", tmp_path / "no-models", f"dir:{camera}")
    app.config["STATE"].reader.read = lambda image, red_fives=True: []
    with app.test_client() as client:
        yield client


MELDS_HAND = {
    "hand": "234m567p33s",
    "win_tile": "3s",
    "melds": ["pon:777z", "chi:678s", "concealed_kong:9999m"],
    "flowers": "25f",
}


def _typed_hand(client, **context):
    client.post("/api/context", json={"seat_wind": "E", "self_draw": True, **context})
    hand = client.post("/api/score").get_json()
    return client.post(f"/api/hands/{hand['id']}/fix", json=MELDS_HAND).get_json()


def test_split_a_meld_into_the_hand_and_join_it_back(hand_client):
    hand = _typed_hand(hand_client)
    total = hand["result"]["total"]
    url = f"/api/hands/{hand['id']}/fix"
    split = hand_client.post(url, json={"split": 1}).get_json()
    assert split["reading"]["hand"] == "234m567p33678s"
    assert [m if isinstance(m, str) else m["tiles"] for m in split["reading"]["melds"]] == [
        "pon:777z",
        "concealed_kong:9999m",
    ]
    joined = hand_client.post(url, json={"join": "6s 7s 8s", "meld": "chi"}).get_json()
    assert joined["reading"]["hand"] == "234m567p33s"
    assert joined["reading"]["melds"][-1] == {"type": "chi", "tiles": "678s"}
    assert joined["result"]["total"] == total
    missing = hand_client.post(url, json={"join": "1z1z1z", "meld": "pon"})
    assert missing.status_code == 400
    assert missing.get_json() == {"error": "1z is not among the concealed tiles"}
    assert hand_client.post(url, json={"split": 9}).get_json() == {
        "error": "no meld number 9 in this hand"
    }


def test_marked_winning_tile_is_kept_with_its_box(hand_client):
    hand = _typed_hand(hand_client)
    fixed = hand_client.post(
        f"/api/hands/{hand['id']}/fix", json={"win_tile": "4m", "win_index": 2}
    ).get_json()
    assert fixed["reading"]["win_tile"] == "4m" and fixed["reading"]["win_index"] == 2
    assert fixed["result"]["total"] != hand["result"]["total"]  # 單吊 3s became a 4m win


def test_a_discard_win_pays_once_the_discarder_is_named(hand_client):
    hand = _typed_hand(hand_client, self_draw=False, discarder=None)
    assert hand["result"]["winning"] and hand["result"]["payments"] == []
    named = hand_client.post(
        f"/api/hands/{hand['id']}/fix", json={"context": {"discarder": "S"}}
    ).get_json()
    assert named["result"]["payments"] == [{"payer": "S", "payee": "E", "amount": 220}]
    assert named["seats"] == {"E": "East", "S": "South", "W": "West", "N": "North"}
    totals = json.loads(hand_client.get("/api/session").data)["totals"]
    assert list(totals.items()) == [("East", 220), ("South", -220), ("West", 0), ("North", 0)]


def test_the_session_moves_the_streak_and_a_fix_moves_it_back(hand_client):
    hand = _typed_hand(hand_client)
    assert hand["context"]["dealer_streak"] == 0
    assert hand_client.get("/api/context").get_json()["dealer_streak"] == 1  # the dealer won
    next_hand = _typed_hand(hand_client)
    assert next_hand["context"]["dealer_streak"] == 1
    assert next_hand["result"]["total"] == hand["result"]["total"] + 2  # 連1拉1
    # The winner was South after all: the deal passes, the streak ends.
    hand_client.post(f"/api/hands/{next_hand['id']}/fix", json={"context": {"seat_wind": "S"}})
    session = hand_client.get("/api/session").get_json()["session"]
    assert (session["streak"], session["seats"]["E"]) == (0, "South")
    # The table sets the streak by hand (a drawn hand): the next hand is scored with it.
    hand_client.post("/api/context", json={"dealer_streak": 3, "round_wind": "S"})
    context = hand_client.get("/api/context").get_json()
    assert (context["dealer_streak"], context["round_wind"]) == (3, "S")


def test_undo_puts_the_streak_back(hand_client):
    _typed_hand(hand_client)
    assert hand_client.get("/api/context").get_json()["dealer_streak"] == 1
    hand_client.post("/api/undo")
    assert hand_client.get("/api/context").get_json()["dealer_streak"] == 0
    assert hand_client.get("/api/session").get_json()["hands"] == []


def test_exports_name_the_players(hand_client):
    _typed_hand(hand_client)
    csv_text = hand_client.get("/api/export.csv").data.decode()
    header, row = csv_text.strip().splitlines()
    assert header.split(",")[4:6] == ["winner", "won_by"]
    assert "East (E),self-draw" in row and "South (S)->East (E) 240" in row
    response = hand_client.get("/api/export.json")
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.get_json()["hands"][0]["corrections"] == [MELDS_HAND]


def test_status_gives_each_rule_set_its_events_by_name(hand_client):
    variants = hand_client.get("/api/status").get_json()["variants"]
    taiwan = {e["code"]: e["name"] for e in variants["taiwan"]["events"]}
    assert taiwan["last_tile"] == "海底撈月" and taiwan["after_kong"] == "槓上開花"
    assert "last_discard" in taiwan  # every event the rule set takes, from the scorer itself
    assert variants["xiangqi"]["pieces"] and not variants["riichi"]["flowers"]


def test_missing_models_are_reported_before_anyone_scores(hand_client):
    status = hand_client.get("/api/status").get_json()
    assert "default.json is missing" in status["model_error"]


def test_empty_camera_folder_is_reported_in_words(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    app = create_app(tmp_path / "data", MODELS, f"dir:{empty}")
    with app.test_client() as client:
        preview = client.get("/api/preview.jpg")
        assert preview.status_code == 503 and "has no photos" in preview.get_json()["error"]
        assert "has no photos" in client.get("/api/status").get_json()["camera_error"]
        shutil.copy(PHOTOS / "taiwan-pinghu.jpg", empty / "hand.jpg")  # plugged back in
        state = app.config["STATE"]
        assert client.get("/api/preview.jpg").status_code == 503  # not tried again at once
        state.camera_failed_at -= 1.5  # polled on in the meantime: the wait still runs out
        assert client.get("/api/preview.jpg").status_code == 503
        state.camera_failed_at -= 1.0
        assert client.get("/api/preview.jpg").status_code == 200
        assert client.get("/api/status").get_json()["camera_error"] is None


def test_a_full_disk_is_one_line_and_the_app_keeps_running(hand_client, monkeypatch):
    from device.store import Store

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Store, "add_hand", full)
    response = hand_client.post("/api/score")
    assert response.status_code == 507
    assert response.get_json()["error"].startswith("the disk is full: the hand was not saved")
    assert hand_client.get("/api/status").status_code == 200


def test_bad_requests_get_one_line_not_a_traceback(hand_client, monkeypatch):
    hand = _typed_hand(hand_client)
    bad = hand_client.post(f"/api/hands/{hand['id']}/fix", json={"tile": "a"})
    assert bad.status_code == 400 and bad.get_json() == {
        "error": "tile must be a whole number, got 'a'"
    }
    bad_seat = hand_client.post("/api/context", json={"discarder": "X"})
    assert bad_seat.get_json() == {"error": "discarder must be one of E S W N, got 'X'"}
    assert hand_client.get("/api/nothing").get_json() == {"error": "404 not found"}
    from device.app import service

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(service, "score_reading", broken)
    crash = hand_client.post(f"/api/hands/{hand['id']}/fix", json={"win_tile": "3s"})
    assert crash.status_code == 500
    assert crash.get_json() == {"error": "internal error: RuntimeError: boom"}


def test_upload_too_large_or_of_the_wrong_type_is_refused(hand_client):
    big = {"photo": (io.BytesIO(b"\xff\xd8" + bytes(26 * 2**20)), "x.jpg", "image/jpeg")}
    too_large = hand_client.post("/api/upload", data=big, content_type="multipart/form-data")
    assert too_large.status_code == 413 and too_large.get_json() == {
        "error": "photo larger than 25 MB"
    }
    text = {"photo": (io.BytesIO(b"hello"), "x.txt", "text/plain")}
    wrong = hand_client.post("/api/upload", data=text, content_type="multipart/form-data")
    assert wrong.status_code == 400 and "is not JPEG, PNG, WebP or BMP" in wrong.get_json()["error"]


def test_network_clients_need_the_pin_and_guessing_is_slowed(tmp_path):
    app = create_app(tmp_path / "data", tmp_path / "no-models", "dir:/nowhere", pin="123456")
    phone = {"REMOTE_ADDR": "192.0.2.9"}
    with app.test_client() as client:
        refused = client.get("/api/session", environ_base=phone)
        assert refused.status_code == 403 and refused.get_json()["pin_required"]
        assert client.get("/", environ_base=phone).status_code == 200  # the page asks for it
        assert client.get("/api/status").get_json()["pin"] == "123456"  # the display shows it
        assert client.get("/api/status", environ_base=phone).status_code == 403
        for _ in range(5):
            assert (
                client.post("/pin", json={"pin": "000000"}, environ_base=phone).status_code == 403
            )
        locked = client.post("/pin", json={"pin": "123456"}, environ_base=phone)
        assert locked.status_code == 429 and "too many wrong PINs" in locked.get_json()["error"]
    with app.test_client() as client:
        other = {"REMOTE_ADDR": "192.0.2.10"}
        assert client.post("/pin", json={"pin": "123456"}, environ_base=other).status_code == 200
        assert client.get("/api/session", environ_base=other).status_code == 200


def test_round_wind_and_streak_set_before_the_first_hand_are_used(hand_client):
    hand_client.post("/api/context", json={"round_wind": "S", "dealer_streak": 2})
    hand = _typed_hand(hand_client)
    assert (hand["context"]["round_wind"], hand["context"]["dealer_streak"]) == ("S", 2)
    assert "連2拉2" in [item["name"] for item in hand["result"]["items"]]
