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
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from functools import lru_cache
from typing import Any, Mapping

from ..model import Case
from . import variety
from .composer import CompositionError, cap, load_material


def complete_plan(raw: dict[str, Any], case: Case, rng: random.Random) -> bool:
    """Complete ``raw``'s treatment plan with every critical action the case requires and make it
    follow the record (:func:`follow_record`), in place; True when it changed. ``CompositionError`` when
    the plan proposes something the case forbids or the completed plan still misses an action."""
    from mentalhospital_env.knowledge.critical import load_critical_actions

    actions = load_critical_actions()
    treatment = raw["treatment"]
    original = treatment["plan"]
    meds_before = [dict(m) for m in treatment.get("medications") or ()]
    follow_up_before = treatment.get("follow_up")
    add_needed_drugs(treatment, case, rng)
    profile = actions.profile(case)
    plan = settle_plan(treatment["plan"], case, rng, profile)
    check = actions.check(profile, plan)
    if check.contraindicated:
        raise CompositionError(f"plan proposes {', '.join(c.action for c in check.contraindicated)}, which the case forbids")
    added: list[str] = []
    if check.missing:
        missing = check.missing
        # each said in one of its wordings (variety.json), read back by the check below like any other
        added = [variety.reword_plain("treatment", s, rng) or s for s in actions.sentences(missing)]
        longer = plan.rstrip() + " " + " ".join(added)
        check = actions.check(profile, longer)
        if check.missing or check.contraindicated:  # a wording the knowledge base does not read: its own sentences
            added = actions.sentences(missing)
            longer = plan.rstrip() + " " + " ".join(added)
            check = actions.check(profile, longer)
        if check.missing or check.contraindicated:
            raise CompositionError(f"plan still misses {[r.action for r in check.missing]} or proposes {[c.action for c in check.contraindicated]}")
        plan = settle_plan(longer, case, rng, profile)
    plan = follow_record(plan, treatment, case, rng, profile)
    plan = without_teaching(plan)
    plan = said_once(plan)
    if treatment.get("safety"):
        treatment["safety"] = [without_teaching(s) for s in treatment["safety"]]
    for m in treatment.get("medications") or ():
        if m.get("dose"):
            m["dose"] = without_teaching(m["dose"])
    check = actions.check(profile, plan)
    if check.missing or check.contraindicated:
        raise CompositionError(f"the plan as the record calls for misses {[r.action for r in check.missing]} or proposes {[c.action for c in check.contraindicated]}")
    treatment["plan"] = plan
    if added:  # the safety list says each added action as the plan now says it
        said = [_closest(a, _plan_sentences(plan)).rstrip(".") for a in added]
        treatment["safety"] = list(dict.fromkeys(list(treatment.get("safety", [])) + said))
    return plan != original or bool(added) or treatment.get("medications") != meds_before or treatment.get("follow_up") != follow_up_before


@lru_cache(maxsize=1)
def _teaching() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(p), r) for p, r in load_material("records")["teaching_text"])


@lru_cache(maxsize=1)
def _tail_families() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.I) for p in load_material("wording")["tail_families"])


_BARE_WITH = re.compile(r"(?:with|by) (?:his|her|their|the) \w+", re.I)


