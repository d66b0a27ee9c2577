"""ICD-10-CM codes and the 15 diagnostic categories they map to (CASES.md's category table).

The table itself is data (``data/categories.json``); this module only reads it. A code maps to the
category of its longest matching prefix, so ``F45.22`` is ``obsessive_compulsive`` while ``F45.1`` is
``somatic_symptom``.
"""

from __future__ import annotations

import gzip
import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .language import memo_size

ICD10CM_PATTERN = re.compile(r"[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?\Z")
#: every category, subcategory and code of the ICD-10-CM tabular list (rebuilt by scripts/build_icd10cm_list.py)
ICD10CM_LIST = "data/icd10cm_codes.txt.gz"


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


@lru_cache(maxsize=1)
def _chart_codes() -> dict[str, tuple[str, str]]:
    raw = json.loads(resources.files(__package__).joinpath("data/chart_codes.json").read_text("utf-8"))
    return {code: (v["code"], v["title"]) for code, v in raw["codes"].items()}


def chart_code(code: str) -> tuple[str, str] | None:
    """The ICD-10 (WHO) code and title a UK chart writes for a knowledge-base (ICD-10-CM) code
    (``data/chart_codes.json``: ``F43.10`` -> ``("F43.1", "Post-traumatic stress disorder")``), or None
    for a code not listed. Display only: every key of the knowledge base and the scorers stays ICD-10-CM."""
    return _chart_codes().get(normalize_code(code))


def charted_diagnosis(code: str, name: str) -> str:
    """A diagnosis as a UK chart writes it: its title and ICD-10 (WHO) code, else ``name (code)``."""
    found = chart_code(code)
    return f"{found[1]} ({found[0]})" if found else f"{name} ({code})"


def normalize_code(code: str) -> str:
    """Upper-case, trimmed, with the dot after the third character (``f321`` -> ``F32.1``)."""
    c = code.strip().upper().replace(" ", "")
    if "." not in c and len(c) > 3:
        c = c[:3] + "." + c[3:]
    return c.rstrip(".")


def is_icd10cm_code(code: str) -> bool:
    """Whether ``code`` has the shape of an ICD-10-CM code (letter, two characters, optional dot part);
    the whole string must match (``"F32.1\\n"`` does not)."""
    return bool(ICD10CM_PATTERN.fullmatch(code))


@lru_cache(maxsize=1)
def _listed_families() -> dict[str, str]:
    """The shipped list by three-character family: ``{"F32": "||0|1|...|A|"}`` (``""`` is the family
    itself). About 1 MB in memory, where a set of the 98,000 codes would take over 10 MB."""
    raw = resources.files(__package__).joinpath(ICD10CM_LIST).read_bytes()
    families: dict[str, list[str]] = {}
    for line in gzip.decompress(raw).decode("ascii").split("\n"):
        if line and not line.startswith("#"):
            families.setdefault(line[:3], []).append(line[4:])
    return {family: "|" + "|".join(rest) + "|" for family, rest in families.items()}


def is_listed_code(code: str) -> bool:
    """Whether ``code`` is written exactly as a code of the ICD-10-CM tabular list (``F32.1`` yes,
    ``F99.99``, ``F32.ZZZZ`` and ``f32.1`` no)."""
    if not is_icd10cm_code(code) or (len(code) > 3 and code[3] != "."):
        return False
    family = _listed_families().get(code[:3])
    return family is not None and f"|{code[4:]}|" in family


@lru_cache(maxsize=memo_size(4096))
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
