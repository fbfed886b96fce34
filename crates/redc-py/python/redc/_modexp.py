"""``modexp``: Python's ``pow(base, exp, mod)`` on redc's engine, equal to
``pow`` for every input (negative bases and exponents, even and negative
moduli), single or batched with the GIL released."""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Tuple, Union

from redc import _redc
from redc._items import as_list

__all__ = ["modexp", "modexp_batch"]


def _signed(x: Any, what: str) -> Tuple[bool, bytes]:
    try:
        x = operator.index(x)
    except TypeError:
        raise TypeError(f"{what}: expected int, found {type(x).__name__}") from None
    m = -x if x < 0 else x
    return (x < 0, m.to_bytes((m.bit_length() + 7) // 8, "big"))


def _int(answer: Any) -> Any:
    if isinstance(answer, BaseException):
        return answer
    negative, magnitude = answer
    x = int.from_bytes(magnitude, "big")
    return -x if negative else x


def modexp(base: int, exp: int, mod: int, *, backend: Optional[str] = None) -> int:
    """``pow(base, exp, mod)``; raises ``ValueError`` where ``pow`` does
    (``mod == 0``, a negative ``exp`` of a base with no inverse)."""
    triple = ([_signed(base, "base")], [_signed(exp, "exp")], [_signed(mod, "mod")])
    (answer,) = _redc.modexp_batch(*triple, "base", "mod", backend)
    answer = _int(answer)
    if isinstance(answer, BaseException):
        raise answer
    return answer


def modexp_batch(
    bases: Any, exponents: Any, moduli: Any, *, backend: Optional[str] = None
) -> List[Union[int, Exception]]:
    """``pow(b, e, m)`` for every triple, as one engine batch with the GIL
    released; ``exponents`` or ``moduli`` may be one int for all. An item
    ``pow`` refuses gets its exception in its slot."""
    bs = [_signed(b, f"bases[{i}]") for i, b in enumerate(as_list(bases, "bases", "ints"))]
    n = len(bs)

    def column(x: Any, what: str) -> List[Tuple[bool, bytes]]:
        if isinstance(x, int):
            return [_signed(x, what)] * n
        items = as_list(x, what, "ints")
        if len(items) != n:
            raise ValueError(f"{what}: {len(items)} items for {n} bases")
        return [_signed(v, f"{what}[{i}]") for i, v in enumerate(items)]

    es, ms = column(exponents, "exponents"), column(moduli, "moduli")
    return [_int(a) for a in _redc.modexp_batch(bs, es, ms, "bases[]", "moduli[]", backend)]