def said_once(plan: str) -> str:
    """The plan with no clause saying one of wording.json's ``tail_families`` twice: the rewrites of an admitted
    patient's plan (review.json ``admitted_rewrites``) and the record's own tails can each add a setting or a
    time ('in clinic after discharge, weekly at first, then monthly, with lithium levels after discharge'). The
    later saying goes: its words, or its whole comma-part when what is left is a bare 'with her parents' or two
    words ('phone contact', 'to continue')."""
    for _ in range(6):
        changed = False
        start = 0
        for clause in re.split(r"(?<=[.;:])\s+", plan):
            at = plan.find(clause, start)
            start = at + len(clause)
            for rx in _tail_families():
                found = list(rx.finditer(clause))
                if len(found) < 2:
                    continue
                m = found[-1]
                left = clause.rfind(",", 0, m.start())
                right = min([i for i in (clause.find(",", m.end()), len(clause.rstrip(".;:"))) if i >= 0])
                seg_from = left + 1 if left >= 0 else 0
                rest = (clause[seg_from:m.start()] + clause[m.end():right]).strip()
                if left >= 0 and (_BARE_WITH.fullmatch(rest) or len(rest.split()) <= 2):  # 'phone contact', 'to continue
                    new = clause[:left] + clause[right:]
                else:
                    new = re.sub(r"\s{2,}", " ", clause[:m.start()].rstrip() + " " + clause[m.end():].lstrip()).replace(" ,", ",").replace(" .", ".").replace(" ;", ";")
                plan = plan[:at] + new + plan[at + len(clause):]
                changed = True
                break
            if changed:
                break
        if not changed:
            break
    return plan


def without_teaching(plan: str) -> str:
    """``plan`` without the qualifiers that teach rather than decide (records.json ``teaching_text``;
    the audit's text.teaching): "(risk can be high despite the 'mild' label)", "where relevant" (stop 29)."""
    for pattern, instead in _teaching():
        plan = pattern.sub(instead, plan)
    return re.sub(r"\s{2,}", " ", plan).strip()


def _plan_sentences(plan: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(])", plan) if s.strip()]


def _closest(sentence: str, candidates: list[str]) -> str:
    """Of ``candidates``, the one sharing most words with ``sentence`` (an added action after the plan was settled)."""
    words = set(re.findall(r"[a-z0-9]+", sentence.lower()))
    best, score = sentence, 0.0
    for c in candidates:
        other = set(re.findall(r"[a-z0-9]+", c.lower()))
        s = len(words & other) / (len(words | other) or 1)
        if s > score:
            best, score = c, s
    return best


# ------------------------------------------------------------------ the plan as the record calls for


def add_needed_drugs(treatment: dict[str, Any], case: Case, rng: random.Random) -> bool:
    """An antipsychotic added to the plan of an illness with psychotic features that has none (psychotic
    depression on an antidepressant, schizoaffective mania on lithium): the first antipsychotic the case's
    disorders list, with its starting dose; True when one was added."""
    from ..audit import antipsychotic_needed

    if not antipsychotic_needed(case, treatment.get("medications")):
        return False
    from mentalhospital_env.knowledge import load_knowledge

    P = _rules()
    kb = load_knowledge()
    codes = set(case.diagnosis.codes)
    forbidden = set()
    for ref in case.diagnosis.disorders:
        try:
            forbidden |= {c.drug.lower() for c in kb.disorder(ref.code).contraindicated_drugs}
        except KeyError:
            continue
    for ref in case.diagnosis.disorders:
        try:
            entry = kb.disorder(ref.code)
        except KeyError:
            continue
        for m in entry.treatment.medications:
            drug = kb.resolve_drug(m.drug)
            if drug is None or P["antipsychotic_class"] not in drug.drug_class.lower():
                continue
            if set(drug.unsafe_with) & codes or drug.name.lower() in forbidden:
                continue
            dose = m.starting_dose or drug.starting_dose
            name = drug.name
            treatment.setdefault("medications", []).append({"name": name, "dose": dose})
            said = rng.choice(P["add_antipsychotic"]).format(drug=name, dose=dose).replace("  ", " ")
            treatment["plan"] = _insert_after_drugs(treatment["plan"], said)
            return True
    return False


def _insert_after_drugs(plan: str, said: str) -> str:
    """``said`` placed after the plan's last sentence that starts or continues a drug (else after the first)."""
    sentences = _plan_sentences(plan)
    at = 1
    for i, s in enumerate(sentences):
        if re.match(r"(?:Start|Begin|Commence|Offer|Continue|Resume|Restart)\b", s):
            at = i + 1
    return " ".join(sentences[:at] + [said] + sentences[at:])


