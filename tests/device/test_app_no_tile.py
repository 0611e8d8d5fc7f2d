"""A box the models read as a tile that holds none (a key, a cap, a coin): one tap on **Not a
tile** sets it aside, the hand is read and scored without it, the label kept for training calls
it "other", and a second tap can still read it as a tile."""

import json

from tests.device.typed_hands import app_reading
from tests.layout.test_complete import winning_row


def _with_a_key_in_the_row():
    # 123456789m 23456p 11s + 7p, and a keycap read as 5z lying in the row after the 1s.
    tiles = winning_row()
    key = {**tiles[15], "code": "5z", "confidence": 0.4}
    key["box"] = [key["box"][0] + 62, key["box"][1], key["box"][2] + 62, key["box"][3]]
    tiles[16]["box"] = [v + (62 if i % 2 == 0 else 0) for i, v in enumerate(tiles[16]["box"])]
    return [*tiles[:16], key, tiles[16]]


def test_a_box_said_to_hold_no_tile_leaves_the_hand(tmp_path):
    with app_reading(tmp_path, reads=_with_a_key_in_the_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        assert "18 found" in " ".join(hand["reading"]["problems"])
        url = f"/api/hands/{hand['id']}/fix"
        fixed = client.post(url, json={"tile": 16, "not_a_tile": True}).get_json()
        assert fixed["result"]["winning"] is True
        assert fixed["reading"]["win_tile"] == "7p"
        assert fixed["reading"]["problems"] == []  # set aside without a word
        assert fixed["tiles"][16]["code"] == "other" and len(fixed["tiles"]) == 18
        label = json.loads(
            next((tmp_path / "data" / "photos" / "labels").glob("*.json")).read_text()
        )
        assert label["tiles"][16]["code"] == "other"
        # Said by mistake: read as a tile again, it is counted again.
        again = client.post(url, json={"tile": 16, "code": "5z"}).get_json()
        assert "18 found" in " ".join(again["reading"]["problems"])


def test_the_page_is_told_the_code_of_a_box_with_no_tile(tmp_path):
    with app_reading(tmp_path).test_client() as client:
        assert client.get("/api/status").get_json()["not_a_tile"] == "other"


def test_the_winning_tile_the_player_chose_said_to_hold_no_tile_is_no_winning_tile(tmp_path):
    # The player marked the keycap as the winning tile, then saw it is none: the layout's
    # winning tile stands again (not a code no scorer knows).
    with app_reading(tmp_path, reads=_with_a_key_in_the_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        client.post(url, json={"win_tile": "5z", "win_index": 16})
        fixed = client.post(url, json={"tile": 16, "not_a_tile": True}).get_json()
        assert fixed["reading"]["win_tile"] == "7p"
        assert fixed["result"]["winning"] is True


def test_a_box_said_to_hold_no_tile_cannot_be_made_the_winning_tile(tmp_path):
    with app_reading(tmp_path, reads=_with_a_key_in_the_row).test_client() as client:
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        before = client.post(url, json={"tile": 16, "not_a_tile": True}).get_json()
        for fix in (
            {"win_tile": "5z", "win_index": 16},
            {"tile": 16, "not_a_tile": True, "win_tile": "7p", "win_index": 16},
        ):
            refused = client.post(url, json=fix)
            assert refused.status_code == 400
            assert refused.get_json() == {
                "error": "tile 16 was said to hold no tile: it cannot be the winning tile"
            }
        after = client.get(f"/api/hands/{hand['id']}").get_json()
        assert after["reading"] == before["reading"]  # nothing saved


def test_the_box_without_which_the_hand_wins_is_offered_and_one_tap_sets_it_aside(tmp_path):
    with app_reading(tmp_path, reads=_with_a_key_in_the_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        assert hand["reading"]["would_win_without"] == [16]
        assert "without 5z it is a winning hand" in hand["reading"]["problems"][-1]
        fixed = client.post(
            f"/api/hands/{hand['id']}/fix", json={"tile": 16, "not_a_tile": True}
        ).get_json()
        assert fixed["result"]["winning"] is True
        assert "would_win_without" not in fixed["reading"]


def test_a_winning_tile_chosen_by_its_code_whose_only_box_is_set_aside_is_no_winning_tile(tmp_path):
    # Chosen by code only (no box), the keycap's 5z stood as the winning tile while a 5z was
    # read; set aside, the hand holds none, and the layout's winning tile stands again (it
    # said "winning tile 5z is not among the concealed tiles").
    with app_reading(tmp_path, reads=_with_a_key_in_the_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        assert client.post(url, json={"win_tile": "5z"}).get_json()["reading"]["win_tile"] == "5z"
        fixed = client.post(url, json={"tile": 16, "not_a_tile": True}).get_json()
        assert fixed["reading"]["win_tile"] == "7p"
        assert fixed["result"]["winning"] is True


def test_a_winning_tile_chosen_by_its_code_stays_while_the_hand_holds_it(tmp_path):
    with app_reading(tmp_path, reads=_with_a_key_in_the_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        client.post(url, json={"win_tile": "1s"})
        fixed = client.post(url, json={"tile": 16, "not_a_tile": True}).get_json()
        assert fixed["reading"]["win_tile"] == "1s"
        assert fixed["result"]["winning"] is True
