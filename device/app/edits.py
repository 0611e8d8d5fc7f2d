"""A hand's edits to its groups, kept when its tiles are read again, and the problems they leave
stale.

A tile read again (a tap in the picker) reads the whole hand again from the photo's boxes. The
player's edits that restate no tile, a meld split or joined, a tile the camera missed added with
the offer's tap, a meld a missed tile broke counted with the offer's tap, are made again on that
reading, in order, where they still apply. Groups typed in Edit groups restate every tile: the
tiles read again replace them. An edit that is not kept is said once among the problems, and the
tile fix that dropped it records so (``dropped``): it is never made again, nor said again.

The layout's problems about the hand's shape (a tile short, a meld of two, a group that is no
meld, the reads that would make it win) hold for the groups the photo showed; once the player
edits the groups, they are left out. Those about the winning tile go once the player says it.
The rest, about the photo's tiles (a doubtful read, a tile on another or apart, a tile taken for
one not found), stay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from device.app import service
from scoring.errors import TilescoreError
from scoring.notation import parse_tiles
from scoring.variant import flowers_in_play
from vision.tile_sets import plain_five

TYPED = ("hand", "melds", "flowers")
"""Edits that restate the tiles: replaced when the tiles are read again."""
REPLAYED = ("split", "join", "add", "mend")
"""Edits that restate no tile: made again when the tiles are read again."""
SHAPE_KINDS = frozenset({"count", "short_meld", "bad_meld", "would_win_as"})
"""Problems about whether the groups make a hand, which an edit to the groups makes stale."""
WIN_KINDS = frozenset({"win_not_apart", "no_win_tile", "would_win_as"})
"""Problems about the layout's winning tile (the reads that would win name it)."""


TYPED_GROUPS = "typed_groups"
"""The reading key that says its groups were typed in Edit groups: they hold the hand's tiles,
and the photo's boxes are no longer its tiles (a tile fix reads the photo again, without it)."""

RULE_SET_KINDS = frozenset({"not_played"})
"""Problems about what the photo holds that the rule set has not: true whatever the groups."""


def typed_over(reading: dict[str, Any]) -> dict[str, Any]:
    """The reading once the player typed its groups, which restate every tile: the photo's
    reading of them (a doubtful read, a face-down tile to turn up, a tile apart, a tile taken
    for one not found) no longer says anything of the hand scored, and stayed on screen after
    the player had corrected it. Only what the rule set has not stays said. A hand kept by an
    older version, whose reading does not say its problems' kinds, loses them all."""
    kept = _problems_kept(reading, lambda kind: kind in RULE_SET_KINDS)
    return {**(kept or {**reading, "problems": [], "problem_kinds": []}), TYPED_GROUPS: True}


OFFERS = ("would_win", "would_win_as", "would_win_without", "would_win_with_meld")
"""Reading keys for what would make the layout's reading, with its winning tile, win."""
LAYOUT_ONLY = (*OFFERS, "unseen", "taken")
"""Reading keys that hold only for the layout's reading of the tiles, under the context it was
read with: any fix but a tile read again (which reads them again) leaves them stale."""


def without_offers(reading: dict[str, Any]) -> dict[str, Any]:
    return _count_said_plainly({k: v for k, v in reading.items() if k not in OFFERS})


def without_layout_keys(reading: dict[str, Any]) -> dict[str, Any]:
    return _count_said_plainly({k: v for k, v in reading.items() if k not in LAYOUT_ONLY})


def _count_said_plainly(reading: dict[str, Any]) -> dict[str, Any]:
    """The count problem without what it said would make the hand win ("17 tiles expected, 16
    found: 1m or 4m would make a winning hand"): that held for the offers, with the layout's
    winning tile and rules, and goes with them. The count itself stands."""
    problems, said = reading.get("problems"), reading.get("problem_kinds")
    if not isinstance(problems, list) or not isinstance(said, list) or len(said) != len(problems):
        return reading
    if "count" not in said:
        return reading
    plain = [
        p.split(": ", 1)[0] if k == "count" and isinstance(p, str) else p
        for p, k in zip(problems, said, strict=True)
    ]
    return {**reading, "problems": plain}


