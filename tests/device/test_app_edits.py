"""A hand's edits kept when a tile is read again, and the problems an edit makes stale left out.

A tile read again reads the whole hand again from the photo: a tile added with the offer's tap,
a meld split or joined, were lost without a word (one tap on a box as it was undid them), and the
layout's problems stayed on screen after the player had said the groups or the winning tile."""

import contextlib

from scoring.notation import parse_tiles
from tests.device.test_app_missing import _short_row
from tests.device.typed_hands import app_reading
from tests.layout.test_layout import row
from tests.layout.test_short_melds import CODES, GAPS


def _chi_apart():
    """456789m 234p 11s 55z + 5z apart, and a chi 123m laid apart."""
    return row(CODES, gap_before=GAPS)


@contextlib.contextmanager
def _scored(tmp_path, reads):
    """The app whose camera reads ``reads()``, South winning on East's discard, the photo
    scored: the client, the hand, and the hand's fix URL."""
    with app_reading(tmp_path, reads=reads).test_client() as client:
        client.post("/api/context", json={"seat_wind": "S", "self_draw": False, "discarder": "E"})
        hand = client.post("/api/score").get_json()
        yield client, hand, f"/api/hands/{hand['id']}/fix"


def test_a_tile_added_with_the_offer_stays_when_a_tile_is_read_again(tmp_path):
    with _scored(tmp_path, _short_row) as (client, hand, url):
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
    with _scored(tmp_path, _short_row) as (client, hand, url):
        assert hand["tiles"][3]["code"] == "5m"
        client.post(url, json={"tile": 3, "not_a_tile": True})
        client.post(url, json={"add": "5m"})
        back = client.post(url, json={"tile": 3, "code": "5m"}).get_json()
        assert back["reading"]["hand"] == hand["reading"]["hand"]
        assert back["reading"]["would_win"] == ["1m", "4m", "7m"]
        assert back["problems"][-1] == "read again from the photo; not kept: the tile added (5m)"


def test_a_meld_split_or_joined_stays_when_a_tile_is_read_again(tmp_path):
    with _scored(tmp_path, _chi_apart) as (client, hand, url):
        assert hand["reading"]["melds"] == [{"type": "chi", "tiles": "123m"}]
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
    with _scored(tmp_path, _chi_apart) as (client, _hand, url):
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


def _win_not_apart():
    # The short row laid with no gap: the layout takes its last tile, the 7p, and says so.
    return row([t["code"] for t in _short_row()])


def test_the_winning_tile_said_takes_the_layouts_word_on_it_away(tmp_path):
    with _scored(tmp_path, _win_not_apart) as (client, hand, url):
        assert any("not set apart" in p for p in hand["problems"])
        fixed = client.post(url, json={"win_tile": "1s"}).get_json()
        assert not any("not set apart" in p for p in fixed["problems"])
        assert any("expected" in p for p in fixed["problems"])  # still a tile short


def _not_kept(hand):
    return [p for p in hand["problems"] if "not kept" in p]


def test_a_broken_meld_counted_with_the_offer_stays_when_a_tile_is_read_again(tmp_path):
    # The offer's tap was sent as typed melds: the next tile read again brought the meld of
    # two back and blamed "the groups typed in Edit groups".
    from tests.layout.test_short_melds import laid

    with _scored(tmp_path, lambda: laid(without=14)) as (client, hand, url):
        offered = hand["reading"]["would_win_with_meld"][0]["meld"]
        counted = client.post(url, json={"mend": offered}).get_json()
        assert counted["result"]["winning"] is True
        again = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert again["reading"]["melds"] == [offered] and again["result"]["winning"] is True
        assert not _not_kept(again) and "would_win_with_meld" not in again["reading"]


def test_a_tile_added_that_no_longer_makes_a_winning_hand_is_said_and_not_made_again(tmp_path):
    with _scored(tmp_path, _short_row) as (client, _hand, url):
        client.post(url, json={"add": "1m"})
        # 2p read as 9s: no tile makes the hand win, and the 1m was added again regardless.
        broken = client.post(url, json={"tile": 8, "code": "9s"}).get_json()
        codes = [tile.code for tile in parse_tiles(broken["reading"]["hand"])]
        assert len(codes) == 16 and "1m" not in codes
        assert _not_kept(broken) == ["read again from the photo; not kept: the tile added (1m)"]
        # Dropped once: read back, it is not made again (nor said again).
        back = client.post(url, json={"tile": 8, "code": "2p"}).get_json()
        assert back["reading"]["would_win"] == ["1m", "4m", "7m"] and not _not_kept(back)