def follow_record(plan: str, treatment: dict[str, Any], case: Case, rng: random.Random, profile: Any = None) -> str:
    """The plan made to follow the record (review.json ``plan_record``): a relapse-prevention drug for a
    drinker still drinking is started once withdrawal is complete and moderation becomes abstinence;
    hazardous drinking on the AUDIT with no alcohol diagnosis gets brief advice;
    thiamine is given by mouth to an outpatient (a first dose of Pabrinex in the emergency department); a
    pregnancy test and contraception only for a woman who could become pregnant, and for a drug she continues
    a review of contraception, not a test 'before the first dose'; an inpatient's plan is not a community
    one; a plan that admits the patient today does not open 'outpatient management'; delirium in the
    emergency department is a medical admission; 'decide disposition' becomes the decision the record's
    risks call for. The medication list follows the plan."""
    from ..audit import abstinence_first, benzodiazepine_caution, continued_drugs, record_needs, record_overreach, record_status, restarted_drugs, unanswered_audit

    P = _rules()
    status = record_status(case)
    sentences = _plan_sentences(plan)
    he = {"male": "he", "female": "she"}.get(case.demographics.sex, "they")
    if status["still_drinking"]:
        timed = re.compile(P["after_withdrawal_pattern"], re.I)
        drugs = re.compile(r"\b(" + "|".join(P["relapse_drugs"]) + r")\b", re.I)
        for i, s in enumerate(sentences):
            if drugs.search(s) and not timed.search(s) and not _refused(s):
                sentences[i] = s.rstrip(" .") + ", " + rng.choice(P["after_withdrawal"]) + "."
        for rule in P["moderation_rewrites"]:
            pattern = re.compile(rule["pattern"])
            sentences = [pattern.sub(lambda m: rng.choice(rule["as"]).format(R=m.group(1) if m.lastindex else "r"), s) for s in sentences]
        late = set(abstinence_first(" ".join(sentences)))  # an antidepressant waits for 3-4 weeks of abstinence (NICE CG115)
        sentences = [cap(rng.choice(P["abstinence_first"]).format(subj=he, rest=s[:1].lower() + s[1:])) if s in late else s for s in sentences]
    elif status["still_using"]:  # a principal drug dependence still going on: an antidepressant waits for abstinence (review.json use_first)
        late = set(abstinence_first(" ".join(sentences)))
        sentences = [cap(rng.choice(P["use_first"]["as"]).format(subj=he, rest=s[:1].lower() + s[1:])) if s in late else s for s in sentences]
    for drug in restarted_drugs(case, " ".join(sentences)):  # a drug the history says was taken before is restarted
        sentences = [re.sub(P["restart"]["start_pattern"].replace("(\\w+)", re.escape(drug)), P["restart"]["as"] + " " + drug, x) for x in sentences]
    score = unanswered_audit(case, " ".join(sentences))
    if score is not None:
        sentences.append(rng.choice(P["hazardous_drinking"]).format(score=score))
    setting = case.setting
    unstable = P["medically_unstable_discharge"]
    if setting in unstable["settings"] and profile is not None and any(c.startswith(tuple(unstable["codes"])) for c in status["codes"]):
        from mentalhospital_env.knowledge.critical import load_critical_actions

        if any(r.action == unstable["action"] for r in load_critical_actions().requirements(profile)[0]):
            # stop 37 (test-v2-0465): an anorexia with a pulse of 43 and a 53 mmHg postural fall 'discharged home today' from
            # the emergency department ('emergency department' reads as the medical assessment): admitted under the medical team
            home = re.compile(unstable["pattern"], re.I)
            said = rng.choice(unstable["as"])
            sentences = [home.sub(said, x) for x in sentences]
    whole = " ".join(sentences)
    admitted = re.search(P["admitted_pattern"], whole, re.I)
    if setting in P["thiamine_by_setting"] and not admitted:
        for i, s in enumerate(sentences):
            if re.search(P["thiamine_pattern"], s, re.I) and re.search(P["parenteral_pattern"], s) and not re.search(P["supervised_pattern"], s, re.I):
                sentences[i] = rng.choice(P["thiamine_by_setting"][setting]).format(subj=he)
    if not status["childbearing"]:
        sentences = [s for s in sentences if not (re.search(P["pregnancy_pattern"], s, re.I) and _about_pregnancy_test(s))]
        sentences = [re.sub(P["pregnancy_note_pattern"], "", s) for s in sentences]
        for m in treatment.get("medications") or ():
            m["dose"] = re.sub(P["pregnancy_note_pattern"], "", m.get("dose") or "")
    else:
        kept = continued_drugs(" ".join(sentences), P["teratogens"])
        if kept:
            first = re.compile(P["pregnancy_first_pattern"], re.I)
            sentences = [rng.choice(P["pregnancy_continued"]).format(drug=kept[0]) if first.search(s) else s for s in sentences]
    if setting == "inpatient":
        for rule in P["inpatient_rewrites"]:
            pattern = re.compile(rule["pattern"], re.I)
            sentences = [pattern.sub(lambda m: _cased(rng.choice(rule["as"]), s, m.start()), s) for s in sentences]
        sentences = [s if s.rstrip().endswith((".", "!", "?")) else s.rstrip(" ;,") + "." for s in sentences if s.strip(" .;,")]
    if sentences and setting == "outpatient" and admitted and re.match(P["outpatient_opener_pattern"], sentences[0]):
        sentences[0] = rng.choice(P["admitted_openers"])
    if admitted or setting == "inpatient":  # admitted today: no 'consider admission if unstable', the clinic review after discharge
        for rule in P["admitted_rewrites"]:
            if setting == "inpatient" and not rule.get("inpatient"):
                continue
            pattern = re.compile(rule["pattern"], re.I)
            if not any(pattern.search(x) for x in [*sentences, *(treatment.get("safety") or ()), treatment.get("follow_up") or ""]):
                continue
            said = rng.choice(rule["as"])
            sentences = [pattern.sub(lambda m: m.expand(said), x) for x in sentences]
            sentences = [x if x.rstrip().endswith((".", "!", "?")) else x.rstrip(" ;,") + "." for x in sentences if x.strip(" .;,")]
            treatment["safety"] = [y for y in (pattern.sub(lambda m: m.expand(said), x).strip(" ;,") for x in treatment.get("safety") or ()) if y]
            if treatment.get("follow_up"):
                treatment["follow_up"] = pattern.sub(lambda m: m.expand(said), treatment["follow_up"]).strip(" ;,") or treatment["follow_up"]
    deferred = re.compile(P["disposition_deferred_pattern"])
    if setting in P["disposition_decided"] and any(deferred.fullmatch(x) for x in sentences):
        risks = set(getattr(profile, "risks", ()) or ())
        psychosis = any(c.startswith(tuple(P["psychosis_codes"])) for c in status["codes"])
        level = "high" if risks & {"active_suicide", "violence"} or psychosis else "low"
        him = {"male": "him", "female": "her"}.get(case.demographics.sex, "them")
        said = rng.choice(P["disposition_decided"][setting][level]).format(subj=he, obj=him)
        sentences = [said if deferred.fullmatch(x) else x for x in sentences]
    him, his = {"male": ("him", "his"), "female": ("her", "her")}.get(case.demographics.sex, ("them", "their"))
    for name, rule, _why in record_needs(case, " ".join(sentences)):
        where = "inpatient" if setting == "emergency" and admitted else setting  # admitted from the department: the ward's wording
        alone = setting == "outpatient" and re.search(_stop31(), case.demographics.living_situation or "", re.I) and rule.get("say_alone")
        says = next((v for code, v in (rule.get("say_codes") or {}).items() if any(c.startswith(code) for c in status["codes"])), None) or alone or rule.get(f"say_{where}") or rule["say"]
        lives = {"male": "He lives", "female": "She lives"}.get(case.demographics.sex, "They live")
        many = bool(re.search(r"\bchildren\b|\b(?:two|three|four) (?:sons|daughters)\b", case.demographics.living_situation or ""))
        kids = dict(kids="children" if many else "a child", Kids="Children" if many else "A child", the_kids="the children" if many else "the child",
                    the_kids_poss="the children's" if many else "the child's", is_are="are" if many else "is")
        said = rng.choice(says).format(subj=he, obj=him, poss=his, poss_cap=cap(his), age=case.demographics.age, Subj_lives=lives, **kids, **rule.get("values", {}))
        said = cap(said)
        if rule.get("beside"):  # beside the plan's own sentence on it (the liver, the detoxification), else at the end
            at = max((i + 1 for i, x in enumerate(sentences) if re.search(rule["beside"], x, re.I)), default=len(sentences))
        elif rule.get("at") == "end":
            at = len(sentences)
        else:  # who is seen and how: after the opening line
            at = min(1, len(sentences))
        sentences.insert(at, said)
    follow_up = treatment.get("follow_up") or ""
    for rule, _m in record_overreach(case, f"{' '.join(sentences)} {follow_up}".strip(), profile):  # what the record does not call for, struck or said as it does
        pattern = re.compile(rule["pattern"], re.I)
        if follow_up:
            treatment["follow_up"] = follow_up = pattern.sub(lambda m: m.expand(rng.choice(rule["as"]).replace("{subj}", he)), follow_up).strip(" ;,") or follow_up
        sentences = [pattern.sub(lambda m, s=s: _cased(m.expand(rng.choice(rule["as"]).replace("{subj}", he)), s, m.start()), s) for s in sentences]
        sentences = [cap(s.lstrip(" ;,")) if s.rstrip().endswith((".", "!", "?")) else cap(s.lstrip(" ;,")).rstrip(" ;,") + "." for s in sentences if s.strip(" .;,")]
        treatment["safety"] = [pattern.sub(lambda m: m.expand(rng.choice(rule["as"]).replace("{subj}", he)), x).strip(" ;,") for x in treatment.get("safety") or ()]
        treatment["safety"] = [x for x in treatment["safety"] if x]
    sentences = _benzodiazepine_told_once(case, sentences, P, benzodiazepine_caution(case))
    if benzodiazepine_caution(case):  # the medication list gives the drug the plan now gives (lorazepam for chlordiazepoxide)
        swap = P["record_needs"]["benzodiazepine_choice"]["medication"]
        meds = treatment.get("medications") or []
        if any(str(m.get("name", "")).lower() == swap["from"] for m in meds):
            kept = [m for m in meds if str(m.get("name", "")).lower() not in (swap["from"], swap["name"])]
            at = next(i for i, m in enumerate(meds) if str(m.get("name", "")).lower() == swap["from"])
            kept.insert(min(at, len(kept)), {"name": swap["name"], "dose": swap["dose"]})
            treatment["medications"] = kept
    S36 = _stop36()
    if any(c.startswith("F10") for c in status["codes"]) and (any(b in str(m.get("name", "")).lower() for m in treatment.get("medications") or () for b in S36["benzodiazepines"]) or re.search(S36["given_benzodiazepine_pattern"], " ".join(sentences))):
        # stop 35's R6: lorazepam for the alcohol withdrawal beside buprenorphine, and the opioid plan's 'avoid combining with
        # benzodiazepines' kept in the safety list: the list says what is done instead (the audit's plan.benzodiazepine_contradiction)
        treatment["safety"] = [rng.choice(S36["benzodiazepine_safety_as"]) if re.search(S36["avoid_benzodiazepine_pattern"], x) else x for x in treatment.get("safety") or ()]
    delirium = any(c.startswith(tuple(P["medical_admission_codes"])) for c in status["codes"])
    if sentences and setting == "emergency" and delirium and not re.search(P["medical_admission_pattern"], sentences[0], re.I):
        sentences[0] = rng.choice(P["medical_admission_openers"])
    kept_in = P["kept_in"]  # stop 43: 'home today with crisis team follow-up' beside 'a medically supervised inpatient detoxification'
    if sentences and setting == "emergency" and re.search(kept_in["home_pattern"], sentences[0], re.I) \
            and any(re.search(kept_in["admits_pattern"], x, re.I) for x in sentences[1:]):
        sentences[0] = rng.choice(kept_in["openers"])
    if he == "they":  # 'they' takes a plural verb ('as they has said' in a line written for he or she)
        verbs = P["they_verbs"]
        plural = re.compile(r"\b([Tt]hey) (" + "|".join(verbs) + r")\b")
        sentences = [plural.sub(lambda m: f"{m.group(1)} {verbs[m.group(2)]}", x) for x in sentences]
        treatment["safety"] = [plural.sub(lambda m: f"{m.group(1)} {verbs[m.group(2)]}", x) for x in treatment.get("safety") or ()]
        if treatment.get("follow_up"):
            treatment["follow_up"] = plural.sub(lambda m: f"{m.group(1)} {verbs[m.group(2)]}", treatment["follow_up"])
    return " ".join(sentences)


