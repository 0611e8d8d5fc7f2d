"""A hand's edits kept when a tile is read again, and the problems an edit makes stale left out.

A tile read again reads the whole hand again from the photo: a tile added with the offer's tap,
a meld split or joined, were lost without a word (one tap on a box as it was undid them), and the
layout's problems stayed on screen after the player had said the groups or the winning tile."""

from tests.device.test_app_missing import _short_row
from tests.device.typed_hands import app_reading
from tests.layout.test_layout import row
from tests.layout.test_short_melds import CODES, GAPS


def _context(client):
    client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})


def test_a_tile_added_with_the_offer_stays_when_a_tile_is_read_again(tmp_path):
    with app_reading(tmp_path, reads=_short_row).test_client() as client:
        _context(client)
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        added = client.post(url, json={"add": "1m"}).get_json()
        assert added["result"]["winning"] is True
        assert not [p for p in added["problems"] if "expected" in p]  # stale: left out
        again = client.post(url, json={"tile": 9, "code": hand["tiles"][9]["code"]}).get_json()
        assert again["reading"]["hand"] == added["reading"]["hand"]
        assert again["result"]["total"] == added["result"]["total"]


def test_a_tile_added_in_place_of_a_box_set_aside_is_not_added_again_once_it_is_read(tmp_path):
    # The hand lacks its 1m; the player set the 5m's box aside by mistake and added a 5m for
    # it. Read again as 5m, the box is the tile the hand lacked: the 5m is not added again
    # (the hand would hold two), and the 1m is still to find.
    with app_reading(tmp_path, reads=_short_row).test_client() as client:
        _context(client)
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        assert hand["tiles"][3]["code"] == "5m"
        client.post(url, json={"tile": 3, "not_a_tile": True})
        client.post(url, json={"add": "5m"})
        back = client.post(url, json={"tile": 3, "code": "5m"}).get_json()
        assert back["reading"]["hand"] == hand["reading"]["hand"]
        assert back["reading"]["would_win"] == ["1m", "4m", "7m"]
        assert back["problems"][-1] == "read again from the photo; not kept: the tile added (5m)"


def test_a_meld_split_or_joined_stays_when_a_tile_is_read_again(tmp_path):
    # 456789m 234p 11s 55z + 5z apart, and a chi 123m laid apart.
    with app_reading(tmp_path, reads=lambda: row(CODES, gap_before=GAPS)).test_client() as client:
        _context(client)
        hand = client.post("/api/score").get_json()
        assert hand["reading"]["melds"] == [{"type": "chi", "tiles": "123m"}]
        url = f"/api/hands/{hand['id']}/fix"
        split = client.post(url, json={"split": 0}).get_json()
        assert (
            split["reading"]["melds"] == [] and split["corrections"][-1]["split_meld"] == "chi:123m"
        )
        again = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert again["reading"]["melds"] == []
        joined = client.post(url, json={"join": "2p 3p 4p", "meld": "chi"}).get_json()
        assert joined["reading"]["melds"] == [{"type": "chi", "tiles": "234p"}]
        again = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert again["reading"]["melds"] == [{"type": "chi", "tiles": "234p"}]
        assert not [p for p in again["problems"] if "not kept" in p]


def test_groups_typed_are_replaced_by_a_tile_read_again_and_it_is_said(tmp_path):
    with app_reading(tmp_path, reads=lambda: row(CODES, gap_before=GAPS)).test_client() as client:
        _context(client)
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        typed = {"hand": "456789m234p11s555z", "melds": ["pon:777z"]}
        assert client.post(url, json=typed).get_json()["reading"]["melds"] == ["pon:777z"]
        again = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert again["reading"]["melds"] == [{"type": "chi", "tiles": "123m"}]
        assert again["problems"][-1] == (
            "read again from the photo; not kept: the groups typed in Edit groups"
        )
        # Said once: the next tile read again has nothing more to say of them.
        later = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert not [p for p in later["problems"] if "not kept" in p]


def test_the_winning_tile_said_takes_the_layouts_word_on_it_away(tmp_path):
    # The winning 7p not set apart: the layout took the row's last tile and said so.
    tiles = _short_row()
    with app_reading(
        tmp_path, reads=lambda: row([t["code"] for t in tiles])
    ).test_client() as client:
        _context(client)
        hand = client.post("/api/score").get_json()
        assert any("not set apart" in p for p in hand["problems"])
        url = f"/api/hands/{hand['id']}/fix"
        fixed = client.post(url, json={"win_tile": "1s"}).get_json()
        assert not any("not set apart" in p for p in fixed["problems"])
        assert any("expected" in p for p in fixed["problems"])  # still a tile short
