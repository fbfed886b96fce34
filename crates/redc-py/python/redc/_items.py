"""Batch inputs as lists: Python sequences, NumPy object arrays, Arrow
binary arrays and chunked arrays, pandas Series. NumPy's fixed-width
``S`` arrays are refused: their elements lose trailing zero bytes."""

from __future__ import annotations

from typing import Any, List


def as_list(items: Any, what: str, of: str = "bytes") -> List[Any]:
    """``items`` as a list, refusing a lone ``bytes`` or ``str`` (a common
    slip: a message where a list of messages was meant); ``of`` names what
    the items should be, for the messages."""
    if isinstance(items, list):
        return items
    if isinstance(items, (bytes, bytearray, str, memoryview)):
        raise TypeError(f"{what}: expected a sequence of {of}, found a single {type(items).__name__}")
    module = type(items).__module__
    if module.startswith("numpy"):
        if items.ndim != 1:
            raise TypeError(f"{what}: expected a one-dimensional array, found {items.ndim} dimensions")
        if items.dtype.kind == "S":
            # NumPy drops an element's trailing zero bytes: a signature or a
            # message ending in 0x00 would change.
            raise TypeError(f"{what}: a fixed-width bytes array drops trailing zero bytes; use dtype=object")
        return items.tolist()
    if module.startswith("pyarrow"):
        return items.to_pylist()
    if hasattr(items, "tolist"):
        return items.tolist()
    try:
        return list(items)
    except TypeError:
        raise TypeError(f"{what}: expected a sequence of {of}, found {type(items).__name__}") from None
