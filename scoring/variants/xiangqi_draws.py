"""流局 (drawn hands) of 32-tile xiangqi mahjong (``shared/rules/003``, 流局 and 片甲不留).

A hand is drawn (1) when a player is about to draw and the wall (牌河) holds 6 - players tiles or
fewer, or (2) when, before anyone has called, four 兵 or four 卒 are discarded in a row. After a
drawn hand of kind (1) every player who is 聽 (ready, whatever the 台 would be) collects from every
player who is not; the text gives no amount, so it is ``ready_payment`` (default 250, the points of
1 台). 片甲不留: a player whose discards hold all five 兵 or all five 卒 counts as a 6 台 self-draw
(12 台 with both), on any drawn hand, two such players both collecting.

Seats here are numbers 1..players in turn order (the next seat is the 下家); ``dealer`` names the
dealer's seat. A payment's payer and payee are ``"seat N"``.

``draw_json`` is the JSON interface (``{"variant": "xiangqi", "draw": {...}}``, see
docs/variants/xiangqi.md): it reads each player's tiles, decides who is 聽, and lists the payments.

>>> from scoring.notation import parse_tiles
>>> is_wall_draw(wall_left=2, players=4), is_wall_draw(wall_left=3, players=4)
(True, False)
>>> is_soldier_run_draw(parse_tiles("士兵兵兵兵"))
True
>>> clean_sweep_tai(parse_tiles("兵兵兵兵兵卒卒卒卒卒車"))
12
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from scoring.drawn_hands import WALL, DealMove, DrawReason, Streak
from scoring.errors import HandError, shown
from scoring.hand import Meld
from scoring.hand_json import parse_meld
from scoring.notation import parse_tiles
from scoring.result import Payment
from scoring.tiles import Tile
from scoring.variants.xiangqi_points import (
    points_for_tai,
    self_draw_amount,
    streak_parts,
)
from scoring.variants.xiangqi_shapes import (
    BLACK_SOLDIER,
    COPIES,
    RED_SOLDIER,
    SOLDIER,
    copies_in_set,
    waits,
)

READY_PAYMENT = 250
"""The text says ready players collect on a 流局 but not how much: 250 (1 台) per player each."""
CLEAN_SWEEP_TAI = 6
SOLDIER_RUN = 4


def is_wall_draw(wall_left: int, players: int) -> bool:
    """流局 1: a player is about to draw and the wall holds 6 - players tiles or fewer."""
    return wall_left <= 6 - players


def is_soldier_run_draw(discards_before_first_call: Sequence[Tile]) -> bool:
    """流局 2: four 兵 (or four 卒) discarded one after another before anyone has called.

    Pass the discards of all players in the order they were made, up to the first chi/pon/kong.
    """
    run = 0
    last: Tile | None = None
    for tile in discards_before_first_call:
        if tile.number == SOLDIER:
            run = run + 1 if tile == last else 1
            if run >= SOLDIER_RUN:
                return True
        else:
            run = 0
        last = tile
    return False


def clean_sweep_tai(discards: Iterable[Tile]) -> int:
    """片甲不留: 6 台 for all five 兵 among one's own discards, 6 more for all five 卒."""
    own = list(discards)
    sweeps = [s for s in (RED_SOLDIER, BLACK_SOLDIER) if own.count(s) >= COPIES[SOLDIER]]
    return CLEAN_SWEEP_TAI * len(sweeps)


def is_ready(concealed: Sequence[Tile], melds: Sequence[Meld] = ()) -> bool:
    """聽: some piece would complete the four-tile hand, whatever its 台."""
    return bool(waits(concealed, melds))


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def draw_payments(
    players: int,
    dealer: int,
    ready: Collection[int],
    discards: Mapping[int, Sequence[Tile]] | None = None,
    *,
    wall_draw: bool = True,
    dealer_streak: int = 0,
    draws_in_a_row: int = 0,
    ready_payment: int = READY_PAYMENT,
    streak_bonus: str = "dealer_win",
    dealer_bonus: str = "non_dealer_win",
) -> list[Payment]:
    """Every payment of a drawn hand: 聽 payments (only for a wall draw), then 片甲不留.

    ``ready`` holds the seats that are 聽; ``discards`` each seat's own discards. ``draws_in_a_row``
    counts the drawn hands before this one (流局後自摸 applies to 片甲不留, a self-draw). The
    dealer's streak does not change on a drawn hand.

    >>> [(p.payer, p.payee, p.amount) for p in draw_payments(3, 1, {2})]
    [('seat 1', 'seat 2', 250), ('seat 3', 'seat 2', 250)]
    """
    if players not in (2, 3, 4):
        raise HandError(f"players {players} is not 2, 3 or 4")
    seats = range(1, players + 1)
    for seat in (dealer, *ready, *(discards or {})):
        if seat not in seats:
            raise HandError(f"seat {seat} is not one of 1-{players}")
    out: list[Payment] = []
    if wall_draw:
        for payee in sorted(set(ready)):
            for payer in seats:
                if payer not in ready:
                    out.append(Payment(seat_name(payer), seat_name(payee), ready_payment))
    for sweeper, own in sorted((discards or {}).items()):
        tai = clean_sweep_tai(own)
        if not tai:
            continue
        parts = streak_parts(
            winner_is_dealer=sweeper == dealer,
            dealer_streak=dealer_streak,
            discarder_is_dealer=False,
            streak_bonus=streak_bonus,
            dealer_bonus=dealer_bonus,
        )
        base = points_for_tai(tai) + sum(p.amount for p in parts)
        for payer in seats:
            if payer == sweeper:
                continue
            amount = self_draw_amount(
                base,
                payer_is_dealer=payer == dealer,
                winner_is_dealer=sweeper == dealer,
                dealer_streak=dealer_streak,
                draws=draws_in_a_row,
            )
            out.append(Payment(seat_name(payer), seat_name(sweeper), amount))
    return out


