"""Drawn hands (流局) in the table app: recorded with their payments, the deal moved as the rule
set says, undone like a hand, and refused in one line where no table could have said them."""

import csv
import io

import pytest

from tests.device.bare_app import draw, session, table


@pytest.fixture
def client(bare_client):
    return bare_client


def test_riichi_noten_dealer_passes_the_deal_and_the_honba_goes_on(client):
    table(client, variant="riichi")
    hand = draw(client, reason="wall", ready=["S"])
    assert hand["photo"] is None and hand["tiles"] == []
    assert hand["result_notes"] == ["The deal passes; one more 本場"]
    board = session(client)
    assert board["totals"] == {"East": -1000, "South": 3000, "West": -1000, "North": -1000}
    # South was ready and East was not: the deal passes to South, and the 本場 counts 1.
    assert board["session"]["seats"]["E"] == "South" and board["session"]["streak"] == 1
    assert client.get("/api/context").get_json()["honba"] == 1
    summary = board["hands"][0]
    assert summary["drawn"] is True and summary["reason"] == "wall"


def test_riichi_ready_dealer_keeps_the_deal_then_an_undo_puts_all_back(client):
    table(client, variant="riichi")
    draw(client, ready=["E", "N"])
    board = session(client)
    assert board["session"]["seats"]["E"] == "East" and board["session"]["streak"] == 1
    assert board["totals"] == {"East": 1500, "South": -1500, "West": -1500, "North": 1500}
    undone = client.post("/api/undo").get_json()["undone"]
    assert undone == board["hands"][0]["id"]
    board = session(client)
    assert board["session"]["streak"] == 0 and set(board["totals"].values()) == {0}
    assert board["hands"] == []


def test_riichi_nagashi_is_recorded_with_its_makers(client):
    table(client, variant="riichi")
    hand = draw(client, reason="nagashi", ready=["S"], nagashi=["S"])
    assert hand["result"]["nagashi"] == ["S"] and hand["reading"]["draw"]["nagashi"] == ["S"]
    assert session(client)["totals"]["South"] == 8000
    refused = client.post("/api/draw", json={"reason": "wall", "nagashi": ["S"]})
    assert (
        refused.status_code == 400 and "goes with reason 'nagashi'" in refused.get_json()["error"]
    )


def test_taiwan_draw_adds_to_the_dealers_streak_and_a_table_may_pass_it(client):
    table(client, variant="taiwan")
    draw(client)
    assert session(client)["session"]["streak"] == 1
    assert client.get("/api/context").get_json()["dealer_streak"] == 1
    table(client, rules={"draw_keeps_deal": False})
    draw(client)
    state = session(client)["session"]
    assert state["streak"] == 0 and state["seats"]["E"] == "South"


def test_mingjiang_draw_passes_the_deal(client):
    table(client, variant="mingjiang")
    draw(client)
    assert session(client)["session"]["seats"]["E"] == "South"


def test_xiangqi_draw_pays_the_ready_and_counts_the_run_of_draws(client):
    client.post("/api/session", json={"players": ["A", "B", "C"], "variant": "xiangqi"})
    hand = draw(client, ready=["S"], clean_sweep={"W": ["卒"]})
    # Ready South collects 250 from each player not ready; West's 片甲不留 counts as a 6 台
    # self-draw (基本點 3000): the dealer East pays it twice over, South once.
    paid = {(p["payer"], p["payee"], p["amount"]) for p in hand["result"]["payments"]}
    assert ("E", "S", 250) in paid and ("W", "S", 250) in paid
    assert ("E", "W", 6000) in paid and ("S", "W", 3000) in paid
    assert hand["result"]["clean_sweep"] == {"W": 6}
    board = session(client)
    assert board["session"]["seats"]["E"] == "A" and board["session"]["streak"] == 0
    assert client.get("/api/context").get_json()["rules"]["draws_in_a_row"] == 1
    draw(client, reason="soldiers")
    assert client.get("/api/context").get_json()["rules"]["draws_in_a_row"] == 2
    client.post("/api/undo")
    assert client.get("/api/context").get_json()["rules"]["draws_in_a_row"] == 1


