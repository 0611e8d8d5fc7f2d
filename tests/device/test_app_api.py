"""The table app's API with the folder camera and the real shipped models."""

import io
import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from device.app.web import create_app
from tests.device.typed_hands import MELDS_HAND, app_reading, one_tile, typed

REPO = Path(__file__).resolve().parents[2]
PIECE_READER = ("piece-classifier.json", "piece-classifier.onnx")  # default.json names it
SECOND_OPINION = ("tile-classifier-second.json", "tile-classifier-second.onnx")  # and it
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


def test_a_discarder_that_the_kept_table_contradicts_is_refused(client):
    # Page B changes only the discarder after page A set a self-draw or made that seat the
    # winner: saved, the table's next hand was refused.
    assert (
        client.post("/api/context", json={"seat_wind": "S", "self_draw": True}).status_code == 200
    )
    refused = client.post("/api/context", json={"discarder": "E"})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "discarder E with a self-draw: a self-draw has none"
    client.post("/api/context", json={"self_draw": False, "discarder": None})
    refused = client.post("/api/context", json={"discarder": "S"})
    assert (
        refused.get_json()["error"]
        == "discarder S is the winner: a winner does not discard to himself"
    )
    assert client.get("/api/context").get_json()["discarder"] is None  # nothing saved
    assert client.post("/api/context", json={"discarder": "W"}).status_code == 200


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
    assert response.status_code == 400 and "not a readable image" in response.get_json()["error"]


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


# -- without the models: a reader that finds one tile, so a hand is made and then fixed by hand --


@pytest.fixture
def hand_client(tmp_path):
    """A client whose reader finds one tile: the hand is typed in as a correction, as a player
    would after a bad photo, so these tests need no models and no CPU for inference."""
    with app_reading(tmp_path).test_client() as client:
        yield client


def _typed_hand(client, **context):
    client.post("/api/context", json={"seat_wind": "E", "self_draw": True, **context})
    return typed(client, MELDS_HAND)


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
    boxes = [
        {"code": "4m", "box": [i * 40, 0, i * 40 + 38, 50], "face_down": False} for i in range(3)
    ]
    hand_client.application.config["STATE"].reader.read = lambda *args, **kwargs: boxes
    hand = _typed_hand(hand_client)
    fixed = hand_client.post(
        f"/api/hands/{hand['id']}/fix", json={"win_tile": "4m", "win_index": 2}
    ).get_json()
    assert fixed["reading"]["win_tile"] == "4m" and fixed["reading"]["win_index"] == 2
    assert fixed["result"]["total"] != hand["result"]["total"]  # 單吊 3s became a 4m win
    # A box the photo does not have is refused: the display would mark no tile.
    beyond = hand_client.post(
        f"/api/hands/{hand['id']}/fix", json={"win_tile": "4m", "win_index": 3}
    )
    assert beyond.status_code == 400
    assert beyond.get_json() == {"error": "no tile number 3 in this photo"}


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


def test_a_xiangqi_table_scores_by_its_chairs_and_reaches_the_scoreboard(hand_client):
    # xiangqi has no winds (dealer true or false, seats left/across/right from the winner);
    # the app's chairs are winds, so it was refused, and its payments reached no total.
    hand_client.post("/api/context", json={"variant": "xiangqi"})
    hand_client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "W"})
    hand = hand_client.post("/api/score").get_json()
    fixed = hand_client.post(
        f"/api/hands/{hand['id']}/fix", json={"hand": "士象車帥將", "win_tile": "將"}
    ).get_json()
    result = fixed["result"]
    assert result["winning"], result
    paid = 4 * result["base_points"]  # 放給閒家 ×4
    assert result["payments"] == [{"payer": "W", "payee": "S", "amount": paid}]
    totals = json.loads(hand_client.get("/api/session").data)["totals"]
    assert list(totals.items()) == [("East", 0), ("South", paid), ("West", -paid), ("North", 0)]


def test_a_hand_past_the_most_a_hand_counts_says_so_beside_its_items(hand_client):
    # 明將: the items add up to 14 番 and the total is 10; only the result's keys said why.
    hand_client.post("/api/context", json={"variant": "mingjiang"})
    hand_client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "W"})
    hand = hand_client.post("/api/score").get_json()
    fixed = hand_client.post(
        f"/api/hands/{hand['id']}/fix",
        json={"hand": "123m555z666z777z99m", "win_tile": "9m", "melds": [], "flowers": ""},
    ).get_json()
    assert fixed["result"]["total"] == 10 and fixed["total_note"] == ""
    assert fixed["result_notes"] == [
        "十番爆棚: the items add up to 14 番, and no hand counts more than 10"
    ]


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


