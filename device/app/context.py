"""The table's context (rule set, winner's chair, discarder, events, rule options, players) as
the app keeps it: each field checked with the scoring package's own functions before it is
saved, and a context saved by an older version read back part by part."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from device.app.seats import chairs, unseated
from scoring.errors import TilescoreError, shown
from scoring.hand_json import MAX_COUNT

CONTEXT_KEYS = (
    "variant",
    "seat_wind",
    "round_wind",
    "dealer_streak",
    "self_draw",
    "discarder",
    "events",
    "rules",
    "dealer",
    "players",
    "dora_indicators",
    "ura_dora_indicators",
    "honba",
    "riichi_sticks",
    "pao",
    "riichi_sticks_by",
)
DRAW_RUN_RULE = "draws_in_a_row"
"""The rule option that counts the drawn hands just before a hand (xiangqi's 連續流局次數): the
table sets it after a draw, and the app ends the run once a hand is scored."""
SEATS_OUT_RULE = "seats_out"
"""明將's seats that won a 雞糊 in the hand going on (方案一): the app adds the winner of one
that the hand goes on after, and clears them when the hand ends."""
HAND_RULES = (DRAW_RUN_RULE, SEATS_OUT_RULE)
"""Rule options said of the hand being played, not of the table: set by the app as hands are
recorded, given back by an undo."""
HAND_ONLY_KEYS = ("pao", "riichi_sticks_by")
"""Said of one hand, on its result, never kept for the table: the seat liable for a limit hand
(役滿包) it fed is one hand's fact, and kept it would refuse every next hand that is no such
limit hand; the riichi sticks on the table (by who put them there) go to this hand's winner."""
MOVED_BY_HANDS = ("round_wind", "dealer_streak", "honba", "players", *HAND_ONLY_KEYS)
"""What the session, not the table, says of a context: moved on as hands are recorded (the
round, the dealer's run, the chairs) or said of one hand only."""
MAX_INDICATORS = 10  # dora indicators: five in a game at most, each kong turning one more


DEFAULT_CONTEXT: dict[str, Any] = {
    "variant": "taiwan",
    "seat_wind": "E",
    "round_wind": "E",
    "dealer_streak": 0,
    "self_draw": False,
    "discarder": None,
    "events": [],
    "rules": {},
}
"""The table's context before anything is said about it."""


def streak_given(changes: Mapping[str, Any]) -> int | None:
    """The dealer's streak a change says, by either name (riichi's honba is the same count), or
    None where it says none."""
    said = [changes[k] for k in ("dealer_streak", "honba") if k in changes]
    if len(said) == 2 and said[0] != said[1]:
        raise TilescoreError(
            f"dealer_streak {said[0]} and honba {said[1]} are the one count, said twice: give one"
        )
    return said[0] if said else None


def streak_of(context: Mapping[str, Any]) -> int:
    """How many hands in a row the dealer has won, as the context's rule set says it."""
    key = "honba" if context.get("variant") == "riichi" else "dealer_streak"
    value = context.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def with_streak(context: Mapping[str, Any], streak: int) -> dict[str, Any]:
    """The context with the dealer's repeats said as its rule set counts them: riichi as 本場
    (honba), which has no 連莊 streak and refuses one; the others as ``dealer_streak``, which
    they score (a riichi honba they leave unread, so a hand moved to them kept it unscored)."""
    out = {k: v for k, v in context.items() if k not in ("dealer_streak", "honba")}
    out["honba" if out.get("variant") == "riichi" else "dealer_streak"] = streak
    return out


def table_said(context: Mapping[str, Any]) -> dict[str, Any]:
    """What the Table screen said of ``context``: all of it but what recording a hand moves on
    (``MOVED_BY_HANDS``, ``HAND_RULES``). Two contexts alike in it are the same table's."""
    out = {k: v for k, v in context.items() if k not in MOVED_BY_HANDS}
    out["rules"] = {k: v for k, v in (context.get("rules") or {}).items() if k not in HAND_RULES}
    return out


def sent_again(
    latest: Mapping[str, Any], context: Mapping[str, Any], now: float, within_s: float
) -> bool:
    """Whether what is sent ``now`` under ``context`` may be ``latest`` (the session's latest
    hand) sent again: within ``within_s`` of its recording, to the same table (``table_said``).
    Sent after a change on the Table screen, it is the hand as it should have been; whether it
    is the same hand is for the caller to say."""
    if now - float(latest.get("created") or 0) >= within_s:
        return False
    return table_said(latest.get("context") or {}) == table_said(context)


def check_context(given: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The table's changes ``given`` to the context ``base`` (the remembered one, or a hand's),
    each field checked the way the scorer reads it, as they are to be kept: the variant by its
    own name, the events by their codes. Anything wrong is a one-line ``TilescoreError`` naming
    the field, so a bad value is refused before it is saved rather than failing every hand after.

    The rule set's own tables decide what is valid (``scoring.variant``: its names, rule options
    with their kinds and choices, events, players). How the fields go together (a discarder who
    is the winner, an event that needs a self-draw) is the hand's to say when it is scored, where
    one tap fixes it: the table changes them one at a time. A change of rule set that sends no
    ``rules`` starts from the new set's defaults (options belong to a rule set), and keeps of the
    events and the player count only what the new set takes."""
    if not isinstance(given, dict):
        raise TilescoreError("context must be a JSON object")
    unknown = set(given) - set(CONTEXT_KEYS)
    if unknown:
        raise TilescoreError(f"unknown context key {sorted(unknown)[0]!r}")
    out: dict[str, Any] = {}
    if "variant" in given:
        out["variant"] = _variant_name(given["variant"])
    changed = "variant" in out and out["variant"] != base.get("variant")
    if changed and "rules" not in given:
        out["rules"] = {}
    variant = out.get("variant", base.get("variant") or DEFAULT_CONTEXT["variant"])
    for key, value in given.items():
        if key != "variant":
            out[key] = context_value(key, value, variant)
    if changed:
        # What was said for the old rule set and not now: kept where the new one takes it.
        for key in (
            "events",
            "players",
            "pao",
            "riichi_sticks_by",
            "dora_indicators",
            "ura_dora_indicators",
        ):
            if key in base and key not in given and not _fits(key, base[key], variant):
                good = _good_parts(key, base[key], variant)
                out[key] = DEFAULT_CONTEXT.get(key) if good is None else good
    return out


def context_value(key: str, value: Any, variant_name: str) -> Any:
    """One context field checked for a table of ``variant_name``, as it is to be kept; a
    one-line ``TilescoreError`` naming the field if it is no good."""
    from scoring.hand import SEATS

    if key == "variant":
        return _variant_name(value)
    if key in ("seat_wind", "round_wind") or (key == "discarder" and value is not None):
        if value not in SEATS:
            raise TilescoreError(f"{key} must be one of E S W N, got {shown(value)}")
        return value
    if key in ("dealer_streak", "honba", "riichi_sticks"):
        number = whole_number(key, value)
        if number < 0:
            raise TilescoreError(f"{key} must be 0 or more, got {number}")
        if number > MAX_COUNT:
            raise TilescoreError(f"{key} must be at most {MAX_COUNT}, got {number}")
        if key == "riichi_sticks" and number:
            # A stick paid to a winner must come from the chair that put it on the table: said
            # by chair on the hand's result (riichi_sticks_by), the app counts them from that.
            raise TilescoreError(
                "riichi sticks are said by who put them on the table, on the hand's result "
                "(riichi_sticks_by): riichi_sticks must be 0"
            )
        return number
    if key in ("self_draw", "dealer"):
        if not isinstance(value, bool) and not (key == "dealer" and value is None):
            raise TilescoreError(f"{key} must be true or false, got {shown(value)}")
        return value
    if key == "discarder":
        return None
    from scoring.variant import find_variant

    variant = find_variant(variant_name)
    if key == "pao":
        if value is not None and value not in SEATS:
            raise TilescoreError(f"pao must be one of E S W N or null, got {shown(value)}")
        if value is not None and not variant.uses_pao:
            raise TilescoreError(f"pao (役滿包) is not used in {variant.name}")
        return value
    if key == "riichi_sticks_by":
        return _sticks_by(value, variant)
    if key == "events":
        return _events(value, variant)
    if key == "rules":
        if not isinstance(value, dict):
            raise TilescoreError(f"rules must be an object of option: value, got {shown(value)}")
        variant.resolve_rules(dict(value))  # an unknown option or a bad value: RuleOptionError
        return dict(value)
    if key == "players":
        return None if value is None else _players(value, variant)  # None: the scorer's 4
    if key in ("dora_indicators", "ura_dora_indicators"):
        from scoring.hand_json import tiles_from_text

        parts = value if isinstance(value, list) else [value]
        if value is not None and not all(isinstance(p, str) for p in parts):
            raise TilescoreError(f'{key} must be tiles, e.g. "3m", got {shown(value)}')
        tiles = 0
        for part in parts if value is not None else []:
            tiles += len(tiles_from_text(part))  # a bad code: its one-line TileError
            if tiles > MAX_INDICATORS:  # kept with every hand after: no megabyte of them
                raise TilescoreError(f"{key} has at most {MAX_INDICATORS} tiles")
        if tiles and not variant.riichi_counters:
            raise TilescoreError(f"{key} (懸賞) are not used in {variant.name}")
        return value
    raise TilescoreError(f"unknown context key {key!r}")


def _variant_name(value: Any) -> str:
    from scoring.variant import find_variant, variant_name

    if not isinstance(value, str):
        raise TilescoreError(f"variant must be the name of a rule set, got {shown(value)}")
    name = variant_name(value)  # an unknown one: VariantError, listing the known ones
    find_variant(name)  # one this version cannot load is refused too
    return name


def whole_number(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TilescoreError(f"{key} must be a whole number, got {shown(value)}")
    try:
        return int(value)
    except ValueError:  # not digits, or more of them than Python reads
        raise TilescoreError(f"{key} must be a whole number, got {shown(value)}") from None


def _events(value: Any, variant: Any) -> list[str]:
    from scoring.hand_json import parse_events

    if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
        raise TilescoreError(f"events must be a list of event names, got {shown(value)}")
    codes: list[str] = []
    for name in value:
        (event,) = parse_events([name])  # an unknown one: its one-line HandError
        if event not in variant.events:
            known = " ".join(sorted(e.value for e in variant.events))
            raise TilescoreError(
                f"event {event.value!r} is not used in {variant.name} (known: {known})"
            )
        if event.value not in codes:
            codes.append(event.value)
    return codes


def _players(value: Any, variant: Any) -> int:
    """How many play, as the rule set's own context check takes it."""
    variant.check_players(value)
    return int(value)


