"""What scoring returns: the items, the total, who pays, and the reading it chose."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ScoreItem:
    """One scored item: ``name`` as the rule text writes it, ``value`` in the variant's unit."""

    code: str
    name: str
    value: int
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "value": self.value, "why": self.why}


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``amount`` to ``payee`` (seats E S W N, or a variant's own seat names)."""

    payer: str
    payee: str
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount}


@dataclass(frozen=True)
class ScoreResult:
    variant: str
    winning: bool
    total: int
    unit: str
    items: tuple[ScoreItem, ...]
    payments: tuple[Payment, ...]
    decomposition: str | Callable[[], str]
    """The hand divided into sets and pair as it was scored; where finding it again is work of
    its own (riichi's, riichi_reading), that work, done only when the result is written out:
    what only asks whether a hand wins and for how much (the layout's completion, a benchmark
    of the scorer) never needs it."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Variant-specific output keys (han, fu, waits, base_points, ...), added to the JSON as is."""

    @property
    def decomposition_text(self) -> str:
        """``decomposition`` as text."""
        found = self.decomposition
        return found if isinstance(found, str) else found()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self.variant,
            "winning": self.winning,
            "total": self.total,
            "unit": self.unit,
            "items": [i.to_json() for i in self.items],
            "payments": [p.to_json() for p in self.payments],
            "decomposition": self.decomposition_text,
        }
        out.update(self.extra)
        return out
