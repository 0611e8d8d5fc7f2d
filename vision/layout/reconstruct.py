"""Detections in, a hand out: the steps of reconstruction in order, each in its own module."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeGuard

from vision.labels import IGNORED_CODE
from vision.layout import problems
from vision.layout.assign import Assignment, assign, in_reading_order
from vision.layout.complete import (
    complete,
    reads_that_win,
    tiles_left_out_that_win,
    tiles_that_win,
)
from vision.layout.flower_misreads import flower_as_missing_tile
from vision.layout.gap import fitting, missing_box, missing_place
from vision.layout.geometry import Frame, against_the_row, measure, runs_down
from vision.layout.melds import MeldGuess, claimed_from, type_meld
from vision.layout.missed_places import Look, places_to_look, read_in_places
from vision.layout.overlaps import Overlap, clear_of, find_overlaps
from vision.layout.problems import Problem
from vision.layout.reading import Box, Group, MeldReading, Reading, Unseen, compact
from vision.layout.rows import Run, chain_rows, split_groups, without
from vision.layout.short_melds import (
    ShortKong,
    ShortMeld,
    choices,
    find_short_kong,
    find_short_meld,
    kong_left,
)
from vision.layout.sizes import expected_size, holds_pieces, not_played
from vision.layout.tiles import LayoutTile, TileLike, from_detections


def not_played_problems(
    detections: Iterable[TileLike | Mapping[str, Any] | LayoutTile], variant: str | None
) -> list[Problem]:
    """What of a photo the rule set has not (``sizes.not_played``), a problem for each tile:
    the layout leaves them out, and a hand moved to another rule set says them anew."""
    items = list(detections)
    tiles = items if _all_layout(items) else from_detections(items)
    return [
        problems.not_played(t, why)
        for t in tiles
        if t.code and t.code != IGNORED_CODE and (why := not_played(variant, t.code))
    ]


ATTACH = 1.6
"""A lone tile this close (pitches) to a pon of its kind was added to it: an added kong."""


def reconstruct(
    detections: Iterable[TileLike | Mapping[str, Any] | LayoutTile],
    variant: str | None = None,
    seat: str | None = None,
    wins: Callable[[Mapping[str, Any]], bool] | None = None,
    look: Look | None = None,
) -> Reading:
    """The best reading of a laid-down hand, with the problems found on the way; never raises
    for a strange layout. ``seat`` (the winner's wind) lets claimed melds name their source.

    ``wins`` says whether a reading (``Reading.hand_json()``) is a winning hand under the table's
    rules; given, a concealed hand that is not is completed by its doubtful tiles' runner-up
    reads where they make it one (``vision.layout.complete``), each change a problem to check,
    and a hand a tile short by a doubtful flower read that is that tile (``flower_misreads``).

    ``look`` reads the photo where a tile the detector missed may lie: given, a hand short of
    tiles takes those read there surely (``missed_places``), said, and ``Reading.looked`` holds
    them for the caller's detections."""
    items = list(detections)
    tiles = items if _all_layout(items) else from_detections(items)
    reading = _completed(tiles, variant, seat, wins)
    if look is None or not reading.places or holds_pieces(reading.hand):
        return reading
    looked = read_in_places(
        tiles,
        reading,
        look,
        lambda more: _completed(more, variant, seat, wins),
        lambda again: _tiles_lacking(again, variant),
    )
    return reading if looked is None else looked


def _completed(
    tiles: list[LayoutTile],
    variant: str | None,
    seat: str | None,
    wins: Callable[[Mapping[str, Any]], bool] | None,
) -> Reading:
    """The tiles' reading, a hand a tile short by a doubtful flower given its tile back."""
    reading = _read_layout(tiles, variant, seat, wins)
    if wins is None or not _lacking(reading, variant):
        return reading
    taken_back = flower_as_missing_tile(
        tiles,
        reading,
        lambda as_tiles: _read_layout(as_tiles, variant, seat, None),
        lambda again: not _lacking(again, variant),
        wins,
    )
    return reading if taken_back is None else taken_back


def _tiles_lacking(reading: Reading, variant: str | None) -> int:
    """How many tiles a reading is short of: said (fewer than the rule set's hand, a meld of
    two) or guessed (a tile not found taken for the one that wins)."""
    short = max(0, _shortfall(reading.hand, len(reading.melds), variant) or 0)
    return short + sum(p.kind in problems.LACKING for p in reading.problems)


def _lacking(reading: Reading, variant: str | None) -> bool:
    return _tiles_lacking(reading, variant) > 0


def _read_layout(
    tiles: list[LayoutTile],
    variant: str | None,
    seat: str | None,
    wins: Callable[[Mapping[str, Any]], bool] | None,
) -> Reading:
    """``reconstruct`` of the tiles as read."""
    found: list[Problem] = []
    # A box a person said holds no tile (the labels' "other") is no tile of the hand, and not
    # a word is said of it; but it keeps its place while rows are cut, so the gap it would leave
    # neither cuts a row nor strands the row's end tile as a stray.
    aside = [t for t in tiles if t.code == IGNORED_CODE]
    tiles = [t for t in tiles if t.code != IGNORED_CODE]
    # A tile the rule set has not (a flower in riichi or 明將, a piece in a mahjong hand) is
    # said and left out, not scored into an error for the whole hand.
    foreign = not_played_problems(tiles, variant)
    found += foreign
    left_out = {i for p in foreign for i in p.tiles}
    tiles = [t for t in tiles if t.index not in left_out]
    flowers = [t for t in tiles if t.is_flower]
    rest = [t for t in tiles if not t.is_flower]
    if not rest:
        found.append(problems.no_tiles())
        return _finish((), None, [], flowers, found, [], (1.0, 0.0), variant)

    frame = measure(rest)
    if runs_down(frame):  # the detector's "sideways" is the image's: said against the row here
        rest, flowers, aside = (against_the_row(group) for group in (rest, flowers, aside))
    flat, overlaps = find_overlaps(rest, frame)
    frame = measure(flat)
    aside = clear_of(aside, flat, frame)  # one lying on a tile holds no place of its own
    chained = chain_rows([*flat, *aside], frame)
    rows = [without(split_groups(row, frame, i), aside, frame) for i, row in enumerate(chained)]
    rows = [row for row in rows if row]
    assignment = assign(rows, frame)
    if _size_off(assignment, variant) and holds_pieces([t.code or "" for t in rest]):
        # Four alike soldiers and a 將 apart are a whole xiangqi hand (將帥領兵, 兵卒襲將), not a
        # kong and a tile. That hand only: a kong with its pair's other piece missed also fits
        # the count read so, and would lose the word that a piece is missing.
        as_row = assign(rows, frame, melds_too=True)
        if _size_off(as_row, variant) == 0 and _soldiers_and_a_general(as_row):
            assignment = as_row
    if _short(assignment, variant):
        mended = assign(rows, frame, mend_gaps=True)
        # The missed tile is still missing: a mend that leaves the hand whole took in a tile
        # that is not the row's (a stray past the winning tile, a meld not turned).
        if _short(mended, variant):
            assignment = mended
    found += assignment.problems

    # A hand a meld short: the meld a missed tile broke, and the tile taken for it, or where
    # several tiles could be it (a chi missing an end), those the player is offered.
    broken: tuple[ShortMeld | ShortKong, str] | None = None
    unmended: tuple[ShortMeld | ShortKong, tuple[str, ...]] | None = None
    broken_meld = _broken_meld(assignment, overlaps, seat, flowers, variant, wins)
    if broken_meld is not None:
        short, mended, codes = broken_meld
        if len(codes) == 1:
            assignment, broken = mended, (short, codes[0])
        elif codes:
            unmended = short, codes
    stacked, loose_problems = _attach(assignment, overlaps)
    melds, groups, meld_problems = _type_melds(
        assignment, stacked, seat, broken, unmended, wins is not None
    )
    found += meld_problems + loose_problems
    if broken is not None:
        short, code = broken
        size = len(assignment.concealed) + 3 * len(melds)
        if isinstance(short, ShortKong):
            meld = short.reading(code, seat)
            found.append(problems.unseen_back(short.found, compact(meld.tiles)))
        else:
            found.append(problems.unseen_in_meld(short.found, code, short.kind(code), size))

    hand = [t.code or "" for t in assignment.concealed]
    win = assignment.win.code if assignment.win is not None else None
    meld_readings = [m[0] for m in melds]
    row = [t for t in assignment.concealed if t is not assignment.win]
    # A hand a tile short: where in the row the missed tile lay, when a gap says so.
    shortfall = _shortfall(hand, len(melds), variant)
    one_short = shortfall == 1
    place = missing_place(row, assignment.frame) if one_short else None
    would_win: tuple[str, ...] = ()  # a hand a tile short: the tiles that would make it win
    taken: str | None = None
    would_win_as: tuple[tuple[LayoutTile, str], ...] = ()  # a hand of its size, no win
    would_win_without: tuple[LayoutTile, ...] = ()  # a hand a tile over
    if wins is not None:
        hand_wins = _hand_wins(
            meld_readings, flowers, wins, lambda codes: _win_code(assignment, codes)
        )
        # Asked once: a winning hand (the usual one) is neither completed nor questioned.
        as_read = hand_wins(tuple(hand))
        completion = None if as_read else complete(assignment.concealed, hand_wins)
        if completion is not None:
            hand = list(completion.codes)
            win = _win_code(assignment, completion.codes)
            found += [problems.substituted(t, used, "winning hand") for t, used in completion.swaps]
        elif one_short:
            # The one tile that wins, else the one that fits the gap.
            would_win = _missing(hand, win, meld_readings, flowers, wins)
            in_the_gap = (
                fitting([t.code or "" for t in row], place, would_win)
                if place is not None and len(would_win) > 1
                else ()
            )
            choice = would_win if len(would_win) == 1 else in_the_gap
            if len(choice) == 1:
                taken = choice[0]
                hand.append(taken)
                size = len(hand) + 3 * len(melds)
                found.append(problems.unseen(taken, size, in_the_gap=choice is in_the_gap))
                would_win = ()  # taken: nothing left to look for
            elif in_the_gap:
                would_win = in_the_gap  # the fewer to look for
        elif shortfall == -1:
            # A box on something that holds no tile, read into the row: the tiles without
            # which the hand wins, to check.
            would_win_without = tiles_left_out_that_win(
                assignment.concealed,
                assignment.win,
                _hand_wins(meld_readings, flowers, wins, lambda codes: win),
                problems.NAMED_AT_MOST,
            )
        elif shortfall == 0 and not as_read:
            # Left as read: the few reads of one tile that would make it win, to check.
            would_win_as = reads_that_win(
                assignment.concealed, assignment.win, hand_wins, problems.NAMED_AT_MOST
            )
            if would_win_as:
                found.append(problems.would_win_as(would_win_as, assignment.win))
    unseen = None if place is None else Unseen(missing_box(row, place), taken)
    short_meld = broken[0] if broken is not None else unmended[0] if unmended is not None else None
    places = (
        places_to_look(assignment.concealed, assignment.frame, short_meld, chained)
        if (shortfall or 0) > 0 or short_meld is not None
        else ()
    )
    if broken is not None and broken[0].box is not None:
        unseen = Unseen(broken[0].box, broken[1])
    groups = [
        Group(
            "concealed",
            tuple(t.index for t in assignment.concealed if t is not assignment.win),
            "hand",
        ),
        *([Group("win", (assignment.win.index,), f"win {win}")] if assignment.win else []),
        *groups,
    ]
    used = list(assignment.concealed) + [t for m in melds for t in m[1]] + flowers
    changed = {i for p in found if p.kind == "low_confidence" for i in p.tiles}
    found += [
        problems.read_in_place(t) if t.placed else problems.low_confidence(t)
        for t in used
        if (t.low_confidence or t.placed) and t.index not in changed
    ]
    return _finish(
        tuple(hand),
        win,
        [m[0] for m in melds],
        flowers,
        found,
        groups,
        assignment.frame.along,
        variant,
        would_win,
        unseen,
        would_win_as,
        would_win_without,
        _melds_that_win(unmended, seat) if wins is not None else (),
        taken,
        places,
    )


def _melds_that_win(
    unmended: tuple[ShortMeld | ShortKong, tuple[str, ...]] | None, seat: str | None
) -> tuple[tuple[tuple[LayoutTile, ...], MeldReading], ...]:
    """A meld a missed tile broke, left short, and the melds it would be with each tile that
    makes the hand win: the player knows which lay on the table."""
    if unmended is None:
        return ()
    short, codes = unmended
    return tuple((short.found, short.reading(code, seat)) for code in codes)


def _short(assignment: Assignment, variant: str | None) -> bool:
    """Whether the hand as assigned has fewer tiles than its variant's hand: then a tile was
    missed, and its gap may have cut the row."""
    return (_size_off(assignment, variant) or 0) > 0


def _soldiers_and_a_general(assignment: Assignment) -> bool:
    """Whether the hand is four alike soldiers and a general (將 or 帥), with no meld."""
    from scoring.variants.xiangqi_shapes import GENERAL, SOLDIER

    pieces = [t.tile for t in assignment.concealed]
    if assignment.meld_runs or len(pieces) != 5 or not all(p and p.is_piece for p in pieces):
        return False
    soldiers = [p for p in pieces if p and p.number == SOLDIER]
    generals = [p for p in pieces if p and p.number == GENERAL]
    return len(generals) == 1 and len(soldiers) == 4 and len({p.suit for p in soldiers}) == 1


def _size_off(assignment: Assignment, variant: str | None) -> int | None:
    """How many tiles the hand as assigned lacks of its variant's (negative: has over); None
    where the size is unknown."""
    codes = [t.code or "" for t in assignment.concealed]
    melds = sum(len(run) // 3 for run in assignment.meld_runs)  # a run may hold several
    return _shortfall(codes, melds, variant)


def _broken_meld(
    assignment: Assignment,
    overlaps: Sequence[Overlap],
    seat: str | None,
    flowers: Sequence[LayoutTile],
    variant: str | None,
    wins: Callable[[Mapping[str, Any]], bool] | None,
) -> tuple[ShortMeld | ShortKong, Assignment, tuple[str, ...]] | None:
    """For a hand one meld short as read, the meld a missed tile broke (``short_melds``), the
    assignment with its two tiles as one meld group (no longer strays or a meld of 2), and the
    tiles the missed one may be: given the rules, those with which the hand wins, as read or
    completed (``complete``). One is taken for it; several (a chi missing an end, both ends
    winning) are for the player to choose.

    None where no one meld is broken, a tile of it is doubtful (another read would make
    another meld), or another tile of a broken pon's kind lies loose (it was a kong)."""
    short: ShortMeld | ShortKong | None = find_short_meld(
        assignment.lone, assignment.meld_runs, assignment.frame
    )
    if short is None:
        short = find_short_kong(assignment.meld_runs)
    if short is None or any(t.low_confidence for t in short.found):
        return None
    runs = [r for r in assignment.meld_runs if r is not short.run]
    lone = tuple(r for r in assignment.lone if r.tiles[0] not in short.found)
    rest = replace(assignment, lone=lone, meld_runs=tuple(runs))
    if isinstance(short, ShortMeld) and kong_left(
        short, [*rest.loose, *(o.lifted for o in overlaps)]
    ):
        return None
    # Counted as the final reading counts: melds typed, a group that is none left out.
    others = [m[0] for m in _type_melds(rest, _attach(rest, overlaps)[0], seat)[0]]
    codes = [t.code or "" for t in assignment.concealed]
    if _shortfall(codes, len(others), variant) != 3:
        return None
    hand_wins = None
    if wins is not None:

        def hand_wins(code: str) -> bool:
            melds = [*others, short.reading(code, seat)]
            check = _hand_wins(melds, flowers, wins, lambda read: _win_code(assignment, read))
            return check(tuple(codes)) or complete(assignment.concealed, check) is not None

    mended = in_reading_order([*runs, short.run], assignment.hand_row)
    return short, replace(rest, meld_runs=mended), choices(short, hand_wins)


def _shortfall(codes: Sequence[str], melds: int, variant: str | None) -> int | None:
    """How many tiles concealed ``codes`` and ``melds`` melds (three each) lack of the
    variant's hand; None where its size is unknown."""
    expected = expected_size(variant, codes)
    return None if expected is None else expected - (len(codes) + 3 * melds)


def _missing(
    hand: list[str],
    win: str | None,
    melds: list[MeldReading],
    flowers: Sequence[LayoutTile],
    wins: Callable[[Mapping[str, Any]], bool],
) -> tuple[str, ...]:
    """For a hand one tile short of its size, the tiles that would make it a winning hand
    (``complete.tiles_that_win``)."""
    return tiles_that_win(tuple(hand), _hand_wins(melds, flowers, wins, lambda codes: win))


def _hand_wins(
    melds: list[MeldReading],
    flowers: Sequence[LayoutTile],
    wins: Callable[[Mapping[str, Any]], bool],
    win_of: Callable[[tuple[str, ...]], str | None],
) -> Callable[[tuple[str, ...]], bool]:
    """Whether concealed tiles ``codes``, beside these melds and flowers and won on
    ``win_of(codes)``, are a winning hand by the table's rules (``wins``)."""
    flower_codes = tuple(t.code or "" for t in flowers)

    def hand_wins(codes: tuple[str, ...]) -> bool:
        reading = Reading(codes, win_of(codes), tuple(melds), flower_codes, problems=())
        return wins(reading.hand_json())

    return hand_wins


def _win_code(assignment: Assignment, codes: Sequence[str]) -> str | None:
    """The winning tile's code among the concealed tiles' ``codes`` (in their order)."""
    for tile, code in zip(assignment.concealed, codes, strict=True):
        if tile is assignment.win:
            return code
    return None


def _all_layout(
    items: list[TileLike | Mapping[str, Any] | LayoutTile],
) -> TypeGuard[list[LayoutTile]]:
    """Whether the caller passed LayoutTiles already (they are used as they are)."""
    return all(isinstance(t, LayoutTile) for t in items)


def _attach(
    assignment: Assignment, overlaps: Sequence[Overlap]
) -> tuple[dict[int, LayoutTile], list[Problem]]:
    """Lone or lifted tiles that complete a pon into an added kong (keyed by the pon's position
    in ``meld_runs``); every other one is reported."""
    frame = assignment.frame
    stacked: dict[int, LayoutTile] = {}
    found: list[Problem] = []
    lifted = {o.lifted.index: o for o in overlaps}
    for tile in list(assignment.loose) + [o.lifted for o in overlaps]:
        target = _pon_near(tile, assignment.meld_runs, frame, stacked)
        if target is not None:
            stacked[target] = tile
        elif tile.index in lifted:
            found.append(problems.overlap(lifted[tile.index].kept, tile))
        elif tile.face_down:
            found.append(problems.face_down([tile]))
        else:
            found.append(problems.stray(tile))
    return stacked, found


def _pon_near(
    tile: LayoutTile, runs: Sequence[Run], frame: Frame, taken: Mapping[int, LayoutTile]
) -> int | None:
    kind = tile.tile
    if kind is None:
        return None
    for i, run in enumerate(runs):
        if i in taken or len(run) != 3 or type_meld(run.tiles).type != "pon":
            continue
        if any(t.rotated for t in run.tiles) and not tile.rotated:
            # An added kong's fourth tile lies sideways, on or beside the claimed one
            # (docs/layout.md); an upright one there is a second box on a tile of the pon,
            # which made it a kong (1 台 more) without a word. Where the table turns no tile,
            # the fourth lies as the pon's do.
            continue
        if run.tiles[0].tile is None or run.tiles[0].tile.plain != kind.plain:
            continue
        (x, y) = tile.centre
        near = min(math.hypot(x - t.centre[0], y - t.centre[1]) for t in run.tiles)
        if near <= ATTACH * frame.scale(tile):
            return i
    return None


def _type_melds(
    assignment: Assignment,
    stacked: Mapping[int, LayoutTile],
    seat: str | None,
    broken: tuple[ShortMeld | ShortKong, str] | None = None,
    unmended: tuple[ShortMeld | ShortKong, tuple[str, ...]] | None = None,
    by_the_rules: bool = False,
) -> tuple[list[tuple[MeldReading, tuple[LayoutTile, ...]]], list[Group], list[Problem]]:
    """Each meld group's meld; ``broken`` (``_broken_meld``) is the group of two that is a meld
    a missed tile broke, with the tile taken for the missed one, and ``unmended`` such a group
    left short, with the tiles the missed one may be (``by_the_rules``: each makes the hand
    win)."""
    melds: list[tuple[MeldReading, tuple[LayoutTile, ...]]] = []
    groups: list[Group] = []
    found: list[Problem] = []
    for i, run in enumerate(assignment.meld_runs):
        if broken is not None and run is broken[0].run:
            reading = broken[0].reading(broken[1], seat)
            melds.append((reading, run.tiles))
            groups.append(Group("meld", tuple(t.index for t in run.tiles), str(reading)))
            continue
        extra = stacked.get(i)
        tiles = run.tiles + ((extra,) if extra is not None else ())
        if len(tiles) < 3:
            if unmended is not None and run is unmended[0].run and extra is None:
                short, codes = unmended
                kind = short.kind(codes[0])
                found.append(problems.short_meld(tiles, kind, codes, by_the_rules))
            else:
                found.append(problems.short_meld(tiles))
            groups.append(Group("ignored", tuple(t.index for t in tiles), "?"))
            continue
        parts = _split(run.tiles, extra)
        if parts is None:
            found.append(problems.bad_meld(tiles))
            groups.append(Group("ignored", tuple(t.index for t in tiles), "?"))
            continue
        for part, guess in parts:
            assert guess.type is not None
            # The claimed tile is the sideways one lying in the row, not one stacked on it.
            in_row = part if extra is None else run.tiles
            source = claimed_from(in_row, seat, guess.type)
            reading = MeldReading(guess.type, guess.codes, source)
            melds.append((reading, part))
            groups.append(Group("meld", tuple(t.index for t in part), str(reading)))
            for tile in part:
                swap = next((u for r, u in guess.substituted if r == tile.code), None)
                if swap is not None and tile.low_confidence:
                    found.append(problems.substituted(tile, swap, guess.type))
    return melds, groups, found


def _split(
    tiles: tuple[LayoutTile, ...], extra: LayoutTile | None
) -> list[tuple[tuple[LayoutTile, ...], MeldGuess]] | None:
    """One meld, or (for a long group of melds laid without gaps) consecutive melds of 3 or 4."""
    if extra is not None:
        guess = type_meld(tiles + (extra,), stacked=True)
        return [(tiles + (extra,), guess)] if guess.type else None
    if len(tiles) in (3, 4):
        guess = type_meld(tiles)
        if guess.type:
            return [(tiles, guess)]
    for size in (3, 4):
        if len(tiles) > size:
            head = type_meld(tiles[:size])
            rest = _split(tiles[size:], None) if head.type else None
            if rest is not None:
                return [(tiles[:size], head), *rest]
    return None


def _finish(
    hand: tuple[str, ...],
    win: str | None,
    melds: list[MeldReading],
    flowers: Sequence[LayoutTile],
    found: list[Problem],
    groups: list[Group],
    direction: tuple[float, float],
    variant: str | None,
    would_win: Sequence[str] = (),
    unseen: Unseen | None = None,
    would_win_as: Sequence[tuple[LayoutTile, str]] = (),
    would_win_without: Sequence[LayoutTile] = (),
    would_win_with_meld: Sequence[tuple[Sequence[LayoutTile], MeldReading]] = (),
    taken: str | None = None,
    places: tuple[Box, ...] = (),
) -> Reading:
    if flowers:
        groups = [*groups, Group("flowers", tuple(t.index for t in flowers), "flowers")]
    shortfall = _shortfall(hand, len(melds), variant)
    if shortfall and hand:
        size = len(hand) + 3 * len(melds)
        has_kong = any("kong" in m.type for m in melds)
        found.append(problems.count(size + shortfall, size, has_kong, would_win, would_win_without))
    return Reading(
        hand=hand,
        win_tile=win,
        melds=tuple(melds),
        flowers=tuple(t.code or "" for t in flowers),
        problems=tuple(found),
        groups=tuple(groups),
        direction=direction,
        would_win=problems.worth_naming(would_win),
        unseen=unseen,
        would_win_as=tuple((tile.index, code) for tile, code in would_win_as),
        would_win_without=tuple(tile.index for tile in would_win_without),
        would_win_with_meld=tuple(
            (tuple(t.index for t in found), meld) for found, meld in would_win_with_meld
        ),
        taken=taken,
        places=places,
    )


def reconstruct_json(
    photo: Mapping[str, Any], variant: str | None = None, seat: str | None = None
) -> dict[str, Any]:
    """``tilescore detect --json`` output for one photo in, hand JSON plus ``problems`` out."""
    tiles = photo.get("tiles") or []
    return reconstruct(tiles if isinstance(tiles, list) else [], variant, seat).to_json()


__all__ = ["compact", "reconstruct", "reconstruct_json"]
