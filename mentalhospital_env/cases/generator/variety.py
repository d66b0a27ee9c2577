"""Phrase variety: a stock line of a record told in this record's own way (``data/variety.json``).

The frames and presentations write a few hundred charting lines ("Lives alone in a rented flat.",
"Not violent, now or in the past.", a mental-state descriptor, a plan's safety sentence) that many
records share word for word; a reader meets the same line again within twenty records. Each rule of
``variety.json`` matches one such line (a regular expression over the whole sentence, its groups kept)
and gives the ways a clinician writes the same fact, each a template whose ``[[a|b]]`` parts are
drawn separately, so that one rule yields dozens of sentences. Fields are the record's own (pronouns,
who holds the medicines at home, the setting's word for the next review). The meaning must not change:
``tests/test_generator_variety.py`` reads every rewording through the lexicon and requires the
concepts asserted and denied to be those of the line it replaces.

``additions`` are plan sentences that depend on who the patient is (an older adult on an SSRI, a
young adult starting an antidepressant, a patient living alone with a supply of tablets): added to the
plan when their conditions hold, never replacing a safety step.
"""

from __future__ import annotations

import random
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping

from mentalhospital_env.knowledge.language import memo_size

from .composer import load_material


@dataclass(frozen=True)
class Rule:
    sections: tuple[str, ...]  # section prefixes ("personal_history", "mental_status_exam", "treatment")
    pattern: re.Pattern[str]
    templates: tuple[str, ...]
    weights: tuple[int, ...]  # how many sentences each template can write: each sentence is as likely


_PARTS = re.compile(r"\[\[([^\[\]]*)\]\]")


def sentences_in(template: str) -> int:
    """How many sentences a template writes (the product of its parts' alternatives)."""
    n = 1
    for m in _PARTS.finditer(template):
        n *= len(m.group(1).split("|"))
    return n


@dataclass(frozen=True)
class Addition:
    when: Mapping[str, Any]
    templates: tuple[str, ...]


@lru_cache(maxsize=None)
def rules() -> tuple[Rule, ...]:
    data = load_material("variety")
    out = []
    for i, r in enumerate(data["rules"]):
        try:
            # the presentations' mental-state lines come without a full stop: one is optional
            source = r["match"][: -len("\\.$")] + "\\.?$" if r["match"].endswith("\\.$") else r["match"]
            pattern = re.compile(source if source.endswith("$") else source + "$", re.I)
        except re.error as e:  # pragma: no cover - a data error, named
            raise ValueError(f"variety.json rule {i}: bad pattern {r['match']!r}: {e}") from e
        out.append(Rule(tuple(r["sections"]), pattern, tuple(r["as"]), tuple(sentences_in(t) for t in r["as"])))
    return tuple(out)


@lru_cache(maxsize=None)
def additions() -> tuple[Addition, ...]:
    return tuple(Addition(a["when"], tuple(a["as"])) for a in load_material("variety")["additions"])


@lru_cache(maxsize=None)
def _by_section() -> dict[str, tuple[Rule, ...]]:
    table: dict[str, list[Rule]] = {}
    for r in rules():
        for s in r.sections:
            table.setdefault(s, []).append(r)
    return {k: tuple(v) for k, v in table.items()}


@lru_cache(maxsize=memo_size(8192))
def rule_for(section: str, text: str) -> tuple[Rule, re.Match[str]] | None:
    """The first rule for ``section`` (or the section's group, before the dot) that matches ``text``
    (remembered: most lines of a record are one of a few hundred, and most match no rule)."""
    table = _by_section()
    for key in (section, section.split(".", 1)[0]):
        for r in table.get(key, ()):
            m = r.pattern.match(text.strip())
            if m:
                return r, m
    return None


def reword(section: str, text: str, rng: random.Random, fill: Callable[..., str]) -> str | None:
    """``text`` said another way (a template drawn in proportion to the sentences it can write, so
    that no one wording of a rule is commoner than another; ``fill`` draws its parts and fields, the
    pattern's groups being the fields ``g1``, ``g2`` ...), or None when no rule matches."""
    found = rule_for(section, text)
    if found is None:
        return None
    rule, m = found
    # a group that opened the line may be set inside the new one: its first letter in lower case
    # ("Every 2 weeks" -> "Follow-up every 2 weeks"); the new line's own first letter is raised below
    groups = {f"g{i}": _lower_first(g or "") if m.start(i) == 0 else (g or "") for i, g in enumerate(m.groups(), 1)}
    template = rule.templates[0] if len(rule.templates) == 1 else rng.choices(rule.templates, rule.weights)[0]
    new = fill(template, **groups).strip()
    new = re.sub(r"\s+([,;.])", r"\1", re.sub(r"\s{2,}", " ", new))
    if not new.endswith((".", "!", "?", "'")):
        new += "."
    return new[:1].upper() + new[1:]


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def reword_plain(section: str, text: str, rng: random.Random) -> str | None:
    """:func:`reword` for a line said with no record at hand (a critical action's sentence, added to a
    finished plan): only rules whose templates need no field but their own groups; None otherwise."""
    found = rule_for(section, text)
    if found is None or any(re.search(r"\{(?!g\d+\})", t) for t in found[0].templates):
        return None

    def fill(template: str, **groups: str) -> str:
        return _PARTS.sub(lambda m: rng.choice(m.group(1).split("|")), template).format_map(groups)

    return reword(section, text, rng, fill)


def applies(when: Mapping[str, Any], facts: Mapping[str, Any]) -> bool:
    """Whether an addition's conditions hold for a patient (``facts``: age, setting, plan text, living, the
    case's diagnosis codes)."""
    age = facts["age"]
    if age < when.get("min_age", 0) or age > when.get("max_age", 200):
        return False
    if "setting" in when and facts["setting"] not in when["setting"]:
        return False
    plan = facts["plan"].lower()
    if "plan_has" in when and not re.search(when["plan_has"], plan):
        return False
    if "plan_lacks" in when and re.search(when["plan_lacks"], plan):
        return False
    if "living" in when and not re.search(when["living"], facts["living"].lower()):
        return False
    if "codes" in when and not any(c.startswith(tuple(when["codes"])) for c in facts.get("codes", ())):
        return False
    return True
