"""The table app's store under stress: a replaced database, a reviewed label, bodies that are no
JSON object, requests at the same moment, a damaged or read-only data folder. Nothing the table
saved is lost or overwritten, and every refusal is one line (a JSON 400, 404, 413 or 507, or
``error:`` at the command line), never a traceback or a 500."""

import contextlib
import itertools
import json
import os
import shutil
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from device.app.web import create_app
from device.cli import main
from device.store import Store, StoreError
from tests.device.typed_hands import app_reading

REPO = Path(__file__).resolve().parents[2]
PHOTOS = REPO / "examples" / "photos"
WIN = [f"{n}m" for n in range(1, 10)] + [f"{n}p" for n in range(1, 7)] + ["1z"]


_READS = itertools.count()


def _detections():
    """A winning taiwan hand as a reader would find it: 16 tiles in a row, the 17th set apart.
    Each read another hand (123456p or 234567p by turns), as hands at a table are: the same
    tiles twice running are the hand scored last, shown again, not recorded."""
    codes = WIN if next(_READS) % 2 else [*WIN[:9], *(f"{n}p" for n in range(2, 8)), "1z"]
    tiles = [
        {"code": code, "box": [i * 40, 0, i * 40 + 38, 50], "confidence": 0.9, "face_down": False}
        for i, code in enumerate(codes)
    ]
    return [*tiles, {"code": "1z", "box": [700, 0, 738, 50], "confidence": 0.9, "face_down": False}]


def _app(tmp_path, reads=_detections):
    """The app on a real store under ``tmp_path/data``, the folder camera, and a reader that
    finds ``reads()`` (no models, no inference: the store and the web layer are under test)."""
    app = app_reading(tmp_path, reads)
    return app


def _result(winning=True):
    return {"winning": winning, "total": 1, "payments": [{"payer": "S", "payee": "E", "amount": 1}]}


def _session_state(store, session_id):
    row = sqlite3.connect(store.path).execute(
        "SELECT dealer, streak, round_wind, dealer_turns FROM sessions WHERE id = ?", (session_id,)
    )
    return dict(
        zip(("dealer", "streak", "round_wind", "dealer_turns"), row.fetchone(), strict=True)
    )


def _replayed(store, session_id):
    """Every live hand's ``state_before`` against a replay of the hands before it (and the
    streak it was scored with against the one it was dealt from), and the session's state
    against the replay of them all: what a race between writers breaks."""
    players = len(store.session(session_id).players)
    state = {"dealer": 0, "streak": 0, "round_wind": 0, "dealer_turns": 0}
    for hand in store.hands(session_id):
        assert hand["state_before"] == state, hand["id"]
        assert hand["context"]["dealer_streak"] == state["streak"], hand["id"]
        if hand["result"].get("winning"):
            if hand["context"].get("seat_wind", "E") == "E":
                state = {**state, "streak": state["streak"] + 1}
            else:
                turns = state["dealer_turns"] + 1
                state = {
                    "dealer": (state["dealer"] + 1) % players,
                    "streak": 0,
                    "dealer_turns": turns % players,
                    "round_wind": state["round_wind"] + (turns >= players),
                }
    assert _session_state(store, session_id) == state


