"""明將麻雀's 埋數 (end of game, ``shared/rules/002``): is the game over, and who gets what.

The text: everyone starts with 150 and the return (返點) is 180. After 南四局, if nobody has at
least 180 the table plays the 西 round (西入), and ends as soon as someone has 180; after 西四局
it ends whatever the scores. A 例牌 or a player below 0 ends the game at once. The ranking goes by
final score, ties broken by seat order from the first dealer (起莊, then 下家, 對家, 上家). 2nd, 3rd
and 4th place score their final score − 180; 1st scores minus the sum of those three.

Seats are named by where they sat in 東一局: ``E`` is the first dealer (起莊), ``S`` the next
(下家), ``W`` across (對家), ``N`` the one before (上家). Scores are given in that order.

Readings (docs/variants/mingjiang.md; rule options in ``OPTIONS``):

* 概要 says 打四圈 but 埋數 stops at 南四 or, with 西入, at 西四: 埋數 is the detailed rule and
  is what this follows (東 and 南, then 西入 when needed).
* Reaching 180 before 南四局 ends nothing; only 南四局 and the 西 hands check it.
* 負分 is a score below 0; a score of exactly 0 goes on (option ``zero_ends_game``).
* 全統制 moves points between players only, so the four scores add up to 4 × 150 = 600; a total
  that does not is a typing mistake and an error (option ``check_total``).

The JSON form of a ``Settlement`` (``to_json``)::

    {"variant": "mingjiang", "ended": true, "reason": "...", "after": "S4", "next_hand": null,
     "start_points": 150, "return_points": 180,
     "standings": [{"seat": "E", "place": 1, "final": 230, "points": 170}, ...]}

``standings`` is in order of place; while the game goes on (``ended`` false) it is the settlement
as if the game stopped now, and ``next_hand`` names the hand to play next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import TilescoreError, shown
from scoring.rules import RuleOption, resolve_options

SEATS = ("E", "S", "W", "N")
"""Seats as they sat in 東一局: first dealer, 下家, 對家, 上家 (the tie-break order)."""

SEAT_NAMES = {"E": "起莊", "S": "下家", "W": "對家", "N": "上家"}

OPTIONS = (
    RuleOption("start_points", 150, "每人150分開始: each player's score at the start"),
    RuleOption("return_points", 180, "返點180: the score 2nd-4th place subtract"),
    RuleOption(
        "zero_ends_game",
        False,
        "a score of exactly 0 ends the game like a negative one (有一家負分 read as below 0)",
    ),
    RuleOption(
        "check_total",
        True,
        "the four scores must add up to 4 × start_points (全統制 only moves points around)",
    ),
)

_ROUNDS = {"E": "東", "S": "南", "W": "西"}
_ROUND_BY_NAME = {"E": "E", "S": "S", "W": "W", "東": "E", "南": "S", "西": "W"}
_NUMBERS = {"1": 1, "2": 2, "3": 3, "4": 4, "一": 1, "二": 2, "三": 3, "四": 4}


class SettleError(TilescoreError):
    """Bad settlement input: not four whole-number scores, an unknown hand, a wrong total."""


@dataclass(frozen=True)
class GameState:
    """The scores after a hand, and which hand that was.

    ``scores``: the four seats' scores in the order of ``SEATS``. ``after``: the hand just played,
    ``"E1"``-``"W4"`` (``東一``-``西四`` also read), or None when the table has stopped and only
    wants the ranking. ``limit_hand``: that hand was won with a 例牌.
    """

    scores: tuple[int, int, int, int]
    after: str | None = None
    limit_hand: bool = False


@dataclass(frozen=True)
class Standing:
    seat: str
    """Where the player sat in 東一局: E (起莊), S, W, N."""
    place: int
    final: int
    """The final score."""
    points: int
    """The settlement: final − return for 2nd-4th, minus their sum for 1st."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "place": self.place, "final": self.final, "points": self.points}


@dataclass(frozen=True)
class Settlement:
    ended: bool
    reason: str
    after: str | None
    next_hand: str | None
    standings: tuple[Standing, ...]
    """In order of place, 1st first."""
    start_points: int
    return_points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": "mingjiang",
            "ended": self.ended,
            "reason": self.reason,
            "after": self.after,
            "next_hand": self.next_hand,
            "start_points": self.start_points,
            "return_points": self.return_points,
            "standings": [s.to_json() for s in self.standings],
        }


def hand_name(code: str) -> str:
    """``"S4"`` → ``"南四局"``."""
    return f"{_ROUNDS[code[0]]}{'一二三四'[int(code[1]) - 1]}局"


def parse_hand_code(text: str) -> str:
    """A hand as ``E1``-``W4`` from ``S4``, ``s4``, ``南4``, ``南四`` or ``南四局``.

    >>> [parse_hand_code(t) for t in ("S4", "w1", "南四局", "東2")]
    ['S4', 'W1', 'S4', 'E2']
    """
    raw = text.strip().removesuffix("局")
    if len(raw) == 2 and raw[0].upper() in _ROUND_BY_NAME and raw[1] in _NUMBERS:
        return f"{_ROUND_BY_NAME[raw[0].upper()]}{_NUMBERS[raw[1]]}"
    raise SettleError(
        f"hand {text!r} is not one of E1-E4, S1-S4, W1-W4 (東一-西四); there is no 北 round"
    )


