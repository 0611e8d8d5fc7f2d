"""The table app given bad settings, bad requests, a bad saved context and odd photos: one line
naming the problem, never a traceback or a 500, and nothing the table saved is lost."""

import io
import json
import select
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from device.app.web import create_app
from device.camera import CameraError, check_camera_spec
from device.cli import main
from device.store import Store
from scoring.errors import TilescoreError
from tests.device.typed_hands import MELDS_HAND, app_reading

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"
PHOTOS = REPO / "examples" / "photos"
needs_models = pytest.mark.skipif(
    not (MODELS / "default.json").exists(), reason="no shipped models in models/"
)


# -- serve's settings: what can never work stops at the start, in one line --


@pytest.fixture
def places(tmp_path, monkeypatch):
    """A camera folder, a models folder and a file; serving itself is stopped short (a setting
    that got past the checks fails the test at once rather than serving for ever)."""

    def started(*args, **kwargs):
        raise AssertionError("serve started with a setting that can never work")

    monkeypatch.setattr("device.app.web.create_app", started)
    camera = tmp_path / "camera"
    camera.mkdir()
    models = tmp_path / "models"
    models.mkdir()
    a_file = tmp_path / "a-file.txt"
    a_file.write_text("not a folder")
    return camera, models, a_file


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        (["--camera", "bogus"], "error: unknown camera 'bogus': use pi, usb:N or dir:PATH"),
        (
            ["--camera", "usb:abc"],
            "error: camera 'usb:abc': usb needs a device number 0 to 255, e.g. usb:0",
        ),
        (
            ["--camera", "usb:-1"],
            "error: camera 'usb:-1': usb needs a device number 0 to 255, e.g. usb:0",
        ),
        (["--camera", "usb:1_0"], "error: camera 'usb:1_0': usb needs a device number"),  # not 10
        (["--camera", "usb:٣"], "error: camera 'usb:٣': usb needs a device number"),  # not 3
        (["--camera", "dir:/nonexistent/photos"], "camera folder '/nonexistent/photos' does not"),
        (["--camera", "dir:FILE"], "is not a folder"),
        (["--camera", "dir:"], "error: camera 'dir:': dir needs a folder"),
        (["--models", "/nonexistent/models"], "error: models folder '/nonexistent/models' does"),
        (["--models", "FILE"], "is not a folder (give --models FOLDER)"),
    ],
)
def test_serve_refuses_settings_that_can_never_work(places, tmp_path, capsys, setting, said):
    camera, models, a_file = places
    setting = [s.replace("FILE", str(a_file)) for s in setting]
    argv = ["serve", "--camera", f"dir:{camera}", "--models", str(models)]
    argv += ["--data", str(tmp_path / "data"), "--port", "0", *setting]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and said in err and err.count("\n") == 1, err
    assert not (tmp_path / "data").exists()  # stopped before anything was made


def test_serve_says_a_data_folder_is_a_file(places, capsys):
    camera, models, a_file = places
    argv = ["serve", "--camera", f"dir:{camera}", "--models", str(models), "--port", "0"]
    for data, said in (
        (a_file, f"data folder '{a_file}' is a file, not a folder"),
        (a_file / "x", f"lies under '{a_file}', a file"),
    ):
        assert main([*argv, "--data", str(data)]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "http"])
def test_serve_refuses_a_port_that_is_no_port(places, tmp_path, capsys, port):
    camera, models, _ = places
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--camera", f"dir:{camera}", "--models", str(models), "--port", port])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --port: port '{port}' is not a number from 0 to 65535" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_serve_refuses_threads_out_of_range(places, capsys):
    camera, models, _ = places
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--camera", f"dir:{camera}", "--models", str(models), "--threads", "-2"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --threads: must be 1 to 1024, not -2" in err and err.count("\n") == 1