def _at_once(app, calls, stagger=0.0):
    """Each (method, url, json) sent from a thread of its own, all let go together (the i-th
    ``stagger`` * i seconds later, so that they come while others are at work)."""
    start = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def send(i, method, url, body):
        client = app.test_client()
        start.wait()
        time.sleep(stagger * i)
        answers[i] = getattr(client, method)(url, json=body)

    threads = [threading.Thread(target=send, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def _one_line(response, status):
    body = response.get_json()
    assert response.status_code == status, (response.status_code, body)
    assert (
        list(body) == ["error"] and "\n" not in body["error"] and "Traceback" not in body["error"]
    )
    return body["error"]


# -- photos and labels: a new database never writes over what an old one left --


def test_a_new_database_never_overwrites_old_photos_or_labels(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["A", "B", "C", "D"], "taiwan")
    old = [store.add_hand(session.id, b"old %d" % i, [], {}, {}, _result()) for i in (1, 2)]
    assert [store.hand(h)["photo"] for h in old] == ["hand-1.jpg", "hand-2.jpg"]
    labels = tmp_path / "photos" / "labels"
    labels.mkdir()
    reviewed = {"image": "hand-1.jpg", "width": 1, "height": 1, "status": "done", "tiles": []}
    (labels / "hand-1.json").write_text(json.dumps(reviewed))
    (labels / "hand-3.json").write_text("{}")  # a label whose photo went: its name stays taken
    (tmp_path / "photos" / "HAND-4.webp").write_bytes(b"old 4")  # hand-4.jpg would share a label
    # The database is moved aside (or lost): the next one numbers its hands from 1 again.
    (tmp_path / "tilescore.sqlite3").rename(tmp_path / "moved-aside.sqlite3")
    fresh = Store(tmp_path)
    session = fresh.new_session(["A", "B", "C", "D"], "taiwan")
    new = [fresh.add_hand(session.id, b"new %d" % i, [], {}, {}, _result()) for i in range(1, 6)]
    names = [fresh.hand(h)["photo"] for h in new]
    assert new == [1, 2, 3, 4, 5] and len(set(names)) == 5
    assert not {"hand-1.jpg", "hand-2.jpg", "hand-3.jpg", "hand-4.jpg"} & set(names)
    assert names[4] == "hand-5.jpg"  # a name nothing holds is the plain one
    for i, name in enumerate(names, 1):
        assert (tmp_path / "photos" / name).read_bytes() == b"new %d" % i
    assert [(tmp_path / "photos" / f"hand-{i}.jpg").read_bytes() for i in (1, 2)] == [
        b"old 1",
        b"old 2",
    ]
    # A fix's label follows the new photo's name; the old reviewed label is left as it was.
    fresh.add_label(1, names[0], [{"code": "1m", "box": [0, 0, 9, 9]}], (10, 10))
    assert (labels / (Path(names[0]).stem + ".json")).exists()
    assert json.loads((labels / "hand-1.json").read_text()) == reviewed
    assert fresh.photo_path(1).read_bytes() == b"new 1"


def test_a_photo_that_cannot_be_written_leaves_no_hand_and_no_name_taken(tmp_path, monkeypatch):
    store = Store(tmp_path)
    session = store.new_session(["A", "B", "C", "D"], "taiwan")

    def fails(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fails)
    with pytest.raises(OSError):
        store.add_hand(session.id, b"photo", [], {}, {}, _result())
    monkeypatch.undo()
    assert store.hands(session.id) == [] and list((tmp_path / "photos").iterdir()) == []
    assert _session_state(store, session.id)["streak"] == 0


def test_a_label_a_person_reviewed_or_edited_is_never_replaced(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["A", "B", "C", "D"], "taiwan")
    hand = store.add_hand(session.id, b"\xff\xd8", [], {}, {}, _result())
    label = tmp_path / "photos" / "labels" / "hand-1.json"
    store.add_label(hand, "hand-1.jpg", [{"code": "1m", "box": [0, 0, 9, 9]}], (10, 10))
    # Not yet looked at: the app's own proposal is brought up to date by the next fix.
    store.add_label(hand, "hand-1.jpg", [{"code": "2m", "box": [0, 0, 9, 9]}], (10, 10))
    assert json.loads(label.read_text())["tiles"][0]["code"] == "2m"
    # Reviewed in `tilescore label` (status done): a later fix in the app leaves it alone.
    done = {**json.loads(label.read_text()), "status": "done"}
    label.write_text(json.dumps(done))
    store.add_label(hand, "hand-1.jpg", [{"code": "3m", "box": [0, 0, 9, 9]}], (10, 10))
    assert json.loads(label.read_text()) == done
    # Still "proposed" but edited by a person (a note, a box): theirs too.
    edited = {**done, "status": "proposed", "notes": "the 2m is chipped"}
    label.write_text(json.dumps(edited))
    store.add_label(hand, "hand-1.jpg", [{"code": "4m", "box": [0, 0, 9, 9]}], (10, 10))
    assert json.loads(label.read_text()) == edited
    assert store.labels()[-1]["tiles"][0]["code"] == "4m"  # the app's own record is kept


# -- bodies that are no JSON object, or too large --

NOT_OBJECTS = [
    ("text", b"players please", "text/plain"),
    ("malformed", b'{"players": [', "application/json"),
    ("form", b"players=Ann", "application/x-www-form-urlencoded"),
    ("bad utf-8", b'{"players": "\xff\xfe"}', "application/json"),
    ("long number", b"1" * 4400, "application/json"),
    ("nested", b"[" * 100000, "application/json"),
    ("NaN", b'{"x": NaN}', "application/json"),
    ("list", b"[1]", "application/json"),
    ("text JSON", b'"x"', "application/json"),
    ("null", b"null", "application/json"),
]
POSTS = ["/api/session", "/api/context", "/api/still", "/api/hands/1/fix", "/pin"]


@pytest.mark.parametrize("url", POSTS)
@pytest.mark.parametrize(("kind", "body", "mimetype"), NOT_OBJECTS, ids=[n[0] for n in NOT_OBJECTS])
def test_a_body_that_is_no_json_object_is_refused_and_starts_nothing(
    tmp_path, url, kind, body, mimetype
):
    app = _app(tmp_path)
    with app.test_client() as client:
        client.post("/api/score")
        before = [client.get(u).get_json() for u in ("/api/session", "/api/context", "/api/still")]
        hand = client.get("/api/hands/1").get_json()
        refused = client.post(url, data=body, content_type=mimetype)
        said = _one_line(refused, 400)
        assert "internal error" not in said
        after = [client.get(u).get_json() for u in ("/api/session", "/api/context", "/api/still")]
        assert after == before and client.get("/api/hands/1").get_json() == hand


def test_no_body_at_all_starts_a_session_with_the_defaults(tmp_path):
    with _app(tmp_path).test_client() as client:
        assert client.post("/api/session").status_code == 200
        assert client.post(
            "/api/session", data=b"", content_type="application/json"
        ).status_code == (200)
        assert len({client.post("/api/session").get_json()["session"]["id"] for _ in "ab"}) == 2


def test_a_request_body_over_a_megabyte_is_refused_as_such(tmp_path):
    with _app(tmp_path).test_client() as client:
        client.post("/api/score")
        big = {"hand": "1m" * 600_000}
        for url in ("/api/hands/1/fix", "/api/context", "/api/session"):
            said = _one_line(client.post(url, json=big), 413)
            assert said == "request body larger than 1 MB"
        assert client.get("/api/hands/1").get_json()["corrections"] == []


# -- a fix: every key known, every value of its kind, before anything is saved --


@pytest.mark.parametrize(
    ("fix", "said"),
    [
        ({"x": float("nan")}, "the request body is not valid JSON: NaN is not a JSON number"),
        ({"unknown_key": 1}, "unknown fix key 'unknown_key'"),
        ({"tile": 0, "code": ["1m"]}, "code must be a tile code"),
        ({"tile": 0, "code": 5}, "code must be a tile code"),
        ({"tile": 0, "code": None}, "code must be a tile code"),
        ({"tile": 0}, "code must be a tile code"),
        ({"tile": 0, "code": "zz"}, "unknown tile code"),
        ({"tile": 0, "code": "1m", "face_down": "yes"}, "face_down must be true or false"),
        ({"tile": 0, "face_down": True, "code": "1m"}, "a face-down tile has no code"),
        ({"tile": 0, "not_a_tile": True, "code": "1m"}, "a box with no tile has no code"),
        ({"tile": 0, "not_a_tile": True, "face_down": True}, "face down or not a tile, not both"),
        ({"tile": 0, "not_a_tile": 1}, "not_a_tile must be true or false"),
        ({"not_a_tile": True}, "not_a_tile goes with tile"),
        ({"tile": 0, "code": "1m", "keep_win": "no"}, "keep_win must be true or false"),
        ({"tile": 99, "code": "1m"}, "no tile number 99 in this photo"),
        ({"tile": -1, "code": "1m"}, "no tile number -1 in this photo"),
        ({"tile": 1.5, "code": "1m"}, "tile must be a whole number, got 1.5"),
        ({"tile": True, "code": "1m"}, "tile must be a whole number, got true"),
        ({"code": "1m"}, "code goes with tile"),
        ({"face_down": True}, "face_down goes with tile"),
        ({"win_tile": None}, "win_tile must be a tile code"),
        ({"win_tile": "zz"}, "unknown tile code"),
        ({"win_tile": "1m", "win_index": "x"}, "win_index must be a whole number"),
        ({"win_tile": "1m", "win_index": 1e30}, "win_index must be a whole number"),
        ({"win_tile": "1m", "win_index": 10**30}, "no tile number 10000000000000000000000000"),
        ({"win_tile": "1m", "win_index": True}, "win_index must be a whole number"),
        ({"win_index": 1}, "win_index goes with win_tile"),
        ({"hand": 5}, "hand must be tiles as text"),
        ({"hand": ["1m"]}, "hand must be tiles as text"),
        ({"hand": None}, "hand must be tiles as text"),
        ({"hand": "zzz"}, "unknown tile code"),
        ({"hand": "1m" * 65}, "hand has at most 64 tiles"),
        ({"melds": "garbage"}, "melds must be a list"),
        ({"melds": [1, 2]}, "meld 1 must be an object with type and tiles"),
        ({"melds": [{"type": "pon", "tile": "1m"}]}, "unknown meld key 'tile'"),
        ({"melds": ["pon:777z"] * 9}, "at most 8 melds"),
        ({"flowers": 12}, "flowers must be tiles as text"),
        ({"flowers": {"a": 1}}, "flowers must be tiles as text"),
        ({"flowers": "9x"}, "unknown tile code"),
        ({"split": "x"}, "split must be a whole number"),
        ({"join": 5, "meld": "pon"}, "join must be tiles as text"),
        ({"join": "1m1m1m"}, "join goes with meld"),
        ({"meld": "pon"}, "meld goes with join"),
        ({"join": "1z1z1z", "meld": "bogus"}, "cannot join tiles as 'bogus'"),
        ({"context": {"dealer_streak": 10**20}}, "dealer_streak must be at most"),
    ],
)
def test_a_bad_fix_is_refused_and_the_hand_kept(tmp_path, fix, said):
    app = _app(tmp_path)
    with app.test_client() as client:
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        refused = client.post(url, data=json.dumps(fix), content_type="application/json")
        assert said in _one_line(refused, 400)
        after = client.get(f"/api/hands/{hand['id']}")
        assert after.status_code == 200 and after.get_json() == hand
        assert client.get("/api/export.json").status_code == 200
    assert Store(tmp_path / "data").hand(hand["id"])["corrections"] == []


def test_what_is_kept_of_a_request_is_what_was_checked(tmp_path):
    with _app(tmp_path).test_client() as client:
        hand = client.post("/api/score").get_json()
        many = ["last_tile"] * 50_000  # 600 KB, under the cap: kept as the one event it says
        fixed = client.post(f"/api/hands/{hand['id']}/fix", json={"context": {"events": many}})
        assert fixed.get_json()["corrections"] == [{"context": {"events": ["last_tile"]}}]
        refused = client.post("/api/context", json={"dora_indicators": ["3m"] * 11})
        assert _one_line(refused, 400) == "dora_indicators has at most 10 tiles"
        long = client.post("/api/context", json={"events": "x" * 500_000})
        assert len(_one_line(long, 400)) < 200  # the value said in part, not a megabyte of it


def test_good_fixes_are_taken_as_the_page_sends_them(tmp_path):
    with _app(tmp_path).test_client() as client:
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        for fix in (
            {"tile": 0, "code": "2m"},
            {"tile": "1", "face_down": True},
            {"tile": 2, "code": "3m", "face_down": False, "keep_win": False},
            {"win_tile": "1z", "win_index": 16},
            {"hand": "123456789m123456p", "melds": [], "flowers": ""},
            {"hand": "123456789m", "melds": ["pon:111z", {"type": "chi", "tiles": "123p"}]},
            {"split": 0},
            {"join": "1z 1z 1z", "meld": "pon"},
            {"context": {"self_draw": False, "discarder": "S"}},
            {"add": "9s"},
        ):
            fixed = client.post(url, json=fix)
            assert fixed.status_code == 200, (fix, fixed.get_json())
        after = fixed.get_json()
        assert after["tiles"][1]["face_down"] and after["tiles"][1]["code"] is None
        assert len(after["corrections"]) == 10 and after["corrections"][1]["tile"] == 1
        # A fix that says nothing is no correction: not kept, the offers not dropped.
        for nothing in ({}, {"context": {}}):
            said = _one_line(client.post(url, json=nothing), 400)
            assert said.startswith("a fix must say what to change")
        assert len(client.get(f"/api/hands/{hand['id']}").get_json()["corrections"]) == 10


def test_a_tile_fix_that_fails_to_score_keeps_the_tiles_as_they_were(tmp_path, monkeypatch):
    from device.app import service

    with _app(tmp_path).test_client() as client:
        hand = client.post("/api/score").get_json()

        def broken(*args, **kwargs):
            raise RuntimeError("boom")

        monkeypatch.setattr(service, "score_reading", broken)
        crash = client.post(f"/api/hands/{hand['id']}/fix", json={"tile": 0, "code": "9s"})
        assert crash.status_code == 500
        monkeypatch.undo()
        assert client.get(f"/api/hands/{hand['id']}").get_json()["tiles"] == hand["tiles"]


def test_a_hand_saved_by_an_older_version_with_no_tile_text_says_so_on_a_join(tmp_path):
    with _app(tmp_path).test_client() as client:
        hand = client.post("/api/score").get_json()
    store = Store(tmp_path / "data")
    # What an older version kept when it was sent {"hand": ["1m"]}.
    store.update_hand(hand["id"], {"hand": ["1m"]}, hand["context"], hand["result"], {})
    with _app(tmp_path).test_client() as client:
        url = f"/api/hands/{hand['id']}/fix"
        said = _one_line(client.post(url, json={"join": "1m1m1m", "meld": "pon"}), 400)
        assert said.startswith("this hand's concealed tiles are not tiles as text: ['1m']")
        assert client.post(url, json={"split": 0}).status_code == 400
        assert client.post(url, json={"hand": "111m", "melds": []}).status_code == 200
        assert client.post(url, json={"join": "1m1m1m", "meld": "pon"}).status_code == 200


# -- requests at the same moment: every read-modify-write of the store is one --


def test_context_changes_sent_together_are_all_kept(tmp_path):
    app = _app(tmp_path)
    rounds = [
        {"seat_wind": "S", "self_draw": False, "discarder": "W", "events": ["last_tile"]},
        {"rules": {"base": 50}, "riichi_sticks": 0, "dora_indicators": []},
        {"ura_dora_indicators": [], "dealer": True, "players": 4, "dealer_streak": 3},
        {"round_wind": "S"},
    ]
    sent = {k: v for part in rounds for k, v in part.items()}
    answers = _at_once(app, [("post", "/api/context", {k: v}) for k, v in sent.items()])
    assert [a.status_code for a in answers] == [200] * len(sent)
    saved = app.config["STATE"].store.get_setting("context")
    assert {k: saved.get(k) for k in sent if k not in ("dealer_streak", "round_wind")} == {
        k: v for k, v in sent.items() if k not in ("dealer_streak", "round_wind")
    }
    session = app.config["STATE"].store.current_session()
    assert (session.streak, session.round_wind) == (3, "S")


def test_undos_sent_together_undo_one_hand_each(tmp_path):
    app = _app(tmp_path)
    with app.test_client() as client:
        ids = [client.post("/api/score").get_json()["id"] for _ in range(6)]
    answers = _at_once(app, [("post", "/api/undo", None)] * 4)
    undone = sorted(a.get_json()["undone"] for a in answers)
    assert undone == ids[2:]
    store = app.config["STATE"].store
    assert [h["id"] for h in store.hands(1)] == ids[:2]
    _replayed(store, 1)


def test_scores_undos_and_fixes_together_leave_the_dealer_as_a_replay_does(tmp_path):
    def slow_reader():  # reading a photo takes a while: others come meanwhile
        time.sleep(0.02)
        return _detections()

    app = _app(tmp_path, slow_reader)
    with app.test_client() as client:
        for _ in range(4):
            client.post("/api/score")
    kinds = [
        ("post", "/api/score", None),
        ("post", "/api/undo", None),
        ("post", "/api/context", {"seat_wind": "E"}),
        ("post", "/api/hands/1/fix", {"tile": 0, "code": "1m"}),  # the same read: no change
        ("post", "/api/undo", None),
        ("post", "/api/score", None),
        ("post", "/api/context", {"seat_wind": "S"}),
    ]
    for _ in range(3):
        answers = _at_once(app, kinds * 6, stagger=0.003)
        assert {a.status_code for a in answers} <= {200, 400}, [a.get_json() for a in answers]
        _replayed(app.config["STATE"].store, 1)


# -- the PIN, hand numbers and context numbers out of range --


def test_the_pin_refuses_a_body_that_is_no_object_and_odd_characters(tmp_path):
    app = create_app(tmp_path / "data", tmp_path / "no-models", "dir:/nowhere", pin="123456")
    phone = {"REMOTE_ADDR": "192.0.2.9"}
    with app.test_client() as client:
        for body in ([1], "x", 5):
            _one_line(client.post("/pin", json=body, environ_base=phone), 400)
        assert "wrong PIN" in _one_line(client.post("/pin", json={"pin": "１２３"}), 403)
        headers = {"X-Tilescore-Pin": "1234é6".encode().decode("latin-1")}
        refused = client.get("/api/session", headers=headers, environ_base=phone)
        assert refused.status_code == 403 and refused.get_json()["pin_required"]
        client.set_cookie("tilescore_pin", "12345€")
        refused = client.get("/api/session", environ_base=phone)
        assert refused.status_code == 403 and refused.get_json()["pin_required"]
        client.set_cookie("tilescore_pin", "123456")
        assert client.get("/api/session", environ_base=phone).status_code == 200


@pytest.mark.parametrize("hand_id", ["0", "-1", "7", "99999999999999999999", "9223372036854775808"])
def test_a_hand_that_is_not_there_is_a_404_whatever_its_number(tmp_path, hand_id):
    with _app(tmp_path).test_client() as client:
        client.post("/api/score")
        for url in (f"/api/hands/{hand_id}", f"/api/hands/{hand_id}/photo.jpg"):
            assert _one_line(client.get(url), 404) == f"no hand {hand_id}"
        fix = client.post(f"/api/hands/{hand_id}/fix", json={"win_tile": "1m"})
        assert _one_line(fix, 404) == f"no hand {hand_id}"


def test_a_dealer_streak_beyond_any_table_is_refused_and_nothing_saved(tmp_path):
    with _app(tmp_path).test_client() as client:
        before = client.get("/api/context").get_json()
        for streak in (1e20, 10**20, 2**63, 1000):
            refused = client.post("/api/context", json={"dealer_streak": streak, "seat_wind": "S"})
            _one_line(refused, 400)
        assert client.get("/api/context").get_json() == before
        assert client.post("/api/context", json={"dealer_streak": 99}).status_code == 200
        hand = client.post("/api/score").get_json()  # a dealer win: the streak goes on by one
        assert (
            hand["result"]["winning"]
            and client.get("/api/context").get_json()["dealer_streak"] == 100
        )


# -- a store that cannot be used: one line at the start, never a traceback, nothing overwritten --


def _serve(data, capsys, monkeypatch):
    """``tilescore serve --data DATA``, stopped short of serving (a store that got past the
    checks fails the test rather than serving for ever)."""

    def serving(*args, **kwargs):
        raise AssertionError("serve started on a store it cannot use")

    monkeypatch.setattr("werkzeug.serving.make_server", serving)
    camera = data.parent / "camera"
    camera.mkdir(exist_ok=True)
    code = main(
        ["serve", "--camera", f"dir:{camera}", "--models", str(data.parent), "--data", str(data)]
    )
    return code, capsys.readouterr().err


def _damaged(folder):
    """A store with hands whose file then has one page written over, as a failing card does."""
    store = Store(folder)
    session = store.new_session(["A", "B", "C", "D"], "taiwan")
    for _ in range(30):
        store.add_hand(session.id, None, [{"code": "1m"}] * 40, {"hand": "x" * 500}, {}, _result())
    with open(store.path, "r+b") as db:
        db.seek(4096 * 3)
        db.write(b"\xff" * 4096)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda d: (d / "tilescore.sqlite3").write_bytes(b"garbage" * 1000), "is not a database"),
        (lambda d: (d / "tilescore.sqlite3").mkdir(), "is a folder"),
        (_damaged, "is damaged"),
    ],
    ids=["garbage", "a folder", "a damaged page"],
)
def test_serve_refuses_a_store_it_cannot_use_in_one_line(tmp_path, capsys, monkeypatch, make, said):
    data = tmp_path / "data"
    data.mkdir()
    make(data)
    db = data / "tilescore.sqlite3"
    before = db.read_bytes() if db.is_file() else None
    code, err = _serve(data, capsys, monkeypatch)
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: "), err
    assert said in err and str(db) in err and "move it aside" in err
    assert (db.read_bytes() if db.is_file() else None) == before  # never overwritten
    with pytest.raises(StoreError):
        Store(data)