DRAW_KEYS = frozenset({"reason", "dealer", "hands", "ready", "discards", "wall_left", "opening"})
SOLDIER_RUN_DRAW = DrawReason(
    "soldiers", "四兵流局", "four 兵 or four 卒 discarded in a row before anyone called"
)
DRAW_REASONS = (replace(WALL, takes_ready=True), SOLDIER_RUN_DRAW)
"""The wall's draw pays who was ready (聽); four soldiers' pays 片甲不留 only."""
REASONS = tuple(r.code for r in DRAW_REASONS)
DEAL_AFTER_DRAW = DealMove(dealer_stays=True, streak=Streak.SAME)
"""連莊 ... 流局則不變: the dealer deals again and the streak stands."""


def _seat(key: Any, players: int, what: str) -> int:
    """A seat number 1..players, written as a number or as its text ("2")."""
    text = str(key)
    if isinstance(key, bool) or not text.isdigit() or not 1 <= int(text) <= players:
        raise HandError(f"{what} {key!r} is not a seat 1-{players}")
    return int(text)


def _seat_map(value: Any, players: int, what: str) -> dict[int, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise HandError(f"draw.{what} must be an object of seat: tiles, got {shown(value)}")
    return {_seat(k, players, f"draw.{what} seat"): v for k, v in value.items()}


def _player_hand(
    seat: int, value: Any, check_meld: Callable[[Meld], None]
) -> tuple[tuple[Tile, ...], tuple[Meld, ...]]:
    """One player's tiles at the draw: ``"士象車將"`` or ``{"hand": "帥", "melds": [...]}``."""
    melds_data: Any = []
    if isinstance(value, Mapping):
        unknown = set(value) - {"hand", "melds"}
        if unknown:
            raise HandError(f"unknown key {sorted(unknown)[0]!r} in draw.hands seat {seat}")
        text, melds_data = value.get("hand", ""), value.get("melds") or []
    else:
        text = value
    if not isinstance(text, str):
        raise HandError(f"draw.hands seat {seat} must be tiles, got {shown(text)}")
    if isinstance(melds_data, str):
        melds_data = melds_data.split()
    if not isinstance(melds_data, list):
        raise HandError(f"draw.hands seat {seat} melds must be a list, got {shown(melds_data)}")
    concealed = parse_tiles(text)
    melds = tuple(parse_meld(m) for m in melds_data)
    for tile in concealed:
        if not tile.is_piece:
            raise HandError(f"draw.hands seat {seat}: {tile.code} is not a xiangqi piece")
    for meld in melds:
        check_meld(meld)
    if len(melds) > 1:
        raise HandError(f"draw.hands seat {seat}: a xiangqi hand has at most one meld")
    size = len(concealed) + 3 * len(melds)
    if size != 4:
        raise HandError(
            f"draw.hands seat {seat} has {size} tiles (concealed plus 3 per meld): a waiting"
            " hand has 4"
        )
    held = Counter(concealed + tuple(t for m in melds for t in m.tiles))
    for tile, count in held.items():
        if count > copies_in_set(tile):
            raise HandError(
                f"draw.hands seat {seat}: {count} copies of {tile.name}, the set has"
                f" {copies_in_set(tile)}"
            )
    return concealed, melds


def draw_json(
    data: Any,
    *,
    players: int,
    dealer_streak: int,
    rules: Mapping[str, Any],
    check_meld: Callable[[Meld], None],
) -> dict[str, Any]:
    """The payments of a drawn hand given as JSON; ``data`` is the ``draw`` object.

    ``reason``: "wall" (流局 1, the 聽 payments apply) or "soldiers" (流局 2: four 兵 or four 卒
    in a row before any call; only 片甲不留 pays). ``dealer``: the dealer's seat (1-players).
    ``hands``: seat → that player's four tiles (``"士象車將"`` or ``{"hand": "帥", "melds":
    ["pon:兵兵兵"]}``), from which 聽 is worked out; or ``ready``: the seats that are 聽.
    ``discards``: seat → that player's own discards (片甲不留). ``wall_left`` (optional) checks a
    wall draw; ``opening`` (optional, the discards up to the first call) checks a soldier draw.
    ``rules`` are the variant's resolved options (draws_in_a_row, ready_payment, streak_bonus,
    dealer_bonus); ``players`` and ``dealer_streak`` come from the top level of the JSON.
    """
    if not isinstance(data, Mapping):
        raise HandError(f"draw must be an object, got {shown(data)}")
    unknown = set(data) - DRAW_KEYS
    if unknown:
        raise HandError(f"unknown key {sorted(unknown)[0]!r} in draw")
    reason = data.get("reason", "wall")
    if reason not in REASONS:
        raise HandError(f"draw.reason {reason!r} is one of 'wall', 'soldiers'")
    if players not in (2, 3, 4):
        raise HandError(f"players {players} is not 2, 3 or 4")
    if "dealer" not in data:
        raise HandError("draw.dealer is missing: name the dealer's seat (1-players)")
    dealer = _seat(data["dealer"], players, "draw.dealer")
    if "wall_left" in data:
        wall_left = data["wall_left"]
        if isinstance(wall_left, bool) or not isinstance(wall_left, int) or wall_left < 0:
            raise HandError(f"draw.wall_left must be a whole number, got {shown(wall_left)}")
        if reason != "wall" or not is_wall_draw(wall_left, players):
            raise HandError(
                f"no wall draw: {wall_left} tiles left, a {players}-player hand is drawn at"
                f" {6 - players} or fewer"
            )
    if "opening" in data:
        opening = data["opening"]
        if not isinstance(opening, str):
            raise HandError(f"draw.opening must be tiles, got {shown(opening)}")
        if reason != "soldiers" or not is_soldier_run_draw(parse_tiles(opening)):
            raise HandError("no soldier draw: draw.opening has no four 兵 or four 卒 in a row")
    given = _seat_map(data.get("hands"), players, "hands")
    hands = {s: _player_hand(s, v, check_meld) for s, v in given.items()}
    if "ready" in data and hands:
        raise HandError("give draw.hands or draw.ready, not both")
    waits_by_seat = {s: waits(c, m) for s, (c, m) in sorted(hands.items())}
    if "ready" in data:
        listed = data["ready"]
        if not isinstance(listed, list):
            raise HandError(f"draw.ready must be a list of seats, got {shown(listed)}")
        ready = {_seat(s, players, "draw.ready seat") for s in listed}
    else:
        if reason == "wall" and hands and len(hands) != players:
            missing = sorted(set(range(1, players + 1)) - set(hands))
            raise HandError(f"draw.hands lacks seat {missing[0]}: 聽 payments need every hand")
        ready = {s for s, w in waits_by_seat.items() if w}
    discards = {
        s: parse_tiles(v) if isinstance(v, str) else _bad_discards(s, v)
        for s, v in _seat_map(data.get("discards"), players, "discards").items()
    }
    seen = Counter(t for c, m in hands.values() for t in c + tuple(x for g in m for x in g.tiles))
    seen.update(t for own in discards.values() for t in own)
    for tile, count in seen.items():
        if not tile.is_piece:
            raise HandError(f"draw.discards: {tile.code} is not a xiangqi piece")
        if count > copies_in_set(tile):
            raise HandError(
                f"{count} copies of {tile.name} among the hands and discards: the set has"
                f" {copies_in_set(tile)}"
            )
    payments = draw_payments(
        players,
        dealer,
        ready,
        discards,
        wall_draw=reason == "wall",
        dealer_streak=dealer_streak,
        draws_in_a_row=int(rules["draws_in_a_row"]),
        ready_payment=int(rules["ready_payment"]),
        streak_bonus=str(rules["streak_bonus"]),
        dealer_bonus=str(rules["dealer_bonus"]),
    )
    return {
        "variant": "xiangqi",
        "drawn": True,
        "reason": reason,
        "ready": sorted(ready),
        "waits": {str(s): [t.name for t in w] for s, w in waits_by_seat.items()},
        "clean_sweep": {
            str(s): tai for s, own in sorted(discards.items()) if (tai := clean_sweep_tai(own))
        },
        "payments": [p.to_json() for p in payments],
        "deal": DEAL_AFTER_DRAW.to_json(),
    }


def _bad_discards(seat: int, value: Any) -> tuple[Tile, ...]:
    raise HandError(f"draw.discards seat {seat} must be tiles, got {shown(value)}")
