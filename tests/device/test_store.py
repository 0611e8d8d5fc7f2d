"""The SQLite store: sessions, hands, dealer rotation, undo, totals, export; a real file on disk."""

import sqlite3

from device.store import Store


def _result(payer: str, payee: str, amount: int) -> dict:
    return {
        "winning": True,
        "total": 3,
        "unit": "台",
        "payments": [{"payer": payer, "payee": payee, "amount": amount}],
    }


def test_dealer_win_extends_streak_and_non_dealer_win_passes_the_deal(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["Ann", "Bo", "Cy", "Di"], "taiwan")
    store.add_hand(session.id, None, [], {"hand": "x"}, {"seat_wind": "E"}, _result("S", "E", 100))
    assert store.session(session.id).streak == 1
    store.add_hand(session.id, None, [], {"hand": "x"}, {"seat_wind": "S"}, _result("W", "S", 50))
    state = store.session(session.id)
    assert (state.dealer, state.streak) == (1, 0)
    assert state.seat_of(1) == "E"  # Bo deals now


def test_totals_follow_the_seats_players_held_at_the_time(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["Ann", "Bo", "Cy", "Di"], "taiwan")
    store.add_hand(session.id, None, [], {}, {"seat_wind": "S"}, _result("E", "S", 100))
    # Bo (then South) won from Ann (then East); now Bo is East and wins from Cy (South).
    store.add_hand(session.id, None, [], {}, {"seat_wind": "E"}, _result("S", "E", 40))
    assert store.totals(session.id) == {"Ann": -100, "Bo": 140, "Cy": -40, "Di": 0}


def test_undo_restores_the_dealer_and_drops_the_hand_from_totals(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["Ann", "Bo", "Cy", "Di"], "taiwan")
    hand_id = store.add_hand(session.id, b"jpeg", [], {}, {"seat_wind": "S"}, _result("E", "S", 9))
    assert store.undo_last(session.id) == hand_id
    state = store.session(session.id)
    assert (state.dealer, state.streak) == (0, 0)
    assert store.totals(session.id)["Bo"] == 0
    assert store.undo_last(session.id) is None


def test_latest_hand_is_the_last_one_not_undone(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["Ann", "Bo", "Cy", "Di"], "taiwan")
    assert store.latest_hand(session.id) is None
    first = store.add_hand(session.id, None, [], {}, {"seat_wind": "S"}, _result("E", "S", 9))
    second = store.add_hand(session.id, None, [], {}, {"seat_wind": "E"}, _result("S", "E", 9))
    assert store.latest_hand(session.id)["id"] == second
    store.undo_last(session.id)
    assert store.latest_hand(session.id)["id"] == first


def test_hands_and_photos_survive_reopening_the_file(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["A", "B", "C", "D"], "taiwan")
    hand_id = store.add_hand(
        session.id, b"\xff\xd8photo", [{"code": "1m"}], {"hand": "1m"}, {}, _result("E", "S", 1)
    )
    reopened = Store(tmp_path)
    assert reopened.hand(hand_id)["detections"] == [{"code": "1m"}]
    assert reopened.photo_path(hand_id).read_bytes() == b"\xff\xd8photo"
    mode = sqlite3.connect(tmp_path / "tilescore.sqlite3").execute("PRAGMA journal_mode").fetchone()
    assert mode[0] == "wal"


def test_export_csv_lists_every_hand_including_undone(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["A", "B", "C", "D"], "taiwan")
    store.add_hand(session.id, None, [], {"hand": "123m"}, {}, _result("E", "S", 7))
    store.undo_last(session.id)
    lines = store.export_csv(session.id).strip().splitlines()
    assert lines[0].startswith("hand,")
    assert "A (E)->B (S) 7" in lines[1] and lines[1].endswith(",1")


def test_export_csv_keeps_names_a_spreadsheet_would_run_as_formulas_text(tmp_path):
    import csv
    import io

    store = Store(tmp_path)
    session = store.new_session(["=HYPERLINK(1)", "@SUM(1)", "Cy", "-1"], "taiwan")
    store.add_hand(session.id, None, [], {"hand": "123m"}, {"seat_wind": "S"}, _result("E", "S", 7))
    rows = list(csv.reader(io.StringIO(store.export_csv(session.id))))
    assert rows[1][4] == "'@SUM(1) (S)"  # the winner, as typed behind the text mark
    assert rows[1][8] == "'=HYPERLINK(1) (E)->@SUM(1) (S) 7"
    assert rows[1][0] == "1" and rows[1][6] == "3"


