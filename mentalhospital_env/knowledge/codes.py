"""ICD-10-CM codes and the 15 diagnostic categories they map to (CASES.md's category table).

The table itself is data (``data/categories.json``); this module only reads it. A code maps to the
category of its longest matching prefix, so ``F45.22`` is ``obsessive_compulsive`` while ``F45.1`` is
``somatic_symptom``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

ICD10CM_PATTERN = re.compile(r"^[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    covers: str
    prefixes: tuple[str, ...]


@lru_cache(maxsize=1)
def load_categories() -> tuple[Category, ...]:
    """The 15 categories, in the order of CASES.md."""
    raw = json.loads(resources.files(__package__).joinpath("data/categories.json").read_text("utf-8"))
    return tuple(
        Category(c["id"], c["name"], c["covers"], tuple(c["prefixes"])) for c in raw["categories"]
    )


@lru_cache(maxsize=1)
def category_ids() -> tuple[str, ...]:
    return tuple(c.id for c in load_categories())


@lru_cache(maxsize=1)
def _prefix_table() -> tuple[tuple[str, str], ...]:
    pairs = [(p, c.id) for c in load_categories() for p in c.prefixes]
    return tuple(sorted(pairs, key=lambda pc: -len(pc[0])))


def normalize_code(code: str) -> str:
    """Upper-case, trimmed, with the dot after the third character (``f321`` -> ``F32.1``)."""
    c = code.strip().upper().replace(" ", "")
    if "." not in c and len(c) > 3:
        c = c[:3] + "." + c[3:]
    return c.rstrip(".")


def is_icd10cm_code(code: str) -> bool:
    """Whether ``code`` has the shape of an ICD-10-CM code (letter, two characters, optional dot part)."""
    return bool(ICD10CM_PATTERN.match(code))


@lru_cache(maxsize=4096)
def category_of_code(code: str) -> str | None:
    """The category id of an ICD-10-CM code, or ``None`` when the code is outside the table."""
    c = normalize_code(code)
    for prefix, cat in _prefix_table():
        if c.startswith(prefix):
            return cat
    return None


def code_family(code: str) -> str:
    """The three-character family of a code (``F32.1`` -> ``F32``)."""
    return normalize_code(code)[:3]
