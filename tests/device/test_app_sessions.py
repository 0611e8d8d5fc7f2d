"""Sessions kept in the table app: the earlier ones listed and read back, with their exports."""

import pytest

from tests.device.bare_app import draw, table


@pytest.fixture
def client(bare_client):
    return bare_client


def test_earlier_sessions_are_listed_and_read_back_with_their_exports(client):
    # An earlier evening's scores were reachable only with sqlite3.
    table(client, variant="riichi")
    draw(client, ready=["S"])
    client.post("/api/session", json={"players": ["A", "B", "C", "D"]})
    listed = client.get("/api/sessions").get_json()["sessions"]
    assert [(s["id"], s["hands"]) for s in listed] == [(2, 0), (1, 1)]  # newest first
    assert listed[1]["players"] == ["East", "South", "West", "North"]
    earlier = client.get("/api/session?id=1").get_json()
    assert earlier["current"] is False and earlier["totals"]["South"] == 3000
    assert client.get("/api/session").get_json()["current"] is True
    csv_text = client.get("/api/export.csv?session=1").get_data(as_text=True)
    assert "drawn (wall)" in csv_text
    exported = client.get("/api/export.json?session=1")
    assert exported.get_json()["session"]["id"] == 1
    assert "tilescore-session-1.json" in exported.headers["Content-Disposition"]
    for asked in ("9", "0", "x", "-1", "99999999999999999999"):
        missing = client.get(f"/api/session?id={asked}")
        assert missing.status_code == 404 and "no session" in missing.get_json()["error"]


def test_a_correction_of_an_earlier_sessions_last_hand_leaves_todays_table_alone(client):
    # Corrected into a 明將 雞糊 of North's, yesterday's last hand put North out of today's hand
    # (rule seats_out): North paid nothing on today's next self-draw (helper 64).
    table(client, variant="mingjiang", seat_wind="S", self_draw=False, discarder="W")
    chicken = {"hand": "111p789s234s55m", "melds": ["chi:123m"], "win_tile": "5m"}
    yesterday = client.post("/api/typed", json=chicken).get_json()
    assert yesterday["result"]["hand_continues"] is True
    client.post("/api/session", json={"players": ["A", "B", "C", "D"]})
    today = client.get("/api/context").get_json()
    before = client.get("/api/session").get_json()["session"]
    fixed = client.post(f"/api/hands/{yesterday['id']}/fix", json={"context": {"seat_wind": "N"}})
    assert fixed.status_code == 200 and fixed.get_json()["context"]["seat_wind"] == "N"
    assert client.get("/api/context").get_json() == today
    assert client.get("/api/session").get_json()["session"] == before