def restates_groups(fix: Mapping[str, Any]) -> bool:
    return any(key in fix for key in (*TYPED, *REPLAYED))


def replayed(
    reading: dict[str, Any],
    corrections: Sequence[Mapping[str, Any]],
    variant: str,
    wins: Callable[[dict[str, Any]], bool],
) -> tuple[dict[str, Any], list[int]]:
    """``reading``, the tiles read again, with the hand's earlier edits made again (those after
    its last typed groups, which replaced any before, and none an earlier reading dropped), and
    the numbers of the corrections this reading drops: typed groups not yet dropped, and edits
    that no longer apply, each said among the problems. ``wins`` says whether a reading is a
    winning hand under the table's rules."""
    dropped_before = {n for c in corrections for n in c.get("dropped", ())}
    typed = [i for i, c in enumerate(corrections) if any(k in c for k in TYPED)]
    last_typed = typed[-1] if typed else -1
    dropped: list[int] = []
    lost: list[str] = []
    if last_typed >= 0 and last_typed not in dropped_before:
        dropped.append(last_typed)
        lost.append("the groups typed in Edit groups")
    edited = False
    for number, correction in enumerate(corrections):
        if number <= last_typed or number in dropped_before:
            continue
        if not any(key in correction for key in REPLAYED):
            continue
        try:
            made = _made_again(reading, correction, variant, wins)
        except TilescoreError:
            dropped.append(number)
            lost.append(_said(correction))
            continue
        if made is not None:
            reading, edited = made, True
    if edited:  # the layout's word on its own groups is stale
        reading = without_problems(without_layout_keys(reading), SHAPE_KINDS)
    if lost:
        note = f"read again from the photo; not kept: {', and '.join(lost)}"
        reading = {
            **reading,
            "problems": [*reading.get("problems", []), note],
            "problem_kinds": [*reading.get("problem_kinds", []), "edits_lost"],
        }
    return reading, dropped


def _made_again(
    reading: dict[str, Any],
    correction: Mapping[str, Any],
    variant: str,
    wins: Callable[[dict[str, Any]], bool],
) -> dict[str, Any] | None:
    """One edit made on a reading; None where there is nothing to make (a tile added to a hand
    the tiles read again made whole with it); a one-line ``TilescoreError`` where it no longer
    applies."""
    if "split" in correction:
        meld = correction.get("split_meld")
        melds = [service.meld_text(m) for m in reading.get("melds") or []]
        if meld is not None and meld not in melds:
            raise TilescoreError(f"no meld {meld} to split")
        index = melds.index(meld) if meld is not None else correction["split"]
        return service.split_meld(reading, index)
    if "join" in correction:
        return service.join_tiles(reading, correction["join"], correction["meld"])
    if "mend" in correction:
        return _mended(reading, correction["mend"])
    return _added(reading, correction["add"], variant, wins)