def _mingjiang_hand(client, hand, win, **context):
    client.post("/api/context", json={"variant": "mingjiang"})
    client.post("/api/context", json={"self_draw": False, "events": [], **context})
    scored = client.post("/api/score").get_json()
    melds = hand.split(" ")[1:]
    fix = {"hand": hand.split(" ")[0], "win_tile": win, "melds": melds, "flowers": ""}
    return client.post(f"/api/hands/{scored['id']}/fix", json=fix).get_json()


def test_in_mingjiang_the_deal_passes_every_hand_a_chicken_hand_moves_nothing(hand_client):
    # 002: 冇冧莊. The dealer's win kept the deal (streak 1), so every later hand was scored
    # at the wrong winds; a 雞糊 under 方案一, after which the hand goes on, passed it.
    won = _mingjiang_hand(hand_client, "234m567p345s678s99m", "5p", seat_wind="E", discarder="S")
    assert won["result"]["winning"] and won["result"]["total"] > 0
    session = hand_client.get("/api/session").get_json()["session"]
    assert (session["streak"], session["seats"]["E"]) == (0, "South")
    chicken = _mingjiang_hand(
        hand_client, "234m99p chi:567s pon:888p chi:123m", "9p", seat_wind="S", discarder="W"
    )
    assert chicken["result"]["hand_continues"] is True
    session = hand_client.get("/api/session").get_json()["session"]
    assert (session["streak"], session["seats"]["E"]) == (0, "South")


def test_a_riichi_draw_paid_as_a_mangan_moves_no_deal_and_honba_is_the_streak(hand_client):
    hand_client.post("/api/context", json={"variant": "riichi", "honba": 2})
    assert hand_client.get("/api/context").get_json()["honba"] == 2  # it was answered 0
    twice = hand_client.post("/api/context", json={"honba": 1, "dealer_streak": 3})
    assert twice.status_code == 400 and "said twice" in twice.get_json()["error"]
    assert hand_client.get("/api/context").get_json()["honba"] == 2  # nothing saved
    hand_client.post(
        "/api/context",
        json={
            "seat_wind": "S",
            "self_draw": False,
            "discarder": None,
            "events": ["nagashi_mangan"],
        },
    )
    drawn = hand_client.post("/api/score").get_json()
    assert drawn["result"]["drawn"] is True and drawn["result"]["payments"]
    session = hand_client.get("/api/session").get_json()["session"]
    assert (session["streak"], session["seats"]["E"]) == (2, "East")  # the table sets it


def test_riichi_sticks_are_paid_to_the_winner_by_the_chairs_that_put_them_there(hand_client):
    # The scorer pays 供託 from "table", which reached no chair: every hand with sticks failed.
    hand_client.post("/api/context", json={"variant": "riichi"})
    refused = hand_client.post("/api/context", json={"riichi_sticks": 1})
    assert refused.status_code == 400 and "riichi_sticks_by" in refused.get_json()["error"]
    said = hand_client.post("/api/context", json={"riichi_sticks_by": {"W": 1}})
    assert said.status_code == 400 and "one hand" in said.get_json()["error"]
    hand_client.post(
        "/api/context",
        json={"seat_wind": "S", "self_draw": False, "discarder": "E", "events": ["riichi"]},
    )
    scored = hand_client.post("/api/score").get_json()
    url = f"/api/hands/{scored['id']}/fix"
    hand = {"hand": "234567m222p55678s", "win_tile": "8s", "melds": [], "flowers": ""}
    plain = hand_client.post(url, json=hand).get_json()["result"]["payments"]
    assert plain == [{"payer": "E", "payee": "S", "amount": 2600}]
    # West declared riichi too, and a stick of South's own lies there from a drawn hand.
    fixed = hand_client.post(
        url, json={"context": {"riichi_sticks_by": {"W": 1, "S": 1, "N": 0}}}
    ).get_json()
    assert fixed["context"]["riichi_sticks_by"] == {"W": 1, "S": 1}
    assert fixed["result"]["payments"] == [
        {"payer": "E", "payee": "S", "amount": 2600},
        {"payer": "W", "payee": "S", "amount": 1000},
    ]
    totals = hand_client.get("/api/session").get_json()["totals"]
    assert list(totals.values()) == [-2600, 3600, -1000, 0] and sum(totals.values()) == 0
    # One hand's: the next hand starts with none, and a rule set without sticks refuses them.
    assert "riichi_sticks_by" not in hand_client.get("/api/context").get_json()
    moved = hand_client.post(url, json={"context": {"variant": "taiwan"}}).get_json()
    assert "riichi_sticks_by" not in moved["context"] or not moved["context"]["riichi_sticks_by"]
    taiwan = hand_client.post(url, json={"context": {"riichi_sticks_by": {"W": 1}}})
    assert taiwan.status_code == 400 and "not used in taiwan" in taiwan.get_json()["error"]