def _next_hand(code: str) -> str | None:
    round_, number = code[0], int(code[1])
    if number < 4:
        return f"{round_}{number + 1}"
    return {"E": "S1", "S": "W1"}.get(round_)


def check_scores(scores: Sequence[Any]) -> tuple[int, int, int, int]:
    """Four whole numbers (ints, or text holding one), else a one-line error."""
    if len(scores) != 4:
        raise SettleError(
            f"give the four seats' final scores (E S W N from the first dealer), got {len(scores)}"
        )
    values = []
    for seat, score in zip(SEATS, scores, strict=True):
        if isinstance(score, bool):
            raise SettleError(f"score of {seat} must be a whole number, got {shown(score)}")
        if isinstance(score, int):
            values.append(score)
            continue
        if isinstance(score, str):
            try:
                values.append(int(score.strip()))
                continue
            except ValueError:
                pass
        raise SettleError(f"score of {seat} must be a whole number, got {shown(score)}")
    return values[0], values[1], values[2], values[3]


def rank(scores: Sequence[int]) -> tuple[str, ...]:
    """Seats from 1st to 4th: higher score first, equal scores in seat order (起莊 first).

    >>> rank((160, 180, 180, 80))
    ('S', 'W', 'E', 'N')
    """
    order = sorted(range(4), key=lambda i: (-scores[i], i))
    return tuple(SEATS[i] for i in order)


def standings(scores: Sequence[int], return_points: int = 180) -> tuple[Standing, ...]:
    """The settlement: 2nd-4th get final − return, 1st minus the sum of theirs.

    >>> [(s.seat, s.points) for s in standings((230, 170, 120, 80))]
    [('E', 170), ('S', -10), ('W', -60), ('N', -100)]
    """
    by_seat = dict(zip(SEATS, scores, strict=True))
    order = rank(scores)
    others = [by_seat[seat] - return_points for seat in order[1:]]
    points = [-sum(others), *others]
    return tuple(
        Standing(seat, place, by_seat[seat], amount)
        for place, (seat, amount) in enumerate(zip(order, points, strict=True), start=1)
    )


def settle(game: GameState, rules: Mapping[str, Any] | None = None) -> Settlement:
    """Apply 埋數 to the scores after ``game.after``: does the game end, and the standings.

    >>> s = settle(GameState((200, 160, 140, 100), "S4"))
    >>> s.ended, [(x.seat, x.place, x.points) for x in s.standings]
    (True, [('E', 1, 140), ('S', 2, -20), ('W', 3, -40), ('N', 4, -80)])
    >>> s = settle(GameState((170, 160, 140, 130), "S4"))
    >>> s.ended, s.next_hand
    (False, 'W1')
    """
    options = resolve_options(OPTIONS, rules or {}, "settle")
    scores = check_scores(game.scores)
    start, back = options["start_points"], options["return_points"]
    if options["check_total"] and sum(scores) != 4 * start:
        raise SettleError(
            f"the scores add up to {sum(scores)}, not {4 * start} (4 × {start}): points only move"
            " between players; check them, or pass --rule check_total=false"
        )
    after = None if game.after is None else parse_hand_code(game.after)
    ended, reason, next_hand = _decide(scores, after, game.limit_hand, back, options)
    return Settlement(ended, reason, after, next_hand, standings(scores, back), start, back)


def _decide(
    scores: tuple[int, ...],
    after: str | None,
    limit_hand: bool,
    back: int,
    options: Mapping[str, Any],
) -> tuple[bool, str, str | None]:
    """(ended, reason, next hand) for scores after the hand ``after``."""
    if after is None:
        if limit_hand:
            raise SettleError("limit_hand needs the hand it was won in (after, e.g. S2)")
        return True, "settled as given: no hand named, the table has stopped", None
    done = hand_name(after)
    if limit_hand:
        return True, f"a 例牌 was won in {done}: the game ends at once", None
    bust = [
        s
        for s, v in zip(SEATS, scores, strict=True)
        if v < 0 or (v == 0 and options["zero_ends_game"])
    ]
    if bust:
        listed = ", ".join(f"{s} {scores[SEATS.index(s)]}" for s in bust)
        return True, f"below 0 after {done} ({listed}): the game ends at once", None
    reached = [s for s, v in zip(SEATS, scores, strict=True) if v >= back]
    following = _next_hand(after)
    if after[0] == "E" or (after[0] == "S" and after != "S4"):
        assert following is not None
        return (
            False,
            f"{done} played: the game runs to 南四局; next {hand_name(following)}",
            following,
        )
    if reached:
        who = " and ".join(reached)
        have = "has" if len(reached) == 1 else "have"
        return True, f"{done} played and {who} {have} {back} or more: the game ends", None
    if following is None:
        return True, f"西四局 played: the game ends though nobody has {back}", None
    if after == "S4":
        return False, f"南四局 played and nobody has {back}: 西入, next 西一局", following
    return False, f"nobody has {back} yet in 西入: next {hand_name(following)}", following