def _added(
    reading: dict[str, Any], code: str, variant: str, wins: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    """A tile the player added, added again while the hand is short of one, and where that makes
    it whole, only if it then wins (a box set aside by mistake and read again was the tile the
    hand lacked: another is not added). A hand whole as read again needs none; where the layout
    took another tile for the one not found, the player's tile is not it."""
    short = service.shortfall(reading, variant)
    if short is None or short <= 0:
        taken = reading.get("taken")
        if taken is not None and taken != code:
            raise TilescoreError(f"the tiles read again take {taken} for the one not found")
        return None
    added = service.add_tile(reading, code)
    if short == 1 and not wins(added):
        raise TilescoreError(f"{code} no longer makes a winning hand")
    return added


def _mended(reading: dict[str, Any], meld: Any) -> dict[str, Any]:
    """A meld a missed tile broke, counted as the player said, while the tiles read again still
    offer it."""
    wanted = service.meld_text(meld)
    offered = [service.meld_text(o["meld"]) for o in reading.get("would_win_with_meld", [])]
    if wanted not in offered:
        raise TilescoreError(f"the tiles read again do not offer {wanted}")
    return service.add_meld(reading, meld)


def _said(correction: Mapping[str, Any]) -> str:
    if "split" in correction:
        return f"the meld split ({correction.get('split_meld', correction['split'])})"
    if "join" in correction:
        return f"the {correction['meld']} joined ({correction['join']})"
    if "mend" in correction:
        return f"the meld counted ({service.meld_text(correction['mend'])})"
    return f"the tile added ({correction['add']})"


def without_problems(reading: dict[str, Any], kinds: Collection[str]) -> dict[str, Any]:
    """The reading with its problems of ``kinds`` left out. A hand kept by an older version,
    whose reading does not say its problems' kinds, keeps them all."""
    kept = _problems_kept(reading, lambda kind: kind not in kinds)
    return kept if kept is not None else reading


def _not_restated(
    detections: list[dict[str, Any]], reading: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The photo's tiles that typed groups do not hold (by plain code, each copy once)."""
    held = Counter(_typed_codes(reading))
    left = []
    for detection in detections:
        code = plain_five(detection.get("code"))
        if code is not None and held[code] > 0:
            held[code] -= 1
        else:
            left.append(detection)
    return left


def _typed_codes(reading: Mapping[str, Any]) -> list[str]:
    texts = [reading.get("hand"), reading.get("flowers")]
    texts += [str(m).partition(":")[2] for m in reading.get("melds") or []]
    try:
        return [t.plain.code for text in texts if isinstance(text, str) for t in parse_tiles(text)]
    except TilescoreError:  # kept by an older version in another notation: none held
        return []


def _problems_kept(reading: dict[str, Any], keep: Callable[[str], bool]) -> dict[str, Any] | None:
    """The reading with only the problems whose kind ``keep`` keeps; None for a hand kept by
    an older version, whose reading does not say its problems' kinds."""
    problems, said = reading.get("problems"), reading.get("problem_kinds")
    if not isinstance(problems, list) or not isinstance(said, list) or len(said) != len(problems):
        return None
    pairs = [(p, k) for p, k in zip(problems, said, strict=True) if keep(k)]
    return {**reading, "problems": [p for p, _ in pairs], "problem_kinds": [k for _, k in pairs]}


def with_rule_set_problems(
    reading: dict[str, Any], detections: list[dict[str, Any]], variant: str
) -> dict[str, Any]:
    """The reading with what its photo holds that the rule set has not (a flower in riichi or
    明將, a piece in a mahjong hand) said for ``variant``: a hand moved to another rule set
    kept the old one's words ("riichi is played without flowers" on a 明將 hand, or on a Taiwan
    hand, which plays flowers). Said of the photo's tiles, as the layout says them; the groups
    stand as they are (typed ones are the player's). A hand kept by an older version, whose
    reading does not say its problems' kinds, keeps its problems as they are."""
    kept = _problems_kept(reading, lambda kind: kind not in RULE_SET_KINDS)
    if kept is None:
        return reading
    from vision.layout.reconstruct import not_played_problems

    if reading.get(TYPED_GROUPS):
        # Typed groups say the hand's tiles: of the photo's, those they restate are the
        # scorer's to judge (said again here, each was a line), the rest (a flower set apart)
        # still the photo's.
        detections = _not_restated(detections, reading)
    fresh = not_played_problems(detections, variant)
    moved = {
        **kept,
        "problems": [p.message for p in fresh] + kept["problems"],
        "problem_kinds": [p.kind for p in fresh] + kept["problem_kinds"],
    }
    if not flowers_in_play(variant):
        # Said "not counted" above, and the scorer refuses a hand that holds them.
        moved["flowers"] = ""
    return moved
