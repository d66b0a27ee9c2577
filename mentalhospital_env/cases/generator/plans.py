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
from typing import Any

from ..model import Case
from . import variety
from .composer import CompositionError


def complete_plan(raw: dict[str, Any], case: Case, rng: random.Random) -> bool:
    """Complete ``raw``'s treatment plan with every critical action the case requires (in place);
    True when it changed. ``CompositionError`` when the plan proposes something the case forbids or
    the completed plan still misses an action."""
    from mentalhospital_env.knowledge.critical import load_critical_actions

    actions = load_critical_actions()
    treatment = raw["treatment"]
    profile = actions.profile(case)
    check = actions.check(profile, treatment["plan"])
    if check.contraindicated:
        raise CompositionError(f"plan proposes {', '.join(c.action for c in check.contraindicated)}, which the case forbids")
    if not check.missing:
        return False
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
    treatment["plan"] = plan
    treatment["safety"] = list(dict.fromkeys(list(treatment.get("safety", [])) + [s.rstrip(".") for s in added]))
    return True