def _read_only(folder):
    """``folder`` bind-mounted read-only over itself, as an SD card remounted after an error;
    skipped where this user may not mount."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root to mount a folder read-only")
    for command in (
        ["mount", "--bind", folder, folder],
        ["mount", "-o", "remount,ro,bind", folder],
    ):
        done = subprocess.run(command, capture_output=True)
        if done.returncode != 0:
            if command[1] != "--bind":
                subprocess.run(["umount", folder])
            pytest.skip(f"cannot mount here: {done.stderr.decode().strip()}")


def test_serve_refuses_a_read_only_data_folder_in_one_line(tmp_path, capsys, monkeypatch):
    data = tmp_path / "data"
    Store(data)
    _read_only(data)
    try:
        code, err = _serve(data, capsys, monkeypatch)
    finally:
        subprocess.run(["umount", data], check=True)
    assert code == 2 and err.count("\n") == 1 and "read-only" in err and str(data) in err, err


def test_a_data_folder_turned_read_only_still_answers_every_read(tmp_path):
    app = _app(tmp_path)
    data = tmp_path / "data"
    with app.test_client() as client:
        hand = client.post("/api/score").get_json()
        _read_only(data)
        try:
            for url in ("/api/status", "/api/session", "/api/context", "/api/still"):
                assert client.get(url).status_code == 200, client.get(url).get_json()
            assert client.get(f"/api/hands/{hand['id']}").get_json()["id"] == hand["id"]
            assert client.get(f"/api/hands/{hand['id']}/photo.jpg").status_code == 200
            assert client.get("/api/export.json").get_json()["hands"][0]["id"] == hand["id"]
            assert client.get("/api/export.csv").status_code == 200
            for method, url, body, outcome in (
                ("post", "/api/score", None, "the hand was not saved"),
                ("post", "/api/context", {"seat_wind": "S"}, "the table settings were not saved"),
                ("post", "/api/undo", None, "nothing was undone"),
                ("post", "/api/session", None, "no new session was started"),
                ("post", "/api/draw", {"ready": []}, "the drawn hand was not saved"),
                (
                    "post",
                    f"/api/hands/{hand['id']}/fix",
                    {"tile": 0, "code": "2m"},
                    "the correction was not saved",
                ),
            ):
                said = _one_line(getattr(client, method)(url, json=body), 507)
                assert said.startswith(f"the data folder {data} is read-only: {outcome}"), said
        finally:
            subprocess.run(["umount", data], check=True)
        assert client.get(f"/api/hands/{hand['id']}").get_json() == hand  # nothing half-saved
        assert len(client.get("/api/session").get_json()["hands"]) == 1


def _small_disk(folder, megabytes=3):
    """A tmpfs of ``megabytes`` mounted at ``folder``; skipped where this user may not mount."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root to mount a small disk")
    folder.mkdir(parents=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", folder], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.decode().strip()}")