def test_a_tile_added_that_the_layout_takes_another_for_is_said(tmp_path):
    # The player added the 1m they saw; then 2m read as 8m leaves one tile that wins, which the
    # layout takes for the one not found (a 7m nobody saw): the 1m is said not kept.
    with _scored(tmp_path, _short_row) as (client, _hand, url):
        client.post(url, json={"add": "1m"})
        guessed = client.post(url, json={"tile": 0, "code": "8m"}).get_json()
        assert guessed["reading"]["taken"] == "7m"
        assert _not_kept(guessed) == ["read again from the photo; not kept: the tile added (1m)"]


def test_an_edit_that_stops_applying_later_is_said_then(tmp_path):
    with _scored(tmp_path, _chi_apart) as (client, _hand, url):
        client.post(url, json={"split": 0})
        kept = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert kept["reading"]["melds"] == [] and not _not_kept(kept)
        # The chi's 2m read as 4m: there is no chi 123m to split any more.
        gone = client.post(url, json={"tile": 15, "code": "4m"}).get_json()
        assert _not_kept(gone) == ["read again from the photo; not kept: the meld split (chi:123m)"]
        # Read back, the split is not made again: it was said to be dropped.
        back = client.post(url, json={"tile": 15, "code": "2m"}).get_json()
        assert back["reading"]["melds"] == [{"type": "chi", "tiles": "123m"}]


def test_an_edit_to_the_groups_keeps_what_the_photo_says(tmp_path):
    # A stray past the hand and a doubtful read stay said after a join; the meld problems go.
    tiles = lambda: _chi_apart() + row(["9s"], y=900, x=900)  # noqa: E731
    with _scored(tmp_path, tiles) as (client, hand, url):
        assert any("lies apart" in p for p in hand["problems"])
        joined = client.post(url, json={"join": "2p 3p 4p", "meld": "chi"}).get_json()
        assert any("lies apart" in p for p in joined["problems"])


def test_the_players_winning_tile_keeps_the_layouts_word_on_its_own_away(tmp_path):
    with _scored(tmp_path, _win_not_apart) as (client, _hand, url):
        client.post(url, json={"win_tile": "1s"})
        again = client.post(url, json={"tile": 0, "code": "2m"}).get_json()
        assert again["reading"]["win_tile"] == "1s"
        assert not any("not set apart" in p for p in again["problems"])


def test_a_tile_fix_that_lets_the_layout_choose_the_winning_tile_is_not_undone_later(tmp_path):
    with _scored(tmp_path, _chi_apart) as (client, _hand, url):
        client.post(url, json={"win_tile": "1s"})
        layouts = client.post(url, json={"tile": 0, "code": "4m", "keep_win": False}).get_json()
        assert layouts["reading"]["win_tile"] == "5z"
        later = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert later["reading"]["win_tile"] == "5z"  # the player's 1s came back


def test_groups_typed_with_a_tile_fix_are_said_replaced_at_the_next(tmp_path):
    with _scored(tmp_path, _chi_apart) as (client, _hand, url):
        client.post(url, json={"tile": 0, "code": "4m", "hand": "456789m234p11s555z"})
        again = client.post(url, json={"tile": 0, "code": "4m"}).get_json()
        assert _not_kept(again) == [
            "read again from the photo; not kept: the groups typed in Edit groups"
        ]


def test_groups_typed_take_the_photos_word_on_its_tiles_away(tmp_path):
    # The hand typed in over a photo read as one face-down tile: "turn them face up" stayed on
    # screen under the typed hand's score, though the typed hand has no face-down tile.
    from tests.device.typed_hands import MELDS_HAND, typed

    tiles = lambda: _chi_apart() + row(["9s"], y=900, x=900)  # noqa: E731
    with app_reading(tmp_path).test_client() as client:
        hand = typed(client, MELDS_HAND)
        assert hand["result"]["winning"] is True
        assert hand["problems"] == [] and hand["reading"]["problem_kinds"] == []
        again = client.get(f"/api/hands/{hand['id']}").get_json()
        assert again["problems"] == []
    (tmp_path / "apart").mkdir()
    with _scored(tmp_path / "apart", tiles) as (client, hand, url):
        assert any("lies apart" in p for p in hand["problems"])
        typed_in = client.post(url, json={"hand": "456789m234p11s555z", "melds": ["chi:123m"]})
        assert typed_in.get_json()["problems"] == []
