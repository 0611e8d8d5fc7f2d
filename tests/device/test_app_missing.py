"""A hand a tile short in the table app: the tiles that would make it win are offered (reading
``would_win``), one tap adds the one on the table, and a typed hand takes the offer away. A hand
of its size that does not win: the reads of one tile that would make it win are offered
(``would_win_as``), one tap reads the tile so. A hand whose chi a missed end broke, both ends
winning: both melds are offered (``would_win_with_meld``), one tap counts the one on the table."""

from tests.device.typed_hands import app_reading
from tests.layout.test_complete import doubtful, winning_row
from tests.layout.test_short_melds import laid


def _short_row():
    # 123456789m 23456p 11s + 7p apart, the 1m not found: 1m, 4m or 7m would win, and a tile
    # missed at the row's end leaves no gap to say which.
    return [t for i, t in enumerate(winning_row()) if i != 0]


def test_the_tiles_that_would_win_are_offered_and_one_tap_adds_one(tmp_path):
    with app_reading(tmp_path, reads=_short_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        assert hand["reading"]["would_win"] == ["1m", "4m", "7m"]
        assert "1m or 4m or 7m would make a winning hand" in hand["reading"]["problems"][-1]
        assert "error" in hand["result"]  # 16 tiles: no score yet
        added = client.post(
            f"/api/hands/{hand['id']}/fix", json={"hand": hand["reading"]["hand"] + "1m"}
        ).get_json()
        assert added["result"]["winning"] is True
        assert "would_win" not in added["reading"]  # the hand as typed is no layout's
        # Read again from the photo (a tile fixed), the layout offers them again.
        again = client.post(
            f"/api/hands/{hand['id']}/fix", json={"tile": 0, "code": "2m"}
        ).get_json()
        assert again["reading"]["would_win"] == ["1m", "4m", "7m"]


def test_a_complete_hand_offers_nothing(tmp_path):
    with app_reading(tmp_path, reads=winning_row).test_client() as client:
        hand = client.post("/api/score").get_json()
        assert "would_win" not in hand["reading"]


def test_the_offer_goes_with_any_fix_but_a_tile_read_again(tmp_path):
    # What would win holds for the layout's reading under the rules it was read with: another
    # rule set, who won, or another winning tile leaves it stale, and it is not offered.
    for number, change in enumerate(
        (
            {"context": {"variant": "riichi"}},
            {"context": {"self_draw": True, "discarder": None}},
            {"win_tile": "5z"},
            {"flowers": "1f"},
        )
    ):
        folder = tmp_path / str(number)
        folder.mkdir()
        with app_reading(folder, reads=_short_row).test_client() as client:
            hand = client.post("/api/score").get_json()
            assert hand["reading"]["would_win"] == ["1m", "4m", "7m"]
            fixed = client.post(f"/api/hands/{hand['id']}/fix", json=change).get_json()
            assert "would_win" not in fixed["reading"], change
            if "flowers" not in change and "context" not in change:  # the count stands, bare
                assert "17 tiles expected, 16 found" in fixed["reading"]["problems"], change
            if change.get("context", {}).get("variant") == "riichi":  # counted for Taiwan
                assert not any("17 tiles" in p for p in fixed["reading"]["problems"])
            assert not any("would make" in p for p in fixed["reading"]["problems"]), change
            if "win_tile" in change:
                # A tile read again keeps the player's winning tile: still nothing to offer.
                again = client.post(
                    f"/api/hands/{hand['id']}/fix", json={"tile": 15, "code": "7p"}
                ).get_json()
                assert again["reading"]["win_tile"] == "5z"
                assert "would_win" not in again["reading"]


def _misread_row():
    # The 7m read surely as 9p: only 9p read as 7m makes the hand win.
    return doubtful(winning_row(), 6, "9p", confidence=0.99)


def test_the_read_that_would_win_is_offered_and_one_tap_reads_the_tile_so(tmp_path):
    with app_reading(tmp_path, reads=_misread_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        assert hand["result"]["winning"] is False
        assert hand["reading"]["would_win_as"] == [{"tile": 6, "code": "7m"}]
        assert "it wins with 9p read as 7m" in hand["reading"]["problems"][0]
        fixed = client.post(
            f"/api/hands/{hand['id']}/fix", json={"tile": 6, "code": "7m"}
        ).get_json()
        assert fixed["result"]["winning"] is True
        assert "would_win_as" not in fixed["reading"]


def test_the_read_offered_goes_with_any_fix_but_a_tile_read_again(tmp_path):
    with app_reading(tmp_path, reads=_misread_row).test_client() as client:
        hand = client.post("/api/score").get_json()
        assert hand["reading"]["would_win_as"] == [{"tile": 6, "code": "7m"}]
        changed = {"context": {"self_draw": True, "discarder": None}}
        rules = client.post(f"/api/hands/{hand['id']}/fix", json=changed).get_json()
        assert "would_win_as" not in rules["reading"]  # found under the rules it was read with
        # Another tile read again (the 1m, read as 1m once more): the layout offers it again,
        # under the hand's rules now.
        again = client.post(
            f"/api/hands/{hand['id']}/fix", json={"tile": 0, "code": "1m"}
        ).get_json()
        assert again["reading"]["would_win_as"] == [{"tile": 6, "code": "7m"}]


def test_the_winning_tile_the_player_chose_read_again_stays_the_winning_tile(tmp_path):
    # The player marks the winning 7p (tile 16) as the winning tile, then reads it again as 4p:
    # it is still the winning tile, now a 4p (23456p 4p: 234p 456p), not the 7p it was.
    with app_reading(tmp_path, reads=winning_row).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        marked = client.post(url, json={"win_tile": "7p", "win_index": 16}).get_json()
        assert marked["reading"]["win_tile"] == "7p"
        again = client.post(url, json={"tile": 16, "code": "4p"}).get_json()
        assert again["reading"]["win_tile"] == "4p" and again["reading"]["win_index"] == 16
        assert again["result"]["winning"] is True
        # Another tile read again keeps the player's winning tile as it is.
        other = client.post(url, json={"tile": 0, "code": "1m"}).get_json()
        assert other["reading"]["win_tile"] == "4p" and other["reading"]["win_index"] == 16


def test_a_chi_a_missed_end_broke_offers_both_melds_and_one_tap_counts_one(tmp_path):
    # 456789m 234p 11s 55z + 5z apart, then a chi 123m laid apart with its 1m not found.
    with app_reading(tmp_path, reads=lambda: laid(without=14)).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        offered = hand["reading"]["would_win_with_meld"]
        assert [o["meld"]["tiles"] for o in offered] == ["123m", "234m"]
        assert "With 1m or 4m it is a chi" in hand["reading"]["problems"][0]
        assert "error" in hand["result"]  # 14 tiles: no score yet
        counted = client.post(
            f"/api/hands/{hand['id']}/fix", json={"melds": [offered[0]["meld"]]}
        ).get_json()
        assert counted["result"]["winning"] is True
        assert counted["reading"]["melds"] == [{"type": "chi", "tiles": "123m"}]
        assert "would_win_with_meld" not in counted["reading"]
