"""A hand typed in where the camera found no tile: a blank photo (poor light, a cloth the
detector misses) recorded nothing and left the player no way to score the hand at all."""

from tests.device.bare_app import session
from tests.device.typed_hands import MELDS_HAND, app_reading


def _no_tile_found(tmp_path):
    return app_reading(tmp_path, reads=list)


def test_a_hand_typed_after_a_photo_with_no_tile_is_scored_and_recorded(tmp_path):
    with _no_tile_found(tmp_path).test_client() as client:
        client.post("/api/context", json={"self_draw": True})
        refused = client.post("/api/score")
        assert refused.status_code == 400 and refused.get_json()["no_tiles"] is True
        hand = client.post("/api/typed", json=MELDS_HAND).get_json()
        assert hand["result"]["winning"] is True and hand["photo"] is None
        assert hand["problems"] == [] and hand["tiles"] == []
        board = session(client)
        assert [h["id"] for h in board["hands"]] == [hand["id"]]
        assert sum(board["totals"].values()) == 0 and any(board["totals"].values())
        # Corrected in Edit groups as any hand; a box to read again it has none.
        url = f"/api/hands/{hand['id']}/fix"
        fixed = client.post(url, json={**MELDS_HAND, "flowers": ""}).get_json()
        assert fixed["result"]["total"] < hand["result"]["total"]  # its flowers gone
        no_box = client.post(url, json={"tile": 0, "code": "1m"})
        assert no_box.status_code == 400 and "typed in" in no_box.get_json()["error"]
        client.post("/api/undo")
        undone = client.post(url, json=MELDS_HAND).get_json()["error"]
        assert "type it again" in undone, undone


def test_a_typed_hand_sent_twice_at_once_is_recorded_once(tmp_path):
    with _no_tile_found(tmp_path).test_client() as client:
        first = client.post("/api/typed", json=MELDS_HAND).get_json()
        again = client.post("/api/typed", json=MELDS_HAND).get_json()
        assert again["repeat_of"] == first["id"]
        assert len(session(client)["hands"]) == 1


def test_a_typed_hand_sent_again_after_a_table_change_is_scored_anew(tmp_path):
    # Taken for a double tap, it showed the first hand's score, scored without the change.
    with _no_tile_found(tmp_path).test_client() as client:
        first = client.post("/api/typed", json=MELDS_HAND).get_json()
        client.post("/api/context", json={"self_draw": True})
        again = client.post("/api/typed", json=MELDS_HAND).get_json()
        assert "repeat_of" not in again and again["id"] != first["id"]
        items = {item["name"] for item in again["result"]["items"]}
        assert not {item["name"] for item in first["result"]["items"]} >= items
        assert [h["id"] for h in session(client)["hands"]] == [first["id"], again["id"]]


def test_a_typed_hand_the_table_cannot_have_is_refused_in_one_line(tmp_path):
    with _no_tile_found(tmp_path).test_client() as client:
        client.post("/api/context", json={"variant": "riichi"})
        for sent in (
            {"hand": ""},
            {"hand": "123m", "photo": "x"},
            {"hand": "123m456p789s11z22z", "flowers": "1f"},  # riichi plays no flowers
            {"hand": "123m", "melds": ["pon:"]},
            {"hand": ["1m"]},
            [],
        ):
            refused = client.post("/api/typed", json=sent)
            assert refused.status_code == 400, sent
            assert "\n" not in refused.get_json()["error"]
        assert session(client)["session"] is None  # nothing recorded, no session started


def test_a_typed_hand_that_cannot_be_scored_is_refused_not_recorded(tmp_path):
    # Recorded, it was an error hand in the session and its export, with no photo to mend it
    # from (helper 61).
    with _no_tile_found(tmp_path).test_client() as client:
        for sent, said in (
            ({"hand": "1111m"}, "17 tiles"),
            ({"hand": "11111m222222p"}, "1m"),
            ({"hand": "123456789m234567p11s"}, "win_tile"),
        ):
            refused = client.post("/api/typed", json=sent)
            assert refused.status_code == 400, (sent, refused.get_json())
            error = refused.get_json()["error"]
            assert said in error and error.endswith("nothing was recorded"), error
            assert "\n" not in error
        assert session(client)["session"] is None