def test_a_port_in_use_is_one_line(places, tmp_path, capsys, monkeypatch):
    camera, models, _ = places
    monkeypatch.undo()  # the app is made; it is the port that is taken
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        argv = ["serve", "--camera", f"dir:{camera}", "--models", str(models)]
        assert main([*argv, "--data", str(tmp_path / "data"), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: cannot listen on port {port}: Address already in use\n"


def test_a_camera_only_unplugged_or_busy_is_left_for_the_display_to_say(tmp_path):
    # Nothing is opened: a Pi or USB camera missing at the start is said on the display, and
    # comes back when plugged in (test_app_api.py's empty camera folder).
    for spec in ("pi", "usb:0", "usb:7", "usb", f"dir:{tmp_path}"):
        check_camera_spec(spec)
    for spec in ("pi:0", "PI", "folder:/x", ""):
        with pytest.raises(CameraError, match="unknown camera"):
            check_camera_spec(spec)


def _serve(tmp_path, camera, models):
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "serve", "--camera", f"dir:{camera}"]
        + ["--models", str(models), "--data", str(tmp_path / "data"), "--port", "0", "--json"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
    )
    return process, log


def test_serve_on_port_0_says_the_port_it_took_and_answers_there(places, tmp_path):
    camera, models, _ = places
    process, log = _serve(tmp_path, camera, models)
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        line = process.stdout.readline() if ready else ""
        assert line, "serve printed nothing: " + log.read_text()
        url = json.loads(line)["url"]
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        assert url.startswith("http://localhost:") and port > 0
        base = f"http://127.0.0.1:{port}"
        for _ in range(50):
            try:
                status = json.load(urllib.request.urlopen(base + "/api/status", timeout=5))
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("no answer on the port printed: " + log.read_text())
        assert status["context_error"] is None
        # Over real HTTP too: a bad context is a JSON 400 naming it.
        bad = urllib.request.Request(
            base + "/api/context",
            data=json.dumps({"variant": "bogus"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bad, timeout=5)
        assert refused.value.code == 400
        assert json.load(refused.value)["error"].startswith("unknown variant 'bogus'")
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


# -- the table's context: checked before it is saved, and a bad saved one does not brick --


def _app(tmp_path, photo=PHOTOS / "taiwan-melds.jpg"):
    return app_reading(tmp_path, photo=photo)


def _scores(client):
    """A hand scores with the remembered context: typed in, it wins."""
    hand = client.post("/api/score").get_json()
    assert "error" not in hand, hand
    fixed = client.post(f"/api/hands/{hand['id']}/fix", json=MELDS_HAND).get_json()
    assert fixed["result"].get("winning"), fixed["result"]
    return fixed


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"variant": "bogus"}, "unknown variant 'bogus' (known: taiwan, riichi, mingjiang"),
        ({"variant": ["taiwan"]}, "variant must be the name of a rule set, got ['taiwan']"),
        ({"rules": {"base": "x"}}, "rule option 'base' takes a whole number, got 'x'"),
        ({"rules": {"colour": 1}}, "unknown rule option 'colour' for taiwan"),
        ({"rules": {"single_wait": "any"}}, "rule option 'single_wait' is one of"),
        ({"rules": [1]}, "rules must be an object of option: value, got [1]"),
        ({"variant": "riichi", "rules": {"base": 50}}, "unknown rule option 'base' for riichi"),
        ({"seat_wind": None}, "seat_wind must be one of E S W N, got null"),
        ({"round_wind": "X"}, "round_wind must be one of E S W N, got 'X'"),
        ({"discarder": 3}, "discarder must be one of E S W N, got 3"),
        ({"self_draw": "yes"}, "self_draw must be true or false, got 'yes'"),
        ({"dealer_streak": -1}, "dealer_streak must be 0 or more, got -1"),
        ({"dealer_streak": "many"}, "dealer_streak must be a whole number, got 'many'"),
        ({"events": "last_tile"}, "events must be a list of event names, got 'last_tile'"),
        ({"events": ["moonwalk"]}, "unknown event 'moonwalk'"),
        ({"events": ["riichi"]}, "event 'riichi' is not used in taiwan"),
        ({"variant": "mingjiang", "players": 3}, "mingjiang is played by 4 players, got players 3"),
        ({"dora_indicators": "9x"}, "unknown tile code '9x'"),
        ({"colour": "red"}, "unknown context key 'colour'"),
        (["variant", "riichi"], "context must be a JSON object"),
    ],
)
def test_a_bad_context_is_refused_and_the_saved_one_kept(tmp_path, sent, said):
    app = _app(tmp_path)
    with app.test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "rules": {"base": 50}})
        before = client.get("/api/context").get_json()
        refused = client.post("/api/context", json=sent)
        assert refused.status_code == 400 and said in refused.get_json()["error"], refused.json
        assert list(refused.get_json()) == ["error"] and "\n" not in refused.get_json()["error"]
        assert client.get("/api/context").get_json() == before
    with _app(tmp_path, None).test_client() as client:  # after a restart too
        assert client.get("/api/context").get_json() == before
        assert client.get("/api/status").get_json()["context_error"] is None
        assert _scores(client)["context"]["seat_wind"] == "S"


