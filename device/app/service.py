"""What the app does with a photo: read the tiles, rebuild the hand, score it, and redo it on a fix.

Kept apart from the web layer so the same steps run from tests without a browser.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.app.seats import FROM_WINNER, chairs, for_scorer, payments_in_seats
from scoring.errors import TilescoreError
from scoring.hand_json import MAX_COUNT, parse_meld, score_json, wins_under
from scoring.notation import format_tiles, parse_tiles
from scoring.tiles import tile_from_code
from vision.tile_sets import UNSAID_BACKS, Backs

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
)
MAX_INDICATORS = 10  # dora indicators: five in a game at most, each kong turning one more


@dataclass
class Reader:
    """Loads the model pair once, on first use, and keeps the error if it cannot."""

    models_dir: Path
    threads: int | None = None
    backs: Backs = (
        UNSAID_BACKS  # what the set's backs look like (serve --white-backs, --back-colour)
    )
    _pipeline: Any = field(default=None, init=False)
    error: str | None = field(default=None, init=False)

    def pipeline(self, variant: str | None = None) -> Any:
        """The pair as the model folder holds it now, with the detector it names for
        ``variant``'s tables if any. A fine-tune, an adaptation or a rollback
        while the app runs is read from the next photo on, with no restart (``load_pipeline``
        keeps the loaded pair while the metadata files are unchanged, so this costs a few file
        checks a photo). If changed files cannot be loaded, the pair loaded before keeps
        reading, and the display says why."""
        from vision.pipeline import load_pipeline

        try:
            self._pipeline = load_pipeline(self.models_dir, threads=self.threads, variant=variant)
            self.error = None
        except TilescoreError as error:
            if self._pipeline is None:
                self.error = str(error)
                raise
            self.error = (
                f"the models changed and cannot be loaded ({error}); "
                "still reading with the ones loaded before"
            )
        return self._pipeline

    def read(
        self, image: np.ndarray, red_fives: bool = True, variant: str | None = None
    ) -> list[dict[str, Any]]:
        reading = self.pipeline(variant).read(image, red_fives=red_fives, backs=self.backs)
        # The detect JSON of each tile (docs/contracts.md), runner-up reads in: the layout tries
        # them to make a meld or a winning hand.
        return [d.to_json() for d in reading.tiles]

    def check(self) -> str | None:
        """Why the models cannot be loaded, found without loading them (the metadata and the
        files it names), so the display can say so before anyone taps Score."""
        if self._pipeline is not None:
            return self.error  # None, or why the folder's changed models were not taken up
        from vision.models import load_info, named_models, variant_detectors

        try:
            named = named_models(self.models_dir)
            own = list(variant_detectors(self.models_dir).values())
            for meta in (
                named.detector,
                named.classifier,
                named.pieces,
                named.second_opinion,
                *own,
            ):
                if meta is not None:
                    load_info(meta)
        except TilescoreError as error:
            return f"cannot read tiles: {error}"
        return self.error


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
        for key in ("events", "players"):
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
            raise TilescoreError(f"{key} must be one of E S W N, got {_short(value)}")
        return value
    if key in ("dealer_streak", "honba", "riichi_sticks"):
        number = _whole_number(key, value)
        if number < 0:
            raise TilescoreError(f"{key} must be 0 or more, got {number}")
        if number > MAX_COUNT:
            raise TilescoreError(f"{key} must be at most {MAX_COUNT}, got {number}")
        return number
    if key in ("self_draw", "dealer"):
        if not isinstance(value, bool) and not (key == "dealer" and value is None):
            raise TilescoreError(f"{key} must be true or false, got {_short(value)}")
        return value
    if key == "discarder":
        return None
    from scoring.variant import find_variant

    variant = find_variant(variant_name)
    if key == "events":
        return _events(value, variant)
    if key == "rules":
        if not isinstance(value, dict):
            raise TilescoreError(f"rules must be an object of option: value, got {_short(value)}")
        variant.resolve_rules(dict(value))  # an unknown option or a bad value: RuleOptionError
        return dict(value)
    if key == "players":
        return None if value is None else _players(value, variant)  # None: the scorer's 4
    if key in ("dora_indicators", "ura_dora_indicators"):
        from scoring.hand_json import tiles_from_text

        parts = value if isinstance(value, list) else [value]
        if value is not None and not all(isinstance(p, str) for p in parts):
            raise TilescoreError(f'{key} must be tiles, e.g. "3m", got {_short(value)}')
        tiles = 0
        for part in parts if value is not None else []:
            tiles += len(tiles_from_text(part))  # a bad code: its one-line TileError
            if tiles > MAX_INDICATORS:  # kept with every hand after: no megabyte of them
                raise TilescoreError(f"{key} has at most {MAX_INDICATORS} tiles")
        return value
    raise TilescoreError(f"unknown context key {key!r}")


def _variant_name(value: Any) -> str:
    from scoring.variant import find_variant, variant_name

    if not isinstance(value, str):
        raise TilescoreError(f"variant must be the name of a rule set, got {_short(value)}")
    name = variant_name(value)  # an unknown one: VariantError, listing the known ones
    find_variant(name)  # one this version cannot load is refused too
    return name


def _whole_number(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TilescoreError(f"{key} must be a whole number, got {_short(value)}")
    try:
        return int(value)
    except ValueError:  # not digits, or more of them than Python reads
        raise TilescoreError(f"{key} must be a whole number, got {_short(value)}") from None


def _short(value: Any) -> str:
    """A value as an error message shows it: a megabyte of it is no help on a display."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _events(value: Any, variant: Any) -> list[str]:
    from scoring.hand_json import parse_events

    if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
        raise TilescoreError(f"events must be a list of event names, got {_short(value)}")
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
    """How many play, as the rule set's own context check takes it: asked of a hand that is
    all defaults but for the count, so only the count can be refused."""
    from scoring.hand import Hand, WinContext

    if isinstance(value, bool) or not isinstance(value, int):
        raise TilescoreError(f"players must be a whole number, got {_short(value)}")
    probe = Hand(
        concealed=(),
        win_tile=None,
        context=WinContext(players=value),
        rules=variant.resolve_rules({}),
    )
    variant.check_context(probe)
    return value


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
    seated = chairs(players)
    for key in ("seat_wind", "discarder"):
        value = changes.get(key)
        if value is not None and value not in seated:
            raise TilescoreError(
                f"{key} {value} is no chair of this {players}-player session ({' '.join(seated)})"
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


def uses_red_fives(context: dict[str, Any]) -> bool:
    """Whether the table's variant and rule options count red fives; when they do not, a five
    painted red (as on most Chinese sets) is read as a plain five."""
    from scoring.variant import red_fives_in_play

    return red_fives_in_play(context.get("variant") or "taiwan", context.get("rules"))


def reconstruct(
    detections: list[dict[str, Any]], variant: str, context: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The hand the layout shows, in score-JSON notation, with problems for a person to fix, and
    which photo tiles went where (``groups``: role, tile numbers) so the display can mark the
    winning tile's box. With the table's ``context``, a hand that is no winning hand as read is
    completed by its doubtful tiles' runner-up reads where they make it one."""
    return rebuild(detections, variant, context)[0]


def rebuild(
    detections: list[dict[str, Any]], variant: str, context: dict[str, Any] | None = None
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``reconstruct``'s reading, and the kind of each of its problems (stable names, in the
    problems' order), for the still-hand check to tell a half-laid hand from a doubtful read."""
    from vision.layout.reconstruct import reconstruct as layout

    try:
        wins = None if context is None else wins_under(_score_context(context))
    except TilescoreError:
        wins = None  # a context the scorer cannot take completes nothing; scoring says why
    reading = layout(detections, variant, wins=wins)
    kinds = tuple(p.kind for p in reading.problems)
    return {
        **reading.to_json(),
        "groups": [{"role": g.role, "tiles": list(g.tiles)} for g in reading.groups],
    }, kinds


def score_reading(reading: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """The reading scored with the table's context; its payments name the table's chairs."""
    data = {k: v for k, v in reading.items() if k in ("hand", "win_tile", "melds", "flowers")}
    try:
        _check_chairs(context)
        data.update(_score_context(context))
        result = payments_in_seats(score_json(data), context, _seats_by_wind(context))
        _check_payments(result, context)
    except TilescoreError as error:
        return {"error": str(error)}
    return result


def _check_chairs(context: Mapping[str, Any]) -> None:
    """A winner or discarder at a chair the table does not have is said as the hand's error
    (a context saved before the session was, or by an older version): scored, its payment
    would go to or from nobody."""
    players = context.get("players")
    seated = chairs(players)
    for key in ("seat_wind", "discarder"):
        value = context.get(key)
        if value is not None and value not in seated:
            raise TilescoreError(
                f"{key} {value} is no chair of a {players or 4}-player table "
                f"({' '.join(seated) or 'none'}): set it on the Table screen"
            )


def _check_payments(result: Mapping[str, Any], context: Mapping[str, Any]) -> None:
    """Every payment is between chairs someone sits in: one that is not would be left out of
    the totals (or counted to the wrong player), so the hand is refused rather than scored."""
    players = context.get("players")
    seated = chairs(players)
    for payment in result.get("payments") or []:
        for role in ("payer", "payee"):
            if payment.get(role) not in seated:
                raise TilescoreError(
                    f"a payment's {role} is chair {payment.get(role)!r}, where nobody sits at a "
                    f"{players or 4}-player table ({' '.join(seated)}): not scored"
                )


def _score_context(context: dict[str, Any]) -> dict[str, Any]:
    """What of the app's context the scorer takes, in its words: a rule set without winds
    (xiangqi) is told who deals and where the others sit from the winner (seats.for_scorer)."""
    given = {k: v for k, v in context.items() if k in CONTEXT_KEYS and v is not None}
    return for_scorer(given, _seats_by_wind(context))


def _seats_by_wind(context: Mapping[str, Any]) -> bool:
    from scoring.variant import find_variant

    return find_variant(context.get("variant") or "taiwan").seats_by_wind


FIX_KEYS = (
    "tile",
    "code",
    "face_down",
    "keep_win",
    "win_tile",
    "win_index",
    "hand",
    "melds",
    "flowers",
    "split",
    "join",
    "meld",
    "context",
)
FIX_PARTS = {
    "code": "tile",
    "face_down": "tile",
    "keep_win": "tile",
    "win_index": "win_tile",
    "meld": "join",
    "join": "meld",
}
"""A key of a fix that means nothing without another: the first needs the second."""
MAX_HAND_TILES = 64  # more than any rule set's hand: a larger one is no hand, only bytes to keep
MAX_MELDS = 8
MAX_FLOWERS = 16


def check_fix(given: Any, tiles: int) -> dict[str, Any]:
    """A correction sent for a hand whose photo has ``tiles`` tiles, checked as a whole before
    anything is applied or saved, as it is to be kept: only the keys the page sends, each of its
    kind (a tile number or winning box one of the photo's, tile codes ``scoring.tiles`` knows,
    true or false, tiles as text, melds the scorer reads). Anything else is a one-line
    ``TilescoreError`` naming the key, and the hand stays as it was. The ``context`` is the
    hand's to check (``check_context`` against the hand's own). Only the keys sent are kept:
    the hand's corrections record what the person did."""
    if not isinstance(given, dict):
        raise TilescoreError("a fix must be a JSON object")
    unknown = set(given) - set(FIX_KEYS)
    if unknown:
        raise TilescoreError(f"unknown fix key {_short(sorted(unknown)[0])}")
    for part, whole in FIX_PARTS.items():
        if part in given and whole not in given:
            raise TilescoreError(f"{part} goes with {whole}")
    fix = dict(given)
    if "tile" in given:
        fix.update(_tile_fix(given, tiles))
    if "win_tile" in given:
        fix["win_tile"] = _tile_code("win_tile", given["win_tile"])
        if "win_index" in given:
            fix["win_index"] = _tile_number("win_index", given["win_index"], tiles)
    if "hand" in given:
        fix["hand"] = _tile_text("hand", given["hand"], MAX_HAND_TILES)
    if "melds" in given:
        fix["melds"] = _melds(given["melds"])
    if "flowers" in given:
        fix["flowers"] = _tile_text("flowers", given["flowers"], MAX_FLOWERS)
    if "split" in given:
        fix["split"] = _whole_number("split", given["split"])
    if "join" in given:
        fix["join"] = _tile_text("join", given["join"], max(JOINS.values()))
        if given["meld"] not in JOINS:
            raise TilescoreError(
                f"cannot join tiles as {_short(given['meld'])}: use {', '.join(JOINS)}"
            )
    return fix


def _tile_fix(given: dict[str, Any], tiles: int) -> dict[str, Any]:
    """A tile read again: its number, and its code, or face down (a back has no code)."""
    fix: dict[str, Any] = {"tile": _tile_number("tile", given["tile"], tiles)}
    for key in ("face_down", "keep_win"):
        if key in given:
            fix[key] = _flag(given, key)
    code = given.get("code")
    if fix.get("face_down"):
        if code is not None:
            raise TilescoreError(f"a face-down tile has no code, got {_short(code)}")
    else:
        fix["code"] = _tile_code("code", code)
    return fix


def _tile_number(key: str, value: Any, tiles: int) -> int:
    index = _whole_number(key, value)
    if not 0 <= index < tiles:
        raise TilescoreError(f"no tile number {index} in this photo")
    return index


def _tile_code(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TilescoreError(f'{key} must be a tile code such as "3m", got {_short(value)}')
    return tile_from_code(value).code  # an unknown one: its one-line TileError


def _flag(given: dict[str, Any], key: str) -> bool:
    value = given[key]
    if not isinstance(value, bool):
        raise TilescoreError(f"{key} must be true or false, got {_short(value)}")
    return value


def _tile_text(key: str, value: Any, most: int) -> str:
    """Tiles as the text fields hold them ("123m 55z"), read as the scorer reads them."""
    from scoring.hand_json import tiles_from_text

    if not isinstance(value, str):
        raise TilescoreError(f'{key} must be tiles as text, e.g. "123m", got {_short(value)}')
    if len(tiles_from_text(value)) > most:  # a bad code: its one-line TileError
        raise TilescoreError(f"{key} has at most {most} tiles")
    return value


def _melds(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TilescoreError(
            f'melds must be a list of melds, e.g. ["pon:777z"], got {_short(value)}'
        )
    if len(value) > MAX_MELDS:
        raise TilescoreError(f"a hand has at most {MAX_MELDS} melds, got {len(value)}")
    for meld in value:
        parse_meld(meld)  # a meld the scorer cannot read: its one-line HandError
    return value


def check_fix_melds(melds: list[Any], context: Mapping[str, Any]) -> None:
    """A fix's melds as the hand's rule set takes them (``check_fix`` has parsed them): each of
    the right tiles for its kind (a pon of no tiles is no pon), and claimed, if from anyone,
    from a seat the scorer knows: a chair of the table for a rule set named by winds, or for
    one without winds (xiangqi) a seat named from the winner's (left, across, right). Anything
    else is a one-line ``TilescoreError``: refused before it is saved, not kept to fail every
    rescore after."""
    from scoring.variant import find_variant

    variant = find_variant(context.get("variant") or DEFAULT_CONTEXT["variant"])
    players = context.get("players") or 4
    # By wind: the table's chairs; without winds: the seats named from the winner's.
    seats = chairs(players) if variant.seats_by_wind else FROM_WINNER.get(players, ())
    for given in melds:
        meld = parse_meld(given)
        variant.check_meld(meld)  # the shape: its one-line HandError
        if meld.claimed_from is not None and meld.claimed_from not in seats:
            raise TilescoreError(
                f"meld {meld.type.value}:{format_tiles(meld.tiles)} is claimed from "
                f"{_short(meld.claimed_from)}: use one of {' '.join(seats)} or leave 'from' out"
            )


def apply_tile_fix(
    detections: list[dict[str, Any]], index: int, code: str | None, face_down: bool = False
) -> list[dict[str, Any]]:
    """A tile read again by a person: its code (validated) or face-down; confidence becomes 1."""
    if not 0 <= index < len(detections):
        raise TilescoreError(f"no tile number {index} in this photo")
    if code is not None:
        code = tile_from_code(code).code
    fixed = [dict(d) for d in detections]
    fixed[index].update(
        code=None if face_down else code,
        face_down=face_down,
        confidence=1.0,
        low_confidence=False,
        corrected=True,
    )
    return fixed


def split_meld(reading: dict[str, Any], index: int) -> dict[str, Any]:
    """A group read as a meld that is not one: its tiles go back among the concealed tiles."""
    melds = _melds_of(reading)
    if not 0 <= index < len(melds):
        raise TilescoreError(f"no meld number {index} in this hand")
    meld = parse_meld(melds.pop(index))
    hand = _concealed(reading) + list(meld.tiles)
    return {**reading, "hand": format_tiles(hand), "melds": melds}


def _concealed(reading: dict[str, Any]) -> list[Any]:
    """The reading's concealed tiles. A hand kept by an older version that took anything (a list,
    a number) is said to be so: read as text, ``['1m']`` would be an unknown tile code."""
    text = reading.get("hand") or ""
    if not isinstance(text, str):
        raise TilescoreError(
            f"this hand's concealed tiles are not tiles as text: {_short(text)}; type them in "
            "the Concealed field of Edit groups and save"
        )
    return list(parse_tiles(text))


def _melds_of(reading: dict[str, Any]) -> list[Any]:
    melds = reading.get("melds") or []
    if not isinstance(melds, list):
        raise TilescoreError(
            f"this hand's melds are not a list: {_short(melds)}; type them in the Melds field "
            "of Edit groups and save"
        )
    return list(melds)


JOINS = {"chi": 3, "pon": 3, "kong": 4, "concealed_kong": 4}


def join_tiles(reading: dict[str, Any], tiles: str, meld_type: str) -> dict[str, Any]:
    """Concealed tiles that lie together as a meld: taken out of the hand, made one meld (the
    scorer checks the meld's shape and says what is wrong with it in one line)."""
    if meld_type not in JOINS:
        raise TilescoreError(f"cannot join tiles as {meld_type!r}: use {', '.join(JOINS)}")
    chosen = list(parse_tiles(tiles))
    if len(chosen) != JOINS[meld_type]:
        raise TilescoreError(f"a {meld_type} has {JOINS[meld_type]} tiles, got {len(chosen)}")
    hand = _concealed(reading)
    for tile in chosen:
        if tile not in hand:
            raise TilescoreError(f"{tile.code} is not among the concealed tiles")
        hand.remove(tile)
    meld = {"type": meld_type, "tiles": format_tiles(chosen)}
    parse_meld(meld)
    melds = [*_melds_of(reading), meld]
    return {**reading, "hand": format_tiles(hand), "melds": melds}


# The names a table says, for the events the rule texts list; riichi's differ where its rule
# text does. Anything not here is shown by its code.
EVENT_NAMES = {
    "riichi": "立直",
    "double_riichi": "雙立直",
    "ippatsu": "一發",
    "declared_ready": "喊聽",
    "last_tile": "海底撈月",
    "last_discard": "河底撈魚",
    "after_kong": "槓上開花",
    "after_flower": "花上開花",
    "kong_after_kong": "槓頂槓自摸",
    "robbing_kong": "搶槓",
    "heavenly_win": "天胡",
    "earthly_win": "地胡",
    "human_win": "人胡",
    "heavenly_ready": "天聽",
    "earthly_ready": "地聽",
    "eight_flowers": "八仙過海",
    "seven_flowers_rob": "七搶一",
    "nagashi_mangan": "流局滿貫",
    "furiten": "振聽",
    "false_win": "詐糊",
}
RIICHI_EVENT_NAMES = {
    "last_tile": "海底摸月",
    "after_kong": "嶺上開花",
    "heavenly_win": "天和",
    "earthly_win": "地和",
}
# Not won with tiles on the table, so not something to score from a photo.
PHOTO_LESS_EVENTS = {"nagashi_mangan"}


def variants_json() -> dict[str, Any]:
    """Each rule set's title, unit, events (with names) and tile set, for the page's controls
    (red fives depend on a table's rule options: each hand says whether it uses them)."""
    from scoring.variant import find_variant

    out: dict[str, Any] = {}
    for name in ("taiwan", "riichi", "mingjiang", "xiangqi"):
        variant = find_variant(name)
        names = {**EVENT_NAMES, **(RIICHI_EVENT_NAMES if name == "riichi" else {})}
        order = list(EVENT_NAMES)
        events = sorted(
            (e.value for e in variant.events if e.value not in PHOTO_LESS_EVENTS),
            key=lambda e: (order.index(e) if e in order else len(order), e),
        )
        out[name] = {
            "title": variant.title,
            "unit": variant.unit,
            "events": [{"code": e, "name": names.get(e, e)} for e in events],
            "pieces": variant.uses_pieces,
            "flowers": variant.uses_flowers,
        }
    return out


JPEG_MAX_SIDE = 65535
"""The longest side a JPEG can hold: every hand's photo is kept as one."""


def check_photo_size(image: np.ndarray, name: str = "the photo") -> None:
    """A photo the app can keep: no side longer than a JPEG holds (a 100000 x 10 strip is no
    photo of a hand, and could not be saved with it). Said with its size, before it is read."""
    height, width = image.shape[:2]
    if max(height, width) > JPEG_MAX_SIDE:
        raise TilescoreError(
            f"{name} is {width}x{height} pixels: too long to keep (a side of at most "
            f"{JPEG_MAX_SIDE}); crop or shrink it to the hand"
        )


def encode_jpeg(image: np.ndarray, quality: int = 90) -> bytes:
    check_photo_size(image)
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        height, width = image.shape[:2]
        raise TilescoreError(f"could not encode the {width}x{height} photo as JPEG")
    return bytes(buffer)


def decode_upload(data: bytes) -> np.ndarray:
    """An uploaded photo's pixels, as the app reads and keeps them: upright by its EXIF tag, and
    a large JPEG decoded at the size the models read (``vision.images.decode_photo``), so a
    12-megapixel phone photo is read faster and kept at a quarter of the bytes."""
    from vision.images import decode_photo

    image = decode_photo(data, "the uploaded photo").pixels
    check_photo_size(image, "the uploaded photo")
    return image


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
