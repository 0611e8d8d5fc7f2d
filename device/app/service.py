"""What the app does with a photo: read the tiles, rebuild the hand, score it, and redo it on a fix.

Kept apart from the web layer so the same steps run from tests without a browser.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from device.app.context import CONTEXT_KEYS
from device.app.fixes import JOINS
from device.app.seats import APP_SET_RULES, chairs, for_scorer, payments_in_seats, unseated
from scoring.errors import TilescoreError, shown
from scoring.hand_json import parse_meld, score_json, wins_under
from scoring.notation import format_tiles, parse_tiles
from scoring.tiles import tile_from_code
from vision.labels import IGNORED_CODE
from vision.tile_sets import UNSAID_BACKS, Backs

if TYPE_CHECKING:
    from vision.layout.missed_places import Look


@dataclass
class Reader:
    """Loads the model pair once, on first use, and keeps the error if it cannot."""

    models_dir: Path
    threads: int | None = None
    backs: Backs = (
        UNSAID_BACKS  # what the set's backs look like (serve --white-backs, --back-colour)
    )
    _pipeline: Any = field(default=None, init=False)
    _pipelines: dict[str | None, Any] = field(default_factory=dict, init=False)
    """The pipeline last loaded for each rule set's tables (their detectors differ)."""
    error: str | None = field(default=None, init=False)

    def pipeline(self, variant: str | None = None) -> Any:
        """The pair as the model folder holds it now, with the detector it names for
        ``variant``'s tables if any. A fine-tune, an adaptation or a rollback
        while the app runs is read from the next photo on, with no restart (``load_pipeline``
        keeps the loaded pair while the metadata files are unchanged, so this costs a few file
        checks a photo). If changed files cannot be loaded, the pair loaded before for that
        rule set keeps reading, and the display says why; with none loaded for it, the photo is
        not read (a xiangqi table read by the mahjong detector recorded tiles as pieces)."""
        from vision.pipeline import load_pipeline

        try:
            loaded = load_pipeline(self.models_dir, threads=self.threads, variant=variant)
            self._pipeline = self._pipelines[variant] = loaded
            self.error = None
        except TilescoreError as error:
            if variant not in self._pipelines:
                self.error = str(error)
                raise
            self.error = (
                f"the models changed and cannot be loaded ({error}); "
                "still reading with the ones loaded before"
            )
        return self._pipelines[variant]

    def read(
        self, image: np.ndarray, red_fives: bool = True, variant: str | None = None
    ) -> list[dict[str, Any]]:
        from scoring.variant import flowers_in_play

        reading = self.pipeline(variant).read(
            image, red_fives=red_fives, backs=self.backs, flowers=flowers_in_play(variant)
        )
        # The detect JSON of each tile (docs/contracts.md), runner-up reads in: the layout tries
        # them to make a meld or a winning hand.
        return [d.to_json() for d in reading.tiles]

    def place_reader(
        self,
        image: np.ndarray,
        detections: list[dict[str, Any]],
        red_fives: bool = True,
        variant: str | None = None,
    ) -> Look:
        """What the pipeline that read ``image`` (``read``, for ``variant``'s tables, finding
        ``detections``) reads where the layout says a missed tile lies
        (``TilePipeline.read_places``); nothing where none read it."""
        from scoring.variant import flowers_in_play

        pipeline = self._pipelines.get(variant)
        if pipeline is None:
            return lambda places: []
        look: Look
        look = pipeline.place_reader(
            image,
            red_fives=red_fives,
            flowers=flowers_in_play(variant),
            backs=self.backs,
            beside=detections,
        )
        return look

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


def uses_red_fives(context: dict[str, Any]) -> bool:
    """Whether the table's variant and rule options count red fives; when they do not, a five
    painted red (as on most Chinese sets) is read as a plain five."""
    from scoring.variant import red_fives_in_play

    return red_fives_in_play(context.get("variant") or "taiwan", context.get("rules"))


def read_hand(
    reader: Reader, image: np.ndarray, context: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any], tuple[str, ...]]:
    """A photo read under the table's ``context``: its detections, the tiles read where the
    detector missed one after them (``vision.layout.missed_places``), the hand rebuilt from
    them, and its problems' kinds (``rebuild``)."""
    red_fives = uses_red_fives(context)
    try:
        detections = reader.read(image, red_fives, context.get("variant"))
    except TilescoreError as error:
        raise TilescoreError(f"cannot read tiles: {error}") from None
    look = reader.place_reader(image, detections, red_fives, context.get("variant"))
    reading, kinds, looked = _rebuilt(detections, context["variant"], context, look)
    return detections + looked, reading, kinds


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
    reading, kinds, _ = _rebuilt(detections, variant, context)
    return reading, kinds


