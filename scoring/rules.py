"""Rule sets as tables: one ``RuleItem`` per item of a rule text, and named rule options.

An item holds the rule text's own name, its value, the condition in the text's words, a check, and
the codes of the items it supersedes. A reader can hold a variant's table beside its rule text and
check it line by line; the engine applies every table the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from scoring.errors import RuleOptionError, kind_of, shown
from scoring.hand import build
from scoring.result import ScoreItem

View = TypeVar("View")


class Hit(NamedTuple):
    """An item applies ``times`` times (a kong each, a flower each), for the reason ``why``.

    A named tuple: checks make one whenever an item applies, and a tuple is cheap to make.
    """

    times: int
    why: str
    name: str | None = None
    """A name for this case when the rule text names it so (連2拉2, 邊張)."""


@dataclass(frozen=True)
class RuleItem(Generic[View]):
    code: str
    name: str
    value: int
    condition: str
    check: Callable[[View], Hit | None]
    supersedes: tuple[str, ...] = ()


def apply_table(
    items: Iterable[RuleItem[View]],
    view: View,
    waived: Collection[tuple[str, str]] = (),
) -> list[ScoreItem]:
    """Score one reading: every item that applies, less those a scoring item supersedes.

    ``waived`` lists (superseding, superseded) pairs a rule option turns off.
    """
    hits = [(item, hit) for item in items if (hit := item.check(view)) is not None]
    return resolve_hits(hits, waived)


def resolve_hits(
    hits: Sequence[tuple[RuleItem[View], Hit]],
    waived: Collection[tuple[str, str]] = (),
) -> list[ScoreItem]:
    """The scored items of the items that applied, less those a scoring item supersedes.

    ``apply_table`` in two steps, for a rule set that checks some items once per hand and others
    once per reading, then resolves each reading's hits together.
    """
    hits = [(item, hit) for item, hit in hits if hit.times > 0]
    removed = superseded(hits, waived)
    out = []
    for item, hit in hits:
        if item.code in removed:
            continue
        key = (item.code, hit.name or item.name, item.value * hit.times, hit.why)
        scored = _SCORED.get(key) if type(key[2]) is int else None
        if scored is None:
            scored = build(ScoreItem, code=key[0], name=key[1], value=key[2], why=key[3])
            if type(key[2]) is int and len(_SCORED) < _SCORED_LIMIT:
                _SCORED[key] = scored
        out.append(scored)
    return out


def superseded(
    hits: Iterable[tuple[RuleItem[View], Hit]],
    waived: Collection[tuple[str, str]] = (),
) -> set[str]:
    """The codes that an item which applied and stands supersedes, less the ``waived`` pairs.

    Only an item that stands supersedes: one superseded itself removes nothing. 大四喜 removes
    見風見台, and where an option keeps 圈風刻 beside 大四喜 the removed 見風見台 must not take it
    away again. An item stands when none of the items that supersede it stands; each is decided
    after those above it, so the answer does not hang on the order of the hits. A cycle of
    supersessions would leave that undecided: it is an error in the table.
    """
    over: dict[str, list[str]] = {}  # code -> the applying items that supersede it
    for item, hit in hits:
        if item.supersedes and hit.times > 0:
            for code in item.supersedes:
                if (item.code, code) not in waived:
                    over.setdefault(code, []).append(item.code)
    if not over:
        return set()
    stands: dict[str, bool | None] = {}  # None: being decided

    def standing(code: str) -> bool:
        if code not in stands:
            stands[code] = None
            stands[code] = not any(standing(c) for c in over.get(code, ()))
        elif stands[code] is None:
            raise ValueError(f"the supersessions of {code!r} form a cycle")
        return bool(stands[code])

    return {code for code in over if not standing(code)}


# The frozen ``ScoreItem`` of each (code, name, value, why) made so far, shared by every result
# that scores it. Not a cache of hands: the same item with the same reason ("門清 1: no chi, pon or
# open kong") is scored by many different hands, and an item's fields are all it holds. Only int
# values are kept (so 1 and 1.0 or True never share an entry), and at most ``_SCORED_LIMIT``.
_SCORED: dict[tuple[str, str, int, str], ScoreItem] = {}
_SCORED_LIMIT = 4096


@dataclass(frozen=True)
class RuleOption:
    """A named table choice with a default; ``choices`` limits a string option.

    ``minimum`` is the least a whole-number option takes. Every one so far is a count, a 台 or
    番 amount, a base or a payment (docs/variants/), which a negative value turns into nonsense
    (a 底 of -100 paid as 100), so the least is 0 unless an option declares otherwise; one that
    may be a deduction declares ``minimum=None``."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = 0
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
    """What else a value must be, said without a hand (a text naming seats, say): the reason a
    value is wrong, or None. What needs the hand is checked when it is scored."""

    def coerce(self, value: Any) -> Any:
        expected = type(self.default)
        if expected is bool:
            if not isinstance(value, bool):
                raise self._wrong("takes true or false", value)
        elif expected is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._wrong("takes a whole number", value)
            if self.minimum is not None and value < self.minimum:
                raise self._wrong(f"takes a whole number of at least {self.minimum}", value)
        elif not isinstance(value, expected) and not self.choices:
            raise self._wrong(f"takes {kind_of(self.default)}", value)
        if self.choices and value not in self.choices:  # of any type: the choices say what is
            allowed = ", ".join(repr(c) for c in self.choices)
            raise self._wrong(f"is one of {allowed}", value)
        wrong = self.check(value) if self.check is not None else None
        if wrong is not None:
            raise RuleOptionError(f"rule option {self.name!r} {shown(value)}: {wrong}")
        return value

    def to_json(self) -> dict[str, Any]:
        """The option as a form shows it: its kind (``bool``, ``int``, ``text``; one with
        ``choices`` is picked from them), default, least value and the rule text's words."""
        kind = {bool: "bool", int: "int"}.get(type(self.default), "text")
        return {
            "name": self.name,
            "kind": kind,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum if kind == "int" else None,
            "doc": self.doc,
        }

    def _wrong(self, wanted: str, value: Any) -> RuleOptionError:
        return RuleOptionError(f"rule option {self.name!r} {wanted}, got {shown(value)}")


def resolve_options(
    options: Iterable[RuleOption], given: Mapping[str, Any], variant: str
) -> dict[str, Any]:
    """The defaults with the given options applied; an unknown name is an error, not ignored."""
    known = {o.name: o for o in options}
    for name in given:
        if name not in known:
            listed = ", ".join(sorted(known)) or "none"
            raise RuleOptionError(f"unknown rule option {name!r} for {variant} (known: {listed})")
    return {
        name: (o.coerce(given[name]) if name in given else o.default) for name, o in known.items()
    }
