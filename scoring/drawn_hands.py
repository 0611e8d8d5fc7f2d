"""流局: what a drawn hand pays, and what it does to the deal.

A hand nobody wins is recorded like any other: ``tilescore score`` takes it as a JSON object with
a ``draw`` key, and the table app records it with **Drawn hand 流局**. Each rule set's
``score_draw`` says what its text pays on a draw and how the deal moves; this module holds what
they share: the move of the deal (``DealMove``, read by the app's store as it reads a win's),
the draw's reasons, the JSON of a draw at a table seated by wind (Taiwan, riichi, 明將: chairs
E S W N, the dealer East), and riichi's 罰符 shared between who was ready and who was not.

>>> [(p.payer, p.payee, p.amount) for p in ready_payments({"E"}, ("E", "S", "W", "N"), 3000)]
[('S', 'E', 1000), ('W', 'E', 1000), ('N', 'E', 1000)]
>>> DealMove(dealer_stays=False, streak=Streak.UP).to_json()
{'dealer': 'passes', 'streak': 'up'}
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scoring.errors import HandError, kind_of, shown
from scoring.hand import SEATS
from scoring.result import Payment

if TYPE_CHECKING:
    from scoring.variant import Variant


class Streak(enum.Enum):
    """What the dealer's streak (riichi's 本場) does."""

    UP = "up"
    SAME = "same"
    RESET = "reset"


@dataclass(frozen=True)
class DealMove:
    """How a hand moves the deal: whether the dealer deals again, and the streak."""

    dealer_stays: bool
    streak: Streak

    def to_json(self) -> dict[str, str]:
        return {"dealer": "stays" if self.dealer_stays else "passes", "streak": self.streak.value}

    @classmethod
    def from_json(cls, value: Any) -> DealMove | None:
        """The move a kept result says, or None where it says none that this version knows."""
        if not isinstance(value, Mapping) or value.get("dealer") not in ("stays", "passes"):
            return None
        try:
            streak = Streak(value.get("streak"))
        except ValueError:
            return None
        return cls(value["dealer"] == "stays", streak)


DEALER_WINS = DealMove(dealer_stays=True, streak=Streak.UP)
"""A dealer's win (連莊): the dealer deals again, one more in the streak."""
DEAL_PASSES = DealMove(dealer_stays=False, streak=Streak.RESET)
"""Any other win, and 明將's every hand: the next player deals, the streak starts again."""


@dataclass(frozen=True)
class DrawReason:
    """One way a rule set's hand ends drawn: its code in the JSON, its name, and what it is."""

    code: str
    name: str
    doc: str
    takes_ready: bool = False
    """Whether a draw ended so asks who was ready (聽): it pays or moves the deal by them."""
    asks: str = ""
    """The key of ``draw`` that lists the chairs this way of ending names (riichi's
    ``nagashi``: who made 流局滿貫), or none."""
    asks_name: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "doc": self.doc,
            "ready": self.takes_ready,
        }
        return {**out, "asks": self.asks, "asks_name": self.asks_name} if self.asks else out


WALL = DrawReason("wall", "荒牌流局", "the wall ran out and nobody won")

DRAW_INPUT_KEYS = frozenset({"variant", "players", "rules", "draw", "id"})
"""The keys of a drawn hand's JSON at a table seated by wind."""


@dataclass(frozen=True)
class WindDraw:
    """A drawn hand at a table seated by wind, as read from its JSON and checked."""

    reason: str
    players: int
    ready: frozenset[str]
    rules: Mapping[str, Any]
    named: frozenset[str]
    """The chairs the way the hand ended names under its own key (``DrawReason.asks``: riichi's
    makers of 流局滿貫), checked; none where it asks nothing."""

    @property
    def chairs(self) -> tuple[str, ...]:
        return SEATS[: self.players]


def draw_rules(data: Any, known: frozenset[str]) -> dict[str, Any]:
    """A drawn hand's JSON object checked at its top (an object, its keys among ``known``,
    ``rules`` an object of option: value): its rules as given."""
    if not isinstance(data, Mapping):
        raise HandError(f"a drawn hand must be a JSON object, got {kind_of(data)}")
    unknown = set(data) - known
    if unknown:
        raise HandError(
            f"key {sorted(unknown)[0]!r} is not used for a drawn hand"
            f" (known: {', '.join(sorted(known))})"
        )
    rules = data.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise HandError(f"rules must be an object of option: value, got {shown(rules)}")
    return dict(rules)


