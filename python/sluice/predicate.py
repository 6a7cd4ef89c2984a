"""Filters by pypaimon's PredicateBuilder names, built into Sluice's predicates.

Literals are Python values (int, float, str, bool, bytes, Decimal, date, time, datetime, numpy
and pandas scalars); each is written as the text of the column's type (what `sluice read`
prints) and parsed by the library against that type, so a literal means what it means
everywhere else in Sluice.
"""

import base64
import datetime
import decimal
import json
import math
from typing import Any, List, Optional

from . import _native


class Predicate:
    """A filter for ReadBuilder.with_filter; str() gives it as a where-expression."""

    def __init__(self, native):
        self._native = native

    def __str__(self):
        return str(self._native)

    def __repr__(self):
        return "Predicate(" + str(self._native) + ")"


def _literal_text(value: Any) -> Optional[str]:
    if value is None:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # numpy / pandas scalars
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return json.dumps({"base64": base64.b64encode(bytes(value)).decode("ascii")})
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            # An instant: TIMESTAMP WITH LOCAL TIME ZONE literals are written as UTC.
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    raise TypeError("cannot use a " + type(value).__name__ + " as a filter literal")


class PredicateBuilder:
    """pypaimon's PredicateBuilder: made by ReadBuilder.new_predicate_builder()."""

    def __init__(self, native_table):
        self._factory = native_table.predicate_factory()

    def _leaf(self, op: str, field: str, literals: List[Any]) -> Predicate:
        return Predicate(self._factory.leaf(op, field, [_literal_text(v) for v in literals]))

    def equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("equal", field, [literal])

    def not_equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("not_equal", field, [literal])

    def less_than(self, field: str, literal: Any) -> Predicate:
        return self._leaf("less_than", field, [literal])

    def less_or_equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("less_or_equal", field, [literal])

    def greater_than(self, field: str, literal: Any) -> Predicate:
        return self._leaf("greater_than", field, [literal])

    def greater_or_equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("greater_or_equal", field, [literal])

    def is_null(self, field: str) -> Predicate:
        return self._leaf("is_null", field, [])

    def is_not_null(self, field: str) -> Predicate:
        return self._leaf("is_not_null", field, [])

    def is_in(self, field: str, literals: List[Any]) -> Predicate:
        return self._leaf("is_in", field, list(literals))

    def is_not_in(self, field: str, literals: List[Any]) -> Predicate:
        return self._leaf("is_not_in", field, list(literals))

    def between(self, field: str, included_lower_bound: Any,
                included_upper_bound: Any) -> Predicate:
        return self.and_predicates([self.greater_or_equal(field, included_lower_bound),
                                    self.less_or_equal(field, included_upper_bound)])

    def not_between(self, field: str, included_lower_bound: Any,
                    included_upper_bound: Any) -> Predicate:
        return self.or_predicates([self.less_than(field, included_lower_bound),
                                   self.greater_than(field, included_upper_bound)])

    def startswith(self, field: str, pattern_literal: str) -> Predicate:
        return self._leaf("startswith", field, [pattern_literal])

    def endswith(self, field: str, pattern_literal: str) -> Predicate:
        return self._leaf("like", field, ["%" + _escape_like(pattern_literal)])

    def contains(self, field: str, pattern_literal: str) -> Predicate:
        return self._leaf("like", field, ["%" + _escape_like(pattern_literal) + "%"])

    def like(self, field: str, pattern_literal: str) -> Predicate:
        return self._leaf("like", field, [pattern_literal])

    @staticmethod
    def and_predicates(predicates: List[Predicate]) -> Optional[Predicate]:
        if not predicates:
            return None
        return Predicate(_native.Predicate.and_([p._native for p in predicates]))

    @staticmethod
    def or_predicates(predicates: List[Predicate]) -> Optional[Predicate]:
        if not predicates:
            return None
        return Predicate(_native.Predicate.or_([p._native for p in predicates]))

    @staticmethod
    def not_predicate(predicate: Predicate) -> Predicate:
        return Predicate(_native.Predicate.not_(predicate._native))


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
