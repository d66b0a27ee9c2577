"""Field checks for the package's JSON data loaders: one shape of check and of message, each loader's own error.

A loader reads a JSON object and needs a field of a kind (``required``) or a finite number (``finite``); where it
is missing or of the wrong kind the loader raises its own error type (``TopicModelError``, ``PairSetError`` ...)
with a message that names the place (file, file and line) and the field. Standard library only, and no import of
the package, so that any module of it (and ``rewards/``, which builds on it) can use these.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["finite", "required"]


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def required(raw: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str, error: type[Exception]) -> Any:
    """``raw[name]``, which must be there and of ``kind``; a bool is no int or float (JSON's ``true`` is no count)."""
    if name not in raw:
        raise error(f"{where}: missing field {name!r}")
    value = raw[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in kinds):
        raise error(f"{where}: field {name!r} must be {_kind_name(kind)}, got {type(value).__name__} {_shown(value)}")
    return value


def finite(value: Any, name: str, where: str, error: type[Exception]) -> float:
    """``value`` as a float, which must be a finite JSON number (not a bool, not NaN or infinity)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise error(f"{where}: field {name!r} must hold finite numbers, got {_shown(value)}")
    return float(value)
