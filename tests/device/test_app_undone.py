"""An undone hand is out of the totals and the deal: a correction sent for it (a page still
showing it, a second phone) changed its saved tiles, score and training label regardless."""

from tests.device.typed_hands import MELDS_HAND, app_reading


def test_a_correction_for_an_undone_hand_is_refused_and_changes_nothing(tmp_path):
    with app_reading(tmp_path).test_client() as client:
        hand = client.post("/api/score").get_json()
        assert client.post("/api/undo", json={}).get_json() == {"undone": hand["id"]}
        before = client.get(f"/api/hands/{hand['id']}").get_json()
        for fix in (MELDS_HAND, {"tile": 0, "code": "1m"}, {"context": {"seat_wind": "S"}}):
            refused = client.post(f"/api/hands/{hand['id']}/fix", json=fix)
            assert refused.status_code == 400
            error = refused.get_json()["error"]
            assert "\n" not in error and "undone" in error
        assert client.get(f"/api/hands/{hand['id']}").get_json() == before
        assert not (tmp_path / "data" / "photos" / "labels").exists() or not list(
            (tmp_path / "data" / "photos" / "labels").iterdir()
        )
