"""The machine interface: a JSON hand in, a JSON result out (``tilescore score --json``).

Input keys are listed in ``INPUT_KEYS``; an unknown key is an error, so a typo never scores
silently as a different hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from scoring.errors import HandError, TilescoreError
from scoring.hand import Event, Hand, Meld, MeldType, WinContext
from scoring.notation import parse_tiles
from scoring.tiles import Tile, tile_from_code
from scoring.variant import Variant, find_variant

INPUT_KEYS = frozenset(
    {
        "variant",
        "hand",
        "win_tile",
        "melds",
        "flowers",
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
        "id",
    }
)


def _text(data: Mapping[str, Any], key: str, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise HandError(f"{key} must be text, got {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HandError(f"{key} must be a whole number, got {value!r}")
    return value


def _bool(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise HandError(f"{key} must be true or false, got {value!r}")
    return value


def parse_meld(data: Any) -> Meld:
    """A meld from ``{"type": "pon", "tiles": "777z", "from": "N"}`` or the text ``"pon:777z"``."""
    if isinstance(data, str):
        kind, sep, tiles_text = data.partition(":")
        if not sep:
            raise HandError(f"meld {data!r} must be written type:tiles, e.g. pon:777z")
        data = {"type": kind, "tiles": tiles_text}
    if not isinstance(data, Mapping):
        raise HandError(f"meld {data!r} must be an object with type and tiles")
    unknown = set(data) - {"type", "tiles", "from"}
    if unknown:
        raise HandError(f"unknown meld key {sorted(unknown)[0]!r}")
    try:
        meld_type = MeldType(data.get("type"))
    except ValueError:
        kinds = ", ".join(t.value for t in MeldType)
        raise HandError(f"unknown meld type {data.get('type')!r} (known: {kinds})") from None
    tiles = parse_tiles(_text(data, "tiles"))
    claimed = data.get("from")
    if claimed is not None and not isinstance(claimed, str):
        raise HandError(f"meld 'from' must be a seat, got {claimed!r}")
    return Meld(meld_type, tiles, claimed)


def parse_events(values: Any) -> frozenset[Event]:
    if values is None:
        return frozenset()
    if isinstance(values, str):
        values = values.replace(",", " ").split()
    if not isinstance(values, list):
        raise HandError(f"events must be a list, got {values!r}")
    events = set()
    for value in values:
        try:
            events.add(Event(value))
        except ValueError:
            raise HandError(f"unknown event {value!r}") from None
    return frozenset(events)


def _tiles(data: Mapping[str, Any], key: str) -> tuple[Tile, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(t for part in value for t in parse_tiles(str(part)))
    return parse_tiles(_text(data, key))


def parse_hand(data: Any, default_variant: str | None = None) -> tuple[Variant, Hand]:
    """The variant and the hand a JSON object describes; any problem is a one-line ``HandError``."""
    if not isinstance(data, Mapping):
        raise HandError(f"a hand must be a JSON object, got {type(data).__name__}")
    unknown = set(data) - INPUT_KEYS
    if unknown:
        raise HandError(f"unknown key {sorted(unknown)[0]!r} in hand")
    variant_name = data.get("variant", default_variant)
    if not isinstance(variant_name, str):
        raise HandError("the hand names no variant (taiwan, riichi, mingjiang, xiangqi)")
    variant = find_variant(variant_name)
    concealed = parse_tiles(_text(data, "hand"))
    events = parse_events(data.get("events"))
    if not concealed and variant.needs_tiles(events):
        raise HandError("the hand has no tiles")
    win_text = _text(data, "win_tile")
    win_tile = tile_from_code(win_text) if win_text else None
    melds_data = data.get("melds") or []
    if isinstance(melds_data, str):
        melds_data = melds_data.split()
    if not isinstance(melds_data, list):
        raise HandError(f"melds must be a list, got {melds_data!r}")
    melds = tuple(parse_meld(m) for m in melds_data)
    rules = data.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise HandError(f"rules must be an object of option: value, got {rules!r}")
    dealer = data.get("dealer")
    if dealer is not None and not isinstance(dealer, bool):
        raise HandError(f"dealer must be true or false, got {dealer!r}")
    discarder = data.get("discarder")
    if discarder is not None and not isinstance(discarder, str):
        raise HandError(f"discarder must be a seat, got {discarder!r}")
    context = WinContext(
        self_draw=_bool(data, "self_draw"),
        seat_wind=_text(data, "seat_wind", "E"),
        round_wind=_text(data, "round_wind", "E"),
        dealer_streak=_int(data, "dealer_streak"),
        discarder=discarder,
        events=events,
        dealer=dealer,
        players=_int(data, "players", 4),
        dora_indicators=_tiles(data, "dora_indicators"),
        ura_dora_indicators=_tiles(data, "ura_dora_indicators"),
        honba=_int(data, "honba"),
        riichi_sticks=_int(data, "riichi_sticks"),
    )
    resolved = variant.resolve_rules(dict(rules))
    hand = Hand(
        concealed=concealed,
        win_tile=win_tile,
        melds=melds,
        flowers=_tiles(data, "flowers"),
        context=context,
        rules=MappingProxyType(resolved),
    )
    variant.check_hand(hand)
    return variant, hand


def score_json(data: Any, default_variant: str | None = None) -> dict[str, Any]:
    """Score one JSON hand; a bad hand gives ``{"error": "..."}`` instead of raising."""
    try:
        variant, hand = parse_hand(data, default_variant)
        result = variant.score(hand).to_json()
    except TilescoreError as error:
        result = {"error": str(error)}
    if isinstance(data, Mapping) and "id" in data:
        result = {"id": data["id"], **result}
    return result