@pytest.mark.parametrize(
    ("context", "sent", "words"),
    [
        ({"variant": "taiwan"}, {"ready": ["E"]}, "who was ready changes nothing"),
        ({"variant": "riichi"}, {"reason": "abortive", "ready": ["E"]}, "on a 途中流局 draw"),
        ({"variant": "xiangqi"}, {"reason": "soldiers", "ready": ["E"]}, "on a 四兵流局 draw"),
        ({"variant": "riichi"}, {"variant": "mingjiang"}, "the table plays riichi now"),
        ({"variant": "riichi"}, {"reason": "ryuukyoku"}, "reason 'ryuukyoku' is not one of"),
        ({"variant": "riichi"}, {"ready": ["X"]}, "ready must be a list of chairs (E S W N)"),
        ({"variant": "riichi"}, {"winner": "E"}, "unknown key 'winner'"),
        ({"variant": "riichi"}, {"clean_sweep": {"E": ["兵"]}}, "is xiangqi's, not riichi's"),
        ({"variant": "xiangqi"}, {"clean_sweep": {"E": ["車"]}}, "clean_sweep must be chair"),
        ({"variant": "xiangqi"}, {"clean_sweep": {"E": ["兵", "兵"]}}, "clean_sweep must be"),
    ],
)
def test_a_draw_no_table_has_is_refused_in_one_line(client, context, sent, words):
    table(client, **context)
    response = client.post("/api/draw", json=sent)
    error = response.get_json()["error"]
    assert response.status_code == 400 and words in error and "\n" not in error
    assert session(client)["hands"] == []  # nothing recorded


def test_a_three_player_table_has_no_north_to_be_ready(client):
    client.post("/api/session", json={"players": ["A", "B", "C"], "variant": "xiangqi"})
    response = client.post("/api/draw", json={"ready": ["N"]})
    assert response.status_code == 400 and "(E S W)" in response.get_json()["error"]


def test_a_drawn_hand_has_nothing_to_fix_and_exports_as_a_draw(client):
    table(client, variant="riichi")
    hand = draw(client, ready=["W"])
    response = client.post(f"/api/hands/{hand['id']}/fix", json={"context": {"seat_wind": "S"}})
    assert response.status_code == 400 and "undo it" in response.get_json()["error"]
    rows = list(csv.DictReader(io.StringIO(client.get("/api/export.csv").get_data(as_text=True))))
    assert rows[0]["won_by"] == "drawn (wall)" and rows[0]["winner"] == ""
    assert "ready: West (W)" in rows[0]["note"]


def test_the_page_learns_each_rule_sets_draws(client):
    variants = client.get("/api/status").get_json()["variants"]
    assert [r["code"] for r in variants["riichi"]["draw"]["reasons"]] == [
        "wall",
        "abortive",
        "nagashi",
    ]
    # Who was ready is asked per way a hand ends: never at a Taiwan table.
    assert [r["ready"] for r in variants["taiwan"]["draw"]["reasons"]] == [False]
    assert [r["ready"] for r in variants["riichi"]["draw"]["reasons"]] == [True, False, True]
    assert variants["xiangqi"]["draw"]["clean_sweep"] is True


def test_a_double_tap_on_record_draw_records_one_draw(client):
    # Two draws a moment apart paid twice and passed the deal twice (a helper's probe).
    table(client, variant="riichi")
    first = draw(client, ready=["S"])
    again = draw(client, ready=["S"])
    assert again["id"] == first["id"] and again["repeat_of"] == first["id"]
    assert session(client)["totals"]["South"] == 3000
    other = draw(client, ready=["W"])  # another draw said: recorded
    assert other["id"] != first["id"]


def test_a_double_tap_on_record_draw_after_a_mingjiang_chicken_hand_records_one_draw(client):
    # The draw ends the hand and lets the 雞糊's winner back in (seats_out cleared): the
    # second tap's table differed by what the first moved on, and a second draw was recorded.
    table(client, variant="mingjiang", rules={"seats_out": "S"})
    first = draw(client)
    again = draw(client)
    assert again["id"] == first["id"] and again["repeat_of"] == first["id"]
    assert len(session(client)["hands"]) == 1


def test_a_refused_draw_starts_no_session(client):
    # Refused on a fresh table, it had started a 4-chair session all the same.
    table(client, variant="riichi")
    refused = client.post("/api/draw", json={"reason": "nagashi"})
    assert refused.status_code == 400
    assert session(client)["session"] is None


def test_a_chair_named_twice_is_refused_as_the_scorer_refuses_it(client):
    table(client, variant="riichi")
    response = client.post("/api/draw", json={"ready": ["E", "E"]})
    assert response.status_code == 400 and "names a chair twice" in response.get_json()["error"]