def _rebuilt(
    detections: list[dict[str, Any]],
    variant: str,
    context: dict[str, Any] | None = None,
    look: Look | None = None,
) -> tuple[dict[str, Any], tuple[str, ...], list[dict[str, Any]]]:
    """``rebuild``'s reading and kinds, and the detect JSON of the tiles ``look`` read where
    the detector missed one, which the reading counts after ``detections``."""
    from vision.layout.reconstruct import reconstruct as layout

    try:
        wins = None if context is None else wins_under(_score_context(context))
    except TilescoreError:
        wins = None  # a context the scorer cannot take completes nothing; scoring says why
    reading = layout(detections, variant, wins=wins, look=look)
    kinds = tuple(p.kind for p in reading.problems)
    return (
        {
            **reading.to_json(),
            "groups": [{"role": g.role, "tiles": list(g.tiles)} for g in reading.groups],
            # Which problem is which, so an edit can leave out those it makes stale, and the tile
            # taken for one not found, which a tile the player added is not (edits.py).
            "problem_kinds": list(kinds),
            **({"taken": reading.taken} if reading.taken else {}),
        },
        kinds,
        [tile.to_json() for tile in reading.looked],
    )


def score_reading(reading: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """The reading scored with the table's context; its payments name the table's chairs."""
    data = {k: v for k, v in reading.items() if k in ("hand", "win_tile", "melds", "flowers")}
    try:
        _check_chairs(context)
        data.update(_score_context(context))
        result = payments_in_seats(score_json(data), context, _seats_by_wind(context))
        result = _sticks_paid_by_chairs(result, context.get("riichi_sticks_by") or {})
        _check_payments(result, context)
    except TilescoreError as error:
        return {"error": str(error)}
    return result


def _check_chairs(context: Mapping[str, Any]) -> None:
    """A winner or discarder at a chair the table does not have is said as the hand's error
    (a context saved before the session was, or by an older version): scored, its payment
    would go to or from nobody."""
    players = context.get("players")
    off = unseated(context, players)
    if off is not None:
        raise TilescoreError(
            f"{off[0]} {off[1]} is no chair of a {players or 4}-player table "
            f"({' '.join(chairs(players)) or 'none'}): set it on the Table screen"
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
    (xiangqi) is told who deals and where the others sit from the winner (seats.for_scorer);
    the riichi sticks by chair as their count (``_sticks_paid_by_chairs`` pays them back); no
    dealer's streak to a rule set whose deal passes every hand (明將, 冇冧莊), which refuses one:
    the session's run, or the one a hand moved there by a correction keeps (to have it back if
    moved back), counts nothing there, and the app shows none for it."""
    from scoring.variant import find_variant

    given = {k: v for k, v in context.items() if k in CONTEXT_KEYS and v is not None}
    sticks = given.pop("riichi_sticks_by", None)
    if sticks:
        given["riichi_sticks"] = sum(sticks.values())
    if not find_variant(context.get("variant") or "taiwan").dealer_repeats:
        given.pop("dealer_streak", None)
    return for_scorer(given, _seats_by_wind(context))


TABLE = "table"
"""The scorer's payer of the riichi sticks on the table (供託)."""


def _sticks_paid_by_chairs(result: dict[str, Any], sticks_by: Mapping[str, int]) -> dict[str, Any]:
    """The result with the table's payment of riichi sticks paid by the chairs that put them
    there, each its own sticks' worth: every total then adds up to zero, each stick having come
    out of a player's. The winner's own sticks come back to them, a payment to nobody else."""
    paid = [p for p in result.get("payments") or [] if p.get("payer") == TABLE]
    if not paid:
        return result
    sticks = sum(sticks_by.values())
    payments = [p for p in result["payments"] if p.get("payer") != TABLE]
    for payment in paid:
        each, left = divmod(payment["amount"], sticks) if sticks else (0, 1)
        if left:
            raise TilescoreError(
                f"the table's {payment['amount']} cannot be paid back stick by stick: not scored"
            )
        payments += [
            {"payer": chair, "payee": payment["payee"], "amount": each * count}
            for chair, count in sticks_by.items()
            if chair != payment["payee"]
        ]
    return {**result, "payments": payments}


def _seats_by_wind(context: Mapping[str, Any]) -> bool:
    from scoring.variant import find_variant

    return find_variant(context.get("variant") or "taiwan").seats_by_wind


def apply_tile_fix(
    detections: list[dict[str, Any]],
    index: int,
    code: str | None,
    face_down: bool = False,
    not_a_tile: bool = False,
) -> list[dict[str, Any]]:
    """A tile read again by a person: its code (validated), face-down, or no tile at all (the
    box stays, as the labels' "other", so the photo's boxes keep their numbers and a second tap
    can read it as a tile after all); confidence becomes 1, and a tile read in its place
    (``placed``) is one a person has now checked."""
    if not 0 <= index < len(detections):
        raise TilescoreError(f"no tile number {index} in this photo")
    if code is not None:
        code = tile_from_code(code).code
    if not_a_tile:
        code, face_down = IGNORED_CODE, False
    fixed = [dict(d) for d in detections]
    fixed[index].update(
        code=None if face_down else code,
        face_down=face_down,
        confidence=1.0,
        low_confidence=False,
        corrected=True,
    )
    fixed[index].pop("placed", None)
    return fixed


def split_meld(reading: dict[str, Any], index: int) -> dict[str, Any]:
    """A group read as a meld that is not one: its tiles go back among the concealed tiles."""
    melds = _melds_of(reading)
    if not 0 <= index < len(melds):
        raise TilescoreError(f"no meld number {index} in this hand")
    meld = parse_meld(melds.pop(index))
    hand = _concealed(reading) + list(meld.tiles)
    return {**reading, "hand": format_tiles(hand), "melds": melds}


def add_tile(reading: dict[str, Any], code: str) -> dict[str, Any]:
    """A tile the camera missed, added to the concealed tiles (the offer's one tap)."""
    return {**reading, "hand": format_tiles([*_concealed(reading), tile_from_code(code)])}


def add_meld(reading: dict[str, Any], meld: Any) -> dict[str, Any]:
    """A meld a missed tile broke, counted whole as the player said (the offer's one tap)."""
    return {**reading, "melds": [*_melds_of(reading), meld]}


def tiles_in(reading: dict[str, Any]) -> int:
    """Tiles in a reading as the rule sets count them: concealed (winning tile included) plus
    three a meld."""
    try:
        concealed = len(parse_tiles(str(reading.get("hand") or "")))
    except TilescoreError:
        concealed = sum(len(g["tiles"]) for g in reading.get("groups", []) if g["role"] != "meld")
    return concealed + 3 * len(reading.get("melds") or [])


def shortfall(reading: dict[str, Any], variant: str) -> int | None:
    """How many tiles the reading lacks of its rule set's hand; None where that is not known."""
    from vision.layout.sizes import expected_size

    expected = expected_size(variant)
    return None if expected is None else expected - tiles_in(reading)


def meld_text(meld: Any) -> str:
    """A meld as the scorer reads it, in one form (``pon:777z``), whatever form it was given in."""
    parsed = parse_meld(meld)
    return f"{parsed.type.value}:{format_tiles(parsed.tiles)}"


def holds_tile(reading: dict[str, Any], code: str) -> bool:
    """Whether the reading's concealed tiles hold ``code`` (a five or its red five alike: a
    winning tile typed as one stands for the other), so a winning tile chosen by its code can
    still be the winning tile after the tiles were read again."""
    try:
        wanted = tile_from_code(code).plain
        return any(tile.plain == wanted for tile in _concealed(reading))
    except TilescoreError:  # a code or hand no scorer reads: scoring says what is wrong
        return True


def _concealed(reading: dict[str, Any]) -> list[Any]:
    """The reading's concealed tiles. A hand kept by an older version that took anything (a list,
    a number) is said to be so: read as text, ``['1m']`` would be an unknown tile code."""
    text = reading.get("hand") or ""
    if not isinstance(text, str):
        raise TilescoreError(
            f"this hand's concealed tiles are not tiles as text: {shown(text)}; type them in "
            "the Concealed field of Edit groups and save"
        )
    return list(parse_tiles(text))


def _melds_of(reading: dict[str, Any]) -> list[Any]:
    melds = reading.get("melds") or []
    if not isinstance(melds, list):
        raise TilescoreError(
            f"this hand's melds are not a list: {shown(melds)}; type them in the Melds field "
            "of Edit groups and save"
        )
    return list(melds)


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
    """Each rule set's title, unit, events (with names), rule options and tile set, for the
    page's controls (red fives depend on a table's rule options: each hand says whether it uses
    them). The options are those a table chooses: not those the app sets from its chairs."""
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
            "pao": variant.uses_pao,
            "sticks": variant.riichi_counters,
            "winds": variant.seats_by_wind,
            "streak": "本場" if variant.riichi_counters else "連" if variant.dealer_repeats else "",
            "options": [o.to_json() for o in variant.options if o.name not in APP_SET_RULES],
            "draw": {
                "reasons": [reason.to_json() for reason in variant.draw_reasons],
                "clean_sweep": variant.uses_pieces,
            },
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

    with _ONE_DECODE:  # six large uploads at once took 2.7 GB: a Pi's memory, and the app
        image = decode_photo(data, "the uploaded photo").pixels
    check_photo_size(image, "the uploaded photo")
    return image


_ONE_DECODE = threading.Lock()
"""Uploads are decoded one at a time (each may take half a gigabyte for a moment)."""


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