def test_a_good_context_is_kept_as_the_scorer_names_it(tmp_path):
    with _app(tmp_path).test_client() as client:
        kept = client.post(
            "/api/context",
            json={"variant": "Taiwan", "rules": {"base": 50}, "events": ["last_tile"] * 2},
        ).get_json()
        assert (kept["variant"], kept["rules"], kept["events"]) == (
            "taiwan",
            {"base": 50},
            ["last_tile"],
        )
        assert client.post("/api/context", json={"variant": "象棋"}).get_json()["variant"] == (
            "xiangqi"
        )


def test_a_new_rule_set_starts_from_its_own_options(tmp_path):
    with _app(tmp_path).test_client() as client:
        client.post(
            "/api/context",
            json={
                "variant": "xiangqi",
                "rules": {"minimum_tai": 2},
                "events": ["declared_ready", "last_tile"],
                "players": 3,
            },
        )
        riichi = client.post("/api/context", json={"variant": "riichi"}).get_json()
        # xiangqi's options go; of the events and the count, what riichi takes stays
        assert riichi["rules"] == {} and riichi["events"] == ["last_tile"]
        assert riichi.get("players") is None
        same = client.post("/api/context", json={"variant": "riichi", "rules": {"red_fives": True}})
        assert same.get_json()["rules"] == {"red_fives": True}
        again = client.post("/api/context", json={"variant": "riichi", "seat_wind": "W"})
        assert again.get_json()["rules"] == {"red_fives": True}  # the same set keeps its options


def test_a_bad_context_saved_by_an_older_version_falls_back_and_says_so(tmp_path):
    with _app(tmp_path).test_client() as client:
        hand = _scores(client)
        client.post("/api/session", json={"players": ["Ann", "Bo", "Cy", "Di"]})
        second = _scores(client)
    # What an older version saved, taking anything it was sent.
    Store(tmp_path / "data").set_setting(
        "context",
        {
            "variant": "taiwan",
            "seat_wind": None,
            "self_draw": True,
            "rules": {"base": "x", "tai_value": 30},
            "events": ["last_tile", "riichi"],
            "colour": "red",
        },
    )
    with _app(tmp_path, None).test_client() as client:
        context = client.get("/api/context").get_json()
        assert context["seat_wind"] == "E" and context["self_draw"] is True  # default, kept
        assert context["rules"] == {"tai_value": 30} and context["events"] == ["last_tile"]
        assert "colour" not in context
        note = client.get("/api/status").get_json()["context_error"]
        assert note.startswith("saved table settings not used (seat_wind must be one of E S W N")
        assert "rule option 'base'" in note and "'riichi' is not used" in note
        assert "'colour'" in note and "\n" not in note
        third = _scores(client)  # the app scores on
        assert third["result"]["winning"]
        # Nothing else the table saved is lost: both sessions, their hands and players.
        board = client.get("/api/session").get_json()
        assert board["session"]["players"] == ["Ann", "Bo", "Cy", "Di"]
        assert [h["id"] for h in board["hands"]] == [second["id"], third["id"]]
        assert client.get(f"/api/hands/{hand['id']}").get_json()["result"]["winning"]
        # Saving the Table screen puts the good settings back and the note goes.
        client.post("/api/context", json={"seat_wind": "S"})
        assert client.get("/api/status").get_json()["context_error"] is None
        saved = Store(tmp_path / "data").get_setting("context")
        assert saved["seat_wind"] == "S" and saved["rules"] == {"tai_value": 30}


