"""A concealed hand that is no winning hand as read, made one by its doubtful tiles' runner-ups.

A player lays down a hand to have it scored because it won, so a reading that is no winning hand
holds a misread. Where the classifier was unsure of a tile and its next guess turns the hand into
a winning one, that guess is what the tile most likely shows (as ``melds.type_meld`` does for a
meld). Only doubtful tiles change (``low_confidence`` ones with runner-ups), at most
``MAX_CHANGES`` of them, and every change is reported for a person to check: the scoring rules
decide what wins, through the ``wins`` callback, so no rule is repeated here.

Where no runner-up makes it win, the classifier's guesses have missed the tile: most doubtful
misreads on the real photos name no runner-up that is right (a 6p read as 7p with no other
guess). Then the hand itself says what the tile is when it can say one thing only: among the
doubtful tiles (``SUIT_MATES_UP_TO`` at most), exactly one read as exactly one other tile of
its own suit makes the hand win.

A hand of its size that wins neither way is left as read, since a sure read is never changed (a
4s with one stick hidden under another tile, read as 3s at 1.0): the reads of one tile as any
other that would make it win are named instead, when they are few, for a person to check
(``reads_that_win``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import TypeVar

from scoring.tiles import MAHJONG_TILES, PIECES
from vision.layout.sizes import holds_pieces
from vision.layout.tiles import LayoutTile

T = TypeVar("T")

MAX_CHANGES = 1
"""The most tiles read as their runner-up at once. On winning hands built from the real photos'
reads (benchmarks/hand_completion.py), one change reads 2.6 points more Taiwan hands right and
completes 1.1% wrong; two read 0.2 more right and complete 1.5% wrong: beyond one, a winning hand
is found by trying, not read from the photo."""

MAX_DOUBTFUL = 6
"""The least sure tiles tried (with two runner-ups each, 12 hands to check at most)."""

SUIT_MATES_UP_TO = 3
"""The most doubtful tiles a hand may hold for one of them to be read as any tile of its suit.
The more tiles are in doubt, the more ways the hand has to win that are not the hand laid down:
on hands built from the real reads (benchmarks/hand_completion.py, seeds 0 and 1, Taiwan and
riichi together) up to 1, 2, 3 and 6 doubtful tiles read 3.9, 7.8, 10.1 and 11.7 points more
hands right over the four runs and complete 1.1, 3.1, 4.0 and 5.4 more wrong: from 3 to 6, one
more wrong for each one more right."""


@dataclass(frozen=True)
class Completion:
    codes: tuple[str, ...]
    """The concealed tiles' codes, in the order given, with the runner-ups in."""
    swaps: tuple[tuple[LayoutTile, str], ...]
    """Each tile read again and the code it is now read as."""


def complete(
    concealed: Sequence[LayoutTile], wins: Callable[[tuple[str, ...]], bool]
) -> Completion | None:
    """The fewest runner-up reads of doubtful tiles that make ``wins(codes)`` true, else the
    one read of a doubtful tile as another of its suit that does; None when the hand wins as
    read or neither finds a winning hand.

    Among as many changes, the tiles' first runner-ups go before their second ones, and less
    sure tiles before surer ones: the likeliest misread is tried first.
    """
    codes = tuple(tile.code or "" for tile in concealed)
    if wins(codes):
        return None
    least_sure = sorted(
        ((position, tile) for position, tile in enumerate(concealed) if tile.low_confidence),
        key=lambda item: item[1].confidence,
    )
    doubtful = [(position, tile) for position, tile in least_sure if runner_ups(tile)]
    completion = _by_runner_ups(codes, doubtful[:MAX_DOUBTFUL], wins)
    if completion is None and len(least_sure) <= SUIT_MATES_UP_TO:
        completion = _by_suit_mates(codes, least_sure, wins)
    return completion


def _by_runner_ups(
    codes: tuple[str, ...],
    doubtful: list[tuple[int, LayoutTile]],
    wins: Callable[[tuple[str, ...]], bool],
) -> Completion | None:
    for changes in range(1, MAX_CHANGES + 1):
        tries = []
        for chosen in combinations(doubtful, changes):
            for ranks in product(*(range(len(runner_ups(tile))) for _, tile in chosen)):
                doubt = sum(tile.confidence for _, tile in chosen)
                tries.append((sum(ranks), doubt, chosen, ranks))
        tries.sort(key=lambda t: (t[0], t[1]))
        for _, _, chosen, ranks in tries:
            new = list(codes)
            swaps = []
            for (position, tile), rank in zip(chosen, ranks, strict=True):
                new[position] = runner_ups(tile)[rank]
                swaps.append((tile, new[position]))
            if wins(tuple(new)):
                return Completion(tuple(new), tuple(swaps))
    return None


def _by_suit_mates(
    codes: tuple[str, ...],
    doubtful: list[tuple[int, LayoutTile]],
    wins: Callable[[tuple[str, ...]], bool],
) -> Completion | None:
    """The one doubtful tile and the one other tile of its suit that make the hand win, or None
    when none do or more than one would (then the hand does not say which).

    Taking the least sure tile's first winning read instead, as the runner-ups are taken, read
    0.3 points more Taiwan hands right than the one read only, and completed 3.8 more wrong
    (--seed 1, up to six doubtful tiles). Two doubtful copies of one tile, each read as the same
    mate, are two reads here though they make one hand: counting them as one completed no more
    hands right and 0.1-0.3 points more wrong (seeds 0 and 1, sorted or not; session 28)."""
    reads = ((position, tile, code) for position, tile in doubtful for code in _suit_mates(tile))
    only = _the_only(reads, lambda read: wins(_read_as(codes, read[0], read[2])))
    if only is None:
        return None
    position, tile, code = only
    return Completion(_read_as(codes, position, code), ((tile, code),))


