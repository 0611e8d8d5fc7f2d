"""Riichi's 役滿包 (pao) in the table app: said on one hand's result, scored by the real scorer,
never kept for the table, refused where the rule set has no such rule."""

import pytest

from tests.device.typed_hands import app_reading, typed

# 大三元 on a discard: 白 and 發 called (pon), 中 won on.
DAISANGEN = {"hand": "123m55p777z", "win_tile": "7z", "melds": ["pon:555z", "pon:666z"]}
PLAIN_WIN = {"hand": "123m456p789s11122z", "win_tile": "2z", "melds": []}


@pytest.fixture
def client(tmp_path):
    with app_reading(tmp_path).test_client() as test_client:
        yield test_client


def _paid(hand):
    return sorted((p["payer"], p["payee"], p["amount"]) for p in hand["result"]["payments"])


def _riichi_table(client):
    said = client.post(
        "/api/context",
        json={"variant": "riichi", "seat_wind": "S", "self_draw": False, "discarder": "E"},
    )
    assert said.status_code == 200, said.get_json()


def test_the_liable_player_shares_the_limit_hand_and_the_table_does_not_keep_it(client):
    _riichi_table(client)
    hand = typed(client, DAISANGEN)
    assert [item["code"] for item in hand["result"]["items"]] == ["daisangen"]
    assert _paid(hand) == [("E", "S", 32000)]
    url = f"/api/hands/{hand['id']}/fix"
    liable = client.post(url, json={"context": {"pao": "W"}}).get_json()
    assert liable["context"]["pao"] == "W"
    # 役滿包 on a discard: the liable player and the discarder pay half each.
    assert _paid(liable) == [("E", "S", 16000), ("W", "S", 16000)]
    assert client.get("/api/session").get_json()["totals"] == {
        "East": -16000, "South": 32000, "West": -16000, "North": 0,
    }  # fmt: skip
    assert "pao" not in client.get("/api/context").get_json()
    # The next hand, no limit hand, scores: the pao stayed with its hand.
    assert "error" not in typed(client, PLAIN_WIN)["result"]
    cleared = client.post(url, json={"context": {"pao": None}}).get_json()
    assert _paid(cleared) == [("E", "S", 32000)]


def test_pao_is_refused_for_the_table_for_another_rule_set_and_for_no_seat(client):
    table = client.post("/api/context", json={"pao": "W"})
    assert table.status_code == 400
    assert table.get_json()["error"] == (
        "pao is said of one hand, on its result screen: the table does not keep it"
    )
    _riichi_table(client)
    hand = typed(client, DAISANGEN)
    url = f"/api/hands/{hand['id']}/fix"
    nobody = client.post(url, json={"context": {"pao": "X"}})
    assert nobody.get_json() == {"error": "pao must be one of E S W N or null, got 'X'"}
    # The winner's own seat: the scorer's refusal, said as the hand's error, nothing lost.
    own = client.post(url, json={"context": {"pao": "S"}}).get_json()
    assert "another player's seat" in own["result"]["error"]
    client.post(url, json={"context": {"pao": "W"}})
    # Scored as 明將 instead, the pao goes with the rule set that had it.
    mingjiang = client.post(url, json={"context": {"variant": "mingjiang"}}).get_json()
    assert mingjiang["context"]["pao"] is None and "error" not in mingjiang["result"]
    refused = client.post(url, json={"context": {"pao": "W"}})
    assert refused.get_json() == {"error": "pao (役滿包) is not used in mingjiang"}


def test_the_app_says_which_rule_sets_have_pao(client):
    variants = client.get("/api/status").get_json()["variants"]
    assert [name for name, info in variants.items() if info["pao"]] == ["riichi"]