def test_a_run_of_draws_ends_with_the_hand_it_came_before(hand_client):
    # xiangqi's 連續流局次數 (draws_in_a_row) is the drawn hands just before a hand: kept in the
    # table's rules, it charged every later winner's payer its surcharge again.
    hand_client.post("/api/context", json={"variant": "xiangqi"})
    hand_client.post(
        "/api/context",
        json={"seat_wind": "S", "self_draw": False, "discarder": "W",
              "rules": {"draws_in_a_row": 1, "ready_payment": 250}},
    )  # fmt: skip
    first = hand_client.post("/api/score").get_json()
    assert first["context"]["rules"]["draws_in_a_row"] == 1
    assert hand_client.get("/api/context").get_json()["rules"] == {"ready_payment": 250}
    second = hand_client.post("/api/score").get_json()
    assert "draws_in_a_row" not in second["context"]["rules"]
    hand_client.post("/api/undo")
    assert hand_client.get("/api/context").get_json()["rules"] == {"ready_payment": 250}
    hand_client.post("/api/undo")  # the first hand undone: the run is the next hand's again
    assert hand_client.get("/api/context").get_json()["rules"]["draws_in_a_row"] == 1


def test_riichi_counters_go_with_a_move_to_a_rule_set_without_them(hand_client):
    # Taiwan took dora without a word (a table that set them thought them scored); kept after a
    # move from riichi, they would now refuse every hand.
    assert hand_client.post("/api/context", json={"dora_indicators": ["3m"]}).status_code == 400
    hand_client.post("/api/context", json={"variant": "riichi", "dora_indicators": ["3m"]})
    moved = hand_client.post("/api/context", json={"variant": "taiwan"}).get_json()
    assert not moved.get("dora_indicators")
    hand = _typed_hand(hand_client)
    assert hand["result"]["winning"], hand["result"]


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


def test_status_gives_each_rule_set_the_options_a_table_chooses(hand_client):
    variants = hand_client.get("/api/status").get_json()["variants"]
    taiwan = {o["name"]: o for o in variants["taiwan"]["options"]}
    assert taiwan["tai_value"] == {
        "name": "tai_value",
        "kind": "int",
        "default": 20,
        "choices": [],
        "minimum": 0,
        "doc": "台值: points per 台",
    }
    assert taiwan["flower_kong"]["kind"] == "bool" and taiwan["flower_kong"]["minimum"] is None
    assert taiwan["single_wait"]["choices"] == ["one_tile", "shape"]
    xiangqi = {o["name"] for o in variants["xiangqi"]["options"]}
    # Where the dealer sits the app says from its chairs: no table is asked.
    assert "dealer_seat" not in xiangqi and "draws_in_a_row" in xiangqi
    assert [o["name"] for o in variants["riichi"]["options"]] == ["red_fives", "noten_payment"]


def test_missing_models_are_reported_before_anyone_scores(hand_client):
    status = hand_client.get("/api/status").get_json()
    assert "default.json is missing" in status["model_error"]