@pytest.mark.parametrize(
    "saved",
    [
        {"variant": "bogus", "rules": {"base": 50}, "seat_wind": "S"},
        ["not", "settings"],
    ],
)
def test_a_saved_context_beyond_use_is_the_defaults(tmp_path, saved):
    Store(tmp_path / "data").set_setting("context", saved)
    with _app(tmp_path).test_client() as client:
        context = client.get("/api/context").get_json()
        assert context["variant"] == "taiwan" and context["rules"] == {}
        assert context["seat_wind"] == ("S" if isinstance(saved, dict) else "E")
        note = client.get("/api/status").get_json()["context_error"]
        assert ("unknown variant 'bogus'" if isinstance(saved, dict) else "(a list)") in note
        assert _scores(client)["result"]["winning"]


def test_a_fix_with_a_bad_context_is_refused_and_the_hand_kept(tmp_path):
    with _app(tmp_path).test_client() as client:
        hand = _scores(client)
        url = f"/api/hands/{hand['id']}/fix"
        for context, said in (
            ({"variant": "bogus"}, "unknown variant 'bogus'"),
            ({"seat_wind": None}, "seat_wind must be one of E S W N, got null"),
            ({"rules": {"base": "x"}}, "rule option 'base' takes a whole number"),
            ("S", "context must be a JSON object"),
        ):
            refused = client.post(url, json={"context": context, "win_tile": "4m"})
            assert refused.status_code == 400 and said in refused.get_json()["error"]
        after = client.get(f"/api/hands/{hand['id']}").get_json()
        assert (after["context"], after["reading"]) == (hand["context"], hand["reading"])
        named = client.post(url, json={"context": {"self_draw": False, "discarder": "S"}})
        assert named.status_code == 200 and named.get_json()["context"]["discarder"] == "S"


# -- a new session: its fields checked before it is made --


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"variant": ["x"]}, "variant must be the name of a rule set, got ['x']"),
        ({"variant": "bogus"}, "unknown variant 'bogus'"),
        ({"players": "Ann, Bo"}, "a session has 2 to 4 players"),
        ({"players": ["Ann"]}, "a session has 2 to 4 players"),
        ({"players": ["Ann", {"name": "Bo"}]}, "a player's name must be text, got {'name': 'Bo'}"),
        ({"players": ["Ann", 7]}, "a player's name must be text, got 7"),
        ({"players": ["Ann", "Ann "]}, "two players are named 'Ann'"),
        ({"player": ["Ann", "Bo"]}, "unknown session key 'player'"),
        ([["Ann", "Bo"]], "a session must be a JSON object"),
    ],
)
def test_a_bad_new_session_is_refused_and_the_current_one_kept(tmp_path, sent, said):
    with _app(tmp_path).test_client() as client:
        _scores(client)
        before = client.get("/api/session").get_json()
        refused = client.post("/api/session", json=sent)
        assert refused.status_code == 400 and said in refused.get_json()["error"]
        assert client.get("/api/session").get_json() == before


def test_a_new_session_names_its_rule_set_as_the_scorer_does(tmp_path):
    with _app(tmp_path).test_client() as client:
        client.post("/api/context", json={"variant": "riichi"})
        plain = client.post("/api/session", json={"players": ["Ann", "", "Cy", "Di"]}).get_json()
        assert plain["session"]["variant"] == "riichi"  # the table's, when none is said
        assert plain["session"]["players"] == ["Ann", "Player 2", "Cy", "Di"]
        named = client.post("/api/session", json={"variant": "象棋"}).get_json()
        assert named["session"]["variant"] == "xiangqi"
        assert client.post("/api/session").status_code == 200  # no body: the defaults


