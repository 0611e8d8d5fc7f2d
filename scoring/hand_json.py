"""The machine interface: a JSON hand in, a JSON result out (``tilescore score --json``).

Input keys are listed in ``INPUT_KEYS``; an unknown key is an error, so a typo never scores
silently as a different hand. What ``reconstruct`` writes beside a hand (``READING_KEYS``) is
taken and not read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from scoring.errors import HandError, NoYakuError, TilescoreError, kind_of, shown
from scoring.hand import Event, Hand, Meld, MeldType, WinContext, build
from scoring.notation import parse_tiles
from scoring.tiles import ALL_TILES, Tile, tile_from_code
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
        "pao",
        "id",
    }
)
READING_KEYS = frozenset(
    {
        "problems",
        "unseen",
        "would_win",
        "would_win_as",
        "would_win_without",
        "would_win_with_meld",
    }
)
"""What ``tilescore reconstruct --json`` writes beside the hand (``vision.layout.Reading``):
taken and left unread, so its output scores as it is (``reconstruct ... | score --json -``)."""


MAX_COUNT = 999
"""The most a table's counters (dealer streak, 本場, riichi sticks) can say: far past any game."""

_MELD_TYPES = {t.value: t for t in MeldType}
_MELD_KEYS = frozenset({"type", "tiles", "from"})
_EVENTS = {e.value: e for e in Event}
_NO_EVENTS: frozenset[Event] = frozenset()
_BY_CODE: dict[str, Tile] = {t.code: t for t in ALL_TILES}
# suit letter -> digit -> tile, and a table that ends each run of digits at its suit letter
_BY_DIGIT: dict[str, dict[str, Tile]] = {
    suit: {t.code[0]: t for t in ALL_TILES if t.code[1] == suit} for suit in "mpszfbr"
}
_END_RUNS = str.maketrans({suit: suit + " " for suit in _BY_DIGIT})
# a code per tile, by its two characters: a text of codes is read two characters at a time
_BY_PAIR: dict[tuple[str, str], Tile] = {(code[0], code[1]): t for code, t in _BY_CODE.items()}


def tiles_from_text(text: str) -> tuple[Tile, ...]:
    """``parse_tiles``, with quick paths for the plain compact forms ``"1m2m3m"`` (a code per tile)
    and ``"123m456p11z"`` (digits, then their suit).

    Anything else (tile characters, commas, a bad code, a letter without digits) goes to
    ``parse_tiles``, which reads it or raises its one-line error; all give the same shared tiles.
    """
    try:
        if not len(text) % 2:
            try:
                return tuple(map(_BY_PAIR.__getitem__, zip(text[::2], text[1::2], strict=True)))
            except KeyError:
                pass
        tiles: list[Tile] = []
        for run in text.translate(_END_RUNS).split():
            if len(run) < 2:
                raise KeyError(run)
            tiles += map(_BY_DIGIT[run[-1]].__getitem__, run[:-1])
        return tuple(tiles)
    except KeyError:
        return parse_tiles(text)


def _short_tiles(text: str) -> tuple[Tile, ...]:
    """``tiles_from_text`` for a short text (a meld, flowers, indicators), remembered."""
    found = _SHORT_TILES.get(text)
    if found is None:
        found = tiles_from_text(text)
        if len(_SHORT_TILES) < 4096:
            _SHORT_TILES[text] = found
    return found


# The tiles of each short text read so far (8 characters at most: "1234f", "0m", "5p6z"). Not a
# cache of hands: a text's tiles are all it says (a tuple of the shared tile instances), and the
# same short texts recur in many different hands. Texts that fail to read are never kept.
_SHORT_TILES: dict[str, tuple[Tile, ...]] = {}
_SHORT = 8


