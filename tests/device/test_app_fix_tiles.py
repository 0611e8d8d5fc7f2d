"""A correction's tiles must be the rule set's: a box read as a xiangqi piece or a red five on a
Taiwan table, a flower typed into the hand or a tile into the flowers, were saved, left a hand no
rescore could score, and went into the training label as the box's tile."""

import pytest

from tests.device.typed_hands import app_reading
from tests.layout.test_complete import winning_row


@pytest.mark.parametrize(
    ("fix", "said"),
    [
        ({"tile": 1, "code": "1r"}, "code: 1r (帥) is not part of taiwan mahjong"),
        ({"tile": 1, "code": "將"}, "code: 1b (將) is not part of taiwan mahjong"),
        ({"tile": 5, "code": "0m"}, "code: red five 0m is not used in taiwan with these rules"),
        ({"hand": "1r2r3r"}, "hand: 1r (帥) is not part of taiwan mahjong"),
        ({"hand": "123456789m23456p1f"}, "hand: 1f (春) is a flower: list flowers apart"),
        ({"win_tile": "2f"}, "win_tile: 2f (夏) is a flower: list flowers apart"),
        ({"flowers": "1m"}, "flowers: 1m (一萬) is not a flower"),
        ({"flowers": "1r5z"}, "flowers: 1r (帥) is not a flower"),
        ({"melds": ["pon:0m5m5m"]}, "melds: red five 0m is not used in taiwan with these rules"),
        ({"mend": "chi:1b2b3b"}, "melds: 1b (將) is not part of taiwan mahjong"),
    ],
)
def test_a_tile_the_rule_set_has_not_is_refused_and_nothing_is_saved(tmp_path, fix, said):
    with app_reading(tmp_path, reads=winning_row).test_client() as client:
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        refused = client.post(url, json=fix)
        assert refused.status_code == 400
        assert refused.get_json() == {"error": said}
        after = client.get(f"/api/hands/{hand['id']}").get_json()
        assert after["tiles"] == hand["tiles"] and after["corrections"] == []


def test_the_rule_sets_own_tiles_are_taken(tmp_path):
    with app_reading(tmp_path, reads=winning_row).test_client() as client:
        client.post("/api/context", json={"variant": "riichi", "rules": {"red_fives": True}})
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        # Riichi counts red fives where the table says so; it plays no flowers.
        assert client.post(url, json={"tile": 5, "code": "0m"}).status_code == 200
        refused = client.post(url, json={"flowers": "1f"})
        assert refused.get_json() == {"error": "flowers: riichi is played without flowers"}
        assert client.post(url, json={"tile": 2, "code": "1f"}).get_json() == {
            "error": "code: 1f (春) is a flower: riichi is played without flowers"
        }


def test_the_winning_box_must_hold_the_winning_tile(tmp_path):
    # The display marks the box, the scorer scores the code: they must be one tile.
    with app_reading(tmp_path, reads=winning_row).test_client() as client:
        hand = client.post("/api/score").get_json()
        url = f"/api/hands/{hand['id']}/fix"
        other = client.post(url, json={"win_tile": "1p", "win_index": 2})
        assert other.get_json() == {
            "error": "tile 2 is read as 3m, not 1p: read it as 1p first, or choose the winning "
            "tile by its code"
        }
        client.post(url, json={"tile": 3, "face_down": True})
        down = client.post(url, json={"win_tile": "4m", "win_index": 3})
        assert down.get_json() == {"error": "tile 3 lies face down: it cannot be the winning tile"}
        # Chosen by its box, then by its code alone: no box is marked any more.
        marked = client.post(url, json={"win_tile": "1s", "win_index": 15}).get_json()
        assert marked["reading"]["win_index"] == 15
        by_code = client.post(url, json={"win_tile": "9m"}).get_json()
        assert by_code["reading"]["win_tile"] == "9m" and "win_index" not in by_code["reading"]