# -- photos of odd shapes --


def _extreme(folder: Path, size=(3000, 1)) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "line.png"
    Image.new("RGB", size, (200, 200, 200)).save(path)
    return path


@pytest.mark.parametrize("size", [(3000, 1), (1, 3000), (5000, 7)])
def test_a_photo_of_an_extreme_shape_previews_as_an_image(tmp_path, size):
    _extreme(tmp_path / "camera", size)
    app = _app(tmp_path, None)
    with app.test_client() as client:
        preview = client.get("/api/preview.jpg")
        assert preview.status_code == 200 and preview.mimetype == "image/jpeg"
        frame = cv2.imdecode(np.frombuffer(preview.data, np.uint8), cv2.IMREAD_COLOR)
        assert frame is not None and frame.shape[1] == min(size[0], 640) and frame.shape[0] >= 1


def test_a_reader_that_cannot_read_a_photo_is_a_json_error(tmp_path):
    _extreme(tmp_path / "camera")
    app = _app(tmp_path, None)

    def refuses(image, red_fives=True, variant=None):
        raise TilescoreError(f"the photo is {image.shape[1]}x{image.shape[0]}: no tiles in it")

    app.config["STATE"].reader.read = refuses
    with app.test_client() as client:
        response = client.post("/api/score")
        assert response.status_code == 400
        assert response.get_json() == {
            "error": "cannot read tiles: the photo is 3000x1: no tiles in it"
        }
        data = {"photo": (io.BytesIO((tmp_path / "camera" / "line.png").read_bytes()), "l.png")}
        upload = client.post("/api/upload", data=data, content_type="multipart/form-data")
        assert upload.status_code == 400 and upload.get_json()["error"].startswith("cannot read")
        assert client.get("/api/session").get_json()["hands"] == []  # nothing recorded


@needs_models
def test_a_photo_of_an_extreme_shape_is_scored_or_refused_in_one_line(tmp_path):
    _extreme(tmp_path / "camera")
    app = create_app(tmp_path / "data", MODELS, f"dir:{tmp_path / 'camera'}")
    with app.test_client() as client:
        response = client.post("/api/score")
        assert response.status_code in (200, 400), response.get_json()
        if response.status_code == 400:  # a strip too thin to hold a tile: none is found
            error = response.get_json()["error"]
            assert error.startswith(("cannot read tiles", "no tiles found in the photo")), error


def test_a_camera_folder_gone_while_the_app_runs_is_the_camera_not_the_disk(tmp_path):
    app = _app(tmp_path)
    with app.test_client() as client:
        assert client.get("/api/preview.jpg").status_code == 200
        shutil.rmtree(tmp_path / "camera")
        app.config["STATE"].camera_failed_at = 0.0
        gone = client.get("/api/preview.jpg")
        assert gone.status_code == 503 and "No such file or directory" in gone.get_json()["error"]
        assert "No such file" in client.get("/api/status").get_json()["camera_error"]


def test_a_second_app_on_one_data_folder_is_refused(tmp_path):
    # Two apps' table settings written at the same moment lost one of them, 54 times in 60.
    from device.app.cli import hold_data_dir

    held = hold_data_dir(tmp_path)
    with pytest.raises(TilescoreError, match="another tilescore serve is using the data folder"):
        hold_data_dir(tmp_path)
    held.close()  # the process ended: the folder is free
    hold_data_dir(tmp_path).close()


def test_a_database_the_app_cannot_write_is_refused_at_the_start(tmp_path, monkeypatch):
    # In WAL mode a write transaction still began on a read-only file: every hand failed after.
    import os

    from device.store import Store, StoreError

    Store(tmp_path)
    real_access = os.access
    database = str(tmp_path / "tilescore.sqlite3")
    monkeypatch.setattr(
        os, "access", lambda path, mode: False if str(path) == database else real_access(path, mode)
    )
    with pytest.raises(StoreError, match="cannot be written"):
        Store(tmp_path)