def _text(data: Mapping[str, Any], key: str, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise HandError(f"{key} must be text, got {shown(value)}")
    return value


def _int(data: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HandError(f"{key} must be a whole number, got {shown(value)}")
    return value


def _bool(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise HandError(f"{key} must be true or false, got {shown(value)}")
    return value


def parse_meld(data: Any) -> Meld:
    """A meld from ``{"type": "pon", "tiles": "777z", "from": "N"}`` or the text ``"pon:777z"``."""
    if isinstance(data, str):
        kind, sep, tiles_text = data.partition(":")
        if not sep:
            raise HandError(f"meld {data!r} must be written type:tiles, e.g. pon:777z")
        data = {"type": kind, "tiles": tiles_text}
    if type(data) is not dict and not isinstance(data, Mapping):
        raise HandError(f"meld {data!r} must be an object with type and tiles")
    given, text, claimed = data.get("type"), data.get("tiles"), data.get("from")
    key: tuple[str, str, str | None] | None = None
    if type(given) is str and type(text) is str and (claimed is None or type(claimed) is str):
        key = (given, text, claimed)
        found = _MELDS.get(key)
        if found is not None and data.keys() <= _MELD_KEYS:
            return found
    meld = _parse_meld(data)
    if key is not None and len(_MELDS) < 4096:
        _MELDS[key] = meld
    return meld


# The ``Meld`` of each (type, tiles, from) text read so far. Not a cache of hands: a meld's
# object is all its text says, and the same meld ("pon:777z", "chi:123m") is laid down in many
# different hands. Melds are frozen (their one cached fact is worked out from their tiles), so
# hands share them (each hand still checks its melds); only melds read without error are kept,
# at most 4096.
_MELDS: dict[tuple[str, str, str | None], Meld] = {}


def _parse_meld(data: Mapping[str, Any]) -> Meld:
    if not data.keys() <= _MELD_KEYS:
        unknown = set(data) - _MELD_KEYS
        raise HandError(f"unknown meld key {sorted(unknown)[0]!r}")
    given = data.get("type")
    meld_type = _MELD_TYPES.get(given) if isinstance(given, str) else None
    try:
        meld_type = meld_type or MeldType(given)
    except ValueError:
        kinds = ", ".join(t.value for t in MeldType)
        raise HandError(f"unknown meld type {data.get('type')!r} (known: {kinds})") from None
    tiles = tiles_from_text(_text(data, "tiles"))
    claimed = data.get("from")
    if claimed is not None and not isinstance(claimed, str):
        raise HandError(f"meld 'from' must be a seat, got {shown(claimed)}")
    return build(Meld, type=meld_type, tiles=tiles, claimed_from=claimed)


def parse_events(values: Any) -> frozenset[Event]:
    if values is None:
        return frozenset()
    if isinstance(values, str):
        values = values.replace(",", " ").split()
    if not isinstance(values, list):
        raise HandError(f"events must be a list, got {shown(values)}")
    events = set()
    for value in values:
        event = _EVENTS.get(value) if isinstance(value, str) else None
        try:
            events.add(event or Event(value))
        except ValueError:
            raise HandError(f"unknown event {value!r}") from None
    return frozenset(events)


def _tiles(data: Mapping[str, Any], key: str) -> tuple[Tile, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(t for part in value for t in tiles_from_text(str(part)))
    text = _text(data, key)
    return _short_tiles(text) if len(text) <= _SHORT else tiles_from_text(text)


def parse_hand(
    data: Any, default_variant: str | None = None, *, context_only: bool = False
) -> tuple[Variant, Hand]:
    """The variant and the hand a JSON object describes; any problem is a one-line ``HandError``.

    ``context_only``: the tiles (``hand``, ``win_tile``, ``melds``, ``flowers``) are not read,
    and only the context is checked (``check_context``)."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise HandError(f"a hand must be a JSON object, got {kind_of(data)}")
    if not data.keys() <= INPUT_KEYS:
        unknown = set(data) - INPUT_KEYS - READING_KEYS
        if unknown:
            raise HandError(f"unknown key {sorted(unknown)[0]!r} in hand")
    get = data.get
    variant_name = get("variant", default_variant)
    if not isinstance(variant_name, str):
        raise HandError("the hand names no variant (taiwan, riichi, mingjiang, xiangqi)")
    variant = find_variant(variant_name)
    concealed = () if context_only else tiles_from_text(_text(data, "hand"))
    events_data = get("events")
    events = _NO_EVENTS if events_data is None else parse_events(events_data)
    if not concealed and variant.needs_tiles(events) and not context_only:
        raise HandError("the hand has no tiles")
    win_text = "" if context_only else _text(data, "win_tile")
    win_tile = tile_from_code(win_text) if win_text else None
    melds_data = [] if context_only else data.get("melds") or []
    if isinstance(melds_data, str):
        melds_data = melds_data.split()
    if not isinstance(melds_data, list):
        raise HandError(f"melds must be a list, got {shown(melds_data)}")
    melds = tuple(parse_meld(m) for m in melds_data)
    rules = data.get("rules")
    rules = {} if rules is None else rules  # an empty list is no rules object either
    if type(rules) is not dict and not isinstance(rules, Mapping):
        raise HandError(f"rules must be an object of option: value, got {shown(rules)}")
    dealer = data.get("dealer")
    if dealer is not None and not isinstance(dealer, bool):
        raise HandError(f"dealer must be true or false, got {shown(dealer)}")
    discarder = data.get("discarder")
    if discarder is not None and not isinstance(discarder, str):
        raise HandError(f"discarder must be a seat, got {shown(discarder)}")
    pao = data.get("pao")
    if pao is not None and not isinstance(pao, str):
        raise HandError(f"pao must be a seat, got {shown(pao)}")
    # Each value is read the quick way when it has the usual type, else by the helper that
    # names what is wrong with it (in the order the fields are listed).
    self_draw = get("self_draw", False)
    if self_draw is not True and self_draw is not False:
        self_draw = _bool(data, "self_draw")
    seat_wind = get("seat_wind")
    if seat_wind is None:
        seat_wind = "E"
    elif type(seat_wind) is not str:
        seat_wind = _text(data, "seat_wind", "E")
    round_wind = get("round_wind")
    if round_wind is None:
        round_wind = "E"
    elif type(round_wind) is not str:
        round_wind = _text(data, "round_wind", "E")
    dealer_streak = get("dealer_streak", 0)
    if type(dealer_streak) is not int:
        dealer_streak = _int(data, "dealer_streak")
    players = get("players", 4)
    if type(players) is not int:
        players = _int(data, "players", 4)
    dora = _tiles(data, "dora_indicators") if get("dora_indicators") is not None else ()
    ura = _tiles(data, "ura_dora_indicators") if get("ura_dora_indicators") is not None else ()
    honba = get("honba", 0)
    if type(honba) is not int:
        honba = _int(data, "honba")
    riichi_sticks = get("riichi_sticks", 0)
    if type(riichi_sticks) is not int:
        riichi_sticks = _int(data, "riichi_sticks")
    for key, count in (
        ("dealer_streak", dealer_streak),
        ("honba", honba),
        ("riichi_sticks", riichi_sticks),
    ):
        if count > MAX_COUNT:  # a streak of 10**30 scored 2e30 台
            raise HandError(
                f"{key} {shown(count)} is more than any table plays (at most {MAX_COUNT})"
            )
    context = build(
        WinContext,
        self_draw=self_draw,
        seat_wind=seat_wind,
        round_wind=round_wind,
        dealer_streak=dealer_streak,
        discarder=discarder,
        events=events,
        dealer=dealer,
        players=players,
        dora_indicators=dora,
        ura_dora_indicators=ura,
        honba=honba,
        riichi_sticks=riichi_sticks,
        pao=pao,
    )
    if rules:
        hand_rules: Mapping[str, Any] = MappingProxyType(variant.resolve_rules(dict(rules)))
    else:
        hand_rules = _DEFAULT_RULES.get(variant) or _default_rules(variant)
    hand = build(
        Hand,
        concealed=concealed,
        win_tile=win_tile,
        melds=melds,
        flowers=_tiles(data, "flowers") if get("flowers") is not None and not context_only else (),
        context=context,
        rules=hand_rules,
    )
    hand = variant.as_scored(hand)
    if context_only:
        variant.check_context(hand)
    else:
        variant.check_hand(hand)
    return variant, hand


def check_context(data: Mapping[str, Any]) -> None:
    """The context of a hand still to be read (variant, rule options, winds, seats, events,
    counts, indicators) checked as scoring the hand will check it, its tiles left out: for a
    command to refuse a bad option before the seconds a photo takes to read. What an event needs
    of the tiles is checked with them (``Hand.shows_no_tiles``)."""
    parse_hand(data, context_only=True)


# Each variant's default rules, as the one read-only mapping every hand that names no rule option
# shares: not a cache of hands, only of what the variant's options default to.
_DEFAULT_RULES: dict[Variant, Mapping[str, Any]] = {}


def _default_rules(variant: Variant) -> Mapping[str, Any]:
    found = _DEFAULT_RULES[variant] = MappingProxyType(variant.resolve_rules({}))
    return found


def score_json(data: Any, default_variant: str | None = None) -> dict[str, Any]:
    """Score one JSON hand; a bad hand gives ``{"error": "..."}`` instead of raising."""
    try:
        if (type(data) is dict or isinstance(data, Mapping)) and "draw" in data:
            # 流局: no winning hand, payments by the rule set's draw rules (xiangqi has them).
            name = data.get("variant", default_variant)
            if not isinstance(name, str):
                raise HandError("the hand names no variant (taiwan, riichi, mingjiang, xiangqi)")
            return find_variant(name).score_draw(dict(data))
        variant, hand = parse_hand(data, default_variant)
        result = variant.score(hand).to_json()
    except TilescoreError as error:
        result = {"error": str(error)}
    if (type(data) is dict or isinstance(data, Mapping)) and "id" in data:
        result = {"id": data["id"], **result}
    return result


def wins_under(context: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], bool]:
    """Whether a hand (``hand``, ``win_tile``, ``melds``, ``flowers``) is a winning hand with the
    table's ``context`` (variant, rule options, winds, events): for the layout to try readings
    with. Anything the scorer refuses (a wrong count, five of a tile) is not."""

    def wins(hand: Mapping[str, Any]) -> bool:
        data = {**context, **hand}
        if not data.get("win_tile"):
            data.pop("win_tile", None)
        return _wins(data)

    return wins


def _wins(data: Mapping[str, Any], unseen: bool = True) -> bool:
    try:
        variant, parsed = parse_hand(data)
        return variant.score(parsed).winning
    except NoYakuError:
        if not unseen:
            return False
        # A hand laid down won: one that wins only with an event the photo cannot show (a riichi
        # hand whose one yaku is 立直) is read right, not one tile from another hand. Tried only
        # for a complete hand: a riichi layout's other readings are scored once.
        said = parsed.context.events
        return any(
            _wins({**data, "events": [e.value for e in (*said, event)]}, unseen=False)
            for event in variant.unseen_events
            if event not in said
        )
    except TilescoreError:  # refused: a wrong count, five of a tile, an unknown rule set
        return False
