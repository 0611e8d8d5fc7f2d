"""The table app's chairs, a fix's melds, a photo too long to keep, and the models folder after
a fit: one line naming the problem, and nothing counted to the wrong player."""

import io
import logging

import pytest
from PIL import Image

from device.app import service
from device.store import Store, _player_at
from scoring.errors import TilescoreError
from tests.device.typed_hands import MELDS_HAND, app_reading, typed

# 士象車 面子 + 將帥 對子: a xiangqi win (tests/device/test_app_seats.py).
XIANGQI_WIN = {"hand": "士象車帥將", "win_tile": "將", "flowers": "", "melds": []}


@pytest.fixture
def client(tmp_path):
    """The app on a real store, the folder camera with one photo, and a reader that finds no
    tiles: the hand is typed in as a correction."""
    with app_reading(tmp_path).test_client() as test_client:
        yield test_client


def _three_at_xiangqi(client):
    made = client.post("/api/session", json={"players": ["a", "b", "c"], "variant": "xiangqi"})
    assert made.status_code == 200, made.get_json()
    return made.get_json()["session"]


# -- 1. a session's chairs: the first len(players) of E S W N, nobody wrapped round --


def test_a_three_player_table_has_no_north(client):
    _three_at_xiangqi(client)
    before = client.get("/api/context").get_json()
    assert before["players"] == 3 and before["variant"] == "xiangqi"
    for sent, said in (
        ({"seat_wind": "N"}, "seat_wind N is no chair of this 3-player session (E S W)"),
        ({"discarder": "N", "self_draw": False}, "discarder N is no chair of this 3-player"),
        ({"variant": "taiwan"}, "this session has 3 players: taiwan is played by 4 players"),
        ({"players": 4}, "players 4 is not this session's 3"),
    ):
        refused = client.post("/api/context", json=sent)
        assert refused.status_code == 400, (sent, refused.get_json())
        assert said in refused.get_json()["error"], refused.get_json()
        assert client.get("/api/context").get_json() == before  # nothing saved


def test_a_three_player_win_is_paid_between_the_players_who_sit_there(client):
    _three_at_xiangqi(client)
    set_ = client.post(
        "/api/context", json={"seat_wind": "S", "discarder": "W", "self_draw": False}
    )
    assert set_.status_code == 200, set_.get_json()
    hand = typed(client, XIANGQI_WIN)
    payments = [(p["payer"], p["payee"]) for p in hand["result"]["payments"]]
    assert payments == [("W", "S")]
    board = client.get("/api/session").get_json()
    paid = board["hands"][0]["payments"][0]
    assert (paid["payer_name"], paid["payee_name"]) == ("c", "b")
    amount = paid["amount"]
    assert board["totals"] == {"a": 0, "b": amount, "c": -amount}


def test_a_fix_cannot_seat_the_winner_at_a_chair_the_session_lacks(client):
    _three_at_xiangqi(client)
    hand = typed(client, XIANGQI_WIN)
    url = f"/api/hands/{hand['id']}/fix"
    for context in ({"seat_wind": "N"}, {"variant": "riichi"}, {"players": 4}):
        refused = client.post(url, json={"context": context})
        assert refused.status_code == 400, (context, refused.get_json())
    assert client.get(f"/api/hands/{hand['id']}").get_json()["context"] == hand["context"]


def test_a_session_whose_rule_set_takes_another_count_is_refused(client):
    client.post("/api/context", json={"variant": "riichi"})
    before = client.get("/api/session").get_json()
    for sent in (
        {"players": ["a", "b", "c"]},  # the table's riichi
        {"players": ["a", "b", "c"], "variant": "taiwan"},
        {"players": ["a", "b"], "variant": "mingjiang"},
    ):
        refused = client.post("/api/session", json=sent)
        assert refused.status_code == 400, (sent, refused.get_json())
        assert "4 players, got players" in refused.get_json()["error"]
    assert client.get("/api/session").get_json() == before
    assert client.get("/api/context").get_json()["variant"] == "riichi"


def test_a_new_session_brings_the_table_to_its_chairs(client):
    client.post("/api/context", json={"variant": "xiangqi", "seat_wind": "N", "discarder": "N"})
    _three_at_xiangqi(client)
    context = client.get("/api/context").get_json()
    assert (context["players"], context["seat_wind"], context["discarder"]) == (3, "E", None)
    named = client.post("/api/session", json={"players": ["a", "b"], "variant": "xiangqi"})
    assert named.status_code == 200 and client.get("/api/context").get_json()["players"] == 2


def test_the_first_hand_starts_a_session_of_the_contexts_players(client):
    set_ = client.post("/api/context", json={"variant": "xiangqi", "players": 3})
    assert set_.status_code == 200, set_.get_json()
    typed(client, XIANGQI_WIN)
    assert client.get("/api/session").get_json()["session"]["players"] == [
        "East",
        "South",
        "West",
    ]