@needs_models
def test_a_missing_second_opinion_is_reported_before_anyone_scores(tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    pair = ("tile-detector.json", "tile-detector.onnx", "tile-detector.int8.onnx")
    pair += ("tile-classifier.json", "tile-classifier.onnx")
    for name in ("default.json", *pair, *PIECE_READER):  # default.json names the second opinion
        shutil.copy(MODELS / name, models / name)
    camera = tmp_path / "camera"
    camera.mkdir()
    app = create_app(tmp_path / "data", models, f"dir:{camera}")
    with app.test_client() as client:
        error = client.get("/api/status").get_json()["model_error"]
    assert error.startswith("cannot read tiles:") and "tile-classifier-second.json" in error


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
    for meld in (["chi"], {}, 3):  # a list or object was a 500 (unhashable)
        join = hand_client.post(
            f"/api/hands/{hand['id']}/fix", json={"join": "2m3m4m", "meld": meld}
        )
        assert join.status_code == 400 and "cannot join tiles as" in join.get_json()["error"]
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


def test_a_large_upload_is_read_and_kept_at_the_size_the_models_read(hand_client):
    import cv2
    import numpy as np

    photo = cv2.imread(str(PHOTOS / "taiwan-melds.jpg"))
    large = cv2.resize(photo, (4800, 3600), interpolation=cv2.INTER_LINEAR)  # 17 megapixels
    jpeg = cv2.imencode(".jpg", large, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
    data = {"photo": (io.BytesIO(jpeg), "big.jpg", "image/jpeg")}
    hand = hand_client.post("/api/upload", data=data, content_type="multipart/form-data")
    assert hand.status_code == 200, hand.get_json()
    view = hand.get_json()
    assert (view["width"], view["height"]) == (2400, 1800)  # decoded at half by libjpeg
    kept = hand_client.get(view["photo"]).data
    assert cv2.imdecode(np.frombuffer(kept, np.uint8), cv2.IMREAD_COLOR).shape == (1800, 2400, 3)
    cut = {"photo": (io.BytesIO(jpeg[: len(jpeg) // 2]), "cut.jpg", "image/jpeg")}
    refused = hand_client.post("/api/upload", data=cut, content_type="multipart/form-data")
    assert refused.status_code == 400 and "truncated" in refused.get_json()["error"]


def test_the_same_photo_uploaded_twice_is_recorded_once(tmp_path, monkeypatch):
    # Sent twice with Photo…, it was recorded twice: paid twice, the deal moved twice (helper
    # 64). A Score tap of the same tiles was shown again already.
    def upload(client):
        photo = (PHOTOS / "taiwan-pinghu.jpg").read_bytes()
        data = {"photo": (io.BytesIO(photo), "IMG_1.jpg", "image/jpeg")}
        sent = client.post("/api/upload", data=data, content_type="multipart/form-data")
        assert sent.status_code == 200, sent.get_json()
        return sent.get_json()

    labels = _label_reader()
    with app_reading(tmp_path, reads=lambda: labels(None)).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "W"})
        first = upload(client)
        assert first["result"]["winning"] is True and "repeat_of" not in first
        assert upload(client)["repeat_of"] == first["id"]
        # Sent again after a change on the Table screen: the hand as it should have been.
        client.post("/api/context", json={"discarder": "N"})
        rescored = upload(client)
        assert "repeat_of" not in rescored and rescored["context"]["discarder"] == "N"
        # Long after, the same tiles are a new hand.
        later = time.time() + 600
        monkeypatch.setattr(time, "time", lambda: later)
        assert "repeat_of" not in upload(client)
        hands = client.get("/api/session").get_json()["hands"]
        assert len(hands) == 3 and first["id"] == hands[0]["id"]


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


# -- scoring by itself when the hand is still: the folder camera, a clock the test turns --


class Table:
    """The folder camera's one photo is what lies on the table; ``poll`` is the page asking for
    a preview frame at a given time (the detector's clock is the test's)."""

    def __init__(self, app, folder):
        self.app = app
        self.state = app.config["STATE"]
        self.folder = folder
        self.now = 0.0
        self.state.clock = lambda: self.now
        self.client = app.test_client()
        self.reads = 0
        read = self.state.reader.read

        def counted(image, red_fives=True, variant=None):
            self.reads += 1
            return read(image, red_fives, variant)

        self.state.reader.read = counted

    def lay(self, image):
        import cv2

        cv2.imwrite(str(self.folder / "hand.png"), image)

    def wait(self, seconds, step=0.5):
        """The page polls the preview every ``step`` seconds for ``seconds``."""
        end = self.now + seconds
        while self.now < end:
            self.now += step
            assert self.client.get("/api/preview.jpg").status_code == 200

    def hands(self):
        return self.client.get("/api/session").get_json()["hands"]

    def still(self):
        return self.client.get("/api/still").get_json()


def _photo(name="taiwan-pinghu"):
    import cv2

    return cv2.imread(str(PHOTOS / f"{name}.jpg"))


def _with_arm(image):
    """A dark sleeve reaching over the table from the bottom edge."""
    out = image.copy()
    out[400:, 500:900] = (30, 30, 30)
    return out


def _without_tiles(image, indices, name="taiwan-pinghu"):
    """The photo with these tiles (numbers in its label) not laid yet: table cloth in their
    place, cut from further down the same photo."""
    out = image.copy()
    tiles = json.loads((PHOTOS / f"{name}.json").read_text())["tiles"]
    for i in indices:
        x1, y1, x2, y2 = (int(round(v)) for v in tiles[i]["box"])
        out[y1 - 3 : y2 + 3, x1 - 3 : x2 + 3] = image[y1 + 297 : y2 + 303, x1 - 3 : x2 + 3]
    return out


def _label_reader(name="taiwan-pinghu"):
    """A reader that finds the example photo's labelled tiles, whatever the picture."""
    tiles = json.loads((PHOTOS / f"{name}.json").read_text())["tiles"]
    found = [{**t, "confidence": 1.0, "low_confidence": False} for t in tiles]
    return lambda image, red_fives=True, variant=None: [dict(t) for t in found]


@pytest.fixture
def table(tmp_path):
    camera = tmp_path / "camera"
    camera.mkdir()
    app = create_app(tmp_path / "data", MODELS, f"dir:{camera}", threads=1)
    table = Table(app, camera)
    table.lay(_with_arm(_photo()))
    yield table


@pytest.fixture
def label_table(tmp_path):
    """The same table with a reader that needs no models (the photo's labels)."""
    camera = tmp_path / "camera"
    camera.mkdir()
    app = create_app(tmp_path / "data", tmp_path / "no-models", f"dir:{camera}")
    app.config["STATE"].reader.read = _label_reader()
    table = Table(app, camera)
    table.lay(_with_arm(_photo()))
    yield table


@needs_models
def test_a_winning_hand_held_still_is_recorded_once(table):
    assert table.still()["enabled"] is False  # off until the table turns it on
    table.client.post("/api/still", json={"enabled": True})
    table.wait(1.0)  # the arm over the table: what lay there when watching began
    table.lay(_photo())
    table.wait(1.5)
    assert table.hands() == [] and table.still()["phase"] == "settling"
    table.wait(1.0)  # seen at 1.5 s, still since: the first frame 1.6 s later is at 3.5 s
    [hand] = table.hands()
    status = table.still()
    assert (status["seq"], status["hand"], status["note"]) == (1, hand["id"], None)
    assert hand["winning"] and hand["total"] > 0 and hand["hand"] == "123456789m234567p11s"
    table.wait(30.0)  # left on the table: not read again
    assert len(table.hands()) == 1 and table.reads == 1
    # Recorded as the Score button records it: photo, reading, context, the dealer moved on.
    auto = table.client.get(f"/api/hands/{hand['id']}").get_json()
    assert auto["photo"] and auto["tiles"] and auto["context"]["dealer_streak"] == 0
    assert table.client.get("/api/context").get_json()["dealer_streak"] == 1
    table.client.post("/api/undo")
    tapped = table.client.post("/api/score").get_json()
    assert tapped["id"] != auto["id"]
    for key in ("tiles", "reading", "context", "result", "width", "height"):
        assert tapped[key] == auto[key], key


@needs_models
def test_a_half_laid_hand_is_never_recorded_and_the_whole_hand_is(table):
    table.client.post("/api/still", json={"enabled": True})
    table.wait(1.0)
    table.lay(_without_tiles(_photo(), [13, 14, 15, 16]))  # 13 of the 17 tiles down
    table.wait(5.0)
    assert table.reads == 1 and table.hands() == []
    assert table.client.get("/api/session").get_json()["session"] is None  # nothing started
    status = table.still()
    assert status["note"] == "still hand: not a winning hand yet (13 tiles)"
    assert status["seq"] == 0
    assert table.client.get("/api/context").get_json()["dealer_streak"] == 0
    table.wait(20.0)
    assert table.reads == 1  # the same half hand is not read again and again
    table.lay(_with_arm(_photo()))  # the player lays the rest
    table.wait(0.5)
    assert table.still()["note"] is None  # the table is moving: the note is old news
    table.lay(_photo())
    table.wait(3.0)
    assert table.reads == 2 and len(table.hands()) == 1


def test_with_the_toggle_off_nothing_is_watched(label_table, monkeypatch):
    from device.app.still import StillDetector

    def watched(*args):
        raise AssertionError("the detector ran with the toggle off")

    monkeypatch.setattr(StillDetector, "feed", watched)
    label_table.wait(1.0)
    label_table.lay(_photo())
    label_table.wait(10.0)
    assert label_table.reads == 0 and label_table.hands() == []
    assert label_table.still() == {
        "enabled": False,
        "phase": "off",
        "note": None,
        "seq": 0,
        "hand": None,
    }


def test_the_toggle_is_remembered_and_checked(tmp_path):
    app = create_app(tmp_path / "data", tmp_path / "no-models", "dir:/nowhere")
    with app.test_client() as client:
        assert client.post("/api/still", json={"enabled": "yes"}).status_code == 400
        assert client.post("/api/still", json={"enabled": True}).get_json()["enabled"]
    again = create_app(tmp_path / "data", tmp_path / "no-models", "dir:/nowhere")
    with again.test_client() as client:
        assert client.get("/api/still").get_json()["enabled"] is True
        client.post("/api/still", json={"enabled": False})
        assert client.get("/api/still").get_json()["phase"] == "off"


def test_a_score_tap_before_the_hand_settles_is_not_recorded_twice(label_table):
    label_table.client.post("/api/still", json={"enabled": True})
    label_table.wait(1.0)
    label_table.lay(_photo())
    label_table.wait(0.5)
    tapped = label_table.client.post("/api/score").get_json()
    assert tapped["result"]["winning"]
    label_table.wait(10.0)
    assert [h["id"] for h in label_table.hands()] == [tapped["id"]]
    assert label_table.reads == 1


def test_a_busy_app_delays_a_still_hand_and_a_waiting_tap_gets_it(label_table):
    state = label_table.state
    label_table.client.post("/api/still", json={"enabled": True})
    label_table.wait(1.0)
    label_table.lay(_photo())
    with state.lock:  # a correction is at work when the scene settles: nothing waits for it
        label_table.wait(3.0)
        assert label_table.reads == 0 and label_table.still()["phase"] == "settling"
    label_table.wait(0.5)  # read on the next frame once the lock is free
    assert label_table.reads == 1 and len(label_table.hands()) == 1
    # The other way round: a tap waiting for the lock while a still hand is recorded gets that
    # hand back instead of a second one.
    import threading

    answers = []
    captured = threading.Event()
    grab = state.grab

    def grab_then_say(full):
        image = grab(full)
        captured.set()
        return image

    state.grab = grab_then_say
    with state.lock:
        tap = threading.Thread(
            target=lambda: answers.append(label_table.app.test_client().post("/api/score"))
        )
        tap.start()
        assert captured.wait(timeout=30)  # the tap has its photo and waits for the lock
        session = state.store.current_session()
        hand_id = state.store.add_hand(
            session.id, None, [], {"hand": "", "problems": []}, {}, {"winning": False}
        )
        state.still.done(hand_id)
    tap.join(timeout=30)
    assert answers[0].get_json()["id"] == hand_id
    assert len(state.store.hands(session.id)) == 2


def test_the_same_tiles_under_a_new_light_are_not_scored_again(label_table):
    import numpy as np

    label_table.client.post("/api/still", json={"enabled": True})
    label_table.wait(1.0)
    label_table.lay(_photo())
    label_table.wait(3.0)
    [hand] = label_table.hands()
    # A lamp moved: the whole picture brighter and a shadow across it, the tiles where they lay.
    lit = np.clip(_photo().astype(int) + 40, 0, 255).astype(np.uint8)
    lit[:, :500] //= 2
    label_table.lay(lit)
    label_table.wait(3.0)
    assert label_table.reads == 2 and len(label_table.hands()) == 1
    assert label_table.still()["note"] == (
        f"still hand: the same tiles as hand {hand['id']}, already scored"
    )


def test_a_still_hand_that_cannot_be_read_leaves_a_note_and_the_preview_runs(tmp_path):
    camera = tmp_path / "camera"
    camera.mkdir()
    table = Table(create_app(tmp_path / "data", tmp_path / "no-models", f"dir:{camera}"), camera)
    table.lay(_with_arm(_photo()))
    table.client.post("/api/still", json={"enabled": True})
    table.wait(1.0)
    table.lay(_photo())
    table.wait(3.0)
    note = table.still()["note"]
    assert note.startswith("still hand: cannot read tiles:") and "default.json" in note
    assert table.hands() == []


@needs_models
def test_a_classifier_changed_on_disk_is_read_from_the_next_photo(tmp_path):
    """``train classifier --adapt`` / ``--from`` / ``--rollback`` while the table app runs: the
    next photo is read with the new classifier, no restart; changed files that cannot be loaded
    leave the pair loaded before reading, and the display says why."""
    import os

    models = tmp_path / "models"
    models.mkdir()
    for name in (
        "default.json",
        "tile-detector.json",
        "tile-detector.onnx",
        "tile-detector.int8.onnx",
    ):
        shutil.copy(MODELS / name, models / name)
    for name in ("tile-classifier.json", "tile-classifier.onnx", *PIECE_READER, *SECOND_OPINION):
        shutil.copy(MODELS / name, models / name)
    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(PHOTOS / "taiwan-melds.jpg", camera / "hand.jpg")
    app = create_app(tmp_path / "data", models, f"dir:{camera}")
    reader = app.config["STATE"].reader
    meta = models / "tile-classifier.json"

    def install(text):  # as the install does: a whole new file, later than the last
        later = meta.stat().st_mtime + 10
        meta.write_text(text)
        os.utime(meta, (later, later))

    with app.test_client() as client:
        assert client.post("/api/score").status_code == 200
        first = reader.pipeline()
        assert reader.pipeline() is first  # unchanged files: the loaded pair, not a new load
        changed = json.loads(meta.read_text()) | {"min_read_confidence": 0.6}
        install(json.dumps(changed))
        assert client.post("/api/score").status_code == 200
        second = reader.pipeline()
        assert second is not first and second.min_read_confidence == 0.6
        assert client.get("/api/status").get_json()["model_error"] is None

        install("{ half a file")
        assert client.post("/api/score").status_code == 200  # still reads, with the pair before
        assert reader.pipeline() is second
        error = client.get("/api/status").get_json()["model_error"]
        assert "changed and cannot be loaded" in error and "still reading" in error

        install(json.dumps(changed | {"min_read_confidence": 0.3}))
        assert reader.pipeline().min_read_confidence == 0.3
        assert client.get("/api/status").get_json()["model_error"] is None


@needs_models
def test_fit_to_this_set_from_the_apps_own_photos_and_back(tmp_path):
    """The scoreboard's "Fit to this set": the classifier adapted to the photos the app kept
    (no labels, onnxruntime alone), read from the next photo on; "Previous reader" undoes it."""
    import hashlib

    models = tmp_path / "models"
    shutil.copytree(MODELS, models, ignore=shutil.ignore_patterns("runs", "previous", "candidate"))
    classifier = models / "tile-classifier.onnx"
    shipped = hashlib.sha256(classifier.read_bytes()).hexdigest()
    camera = tmp_path / "camera"
    camera.mkdir()
    # Two hands (the same tiles twice running would be the hand scored last, shown again).
    shutil.copy(PHOTOS / "taiwan-melds.jpg", camera / "hand.jpg")
    shutil.copy(PHOTOS / "taiwan-pinghu.jpg", camera / "hand2.jpg")
    app = create_app(tmp_path / "data", models, f"dir:{camera}")
    reader = app.config["STATE"].reader
    with app.test_client() as client:
        refused = client.post("/api/adapt")
        assert refused.status_code == 400 and "no photos in" in refused.get_json()["error"]
        for _ in range(2):
            assert client.post("/api/score").status_code == 200
        before = reader.pipeline()

        fitted = client.post("/api/adapt")

        assert fitted.status_code == 200, fitted.get_json()
        report = fitted.get_json()
        assert report["photos"] == 2 and report["tiles"] >= 30
        assert hashlib.sha256(classifier.read_bytes()).hexdigest() != shipped
        assert "adapted" in json.loads((models / "tile-classifier.json").read_text())
        assert not (models / "candidate").exists()  # installed: nothing left there
        assert client.post("/api/score").status_code == 200
        assert reader.pipeline() is not before  # the next photo was read with the fitted one

        back = client.post("/api/adapt/undo")
        assert back.status_code == 200
        assert hashlib.sha256(classifier.read_bytes()).hexdigest() == shipped


def test_a_models_folder_that_cannot_be_written_is_said_as_such(client, monkeypatch):
    """Not the data folder's "the hand was not saved": fitting writes the models folder."""
    import vision.training.adapt

    def refused(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied", "models/tile-classifier.onnx")

    monkeypatch.setattr(vision.training.adapt, "adapt", refused)
    response = client.post("/api/adapt")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "cannot write the models folder" in error and "unchanged" in error


def test_a_doubtful_misread_is_read_as_its_runner_up_when_that_makes_the_winning_hand(
    label_table,
):
    tiles = json.loads((PHOTOS / "taiwan-pinghu.json").read_text())["tiles"]
    assert tiles[4]["code"] == "5m"
    misread = {
        "code": "6m",
        "confidence": 0.3,
        "low_confidence": True,
        "alternatives": [["5m", 0.3]],
    }
    found = [{**t, "confidence": 1.0, "low_confidence": False} for t in tiles]
    found[4] = {**found[4], **misread}
    label_table.state.reader.read = lambda image, red_fives=True, variant=None: [
        dict(t) for t in found
    ]
    label_table.client.post(
        "/api/context", json={"variant": "taiwan", "seat_wind": "S", "self_draw": True}
    )
    hand = label_table.client.post("/api/score").get_json()
    assert hand["reading"]["hand"] == "123456789m234567p11s", hand["reading"]
    assert hand["result"]["winning"] is True
    assert "low confidence: 6m read as 5m to make a winning hand" in hand["reading"]["problems"]
    # The tile itself is stored as read: a person confirms or fixes it.
    assert hand["tiles"][4]["code"] == "6m"


def test_the_app_reads_a_rolled_cameras_frames_turned(tmp_path):
    import cv2
    import numpy as np

    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(PHOTOS / "taiwan-melds.jpg", camera / "hand.jpg")  # 1600x1200
    app = create_app(tmp_path / "data", tmp_path / "no-models", f"dir:{camera}", camera_turn=90)
    seen = []
    app.config["STATE"].reader.read = lambda image, red_fives=True, variant=None: (
        seen.append(image.shape) or one_tile()
    )
    with app.test_client() as client:
        preview = client.get("/api/preview.jpg").data
        assert cv2.imdecode(np.frombuffer(preview, np.uint8), cv2.IMREAD_COLOR).shape[0] > 600
        hand = client.post("/api/score").get_json()
    assert seen == [(1600, 1200, 3)] and (hand["width"], hand["height"]) == (1200, 1600)


def test_a_still_hand_read_while_the_table_switched_the_watch_off_is_not_recorded(label_table):
    # Switched off during a read, the hand was recorded all the same (a helper's probe).
    state = label_table.client.application.config["STATE"]
    read = state.reader.read

    def switched_off_meanwhile(image, red_fives=True, variant=None):
        state.still.switch(False)  # as the Table screen's toggle would, mid-read
        return read(image, red_fives, variant)

    state.reader.read = switched_off_meanwhile
    label_table.client.post("/api/still", json={"enabled": True})
    label_table.wait(1.0)
    label_table.lay(_photo())
    label_table.wait(3.0)
    assert label_table.hands() == []


def test_a_chicken_hand_puts_its_winner_out_until_the_hand_ends(hand_client):
    # 明將 方案一: after a 雞糊 the hand goes on without its winner (seats_out), who pays
    # nothing and cannot be won from; the table's seats_out stayed forever once set, or was
    # never set (a helper's play-through).
    def rules():
        return hand_client.get("/api/context").get_json().get("rules", {})

    hand_client.post("/api/context", json={"variant": "mingjiang"})
    chicken = {"hand": "111p789s234s55m", "melds": ["chi:123m"], "win_tile": "5m", "flowers": ""}
    hand_client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "W"})
    first = typed(hand_client, chicken)
    assert first["result"]["hand_continues"] is True
    assert rules() == {"seats_out": "S"}
    # Said to be W's after all: W is out, not S (S paid nothing in the hand going on).
    fix = {"context": {"seat_wind": "W", "discarder": "E"}}
    hand_client.post(f"/api/hands/{first['id']}/fix", json=fix)
    assert rules() == {"seats_out": "W"}
    hand_client.post(
        f"/api/hands/{first['id']}/fix", json={"context": {"seat_wind": "S", "discarder": "W"}}
    )
    assert rules() == {"seats_out": "S"}
    # A photo read as no winning hand ends nothing: S stays out.
    assert "result" in hand_client.post("/api/score").get_json()
    assert rules() == {"seats_out": "S"}
    hand_client.post("/api/undo")
    # The hand goes on: N wins a real hand off E; the hand ends and everyone is back.
    hand_client.post("/api/context", json={"seat_wind": "N", "discarder": "E"})
    won = typed(hand_client, {**chicken, "hand": "123p789s234s55m"})
    assert won["result"]["total"] > 0 and won["context"]["rules"] == {"seats_out": "S"}
    assert rules() == {}
    hand_client.post("/api/undo")  # the hand going on again, S still out of it
    assert rules() == {"seats_out": "S"}
    # A new game starts with nobody out of it.
    hand_client.post("/api/session", json={"players": ["Ann", "Bo", "Cy", "Di"]})
    assert rules() == {}


def test_a_photo_in_which_no_tile_is_found_records_nothing(tmp_path):
    # A blank or junk photo was recorded as a hand ("the hand has no tiles"), listed on the
    # Scoreboard for the players to undo (a tester's play-through).
    app = app_reading(tmp_path, reads=list)
    (tmp_path / "camera" / "next.jpg").write_bytes((PHOTOS / "taiwan-melds.jpg").read_bytes())
    camera = app.config["STATE"]
    with app.test_client() as client:
        refused = client.post("/api/score")
        assert refused.status_code == 400
        assert refused.get_json() == {
            "error": "no tiles found in the photo: nothing was recorded",
            "no_tiles": True,
        }
        data = {"photo": (io.BytesIO((PHOTOS / "taiwan-melds.jpg").read_bytes()), "h.jpg")}
        upload = client.post("/api/upload", data=data, content_type="multipart/form-data")
        assert upload.get_json() == refused.get_json()
        # Nothing kept: no hand, no photo, not even the session a first hand starts.
        assert client.get("/api/session").get_json()["session"] is None
        assert not list((tmp_path / "data" / "photos").glob("*.jpg"))
        # The folder camera went on to its next photo: it read the empty one again and again.
        assert camera.camera.position == 1
        # A photo with a tile in it is a hand, winning or not, to correct on the Result screen.
        camera.reader.read = lambda image, red_fives=True, variant=None: one_tile()
        hand = client.post("/api/score")
        assert hand.status_code == 200 and not hand.get_json()["result"].get("winning")
        assert len(client.get("/api/session").get_json()["hands"]) == 1
        # Tiles the rule set has not (xiangqi pieces at a Taiwan table) are found: a hand, whose
        # problems say why, for the table to switch its rule set.
        pieces = [{**one_tile()[0], "code": "1r", "face_down": False, "box": [x, 500, x + 60, 580]}
                  for x in (100.0, 170.0)]  # fmt: skip
        camera.reader.read = lambda image, red_fives=True, variant=None: pieces
        shown = client.post("/api/score")
        assert shown.status_code == 200, shown.get_json()
        assert any("xiangqi piece" in p for p in shown.get_json()["reading"]["problems"])


@needs_models
def test_a_blank_picture_is_no_hand(tmp_path):
    import cv2
    import numpy as np

    camera = tmp_path / "camera"
    camera.mkdir()
    cv2.imwrite(str(camera / "blank.png"), np.full((1200, 1600, 3), (40, 120, 40), np.uint8))
    app = create_app(tmp_path / "data", MODELS, f"dir:{camera}")
    with app.test_client() as client:
        refused = client.post("/api/score")
        assert refused.get_json() == {
            "error": "no tiles found in the photo: nothing was recorded",
            "no_tiles": True,
        }
        assert client.get("/api/session").get_json()["hands"] == []
