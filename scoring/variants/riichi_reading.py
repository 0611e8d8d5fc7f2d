"""The reading a riichi score was counted on: the division of the tiles the ``mahjong`` library chose.

The library divides the tiles every way into four sets and a pair (and seven pairs), puts the
winning tile in each group of a division it could have completed, scores each, and keeps the most
expensive: the highest cost, then a real 役滿 over a counted one, then 翻, then 符, then the larger
sum of 符 parts, and on a tie the first found (``HandCalculator.estimate_hand_value``, mahjong
2.x). It returns that score but not the division, so this finds the division again the way the
library chose it:

1. Only a candidate whose own 符 parts are the answer's can be the one chosen (the library's
   ``FuCalculator``, which the library itself runs on each).
2. Within one division, candidates with the same 符 parts score alike (the only yaku that depends
   on where the winning tile went is 平和, and that follows from the 符 parts), so the first of
   them is the library's pick.
3. Where candidates of several divisions fit, each of those divisions is scored alone by the
   library (``LibraryCall.run_alone``) and the most expensive taken as above.

The result is written as the other rule sets write theirs: the pair first, then the concealed
sets, then the melds as laid down (claimed ones in brackets), ``*`` on the group the winning tile
completed; 國士無雙 as its thirteen kinds, the paired one twice. Red fives are written as fives, as
every rule set's reading writes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from mahjong.constants import CHUN, HAKU, HATSU
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.tile import TilesConverter

from scoring.hand import Hand
from scoring.notation import format_tiles
from scoring.reading import meld_text
from scoring.tiles import index34, tile34
from scoring.variants.riichi_adapter import Division, LibraryCall

Candidate = tuple[Division, list[int]]
"""A division and the group in it the winning tile completed."""
FuKey = tuple[int, list[tuple[int, str]]]
"""A candidate's 符 and its parts (符, reason), sorted."""


def scored_reading(
    hand: Hand, call: LibraryCall, response: HandResponse, fresh: Callable[[], LibraryCall]
) -> str:
    """The reading ``response`` (``call``'s answer) was counted on; ``fresh`` makes the same call
    again with a config of its own (the library writes into the one it is given)."""
    divisions = HandDivider.divide_hand(TilesConverter.to_34_array(call.tiles), call.melds)
    if not divisions:  # 國士無雙: the one winning hand with no sets
        return _thirteen_orphans(call.tiles, call.win_tile // 4)
    fits = _candidates(call, divisions)
    if len(fits) > 1:
        wanted = _fu_key(response)
        fits = [fit for fit in fits if _fu_of(call, *fit) == wanted]
    if len({id(division) for division, _ in fits}) > 1:
        chosen = _most_expensive(fits, fresh)
        fits = [fit for fit in fits if fit[0] is chosen]
    if not fits:
        return ""  # no division gives the library's answer: say nothing rather than guess
    division, group = fits[0]
    return _text(hand, division, group)


def _candidates(call: LibraryCall, divisions: Sequence[Division]) -> list[Candidate]:
    """Each division with each group the winning tile could have completed, in the library's
    order (its own ``_find_win_groups``: an open meld is no such group)."""
    opened = [meld.tiles_34 for meld in call.melds if meld.opened]
    return [
        (division, group)
        for division in divisions
        for group in HandCalculator._find_win_groups(call.win_tile, division, opened)
    ]


def _fu_of(call: LibraryCall, division: Division, group: list[int]) -> FuKey:
    config = call.config
    # The kinds whose pair is worth 符, as the library gives them to its FuCalculator.
    valued = [HAKU, HATSU, CHUN, config.player_wind, config.round_wind]
    details, fu = FuCalculator.calculate_fu(
        division, call.win_tile, group, config, valued, call.melds
    )
    return fu, sorted((detail["fu"], detail["reason"]) for detail in details)


def _fu_key(response: HandResponse) -> FuKey:
    details = response.fu_details or []
    return response.fu or 0, sorted((detail["fu"], detail["reason"]) for detail in details)


def _most_expensive(fits: list[Candidate], fresh: Callable[[], LibraryCall]) -> Division | None:
    """Of the divisions in ``fits``, the one the library keeps, each scored alone."""
    best: tuple[tuple[int, bool, int, int, int], Division] | None = None
    for division in dict((id(d), d) for d, _ in fits).values():
        alone = fresh().run_alone(division)
        if alone is None:
            return None  # the library divides otherwise: say nothing rather than guess
        if alone.cost is None or alone.han is None or alone.fu is None:
            continue  # no yaku this way: the library keeps it only when nothing scores
        yaku = alone.yaku or []
        rank = (
            alone.cost["total"],
            any(y.is_yakuman for y in yaku),
            alone.han,
            alone.fu,
            sum(detail["fu"] for detail in alone.fu_details or []),
        )
        if best is None or rank > best[0]:  # a tie keeps the first, as the library's sort does
            best = (rank, division)
    return best[1] if best is not None else None


def _text(hand: Hand, division: Division, win_group: list[int]) -> str:
    concealed = list(division)
    for meld in hand.melds:  # the melds are in the division too: written apart, as laid down
        kinds = list(meld.plain_indices or sorted(map(index34, meld.tiles)))
        concealed.remove(kinds)
    concealed.sort(key=len)  # the pair first, then the sets in the library's order
    parts = [
        _group_text(tuple(group)) + "*" if group is win_group else _group_text(tuple(group))
        for group in concealed
    ]
    parts += [meld_text(meld) for meld in hand.melds]
    return " ".join(parts)


@cache
def _group_text(kinds: tuple[int, ...]) -> str:
    return format_tiles(tile34(kind) for kind in kinds)


def _thirteen_orphans(tiles: list[int], win_kind: int) -> str:
    parts = []
    for kind, count in enumerate(TilesConverter.to_34_array(tiles)):
        if count:
            text = _group_text((kind,) * count)
            parts.append(text + "*" if kind == win_kind else text)
    return " ".join(parts)