def test_a_chair_nobody_sits_in_is_no_player(tmp_path, caplog):
    assert _player_at(("a", "b", "c"), 1, "N") is None  # not wrapped round onto "b"
    assert _player_at(("a", "b", "c"), 1, "W") == "a"
    store = Store(tmp_path / "data")
    session = store.new_session(["a", "b", "c"], "xiangqi")
    with pytest.raises(TilescoreError, match="nobody sits at chair 'N'"):
        session.player_at("N")
    with pytest.raises(TilescoreError, match="a session has 2 to 4 players, got 5"):
        store.new_session(["a", "b", "c", "d", "e"], "taiwan")
    # A hand kept by an older version, paid from North: counted to nobody, and said in the log.
    result = {"winning": True, "payments": [{"payer": "W", "payee": "N", "amount": 3000}]}
    store.add_hand(session.id, None, [], {}, {"seat_wind": "N", "discarder": "W"}, result)
    with caplog.at_level(logging.WARNING, logger="device.store"):
        assert store.totals(session.id) == {"a": 0, "b": 0, "c": 0}
    assert "names a chair nobody sits in" in caplog.text


def test_scoring_refuses_a_payment_to_or_from_a_chair_nobody_sits_in():
    reading = {"hand": "士象車帥將", "win_tile": "將"}
    north = {"variant": "xiangqi", "players": 3, "seat_wind": "N", "discarder": "W"}
    assert "seat_wind N is no chair of a 3-player table" in service.score_reading(
        reading, north
    ).get("error", "")
    taiwan = {"variant": "taiwan", "players": 3, "seat_wind": "E", "self_draw": True}
    assert "error" in service.score_reading(MELDS_HAND, taiwan)  # the scorer's own refusal


def test_a_xiangqi_discard_win_with_no_discarder_named_is_kept_unpaid(client):
    _three_at_xiangqi(client)
    client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": None})
    hand = typed(client, XIANGQI_WIN)
    # As the rule sets by wind: winning, nobody pays until the discarder is named.
    assert hand["result"]["winning"] and hand["result"]["payments"] == []
    named = client.post(f"/api/hands/{hand['id']}/fix", json={"context": {"discarder": "W"}})
    assert [p["payer"] for p in named.get_json()["result"]["payments"]] == ["W"]


# -- 2. a fix's melds, checked whole --


@pytest.mark.parametrize(
    ("melds", "said"),
    [
        ([{"type": "pon"}], "meld pon: is not 3 identical tiles"),
        ([{"type": "pon", "tiles": "777z", "from": "Q"}], "claimed from 'Q'"),
        ([{"type": "pon", "tiles": "777z", "from": 3}], "meld 'from' must be a seat"),
        (["chi:124m"], "is not three in a row"),
        ([{"type": "pon", "tiles": "777z", "size": 3}], "unknown meld key 'size'"),
    ],
)
def test_a_fix_with_a_meld_that_cannot_be_is_refused(client, melds, said):
    hand = typed(client, MELDS_HAND)
    refused = client.post(f"/api/hands/{hand['id']}/fix", json={"melds": melds})
    assert refused.status_code == 400, refused.get_json()
    assert said in refused.get_json()["error"], refused.get_json()
    assert client.get(f"/api/hands/{hand['id']}").get_json()["reading"] == hand["reading"]


def test_a_meld_is_claimed_from_a_seat_the_rule_set_names(client):
    hand = typed(client, MELDS_HAND)
    url = f"/api/hands/{hand['id']}/fix"
    melds = [{"type": "pon", "tiles": "777z", "from": "W"}, "chi:678s", "concealed_kong:9999m"]
    assert client.post(url, json={"melds": melds}).status_code == 200
    client.post("/api/session", json={"players": ["a", "b", "c"], "variant": "xiangqi"})
    pieces = typed(client, XIANGQI_WIN)
    url = f"/api/hands/{pieces['id']}/fix"
    across = client.post(url, json={"melds": [{"type": "pon", "tiles": "兵兵兵", "from": "W"}]})
    assert across.status_code == 400 and "use one of left right" in across.get_json()["error"]
    left = client.post(url, json={"melds": [{"type": "pon", "tiles": "兵兵兵", "from": "left"}]})
    assert left.status_code == 200, left.get_json()


# -- 3. a photo too long to keep --


def test_a_photo_too_long_to_keep_says_its_size(client):
    buffer = io.BytesIO()
    Image.new("RGB", (100000, 10), (200, 200, 200)).save(buffer, "PNG")
    data = {"photo": (io.BytesIO(buffer.getvalue()), "strip.png")}
    refused = client.post("/api/upload", data=data, content_type="multipart/form-data")
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert "100000x10 pixels: too long to keep" in error, error
    assert client.get("/api/session").get_json()["hands"] == []