def check_seating(changes: Mapping[str, Any], context: Mapping[str, Any], players: int) -> None:
    """The context ``changes`` (checked by ``check_context``) for a session of ``players``,
    ``context`` the whole of it as it would be kept: its rule set must be played by that many
    (the context's ``players`` is the session's: who plays is the session's to say), and a
    winner or a discarder it names must sit at one of the session's chairs. The chairs are the
    first ``players`` of E S W N, the dealer East: a 3-player table has no North, and a payment
    charged to one would be counted to nobody (or, wrapped round, to somebody else)."""
    from scoring.variant import find_variant

    said = context.get("players")
    if said is not None and said != players:
        raise TilescoreError(
            f"players {said} is not this session's {players}: start a new session to change "
            "who plays"
        )
    if "variant" in changes or "players" in changes:
        variant = context.get("variant") or DEFAULT_CONTEXT["variant"]
        try:
            _players(players, find_variant(variant))
        except TilescoreError as error:
            raise TilescoreError(
                f"this session has {players} players: {error} (start a new session of as many)"
            ) from None
    off = unseated(changes, players)
    if off is not None:
        raise TilescoreError(
            f"{off[0]} {off[1]} is no chair of this {players}-player session "
            f"({' '.join(chairs(players))})"
        )
    # Checked on the whole context kept: a page that sends its discarder alone, after another
    # set a self-draw or that seat as the winner, saved a table whose next hand was refused.
    discarder = context.get("discarder")
    if discarder and context.get("self_draw"):
        raise TilescoreError(f"discarder {discarder} with a self-draw: a self-draw has none")
    if discarder and discarder == context.get("seat_wind"):
        raise TilescoreError(
            f"discarder {discarder} is the winner: a winner does not discard to himself"
        )