def read_wind_draw(data: Any, variant: Variant) -> WindDraw:
    """``{"variant": "riichi", "players": 4, "rules": {...}, "draw": {"reason": "wall",
    "ready": ["E", "S"]}}``, checked: anything a table cannot have said is a one-line
    ``HandError``. ``ready`` (聽: the chairs that were ready) only where the way the hand ended
    pays or moves the deal by it (``DrawReason.takes_ready``)."""
    reasons = variant.draw_reasons
    rules = draw_rules(data, DRAW_INPUT_KEYS)
    players = data.get("players", 4)
    variant.check_players(players)
    draw = data.get("draw")
    if not isinstance(draw, Mapping):
        raise HandError(f"draw must be an object, got {shown(draw)}")
    known = {"reason", *(["ready"] if any(r.takes_ready for r in reasons) else [])}
    known |= {r.asks for r in reasons if r.asks}
    unknown = set(draw) - known
    if unknown:
        said = "ready is not asked: who was ready changes nothing" if "ready" in unknown else ""
        raise HandError(
            f"key {sorted(unknown)[0]!r} is not used for a drawn hand in {variant.name}"
            + (f" ({said})" if said else f" (known: {', '.join(sorted(known))})")
        )
    codes = [r.code for r in reasons]
    reason = draw.get("reason", codes[0])
    if reason not in codes:
        raise HandError(
            f"draw.reason {shown(reason)} is not one of {variant.name}'s: {', '.join(codes)}"
        )
    chosen = next(r for r in reasons if r.code == reason)
    if "ready" in draw and not chosen.takes_ready:
        raise HandError(f"draw.ready: who was ready changes nothing on a {chosen.name} draw")
    chairs = SEATS[:players]
    ready = chairs_in(draw, "ready", chairs)
    for other in reasons:
        if other.asks and other is not chosen and other.asks in draw:
            raise HandError(
                f"draw.{other.asks} ({other.asks_name}) goes with reason {other.code!r} only"
            )
    named = chairs_in(draw, chosen.asks, chairs) if chosen.asks else frozenset()
    if chosen.asks and not named:
        raise HandError(f"draw.{chosen.asks}: name {chosen.asks_name} (reason {chosen.code!r})")
    return WindDraw(reason, players, ready, variant.resolve_rules(rules), named)


def chairs_in(draw: Mapping[str, Any], key: str, chairs: Sequence[str]) -> frozenset[str]:
    """``draw[key]``: a list of chairs, each once (none where the key is missing)."""
    given = draw.get(key, [])
    if not isinstance(given, list) or any(seat not in chairs for seat in given):
        raise HandError(
            f"draw.{key} must be a list of chairs ({' '.join(chairs)}), got {shown(given)}"
        )
    if len(set(given)) != len(given):
        raise HandError(f"draw.{key} names a chair twice: {shown(given)}")
    return frozenset(given)


def draw_result(
    variant: str,
    draw: WindDraw,
    payments: Sequence[Payment],
    deal: DealMove,
    data: Mapping[str, Any],
    **extra: Any,
) -> dict[str, Any]:
    """A drawn hand's JSON: ``{"variant", "drawn": true, "reason", "ready", "payments", "deal"}``
    (a rule set's own keys, ``extra``, after them; and the input's ``id``)."""
    result = {
        "variant": variant,
        "drawn": True,
        "reason": draw.reason,
        "ready": [seat for seat in draw.chairs if seat in draw.ready],
        "payments": [p.to_json() for p in payments],
        "deal": deal.to_json(),
        **extra,
    }
    return {"id": data["id"], **result} if "id" in data else result


def ready_payments(ready: Collection[str], chairs: Sequence[str], total: int) -> list[Payment]:
    """``total`` paid by the players who were not ready to those who were, shared alike on
    both sides (riichi's 罰符: 3,000 with one ready, each of three pays 1,000; with two, each
    pays 750 to each); nothing when all or none were ready."""
    payees = [seat for seat in chairs if seat in ready]
    payers = [seat for seat in chairs if seat not in ready]
    if not payees or not payers:
        return []
    amount = total // (len(payees) * len(payers))
    return [Payment(payer, payee, amount) for payer in payers for payee in payees]
