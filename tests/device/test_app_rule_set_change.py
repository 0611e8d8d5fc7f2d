"""A table that changes its rule set mid-session: each rule set pays in its own units (台, and
riichi's points), and its dealer's run does not carry into the next one's. The totals summed
台 and points into one number, and a Taiwan 連莊 became riichi's 本場."""

from tests.device.bare_app import draw, session, table
from tests.device.typed_hands import MELDS_HAND

RIICHI_TSUMO = {"hand": "123m456m789m123p55s", "win_tile": "5s"}  # 門前清自摸和 and more


def _taiwan_self_draw(client):
    """East, the dealer, wins a typed Taiwan hand by self-draw: every other player pays 台."""
    table(client, variant="taiwan", seat_wind="E", self_draw=True)
    hand = client.post("/api/typed", json=MELDS_HAND).get_json()
    assert hand["result"]["winning"] is True
    return hand


def test_totals_are_kept_apart_for_each_rule_set_played(bare_client):
    hand = _taiwan_self_draw(bare_client)
    taiwan = session(bare_client)["totals"]
    assert taiwan["East"] > 0 and sum(taiwan.values()) == 0
    table(bare_client, variant="riichi")
    draw(bare_client, reason="wall", ready=["S"])  # 罰符: South takes 3,000 points
    board = session(bare_client)
    riichi = {"East": -1000, "South": 3000, "West": -1000, "North": -1000}
    assert board["totals_by_rule_set"] == [
        {"variant": "taiwan", "totals": taiwan},
        {"variant": "riichi", "totals": riichi},
    ]
    assert board["totals"] == riichi  # the rule set played now: never 台 and points summed
    exported = bare_client.get("/api/export.json").get_json()
    assert exported["totals_by_rule_set"] == board["totals_by_rule_set"]
    assert hand["result"]["unit"] == "台"


def test_a_change_of_rule_set_starts_the_dealers_streak_afresh(bare_client):
    _taiwan_self_draw(bare_client)
    assert session(bare_client)["session"]["streak"] == 1  # 連1: the dealer won
    moved = table(bare_client, variant="riichi")
    assert moved["honba"] == 0 and session(bare_client)["session"]["streak"] == 0
    # Said with the change, the streak given stands.
    table(bare_client, variant="taiwan", dealer_streak=2)
    assert session(bare_client)["session"]["streak"] == 2
    # Saving the same rule set again is no change: the streak stays.
    table(bare_client, variant="taiwan")
    assert session(bare_client)["session"]["streak"] == 2


def test_a_change_straight_back_gives_the_rule_sets_run_back(bare_client):
    # A tap on the wrong rule set, undone by a tap on the right one, lost the dealer's 連莊
    # (helper 61).
    _taiwan_self_draw(bare_client)
    table(bare_client, variant="riichi")
    assert session(bare_client)["session"]["streak"] == 0
    table(bare_client, variant="taiwan")
    assert session(bare_client)["session"]["streak"] == 1
    # With a hand scored between, the run that was left is over.
    table(bare_client, variant="riichi")
    draw(bare_client, reason="wall", ready=["S"])
    table(bare_client, variant="taiwan")
    assert session(bare_client)["session"]["streak"] == 0


def test_a_dealer_streak_fix_on_a_riichi_hand_is_its_honba(bare_client):
    # Kept as dealer_streak beside the hand's honba, it turned the hand into the error
    # "dealer_streak is not used in riichi", which a later honba fix did not clear (helper 64).
    table(bare_client, variant="riichi", seat_wind="E", self_draw=True)
    hand = bare_client.post("/api/typed", json=RIICHI_TSUMO).get_json()
    url = f"/api/hands/{hand['id']}/fix"
    fixed = bare_client.post(url, json={"context": {"dealer_streak": 2}}).get_json()
    assert "error" not in fixed["result"], fixed["result"]
    assert fixed["context"]["honba"] == 2 and "dealer_streak" not in fixed["context"]
    assert _paid(fixed) == _paid(hand) + 3 * 200  # 2本場: 100 more from each payer a 本場
    back = bare_client.post(url, json={"context": {"honba": 0}}).get_json()
    assert "error" not in back["result"] and _paid(back) == _paid(hand)


def _paid(hand):
    return sum(payment["amount"] for payment in hand["result"]["payments"])


def test_a_correction_after_a_change_of_rule_set_keeps_the_new_rule_sets_run(bare_client):
    # South's Taiwan win, corrected into the dealer's after the table moved to riichi, carried
    # the Taiwan 連莊 into riichi as 1本場: 2100 from each player, not 2000 (helper 64).
    table(bare_client, variant="taiwan", seat_wind="S", self_draw=True)
    hand = bare_client.post("/api/typed", json=MELDS_HAND).get_json()
    dealt = session(bare_client)["session"]
    assert dealt["streak"] == 0
    assert table(bare_client, variant="riichi", seat_wind="E")["honba"] == 0
    fixed = bare_client.post(f"/api/hands/{hand['id']}/fix", json={"context": {"seat_wind": "E"}})
    assert fixed.status_code == 200 and fixed.get_json()["result"]["winning"] is True
    assert bare_client.get("/api/context").get_json()["honba"] == 0
    after = session(bare_client)["session"]
    assert (
        after["streak"] == 0 and after["dealer"] != dealt["dealer"]
    )  # the dealer won: his deal again
    # Changed straight back, the Taiwan run is the corrected hand's: the dealer's 連1.
    table(bare_client, variant="taiwan")
    assert session(bare_client)["session"]["streak"] == 1