def test_settings_are_remembered(tmp_path):
    Store(tmp_path).set_setting("context", {"variant": "riichi"})
    assert Store(tmp_path).get_setting("context") == {"variant": "riichi"}


def test_a_fix_to_the_latest_hand_deals_again_from_before_it(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["Ann", "Bo", "Cy", "Di"], "taiwan")
    first = store.add_hand(session.id, None, [], {}, {"seat_wind": "E"}, _result("S", "E", 5))
    latest = store.add_hand(session.id, None, [], {}, {"seat_wind": "E"}, _result("S", "E", 5))
    assert store.session(session.id).streak == 2
    # A correction: the latest hand was no win after all; the streak goes back to 1.
    store.update_hand(latest, {}, {"seat_wind": "E"}, {"winning": False}, {"tile": 0})
    assert store.session(session.id).streak == 1
    # Won by South instead: the deal passes to Bo.
    store.update_hand(latest, {}, {"seat_wind": "S"}, _result("E", "S", 5), {"tile": 0})
    state = store.session(session.id)
    assert (state.dealer, state.streak) == (1, 0)
    # An older hand's fix leaves the dealer alone: later hands were dealt as the table saw it.
    store.update_hand(first, {}, {"seat_wind": "E"}, {"winning": False}, {"tile": 0})
    assert (store.session(session.id).dealer, store.session(session.id).streak) == (1, 0)


def test_the_table_sets_the_streak_and_round_wind_by_hand(tmp_path):
    store = Store(tmp_path)
    session = store.new_session(["Ann", "Bo", "Cy", "Di"], "taiwan")
    state = store.set_session_state(session.id, streak=2, round_wind="S")
    assert (state.streak, state.round_wind) == (2, "S")


def test_a_fix_that_leaves_the_outcome_keeps_a_streak_the_table_set_by_hand(tmp_path):
    # The table set the streak and round wind after the latest hand (a drawn hand between);
    # then a fix to that hand that leaves who won as it was (a tile read again, the events
    # said) keeps them. It dealt again from before the hand: 5/S went back to 2/E.
    store = Store(tmp_path)
    session = store.new_session(["Ann", "Bo", "Cy", "Di"], "taiwan")
    latest = store.add_hand(session.id, None, [], {}, {"seat_wind": "E"}, _result("S", "E", 5))
    store.set_session_state(session.id, streak=5, round_wind="S")
    store.update_hand(latest, {}, {"seat_wind": "E"}, _result("S", "E", 8), {"tile": 0})
    state = store.session(session.id)
    assert (state.streak, state.round_wind) == (5, "S")
    # A hand nobody won, its winner's seat changed (as the Table screen's Save does): nothing
    # moves the dealer, and the streak set by hand stays (it went back to 0/E).
    drawn = store.add_hand(session.id, None, [], {}, {"seat_wind": "E"}, {"winning": False})
    store.set_session_state(session.id, streak=3, round_wind="S")
    store.update_hand(drawn, {}, {"seat_wind": "S"}, {"winning": False}, {"context": {}})
    state = store.session(session.id)
    assert (state.streak, state.round_wind) == (3, "S")
    store.undo_last(session.id)
    # A fix that changes who won still deals from the corrected outcome.
    store.update_hand(latest, {}, {"seat_wind": "S"}, _result("E", "S", 5), {"tile": 0})
    state = store.session(session.id)
    assert (state.dealer, state.streak, state.round_wind) == (1, 0, "E")


def test_a_corrected_photo_becomes_a_label_the_labelling_page_opens(tmp_path):
    from device.labels import LabelStore

    store = Store(tmp_path)
    session = store.new_session(["A", "B", "C", "D"], "taiwan")
    hand_id = store.add_hand(session.id, b"\xff\xd8", [], {}, {}, _result("E", "S", 1))
    tiles = [{"code": "1z", "box": [1, 2, 30, 40], "face_down": False, "corrected": True}]
    store.add_label(hand_id, f"hand-{hand_id}.jpg", tiles, (640, 480))
    label = LabelStore(tmp_path / "photos", tmp_path / "photos" / "labels").load(
        f"hand-{hand_id}.jpg"
    )
    assert label is not None and label["status"] == "proposed"
    assert (label["width"], label["tiles"][0]["code"]) == (640, "1z")
    assert store.labels()[0]["tiles"] == tiles