def load_context(stored: Any) -> tuple[dict[str, Any], str | None]:
    """The remembered context as the app can use it, and what of it could not be used. A context
    saved by an older version that took anything (an unknown variant, a rule option of the wrong
    kind) must not stop every hand from scoring: each bad part falls back to its default (a bad
    rule option or event alone is left out), and the note says so until the table is saved."""
    context = copy.deepcopy(DEFAULT_CONTEXT)  # its list and dict are never shared
    if not isinstance(stored, dict):
        kind = type(stored).__name__
        return context, f"saved table settings are no settings (a {kind}): the defaults are used"
    bad: list[str] = []
    if "variant" in stored:
        try:
            context["variant"] = _variant_name(stored["variant"])
        except TilescoreError as error:
            # Rule options belong to a rule set: the unknown one's go with it.
            left = " (its rule options are left out too)" if stored.get("rules") else ""
            bad.append(f"{error}{left}")
            stored = {k: v for k, v in stored.items() if k != "rules"}
    variant = context["variant"]
    for key, value in stored.items():
        if key == "variant":
            continue
        try:
            context[key] = context_value(key, value, variant)
        except TilescoreError as error:
            bad.append(str(error))
            good = _good_parts(key, value, variant)
            if good is not None:
                context[key] = good
    if not bad:
        return context, None
    return context, (
        f"saved table settings not used ({'; '.join(bad)}): the defaults are used for them "
        "until the Table screen is saved"
    )


