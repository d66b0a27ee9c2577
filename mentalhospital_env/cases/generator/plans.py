"""Case-specific reference plans: every critical action the knowledge base requires for a case
(``knowledge/data/critical_actions.json`` through :mod:`mentalhospital_env.knowledge.critical`)
said in the plan, and nothing it forbids.

The knowledge base decides what a case needs (withdrawal: a benzodiazepine regimen by a symptom
scale, thiamine, withdrawal monitoring; lithium: levels, renal and thyroid function; delirium: the
cause, no benzodiazepine; a child: parents, school, safeguarding; an emergency: disposition, legal
framework, capacity; suicide risk: a safety plan, means, follow-up within days ...) and how a plan
says each action (its ``say`` sentence); this module adds the sentences a draft's plan lacks and
checks that the knowledge base reads the plan back as complete.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any, Mapping

from ..model import Case
from . import variety
from .composer import CompositionError, cap, load_material


def complete_plan(raw: dict[str, Any], case: Case, rng: random.Random) -> bool:
    """Complete ``raw``'s treatment plan with every critical action the case requires (in place);
    True when it changed. ``CompositionError`` when the plan proposes something the case forbids or
    the completed plan still misses an action."""
    from mentalhospital_env.knowledge.critical import load_critical_actions

    actions = load_critical_actions()
    treatment = raw["treatment"]
    profile = actions.profile(case)
    settled = settle_plan(treatment["plan"], case, rng)
    changed = settled != treatment["plan"]
    treatment["plan"] = settled
    check = actions.check(profile, treatment["plan"])
    if check.contraindicated:
        raise CompositionError(f"plan proposes {', '.join(c.action for c in check.contraindicated)}, which the case forbids")
    if not check.missing:
        return changed
    missing = check.missing
    # each said in one of its wordings (variety.json), read back by the check below like any other
    added = [variety.reword_plain("treatment", s, rng) or s for s in actions.sentences(missing)]
    plan = treatment["plan"].rstrip() + " " + " ".join(added)
    check = actions.check(profile, plan)
    if check.missing or check.contraindicated:  # a wording the knowledge base does not read: its own sentences
        added = actions.sentences(missing)
        plan = treatment["plan"].rstrip() + " " + " ".join(added)
        check = actions.check(profile, plan)
    if check.missing or check.contraindicated:
        raise CompositionError(f"plan still misses {[r.action for r in check.missing]} or proposes {[c.action for c in check.contraindicated]}")
    settled = settle_plan(plan, case, rng)
    if settled != plan:
        check = actions.check(profile, settled)
        if check.missing or check.contraindicated:
            raise CompositionError(f"the settled plan misses {[r.action for r in check.missing]}")
        plan = settled
    treatment["plan"] = plan
    treatment["safety"] = list(dict.fromkeys(list(treatment.get("safety", [])) + [s.rstrip(".") for s in added]))
    return True


def settle_plan(plan: str, case: Case, rng: random.Random) -> str:
    """The plan made to agree with itself and the results (joins.json): a test the results already
    hold is reported, not ordered; 'avoid benzodiazepines' beside a benzodiazepine withdrawal regimen
    says the regimen is the exception."""
    data = _joins()
    results = {e.name.lower(): e.result.lower() for e in case.exams}
    for rule in data["done_already"]["rules"]:
        if rule["result"] in results.get(rule["exam"].lower(), ""):
            plan = re.sub(rule["pattern"], lambda m: _cased(rng.choice(rule["instead"]), plan, m.start()), plan)
    plan = one_target(plan)
    he = {"male": "he", "female": "she"}.get(case.demographics.sex)
    if he:  # a knowledge-base sentence written for anyone ('if he or she agrees') names this patient
        plan = re.sub(r"\bhe or she\b", he, plan)
        plan = re.sub(r"\bhis or her\b", "his" if he == "he" else "her", plan)
    benzo = data["benzodiazepine_withdrawal"]
    low = plan.lower()
    if benzo["avoid"] in low and any(w in low for w in benzo["regimen_words"]):
        plan = re.sub(re.escape(benzo["avoid"]), lambda m: _cased(rng.choice(benzo["instead"]), plan, m.start()), plan, flags=re.I)
    return plan


@lru_cache(maxsize=1)
def _joins() -> Mapping[str, Any]:
    return load_material("joins")


def _cased(text: str, plan: str, at: int) -> str:
    """``text`` capitalised when it starts a sentence of ``plan`` at ``at``."""
    before = plan[:at].rstrip()
    return cap(text) if not before or before.endswith((".", "!", "?")) else text


_TARGET = re.compile(r"\b\d\.\d\s*(?:-|to)\s*\d\.\d\s*mmol/L")


def one_target(plan: str) -> str:
    """A plan that states a drug level's target range once: a later '(aim 0.4-1.0 mmol/L)' after an
    earlier target is dropped, a later different range becomes the first one."""
    found = _TARGET.findall(plan)
    if len(found) < 2:
        return plan
    first = _TARGET.search(plan)
    head, tail = plan[: first.end()], plan[first.end():]
    tail = re.sub(r"\s*\(aim\s+" + _TARGET.pattern + r"\)", "", tail)
    tail = _TARGET.sub(first.group(0), tail)
    return head + tail