def _benzodiazepine_told_once(case: Any, sentences: list[str], P: Mapping[str, Any], why: str | None) -> list[str]:
    """One withdrawal regimen, said once (stop 43: 9 of 60 fresh alcohol plans gave the regimen, 'a fixed reducing
    regimen of lorazepam over about a week, the CIWA-Ar at each daily check', and then a second sentence giving it
    again, 'the withdrawal is covered with lorazepam in place of chlordiazepoxide ... by the CIWA-Ar'): where the
    plan's own regimen already gives lorazepam (the builder turned its chlordiazepoxide), the reason for the choice
    (review.json ``benzodiazepine_choice.say_within``: age, liver) is told inside that sentence, after the drug and
    its dose, and the separate sentence is struck. Plans without a regimen of their own keep the sentence."""
    if not why:
        return sentences
    B = P["record_needs"]["benzodiazepine_choice"]
    answered = re.compile(B["answered_pattern"], re.I)
    told = [i for i, x in enumerate(sentences) if answered.search(x)]
    given = re.compile(B["given_pattern"], re.I)
    regimen = [i for i, x in enumerate(sentences) if i not in told and given.search(x)]
    if len(told) != 1 or not regimen:
        return sentences
    j = regimen[0]
    m = given.search(sentences[j])
    clause = B["say_within"].format(why=why)
    out = list(sentences)
    head = out[j][:m.end()]
    if head.count("(") > head.count(")"):  # the drug is named inside brackets: the reason closes the sentence instead
        out[j] = f"{out[j].rstrip(' .')}; {m.group(0).lower()} {clause}."
    else:
        out[j] = f"{head} ({clause}){out[j][m.end():]}"
    del out[told[0]]
    return out


def _about_pregnancy_test(sentence: str) -> bool:
    return bool(re.search(r"pregnancy test|contracept|pregnancy prevention", sentence, re.I))


def _refused(sentence: str) -> bool:
    return bool(re.search(r"\b(?:avoid|not|no|never|instead of|rather than)\b", sentence.split(",")[0], re.I))


@lru_cache(maxsize=1)
def _stop31() -> str:
    from ..audit import review_facts

    return review_facts()["stop31"]["alone_pattern"]


@lru_cache(maxsize=1)
def _stop36() -> Mapping[str, Any]:
    from ..audit import review_facts

    return review_facts()["stop36"]


@lru_cache(maxsize=1)
def _rules() -> Mapping[str, Any]:
    from ..audit import review_facts

    return review_facts()["plan_record"]


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
        # a hostel, a shared house or the street is not living alone: 'a small supply at a time, as he lives alone'
        # for a hostel resident (stop 30) is the audit's household.alone_untrue
        "alone": bool(re.search(_stop31(), living, re.I)),
        "kin": bool(re.search(data["kin_pattern"], living, re.I)),
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