def _read_as(codes: tuple[str, ...], position: int, code: str) -> tuple[str, ...]:
    return (*codes[:position], code, *codes[position + 1 :])


def _the_only(tries: Iterable[T], wins: Callable[[T], bool]) -> T | None:
    """The one of ``tries`` that wins, or None when none or more than one does."""
    winners = []
    for attempt in tries:
        if wins(attempt):
            winners.append(attempt)
            if len(winners) > 1:
                return None
    return winners[0] if winners else None


def _suit_mates(tile: LayoutTile) -> tuple[str, ...]:
    """The other tiles of the tile's suit (the honours for an honour, a colour's pieces for a
    piece), red fives left out: the scorer counts them as fives."""
    read = tile.tile
    if read is None or read.is_flower:
        return ()
    plain = read.plain
    return tuple(
        mate.code
        for mate in MAHJONG_TILES + PIECES
        if mate.suit == plain.suit and mate.code != plain.code
    )


def tiles_that_win(
    codes: Sequence[str], wins: Callable[[tuple[str, ...]], bool]
) -> tuple[str, ...]:
    """The tiles that, added to a hand one tile short (``codes``), make ``wins`` true. A tile the
    detector did not find leaves a winning hand a tile short: where only one tile completes it,
    that is the tile it missed; where a few do, they are what to look for."""
    kinds = PIECES if holds_pieces(codes) else MAHJONG_TILES
    return tuple(kind.code for kind in kinds if wins((*codes, kind.code)))


def reads_that_win(
    concealed: Sequence[LayoutTile],
    win: LayoutTile | None,
    wins: Callable[[tuple[str, ...]], bool],
    at_most: int,
) -> tuple[tuple[LayoutTile, str], ...]:
    """Every read of one concealed tile as another tile that makes ``wins(codes)`` true, least
    sure tiles first; none when more than ``at_most`` do (then they say little of which tile is
    wrong). For a hand of its size that wins neither as read nor completed: the misreads that
    would explain it.

    Copies of one tile make the same hand whichever is read again, so each is tried once,
    through its least sure copy; the winning tile apart from its copies in the row, since reading
    it otherwise changes the winning tile too. A red five and a plain five are tried apart
    (rules without red fives take no hand that holds one: there, the red five read as its plain
    five wins), but a read of either as one tile is said once. Any tile, not only a suit mate:
    on hands built from the real reads (benchmarks/hand_completion.py, --seed 1) nearly two in
    five of the misreads that one read would mend cross suits (a 1s bird read as 8p, a 9p as
    9s).
    """
    codes = tuple(tile.code or "" for tile in concealed)
    kinds = PIECES if holds_pieces(codes) else MAHJONG_TILES
    found: list[tuple[LayoutTile, str]] = []
    said: set[tuple[str, bool, str]] = set()  # (plain code, is the winning tile, read as)
    tried = _stand_ins(concealed, lambda t: None if t.is_flower else (t.code, t is win))
    for position in tried:
        tile = concealed[position]
        plain = tile.tile.plain.code if tile.tile is not None else ""  # a red five's five
        for kind in kinds:
            # A red five read as its plain five is a read too: rules without red fives take
            # no hand that holds one.
            if kind.code == codes[position] or not wins(_read_as(codes, position, kind.code)):
                continue
            # A red five and a plain one read as the same tile make the same hand: said once.
            if (plain, tile is win, kind.code) in said:
                continue
            said.add((plain, tile is win, kind.code))
            found.append((tile, kind.code))
            if len(found) > at_most:
                return ()
    return tuple(found)


def tiles_left_out_that_win(
    concealed: Sequence[LayoutTile],
    win: LayoutTile | None,
    wins: Callable[[tuple[str, ...]], bool],
    at_most: int,
) -> tuple[LayoutTile, ...]:
    """The concealed tiles (the winning tile aside) without which a hand a tile over its size
    makes ``wins(codes)`` true, least sure first; none when more than ``at_most`` do. A box on
    something that is no tile, read as one in the row, leaves the hand a tile over: on hands
    built from the real reads with one such box in the row (benchmarks/hand_completion.py
    ``--extra``), leaving out a tile named leaves the hand laid down in more than nine of ten
    hands that name any. Copies of one tile leave the same hand: each is tried once, through
    its least sure copy."""
    codes = tuple(tile.code or "" for tile in concealed)
    found: list[LayoutTile] = []
    for position in _stand_ins(concealed, lambda t: None if t is win else t.code):
        if wins(codes[:position] + codes[position + 1 :]):
            found.append(concealed[position])
            if len(found) > at_most:
                return ()
    return tuple(found)


def _stand_ins(
    concealed: Sequence[LayoutTile], kind_of: Callable[[LayoutTile], Hashable | None]
) -> list[int]:
    """For each kind of tile (``kind_of``; None: not tried, nor is a tile no code names), the
    position of its least sure copy, least sure first: copies make the same hand, and the
    classifier is likeliest wrong where it was least sure."""
    stand_ins: dict[Hashable, int] = {}
    for position, tile in enumerate(concealed):
        kind = kind_of(tile) if tile.tile is not None else None
        if kind is None:
            continue
        known = stand_ins.get(kind)
        if known is None or tile.confidence < concealed[known].confidence:
            stand_ins[kind] = position
    return sorted(stand_ins.values(), key=lambda p: concealed[p].confidence)


def runner_ups(tile: LayoutTile) -> tuple[str, ...]:
    """The tile's other readings that name a tile (not a back, not itself)."""
    return tuple(
        code
        for code in tile.alternatives
        if code != tile.code and LayoutTile(tile.index, code, tile.box).tile is not None
    )
