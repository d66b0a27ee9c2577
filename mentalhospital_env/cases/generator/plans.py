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
    settled = settle_plan(treatment["plan"], case, rng, profile)
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
    settled = settle_plan(plan, case, rng, profile)
    if settled != plan:
        check = actions.check(profile, settled)
        if check.missing or check.contraindicated:
            raise CompositionError(f"the settled plan misses {[r.action for r in check.missing]}")
        plan = settled
    treatment["plan"] = plan
    treatment["safety"] = list(dict.fromkeys(list(treatment.get("safety", [])) + [s.rstrip(".") for s in added]))
    return True


def settle_plan(plan: str, case: Case, rng: random.Random, profile: Any = None) -> str:
    """The plan made to agree with itself and the results (joins.json): a test the results already
    hold is reported, not ordered; a knowledge-base clause said as the patient's facts call for
    (:func:`in_case_words`); 'avoid benzodiazepines' beside a benzodiazepine withdrawal regimen
    says the regimen is the exception."""
    data = _joins()
    results = {e.name.lower(): e.result.lower() for e in case.exams}
    for rule in data["done_already"]["rules"]:
        if rule["result"] in results.get(rule["exam"].lower(), ""):
            plan = re.sub(rule["pattern"], lambda m: _cased(rng.choice(rule["instead"]), plan, m.start()), plan)
    plan = one_target(plan)
    plan = in_case_words(plan, case, rng, profile)
    he = {"male": "he", "female": "she"}.get(case.demographics.sex)
    if he:  # a knowledge-base sentence written for anyone ('if he or she agrees') names this patient
        plan = re.sub(r"\bhe or she\b", he, plan)
        plan = re.sub(r"\bhis or her\b", "his" if he == "he" else "her", plan)
    benzo = data["benzodiazepine_withdrawal"]
    low = plan.lower()
    if benzo["avoid"] in low and any(w in low for w in benzo["regimen_words"]):
        plan = re.sub(re.escape(benzo["avoid"]), lambda m: _cased(rng.choice(benzo["instead"]), plan, m.start()), plan, flags=re.I)
    return plan


def case_facts(case: Case, profile: Any = None) -> dict[str, Any]:
    """What joins.json's ``case_wording`` rules ask of a patient: the suicide risk as the knowledge
    base reads it, the setting, detention, children, living alone, and the exams on file."""
    from mentalhospital_env.knowledge.critical import load_critical_actions

    profile = profile or load_critical_actions().profile(case)
    data = _joins()["case_wording"]
    ehr = case.ehr
    story = " ".join(t for t in (ehr.chief_complaint, ehr.history_of_present_illness, ehr.past_psychiatric_history) if t)
    living = str(getattr(case.demographics, "living_situation", "") or "").lower()
    exams = {e.name: e.result for e in case.exams}
    risk = "active" if "active_suicide" in profile.risks else "passive" if "suicide" in profile.risks else "none"
    return {
        "risk": risk,
        "setting": case.setting,
        "detained": bool(re.search(data["detained_pattern"], story, re.I)),
        "children": profile.dependants,
        "alone": bool(re.search(r"\balone\b|homeless|rough|hostel", living)),
        "exams": exams,
        "scale": next((n for n in data["depression_scales"] if n in exams), None),
    }


def _holds(when: Mapping[str, Any], facts: Mapping[str, Any]) -> bool:
    for key, want in when.items():
        if key == "on_file":
            if (facts["scale"] is None) if want == "depression" else (want not in facts["exams"]):
                return False
        elif isinstance(want, list):
            if facts[key] not in want:
                return False
        elif facts[key] != want:
            return False
    return True


def in_case_words(plan: str, case: Case, rng: random.Random, profile: Any = None) -> str:
    """Each knowledge-base clause that ``case_wording`` (joins.json) knows, said as this patient's
    facts call for: the means restriction by the suicide risk and setting, the Mental Health Act for a
    patient already detained, children's safeguarding for a record with no child, a depression screen
    or a thyroid test whose result is already on file."""
    data = _joins()["case_wording"]
    facts = None
    for rule in data["rules"]:
        pattern = _pattern(rule["pattern"])
        if not pattern.search(plan):
            continue
        if facts is None:
            facts = case_facts(case, profile)
            sex = case.demographics.sex
            words = {"male": ("he", "him", "his"), "female": ("she", "her", "her")}.get(sex, ("they", "them", "their"))
            fields = {"subj": words[0], "obj": words[1], "poss": words[2]}
            if facts["scale"]:
                found = re.search(r"\d+/\d+", facts["exams"][facts["scale"]])
                fields.update(scale=facts["scale"], score=found.group(0) if found else facts["exams"][facts["scale"]].split(" (")[0])
            if "TSH" in facts["exams"]:
                found = re.search(r"\d+(?:\.\d+)?", facts["exams"]["TSH"])
                fields["TSH"] = f"{found.group(0)} mIU/L" if found else "on file"
        if not _holds(rule["when"], facts):
            continue
        said = rng.choice(rule["as"]).format_map(fields)
        plan = pattern.sub(lambda m: _cased(said, plan, m.start()) if m.group(0)[:1].isupper() else said, plan)
    return plan


@lru_cache(maxsize=None)
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


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