def _sticks_by(value: Any, variant: Any) -> dict[str, int] | None:
    """The riichi sticks on the table, by the chair that put each there (declaring riichi this
    hand, or in a drawn hand before it): ``{"W": 1, "S": 2}``; None or {} for none."""
    from scoring.hand import SEATS

    if value is None:
        return None
    if not isinstance(value, dict):
        raise TilescoreError(
            f"riichi_sticks_by must be an object of seat: sticks, got {shown(value)}"
        )
    if value and not variant.riichi_counters:
        raise TilescoreError(f"riichi sticks (供託) are not used in {variant.name}")
    out = {}
    for seat, count in value.items():
        if seat not in SEATS:
            raise TilescoreError(f"riichi_sticks_by: {shown(seat)} is not one of E S W N")
        number = whole_number(f"riichi_sticks_by {seat}", count)
        if not 0 <= number <= MAX_COUNT:
            raise TilescoreError(f"riichi_sticks_by {seat} must be 0 to {MAX_COUNT}, got {number}")
        if number:
            out[seat] = number
    return out or None


def _good_parts(key: str, value: Any, variant: str) -> Any:
    """Of a bad list of events or rule options, those that are good on their own."""
    if key == "rules" and isinstance(value, dict):
        return {k: v for k, v in value.items() if _fits(key, {k: v}, variant)}
    if key == "events" and isinstance(value, list):
        return [e for e in value if _fits(key, [e], variant)]
    return None


def _fits(key: str, value: Any, variant: str) -> bool:
    try:
        context_value(key, value, variant)
    except TilescoreError:
        return False
    return True