def test_a_full_disk_still_shows_the_scores_and_says_it_is_full(tmp_path):
    # SQLite could not make its shared-memory file: every read was a 503, each write said
    # "disk I/O error", and the app would not start again.
    data = tmp_path / "data"
    _small_disk(data)
    try:
        app = _app(tmp_path)
        with app.test_client() as client:
            hand = client.post("/api/score").get_json()
            (data / "filler").write_bytes(b"")
            with open(data / "filler", "wb") as filler, contextlib.suppress(OSError):
                while True:
                    filler.write(bytes(64 * 1024))
            for url in ("/api/status", "/api/session", "/api/context", f"/api/hands/{hand['id']}"):
                assert client.get(url).status_code == 200, (url, client.get(url).get_json())
            said = _one_line(client.post("/api/context", json={"seat_wind": "S"}), 507)
            assert said.startswith("the disk is full: the table settings were not saved"), said
        with _app(tmp_path).test_client() as again:  # and it starts on the full disk
            assert again.get("/api/session").get_json()["hands"][0]["id"] == hand["id"]
    finally:
        subprocess.run(["umount", data], check=True)


def test_a_second_tap_on_the_same_tiles_shows_the_hand_scored_last(tmp_path):
    # A second tap on a slow Pi (or one just after the still hand was recorded) recorded the
    # same hand again: paid twice, the deal moved twice (a helper's probe).
    same = _detections()
    app = _app(tmp_path, lambda: same)
    with app.test_client() as client:
        first = client.post("/api/score").get_json()
        again = client.post("/api/score").get_json()
        assert again["id"] == first["id"] and again["repeat_of"] == first["id"]
        assert [h["id"] for h in client.get("/api/session").get_json()["hands"]] == [first["id"]]
        client.post("/api/undo")  # undone, the same tiles are scored anew
        anew = client.post("/api/score").get_json()
        assert anew["id"] != first["id"] and "repeat_of" not in anew


