"""A drawn hand (流局) as the table records it: what the page sends, checked, scored by the
rule set's own ``score_draw``, and kept like a hand with its payments in the app's chairs.

The page says how the hand ended (``reason``, one of the rule set's ``draw_reasons``), who was
ready (``ready``, chairs E S W N, where the rule set pays or deals by it) and, for xiangqi, who
discarded all five 兵 or 卒 (``clean_sweep``: 片甲不留, chair → the pieces). A rule set without
winds (xiangqi) numbers its seats from the dealer, 1 to the player count in the order they
play: East is seat 1, as the app's dealer sits East.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device.app.context import sent_again
from device.app.seats import TURN_ORDER
from scoring.drawn_hands import chairs_in
from scoring.errors import TilescoreError, shown
from scoring.variant import find_variant
from scoring.variants.xiangqi_shapes import BLACK_SOLDIER, COPIES, RED_SOLDIER, SOLDIER

DRAW_KEYS = ("variant", "reason", "ready", "clean_sweep")
SWEEP_PIECES = {piece.name: piece for piece in (RED_SOLDIER, BLACK_SOLDIER)}
"""片甲不留: the pieces a player may have discarded all five of, by the names the page shows."""


def check_draw(sent: Any, context: Mapping[str, Any]) -> dict[str, Any]:
    """The page's draw, checked against the table's rule set and chairs, as it is kept:
    anything else is a one-line ``TilescoreError`` naming the key."""
    variant = find_variant(context["variant"])
    if not variant.draw_reasons:
        raise TilescoreError(f"{variant.name} records no drawn hands")
    if not isinstance(sent, dict):
        raise TilescoreError(f"a drawn hand must be a JSON object, got {shown(sent)}")
    said = sent.get("variant", variant.name)
    if said != variant.name:
        # A dialog opened before another phone moved the table to another rule set.
        raise TilescoreError(
            f"the table plays {variant.name} now, not {shown(said)}: open the draw again"
        )
    asked = {r.asks for r in variant.draw_reasons if r.asks}  # riichi's nagashi
    unknown = sorted(set(sent) - set(DRAW_KEYS) - asked)
    if unknown:
        raise TilescoreError(f"unknown key {unknown[0]!r} for a drawn hand")
    codes = [reason.code for reason in variant.draw_reasons]
    reason = sent.get("reason", codes[0])
    if reason not in codes:
        raise TilescoreError(f"reason {shown(reason)} is not one of {', '.join(codes)}")
    chairs = TURN_ORDER[context.get("players") or 4]
    named = {key: _chairs(sent, key, chairs) for key in sorted(asked) if key in sent}
    ready = _chairs(sent, "ready", chairs)
    chosen = next(r for r in variant.draw_reasons if r.code == reason)
    if ready and not chosen.takes_ready:
        raise TilescoreError(f"who was ready changes nothing on a {chosen.name} draw")
    sweeps = sent.get("clean_sweep", {})
    if sweeps and not variant.uses_pieces:
        raise TilescoreError(f"clean_sweep (片甲不留) is xiangqi's, not {variant.name}'s")
    if not isinstance(sweeps, dict) or any(
        chair not in chairs
        or not isinstance(pieces, list)
        or not pieces
        or any(p not in SWEEP_PIECES for p in pieces)
        or len(set(pieces)) != len(pieces)
        for chair, pieces in sweeps.items()
    ):
        raise TilescoreError(
            f"clean_sweep must be chair: a list of {' or '.join(SWEEP_PIECES)}, got {shown(sweeps)}"
        )
    out: dict[str, Any] = {"reason": reason, "ready": ready, **named}
    if sweeps:
        out["clean_sweep"] = {c: sweeps[c] for c in chairs if c in sweeps}
    return out


SAME_DRAW_WITHIN_S = 3.0
"""A draw said again this soon after the same one is the same tap twice (the page waits for
the first before it takes a second): a table catching up on two draws in a row takes longer."""


def same_draw_again(
    latest: Mapping[str, Any],
    draw: Mapping[str, Any],
    context: Mapping[str, Any],
    now: float,
) -> bool:
    """Whether ``draw`` is the session's latest hand, a recorded draw, sent again at once to
    the same table (``sent_again``: what the first draw moved on, xiangqi's run of draws one
    longer, 明將's seats out cleared, aside)."""
    said = (latest.get("reading") or {}).get("draw")
    return said == dict(draw) and sent_again(latest, context, now, SAME_DRAW_WITHIN_S)


def _chairs(sent: Mapping[str, Any], key: str, chairs: tuple[str, ...]) -> list[str]:
    """``sent[key]``: chairs of the table, each once, in the order they play."""
    given = chairs_in(sent, key, chairs)
    return [c for c in chairs if c in given]


def score_draw(draw: Mapping[str, Any], context: Mapping[str, Any]) -> dict[str, Any]:
    """The checked ``draw`` scored by the table's rule set, its seats turned into chairs."""
    variant = find_variant(context["variant"])
    players = context.get("players") or 4
    rules = {k: v for k, v in (context.get("rules") or {}).items() if k != "dealer_seat"}
    if variant.seats_by_wind:
        data: dict[str, Any] = {"variant": variant.name, "players": players, "rules": rules}
        data["draw"] = {k: v for k, v in draw.items() if k != "ready" or v}
        return variant.score_draw(data)
    chairs = TURN_ORDER[players]
    seat_of = {chair: chairs.index(chair) + 1 for chair in chairs}  # East deals: seat 1
    discards = {
        str(seat_of[chair]): "".join(SWEEP_PIECES[p].code * COPIES[SOLDIER] for p in pieces)
        for chair, pieces in (draw.get("clean_sweep") or {}).items()
    }
    result = variant.score_draw(
        {
            "variant": variant.name,
            "players": players,
            "dealer_streak": context.get("dealer_streak") or 0,
            "rules": rules,
            "draw": {
                "reason": draw["reason"],
                "dealer": 1,
                "ready": [seat_of[c] for c in draw["ready"]],
                "discards": discards,
            },
        }
    )
    return _in_chairs(result, chairs)


def _in_chairs(result: dict[str, Any], chairs: tuple[str, ...]) -> dict[str, Any]:
    """A draw result whose seats are numbers (``"seat 2"``, ``2``, ``"2"``) with chairs instead."""

    def chair(seat: Any) -> str:
        return chairs[int(str(seat).removeprefix("seat ")) - 1]

    out = dict(result)
    out["ready"] = [chair(s) for s in result.get("ready", [])]
    for key in ("waits", "clean_sweep"):
        if key in result:
            out[key] = {chair(s): v for s, v in result[key].items()}
    out["payments"] = [
        {**p, "payer": chair(p["payer"]), "payee": chair(p["payee"])}
        for p in result.get("payments", [])
    ]
    return out
