"""A hand moved to another rule set keeps the dealer's streak, said as that rule set says it:
riichi's 本場 (honba), the others' 連莊 streak. It kept the old key: riichi refused a hand with a
streak, and Taiwan scored one with honba as if the dealer had none."""

import json

from tests.cli_run import tilescore
from tests.device.typed_hands import app_reading, typed

# A dealer's win on a discard, a winning hand under both rule sets: 14 tiles in riichi,
# 17 in Taiwan.
RIICHI_HAND = {"hand": "123456789m234p11s", "win_tile": "1s", "melds": []}
TAIWAN_HAND = {"hand": "123456789m234567p11s", "win_tile": "7p", "melds": []}


def _table(client, variant):
    said = client.post(
        "/api/context",
        json={"variant": variant, "seat_wind": "E", "self_draw": False, "discarder": "S",
              "dealer_streak": 3},
    )  # fmt: skip
    assert said.status_code == 200, said.get_json()


def test_a_taiwan_hand_moved_to_riichi_counts_its_streak_as_honba(tmp_path):
    with app_reading(tmp_path).test_client() as client:
        _table(client, "taiwan")
        hand = typed(client, RIICHI_HAND)
        assert hand["context"]["dealer_streak"] == 3
        moved = client.post(
            f"/api/hands/{hand['id']}/fix", json={"context": {"variant": "riichi"}}
        ).get_json()
        assert "error" not in moved["result"], moved["result"]
        assert moved["context"]["honba"] == 3 and "dealer_streak" not in moved["context"]
        # Three 本場 add 900 to the discarder's payment.
        plain = client.post(
            f"/api/hands/{hand['id']}/fix", json={"context": {"variant": "riichi", "honba": 0}}
        ).get_json()
        assert (
            moved["result"]["payments"][0]["amount"]
            == plain["result"]["payments"][0]["amount"] + 900
        )


def test_a_riichi_hand_moved_to_taiwan_scores_its_honba_as_the_streak(tmp_path):
    with app_reading(tmp_path).test_client() as client:
        _table(client, "riichi")
        hand = typed(client, TAIWAN_HAND | {"flowers": ""})
        assert hand["context"]["honba"] == 3
        moved = client.post(
            f"/api/hands/{hand['id']}/fix", json={"context": {"variant": "taiwan"}}
        ).get_json()
        assert moved["context"]["dealer_streak"] == 3 and "honba" not in moved["context"]
        typed_in = tilescore(
            "score", "--variant", "taiwan", "--hand", TAIWAN_HAND["hand"], "--win", "7p",
            "--discarder", "S", "--streak", "3", "--json",
        )  # fmt: skip
        assert moved["result"]["total"] > 0
        assert moved["result"]["total"] == json.loads(typed_in.stdout)["total"]


def _row_and_a_flower():
    from tests.layout.test_complete import winning_row

    tiles = winning_row()
    x0, y0, x1, y1 = tiles[0]["box"]
    return [*tiles, {**tiles[0], "code": "1f", "box": [x0, y0 + 300, x1, y1 + 300]}]


def test_a_hand_moved_to_another_rule_set_says_its_tiles_by_that_rule_set(tmp_path):
    # A riichi hand moved to 明將 kept "riichi is played without flowers" among its problems
    # (a tester's play-through): what the photo holds that a rule set has not is that set's.
    with app_reading(tmp_path, reads=_row_and_a_flower).test_client() as client:
        _table(client, "riichi")
        hand = typed(client, {"hand": "123456789m11222z", "win_tile": "2z", "melds": []})
        assert any("riichi is played without flowers" in p for p in hand["problems"])
        url = f"/api/hands/{hand['id']}/fix"
        moved = client.post(url, json={"context": {"variant": "mingjiang"}}).get_json()
        assert not any("riichi" in p for p in moved["problems"]), moved["problems"]
        assert any("mingjiang is played without flowers" in p for p in moved["problems"])
        # Taiwan plays flowers: nothing is said of the flower there.
        taiwan = client.post(url, json={"context": {"variant": "taiwan"}}).get_json()
        assert not any("flower" in p for p in taiwan["problems"]), taiwan["problems"]
        back = client.post(url, json={"context": {"variant": "riichi"}}).get_json()
        assert any("riichi is played without flowers" in p for p in back["problems"])


def test_a_hand_moved_to_a_rule_set_without_flowers_holds_none(tmp_path):
    # Said "not counted", the flower stayed in the reading, and the scorer refused the hand
    # for it ("riichi is played without flowers") whatever else was wrong (helper 61).
    with app_reading(tmp_path, reads=_row_and_a_flower).test_client() as client:
        _table(client, "taiwan")
        hand = client.post("/api/score").get_json()
        assert hand["reading"]["flowers"] == "1f", hand["reading"]
        url = f"/api/hands/{hand['id']}/fix"
        moved = client.post(url, json={"context": {"variant": "riichi"}}).get_json()
        assert moved["reading"]["flowers"] == ""
        assert any("riichi is played without flowers" in p for p in moved["problems"])
        assert "flower" not in moved["result"]["error"]  # the 17 tiles are what is wrong


def test_typed_groups_moved_to_another_rule_set_say_nothing_of_the_photos_other_tiles(tmp_path):
    # The typed groups hold the hand's tiles: moved to xiangqi, each of the photo's 17 mahjong
    # tiles was said again as "no xiangqi piece" (helper 61).
    with app_reading(tmp_path, reads=_row_and_a_flower).test_client() as client:
        _table(client, "taiwan")
        hand = typed(client, TAIWAN_HAND | {"flowers": ""})
        assert hand["reading"]["typed_groups"] is True
        url = f"/api/hands/{hand['id']}/fix"
        moved = client.post(url, json={"context": {"variant": "xiangqi"}}).get_json()
        assert not any("piece" in p for p in moved["problems"]), moved["problems"]


def test_a_hand_moved_to_mingjiang_scores_without_the_streak_it_keeps(tmp_path):
    # 明將 counts no dealer's streak (冇冧莊, 無本場分) and refuses one given: the app keeps the
    # hand's streak (moved back, the hand has it again) but sends 明將 none.
    with app_reading(tmp_path).test_client() as client:
        _table(client, "taiwan")
        hand = typed(client, RIICHI_HAND)
        moved = client.post(
            f"/api/hands/{hand['id']}/fix", json={"context": {"variant": "mingjiang"}}
        ).get_json()
        assert "error" not in moved["result"], moved["result"]
        assert moved["result"]["winning"] and moved["context"]["dealer_streak"] == 3
        back = client.post(
            f"/api/hands/{hand['id']}/fix",
            json={"context": {"variant": "taiwan"}, **TAIWAN_HAND, "flowers": ""},
        ).get_json()
        assert back["context"]["dealer_streak"] == 3
        assert any(i["code"] == "dealer_streak" for i in back["result"]["items"]), back["result"]


def test_a_mingjiang_table_given_a_streak_still_scores_its_hands(tmp_path):
    with app_reading(tmp_path).test_client() as client:
        _table(client, "mingjiang")
        hand = typed(client, RIICHI_HAND)
        assert "error" not in hand["result"], hand["result"]
        assert hand["result"]["winning"]