def test_two_taps_at_once_on_a_short_hand_record_it_once(tmp_path):
    # Five tiles read (too few for the scene to tell): two taps at once recorded the photo
    # twice, and each moved the folder camera on, so its next photo was never scored (a probe).
    short = [
        {"code": c, "box": [i * 40, 0, i * 40 + 38, 50], "confidence": 0.9, "face_down": False}
        for i, c in enumerate(["5m", "5p", "1s", "5z", "7z"])
    ]
    app = _app(tmp_path, lambda: [dict(t) for t in short])
    shutil.copy(tmp_path / "camera" / "hand.jpg", tmp_path / "camera" / "next.jpg")
    state = app.config["STATE"]
    grab = state.grab

    def grab_as_the_first_tap_records(full):
        # This tap's photo is taken; the other tap, which took the same one, records its hand
        # and moves the camera on meanwhile.
        image = grab(full=full)
        state.taps_scored += 1
        state.camera.advance()
        return image

    with app.test_client() as client:
        first = client.post("/api/score").get_json()
        state.camera.position, state.taps_scored = 0, 0  # as before the first tap was done
        state.grab = grab_as_the_first_tap_records
        again = client.post("/api/score").get_json()
        assert again["repeat_of"] == first["id"]
        assert len(client.get("/api/session").get_json()["hands"]) == 1
        assert state.camera.current_path().name == "next.jpg"  # not past it
        # One tap after the other is two hands, as before.
        state.grab = grab
        assert "repeat_of" not in client.post("/api/score").get_json()


def test_a_tap_on_the_hand_scored_last_and_corrected_shows_it_again(tmp_path):
    # Corrected, its reading was no longer the new read's, and a second tap recorded it again
    # (a helper's probe): the boxes where they lay, most read alike, are the same hand.
    same = _detections()
    app = _app(tmp_path, lambda: [dict(t) for t in same])
    with app.test_client() as client:
        first = client.post("/api/score").get_json()
        fixed = client.post(f"/api/hands/{first['id']}/fix", json={"tile": 0, "code": "2m"})
        assert fixed.status_code == 200
        again = client.post("/api/score").get_json()
        assert again["repeat_of"] == first["id"]
        assert len(client.get("/api/session").get_json()["hands"]) == 1
