"""The clinical audit: the checks a reviewer applies when reading a suite of psychiatric records.

Each rule reads a loaded :class:`~mentalhospital_env.cases.model.Case` (or, for the suite rules, all
of them) and returns :class:`Finding` objects naming the case, the field and the rule. The clinical
facts the rules apply (minimum durations per diagnosis code, qualifying traumas, lab reference and
plausible ranges by age and sex, disorder labels and criteria wording) live in
``knowledge/data/review.json``; this module holds only the reading.

* ``audit_case(case) -> [Finding]``: the rules that need one record.
* ``audit_suite(cases) -> [Finding]``: every case's findings, then the suite rules (a sentence frame
  in more than 3% of the suite; a multi-value result string repeated between cases).
* ``count_by_rule(findings)`` and ``format_findings(findings)`` for the command line
  (``mentalhospital cases audit SUITE``).

A case marked ``extra.known_diagnosis`` (``"relapse"`` or ``"transfer"``) may name its diagnosis
in the record; every other case may not, except as a denial ("no history of bipolar disorder").
"""

from __future__ import annotations

import itertools
import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping, Sequence

from ..knowledge.durations import load_durations
from ..knowledge.language import memo_size
from .model import Case

__all__ = [
    "Finding",
    "RULES",
    "audit_case",
    "audit_suite",
    "count_by_rule",
    "format_findings",
    "illness_days",
    "review_facts",
]


@dataclass(frozen=True)
class Finding:
    """One thing a reviewer would send back: which case, which field, which rule and why."""

    case_id: str
    field: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.case_id}: {self.field}: [{self.rule}] {self.message}"


RULES: tuple[str, ...] = (
    "duration.minimum", "duration.maximum", "trauma.qualifying", "timeline.age", "timeline.before_age",
    "timeline.diagnosis_before_onset", "timeline.admissions", "timeline.years", "education.history",
    "education.occupation", "occupation.age", "occupation.fitness", "household.informant",
    "household.partner", "household.stressor", "household.homeless", "household.child_informant", "household.living",
    "plan.substance", "plan.age", "plan.pregnancy", "plan.comorbidity", "plan.acute_change", "plan.critical", "plan.psychosis",
    "diagnosis.withdrawal", "labs.range", "labs.flag", "labs.scale_ceiling", "labels.diagnosis", "labels.criteria",
    "labels.scale", "template.frame", "results.duplicate",
    "household.young_child", "household.marital_history", "household.empty_nest", "household.care_childhood",
    "history.trigger_medical", "timeline.smoking", "history.reason_today", "history.quotes", "history.age_words",
    "risk.self_neglect", "plan.setting", "household.moved_away", "timeline.season", "history.self_contradiction",
    "household.referrer", "timeline.childhood_trigger", "text.placeholder",
    "sections.age_descriptor", "sections.childcare", "sections.postpartum_baby", "sections.treatment_age",
    "sections.parents_in_care", "sections.plan_labs", "sections.sex_descriptor",
    "sections.parents_conflict", "sections.relative_house", "sections.birth_order", "sections.unexplained_onset",
    "sections.acute_confusion", "sections.cyclical_course", "labs.scale_maximum", "plan.perinatal", "plan.young_person", "plan.liver_workup",
    "plan.abstinence_first", "plan.restart", "plan.they_agreement", "plan.withdrawal_regimen", "plan.insomnia", "plan.safeguarding",
    "plan.liver_twice", "plan.review_twice", "plan.one_trauma_therapy", "plan.hypnotic_first",
    "plan.benzodiazepine_choice", "plan.driving", "plan.fitness_to_practise", "plan.withdrawal_twice",
    "joins.drug_screen", "joins.drink_kind", "joins.alcohol_plan", "joins.past_copies_plan", "joins.work_years",
    "joins.education_age", "joins.education_occupation", "joins.employment", "joins.mse_appearance", "joins.mse_topic",
    "joins.mse_death_wishes", "joins.cssrs_self_harm", "joins.labs_ignored", "joins.plan_assumes", "joins.cc_label", "joins.comorbid_support",
    "joins.abstinent_drinking", "joins.injecting", "joins.referrer", "joins.age_event", "joins.substance_code",
    "joins.abstinent_audit", "joins.nap_somnolence", "joins.referral_source", "text.either_or",
    "agree.plan_conditional", "agree.dose_alternatives", "agree.level_targets", "agree.benzodiazepines",
    "agree.ordered_on_file", "agree.risk_reason", "agree.employment", "agree.upbringing", "agree.drink_units",
    "agree.medical_plan", "agree.scale_severity", "agree.job_lost", "agree.weapon_risk", "agree.admissions", "template.quote", "people.occupation_sex",
    "labels.differential", "labels.cc_lifelong", "labels.cc_technical",
    "agree.only_child", "agree.use_years", "agree.intoxicated_withdrawing", "agree.adult_life",
    "agree.protective_job", "agree.partner_left", "agree.homeless_home", "agree.parent_death",
    "agree.tried_alcohol", "agree.violent_offence", "agree.low_mood", "agree.care_home", "agree.never_partnered", "agree.in_care_parents",
    "text.repeated_clause", "labs.lipid_sum", "plan.outpatient_admission", "household.parents_apart", "household.alone_seen",
    "history.core_complaint", "household.police_referral", "timeline.remote_trigger", "household.informant_apart", "sections.school_stage",
    "plan.infection_untreated", "history.cause_unsupported", "history.cause_missed", "plan.adjunct_alone", "household.divorce_status",
    "agree.use_frequency", "joins.injecting_plan", "agree.aggression_denied", "family.two_relatives", "risk.eating",
    "diagnosis.alcohol_missing", "labs.child_bmi", "text.teaching", "agree.condition_untreated", "plan.child_only",
    "household.separation_timing", "timeline.empty_nest_age", "plan.known_children",
    "history.substance_untold", "family.upbringing_untold", "history.relapse_as_new", "plan.readiness_unfounded",
    "template.clone", "labs.same_value", "exams.indicated", "household.alone_untrue", "agree.persona_insight",
    "plan.overdose_untold", "agree.never_smoked", "agree.ecg_pulse",
    "risk.fresh_wounds", "plan.benzodiazepine_contradiction", "plan.dementia_admission", "records.complaint_fit", "records.substance_late_onset",
    "history.core_told", "exams.giveaway_scale", "risk.protective_unfounded", "risk.method_understated",
)


@lru_cache(maxsize=None)
def review_facts() -> Mapping[str, Any]:
    """The reviewer's clinical facts (``knowledge/data/review.json``)."""
    text = resources.files("mentalhospital_env.knowledge").joinpath("data/review.json").read_text("utf-8")
    return json.loads(text)


# ------------------------------------------------------------------------------------- reading

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "several": 3, "a few": 3, "a couple of": 2, "many": 5,
    "some": 2, "few": 3,
}
_SINCE_AGE = re.compile(r"\b(?:since|from) (?:the )?(?:age (?:of )?)?(\d{1,2})\b(?!\s*(?:%|mg|units|kg|cigarettes|am|pm|hours|days|weeks|months|years))", re.I)
_SINCE_STAGE = {"childhood": 6, "early childhood": 4, "infancy": 1, "primary school": 7, "her teens": 15,
                "his teens": 15, "their teens": 15, "adolescence": 14, "secondary school": 12, "school": 8,
                "birth": 0, "always": 3}
#: an onset dated by the patient's age in a sentence that says the illness began then ("When he was 42 he stopped being
#: his usual self", "It was at 18 that she first felt it", "the year she turned 30", "dates it to the age of 16"): ill
#: since that age, as "since 42" reads. A bare "when he was 12" with no word of a beginning (a life event) is not read.
_ONSET_AGE = re.compile(r"\b(?:when (?:she|he|they) (?:was|were)|the year (?:she|he|they) turned|(?:it|this|that) was at(?: the age of)?"
                        r"|dates? (?:it|this|the change|the trouble) to(?: the age of)?)\s+(\d{1,2})\b(?!\s*(?:%|mg|units|kg|am|pm|hours|days|weeks|months|years))", re.I)
_ONSET_WORDS = re.compile(r"\b(?:first|began|begun|started|start|stopped being|onset|dates?|turned|came on|changed)\b", re.I)
_LIFELONG = re.compile(r"\b(lifelong|life-long|all (?:her|his|their) life|always been (?:like )?this|since (?:she|he|they) (?:was|were) (?:little|small|a child|young))\b", re.I)
_AGE_MENTION = re.compile(r"\b(?:at|since|from|by|until|till|before|after|around|about|of)\s+(?:the\s+)?age\s+(?:of\s+)?(\d{1,3})\b|\baged\s+(\d{1,3})\b|\bat (\d{1,2}) (?:years old|she|he|they)\b", re.I)
_BEFORE_AGE = re.compile(r"\bbefore (?:the )?age (?:of )?(\d{1,2})\b", re.I)
_DIGIT = re.compile(r"\d")


def _number(word: str) -> float:
    word = word.lower()
    if word[0].isdigit():
        return float(word)
    return float(_NUMBERS.get(word, 1))


def durations_in(text: str) -> list[float]:
    """Days of every duration phrase in a text (``"three months"`` -> 91.2), read by the knowledge base's one
    duration parser (:meth:`~mentalhospital_env.knowledge.durations.Durations.said_days`, ungated: a record's
    duration counts wherever it stands)."""
    return list(_durations(text))


@lru_cache(maxsize=memo_size(4096))
def _durations(text: str) -> tuple[float, ...]:
    """:func:`durations_in`, remembered per text (a case's sections are read by several rules)."""
    return load_durations().said_days(text, gated=False)


def since_days(text: str, age: int) -> list[float]:
    """Days since an age or a life stage the text dates something from ("since age 23", "since childhood")."""
    return list(_since_days(text, age))


@lru_cache(maxsize=memo_size(4096))
def _since_days(text: str, age: int) -> tuple[float, ...]:
    """:func:`since_days`, remembered per text and age (a case's sections are read by several rules)."""
    out = []
    for m in _SINCE_AGE.finditer(text) if _DIGIT.search(text) else ():
        n = int(m.group(1))
        if n <= age:
            out.append((age - n) * 365.0)
    for sentence in re.split(r"(?<=[.!?;])\s+", text) if _DIGIT.search(text) else ():
        if not _ONSET_WORDS.search(sentence):
            continue
        for m in _ONSET_AGE.finditer(sentence):
            n = int(m.group(1))
            if n <= age:
                out.append((age - n) * 365.0)
    low = text.lower()
    if _LIFELONG.search(text):
        out.append(max(0, age - 3) * 365.0)
    for stage, at in _SINCE_STAGE.items():
        if f"since {stage}" in low or f"in {stage}" in low and "symptoms" in low:
            out.append(max(0, age - at) * 365.0)
    return tuple(out)


def illness_days(case: Case, sections: Sequence[str] = ("chief_complaint", "history_of_present_illness", "past_psychiatric_history")) -> float:
    """The longest history of illness the record states, in days (0 when it states none)."""
    best = 0.0
    age = case.demographics.age
    for name in sections:
        text = getattr(case.ehr, name) or ""
        found = durations_in(text) + since_days(text, age)
        if name == "past_psychiatric_history":  # known to services for it since an age: ill since then
            found += [(age - int(g)) * 365.0 for m in _FIRST_CONTACT.finditer(text) for g in m.groups() if g and int(g) <= age]
        for d in found:
            best = max(best, d)
    return best


def presentation_days(case: Case) -> float:
    """How long the current presentation has lasted: the chief complaint's duration, else the HPI's first."""
    for text in (case.ehr.chief_complaint, case.ehr.history_of_present_illness):
        found = durations_in(text or "")
        if found:
            return max(found) if text is case.ehr.chief_complaint else found[0]
    return 0.0


@lru_cache(maxsize=256)
def _words_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    ordered = sorted(words, key=len, reverse=True)
    return re.compile(r"(?<![a-z])(" + "|".join(re.escape(w.lower()) for w in ordered) + r")(?![a-z])")


_WORD_LISTS: dict[int, tuple[Any, tuple[str, ...], re.Pattern[str] | None, frozenset[str] | None, int]] = {}
_LETTERS = re.compile(r"[a-z]+")


def _heads(words: tuple[str, ...]) -> frozenset[str] | None:
    """The leading run of letters of each word (lower case): a word found as a whole word in a text puts its
    head among the text's runs of letters (:func:`_runs`); ``None`` when a word does not open with a letter."""
    heads = set()
    for w in words:
        m = _LETTERS.match(w.lower())
        if m is None:
            return None
        heads.add(m.group(0))
    return frozenset(heads)


@lru_cache(maxsize=memo_size(4096))
def _runs(low: str) -> frozenset[str]:
    """The runs of letters of a lower-cased text (remembered: a section is read against several word lists)."""
    return frozenset(_LETTERS.findall(low))


def _word_list(words: Iterable[str]) -> tuple[tuple[str, ...], re.Pattern[str] | None]:
    """``words`` as a tuple and its pattern, found again by the list's identity (the reviewer's lists live
    as long as :func:`review_facts`; the entry holds the list, so its id is not reused while kept)."""
    return _word_entry(words)[1:3]  # type: ignore[return-value]


def _word_entry(words: Iterable[str]) -> tuple[Any, tuple[str, ...], re.Pattern[str] | None, frozenset[str] | None, int]:
    """:func:`_word_list`'s entry: the list, its tuple, its pattern and its words' heads (:func:`_heads`)."""
    entry = _WORD_LISTS.get(id(words))
    if entry is None or entry[0] is not words:
        as_tuple = tuple(words)
        serial = _SERIALS.get(as_tuple)
        if serial is None:
            if len(_SERIALS) >= 4096:
                _SERIALS.clear()  # numbers are never reused (_SERIAL counts on), so no old key can answer for a new list
            serial = _SERIALS[as_tuple] = next(_SERIAL)
        entry = (words, as_tuple, _words_pattern(as_tuple) if as_tuple else None, _heads(as_tuple), serial)
        if len(_WORD_LISTS) >= 1024:
            _WORD_LISTS.clear()
        _WORD_LISTS[id(words)] = entry
    return entry


_HAS_FOUND: dict[tuple[str, int], str | None] = {}
_SERIAL = itertools.count()
_SERIALS: dict[tuple[str, ...], int] = {}  # each word list's contents -> a number: _HAS_FOUND's key hashes the number,
# not the whole list again at every call (a list of fifty words was hashed for each of 44,000 calls a suite of 60)
_HAS_KEPT = memo_size(65536)


def _has(text: str, words: Iterable[str]) -> str | None:
    """The first of ``words`` (longest first at a position) found as whole words in ``text``, or ``None``
    (remembered per text and word list: the generator asks the same of a template's text for every draft,
    and the audit again of the finished case)."""
    if not text:
        return None
    if not isinstance(words, (list, tuple)):
        return _has_read(text, tuple(words), None, None)
    entry = _word_entry(words)
    key = (text, entry[4])
    try:
        return _HAS_FOUND[key]
    except KeyError:
        pass
    found = _HAS_FOUND[key] = _has_read(text, entry[1], entry[2], entry[3])
    if len(_HAS_FOUND) >= _HAS_KEPT:
        _HAS_FOUND.clear()
    return found


def _has_read(text: str, words: tuple[str, ...], pattern: re.Pattern[str] | None, heads: frozenset[str] | None) -> str | None:
    if not words:
        return None
    low = text.lower()
    if heads is not None and heads.isdisjoint(_runs(low)):
        return None  # no word's leading letters stand as a word of the text: the pattern cannot match
    m = (pattern or _words_pattern(words)).search(low)
    if not m:
        return None
    found = m.group(1)
    return next((w for w in words if w.lower() == found), found)


_FAMILY_MATCHES: dict[tuple[str, int], tuple[Any, str | None]] = {}


def _family_match(code: str, keys: Iterable[str]) -> str | None:
    """The most specific key (a full code or a code prefix) that ``code`` falls under (remembered per code
    and key list, found again by the list's identity: the reviewer's tables live as long as :func:`review_facts`)."""
    if not isinstance(keys, (list, tuple, dict)):
        return _family_match_of(code, keys)
    entry = _FAMILY_MATCHES.get((code, id(keys)))
    if entry is None or entry[0] is not keys:
        entry = (keys, _family_match_of(code, keys))
        if len(_FAMILY_MATCHES) >= 4096:
            _FAMILY_MATCHES.clear()
        _FAMILY_MATCHES[(code, id(keys))] = entry
    return entry[1]


def _family_match_of(code: str, keys: Iterable[str]) -> str | None:
    best = None
    for k in keys:
        if code == k or code.startswith(k + ".") or (len(k) == 3 and code[:3] == k) or (code.startswith(k) and len(k) > 3):
            if best is None or len(k) > len(best):
                best = k
    return best


def _narrative(case: Case) -> list[tuple[str, str]]:
    return [(name, text) for name, text in case.ehr.sections()]


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Za-z\"'(])" if "Q." in text else r"(?<=[.!?])\s+(?=[A-Z\"'(])", text.strip())
    return [p for p in parts if p]


# ------------------------------------------------------------------------------- case rules


def _duration_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    out = []
    durations = load_durations()
    history = illness_days(case)
    current = presentation_days(case)
    age = case.demographics.age
    for d in case.diagnosis.disorders:
        rule = durations.rule(d.code)
        if rule is None:
            continue
        low = rule.minimum(age)
        if low and history < low:
            stated = f"{history:.0f} days" if history else "no duration"
            out.append(Finding(case.case_id, "history_of_present_illness", "duration.minimum",
                               f"{d.code} ({d.name}) needs at least {low:g} days of illness ({rule.what}); the record states {stated}"))
        high = rule.max
        if high and current > high:
            out.append(Finding(case.case_id, "chief_complaint", "duration.maximum",
                               f"{d.code} ({d.name}) lasts at most {high:g} days ({rule.what}); the presentation has lasted {current:.0f} days"))
    return out


def _trauma_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    T = R["trauma"]
    codes = [d for d in case.diagnosis.disorders if d.code in T["codes"]]
    if not codes:
        return []
    text = " ".join(t for n, t in _narrative(case) if n in ("chief_complaint", "history_of_present_illness", "past_psychiatric_history", "personal_history"))
    if _has(text, T["qualifying"]):
        return []
    other = _has(text, T["non_qualifying"])
    why = f"attributed instead to {other!r}, which is not a qualifying trauma" if other else "no traumatic event is named"
    return [Finding(case.case_id, "history_of_present_illness", "trauma.qualifying",
                    f"{codes[0].code} ({codes[0].name}) needs a named event of threatened death, serious injury or sexual violence; {why}")]


_ADMISSIONS = re.compile(r"\b(\w+) (?:previous |prior |psychiatric |inpatient |hospital |compulsory )*admissions?\b", re.I)
_FIRST_CONTACT = re.compile(r"\b(?:diagnosed|known to|first (?:seen|treated|presented|diagnosed|referred|assessed)|assessed|treated for|first contact|first episode|first admitted|first admission|dates from|has had)[^.;]*?\b(?:at|since|from) (?:the )?(?:age )?(?:of )?(\d{1,2})\b|\bsince age (\d{1,2})\b", re.I)
_WORK_YEARS = re.compile(r"\b(?:employed|worked|working|works|has been) (?:as )?[^.;]{0,60}? for (\d+|[a-z]+) years\b", re.I)
_RELATION_YEARS = re.compile(r"\b(?:relationship|married|together|partner) (?:of|for) (\d+|[a-z]+) years\b", re.I)


_SENTENCE_START = re.compile(r"(?:^|[.;!?]\s|\n)(?=[^.;!?\n]*$)")


def _other_persons_age(text: str, at: int) -> bool:
    """Whether the age at ``at`` of ``text`` is another person's: its sentence names a relative before it and the
    patient is the subject of nothing there ("His older brother Alan died ... aged 71"; ``review.json``
    ``records.other_person_age``)."""
    O = review_facts()["records"]["other_person_age"]
    head = text[:at]
    start = _SENTENCE_START.search(head)
    before = head[start.end() if start else 0 :]
    return bool(re.search(O["relative_pattern"], before, re.I)) and not re.search(O["patient_subject_pattern"], before, re.I)


def _timeline_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    out = []
    age = case.demographics.age
    cid = case.case_id
    for name, text in _narrative(case):
        if not _DIGIT.search(text) or name == "family_history":
            continue  # an age is written in digits in all three patterns below (most sections hold none); the family
            # history's ages are the relatives' ('paternal uncle died by suicide aged 44'), never the patient's timeline
        for m in _BEFORE_AGE.finditer(text):
            n = int(m.group(1))
            if n >= age:
                out.append(Finding(cid, name, "timeline.before_age", f"{m.group(0)!r} said of a {age}-year-old (criterion wording, not history)"))
        for m in _AGE_MENTION.finditer(text):
            n = int(next(g for g in m.groups() if g))
            if n > age and not m.group(0).lower().startswith("before") and not _other_persons_age(text, m.start()):
                out.append(Finding(cid, name, "timeline.age", f"{m.group(0)!r} is later than the patient's age ({age})"))
        for m in _SINCE_AGE.finditer(text):
            n = int(m.group(1))
            if n > age and not _other_persons_age(text, m.start()):
                out.append(Finding(cid, name, "timeline.age", f"{m.group(0)!r} is later than the patient's age ({age})"))
    pph = case.ehr.past_psychiatric_history or ""
    first = [int(g) for m in _FIRST_CONTACT.finditer(pph) for g in m.groups() if g]
    principal = case.diagnosis.principal
    chronic = _family_match(principal.code, R["chronic_codes"]) and not _family_match(principal.code, R["relapsing_chronic_codes"])
    onset_days = illness_days(case, ("chief_complaint", "history_of_present_illness"))
    if first and chronic and onset_days:
        onset_age = age - onset_days / 365.0
        if min(first) < onset_age - 1:
            out.append(Finding(cid, "past_psychiatric_history", "timeline.diagnosis_before_onset",
                               f"first diagnosed or known to services at {min(first)}, but the history dates the onset of {principal.code} to about age {onset_age:.0f}"))
    for m in _ADMISSIONS.finditer(pph):
        word = m.group(1).lower()
        if word not in _NUMBERS and not word.isdigit():
            continue
        n = _number(word)
        if n < 2:
            continue
        start = min(first) if first else None
        if start is None:
            start = age - max(illness_days(case) / 365.0, 0.0)
        years = max(age - start, 0.25)
        if n / years > 1.5:
            out.append(Finding(cid, "past_psychiatric_history", "timeline.admissions",
                               f"{int(n)} admissions in about {years:.0f} year(s) of known illness"))
    for name, text in _narrative(case):
        if name.startswith("family_history"):
            continue  # a relative's years ('her aunt ... has been well for many years', uw-004)
        for m in _WORK_YEARS.finditer(text):
            n = _number(m.group(1)) if m.group(1).lower() in _NUMBERS or m.group(1).isdigit() else 0
            if n and age - n < 15:
                out.append(Finding(cid, name, "timeline.years", f"{m.group(0)!r} would mean working from age {age - n:.0f}"))
        for m in _RELATION_YEARS.finditer(text):
            n = _number(m.group(1)) if m.group(1).lower() in _NUMBERS or m.group(1).isdigit() else 0
            if n and age - n < 16:
                out.append(Finding(cid, name, "timeline.years", f"{m.group(0)!r} would mean a relationship from age {age - n:.0f}"))
    return out


def _people_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    out = []
    cid = case.case_id
    demo = case.demographics
    age = demo.age
    education = (demo.education or "").lower()
    occupation = (demo.occupation or "").lower()
    living = (demo.living_situation or "").lower()
    marital = (demo.marital_status or "").lower()
    low_ed = _has(education, R["low_education"])
    texts = _narrative(case)
    if low_ed:
        for name, text in texts:
            if name.startswith(("mental_status_exam", "risk_assessment")):
                continue
            w = _has(text, R["university_words"])
            if w:
                out.append(Finding(cid, name, "education.history", f"mentions {w!r} though education is {demo.education!r}"))
    base_occ = re.sub(r"^(retired|part-time|former)\s+", "", occupation)
    if education and base_occ in R["graduate_occupations"] and not _has(education, R["degree_education"]) and age >= 18:
        out.append(Finding(cid, "demographics.education", "education.occupation", f"{demo.occupation!r} needs a degree or professional training; education is {demo.education!r}"))
    if _has(occupation, R["student_occupations"]) and age > R["student_max_age"]:
        out.append(Finding(cid, "demographics.occupation", "occupation.age", f"{demo.occupation!r} at {age}"))
    youngest = R["professional_min_age"].get(base_occ)
    if youngest is not None and age < youngest:
        out.append(Finding(cid, "demographics.occupation", "occupation.age", f"{demo.occupation!r} at {age} (usually {youngest} or older)"))
    if occupation.startswith("retired") and age < R["retired_min_age"]:
        out.append(Finding(cid, "demographics.occupation", "occupation.age", f"{demo.occupation!r} at {age}"))
    if ("pupil" in occupation or "school" in education and "left school" not in education) and age >= 19:
        out.append(Finding(cid, "demographics.occupation", "occupation.age", f"{demo.occupation or demo.education!r} at {age}"))
    pph = case.ehr.past_psychiatric_history or ""
    adm = [m for m in _ADMISSIONS.finditer(pph) if m.group(1).lower() in _NUMBERS and _number(m.group(1)) >= 3]
    fit = _has(occupation, R["fitness_occupations"])
    if fit and not occupation.startswith(("retired", "former")):
        chronic_psychosis = any(d.code.startswith(("F20", "F25")) for d in case.diagnosis.disorders) and "diagnosed" in pph.lower()
        if adm or chronic_psychosis:
            why = "three or more psychiatric admissions" if adm else "an established psychotic illness"
            out.append(Finding(cid, "demographics.occupation", "occupation.fitness", f"still serving as {demo.occupation!r} after {why} (fitness for duty would be in the history)"))
    # household and informant
    informant = ((case.persona.informant if case.persona else None) or "").lower()
    whole = " ".join(t for _, t in texts).lower()
    for carer, homes in R["carer_informants"].items():
        if carer in informant and homes and not any(h in living or h in whole for h in homes):
            out.append(Finding(cid, "persona.informant", "household.informant", f"informant {informant!r} but the patient {living!r}"))
    if informant in R["parent_informants"] and age < 18:
        if any(w in living for w in ("foster", "children's home", "residential")):
            out.append(Finding(cid, "persona.informant", "household.informant", f"informant {informant!r} but the patient {living!r}"))
    if informant in R["partner_informants"] and marital in R["unpartnered_status"] and not any(w in living for w in ("partner", "spouse", "husband", "wife")):
        out.append(Finding(cid, "persona.informant", "household.partner", f"informant {informant!r} but marital status {marital!r}, {living!r}"))
    if marital in R["unpartnered_status"] and re.search(r"\blives with (?:his |her |their )?(?:spouse|husband|wife)\b", living):
        out.append(Finding(cid, "demographics.living_situation", "household.partner", f"{living!r} but marital status {marital!r}"))
    care = _has(case.ehr.personal_history or "", R["care_words"])
    if age < 18 and care and not _has(living, R["care_words"] + ["foster", "residential", "children's home"]):
        history = case.ehr.personal_history or ""
        if not re.search(r"\b(?:returned|went back|back) (?:home|to (?:her|his|their) (?:mother|father|parents))\b", history, re.I):
            out.append(Finding(cid, "personal_history", "household.living", f"the history says {care!r} but the patient {living!r}"))
    if age < R["child_age"] and not informant:
        out.append(Finding(cid, "persona.informant", "household.child_informant", f"a {age}-year-old is seen without a parent or carer"))
    stress = _has(case.ehr.history_of_present_illness, R["separation_stressors"])
    support = _has(case.ehr.personal_history or "", R["supportive_relationship_words"])
    if stress and support and marital not in R["unpartnered_status"]:
        out.append(Finding(cid, "history_of_present_illness", "household.stressor", f"stressor {stress!r} beside {support!r} ({marital})"))
    if _has(living, R["homeless_words"]):
        appearance = (case.ehr.mental_status_exam.appearance if case.ehr.mental_status_exam else None) or ""
        g = _has(appearance, R["groomed_words"])
        if g:
            out.append(Finding(cid, "mental_status_exam.appearance", "household.homeless", f"{g!r} for someone {living!r}"))
    return out


def _plan_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    out = []
    cid = case.case_id
    plan = case.treatment.plan
    med_text = " ".join([plan] + [f"{m.name} {m.dose or ''}" for m in case.treatment.medications or ()]).lower()
    substance = (case.ehr.substance_use or "").lower()
    if _has(substance, R["abstinent_words"]) and _has(plan, R["reduce_alcohol_words"]):
        out.append(Finding(cid, "treatment.plan", "plan.substance", f"plan says {_has(plan, R['reduce_alcohol_words'])!r} but the patient does not drink"))
    if case.demographics.age < 18 and _has(med_text, R["adult_dose_words"]):
        out.append(Finding(cid, "treatment.plan", "plan.age", f"an adult dose in the plan of a {case.demographics.age}-year-old"))
    whole = " ".join(t for _, t in _narrative(case))
    if case.demographics.sex == "female" and _has(whole, R["pregnancy_words"]) and not re.search(r"\bnot pregnant\b", whole, re.I):
        drug = _has(med_text, R["unsafe_in_pregnancy"])
        if drug:
            out.append(Finding(cid, "treatment.medications", "plan.pregnancy", f"{drug} planned for a pregnant patient"))
    codes = case.diagnosis.codes
    if any(c in R["withdrawal_codes"] for c in codes):
        mood = [c for c in codes if _family_match(c, R["mood_codes_not_in_withdrawal"])]
        if mood:
            out.append(Finding(cid, "diagnosis.disorders", "diagnosis.withdrawal", f"{', '.join(mood)} diagnosed during acute withdrawal (mood and anxiety are reassessed after weeks of abstinence)"))
    hpi = case.ehr.history_of_present_illness
    if re.search(R["recent_change_pattern"], hpi, re.I):
        follow = " ".join(filter(None, [case.treatment.follow_up, plan]))
        if re.search(R["slow_review_pattern"], follow, re.I) and not re.search(r"\b(urgent|same day|today|within (24|48) hours|admit|days)\b", follow, re.I):
            out.append(Finding(cid, "treatment.follow_up", "plan.acute_change", "a recent, rapid change is reviewed only after months"))
    for problem in _contraindications(case):
        out.append(Finding(cid, "treatment.medications", "plan.comorbidity", problem))
    return out + _record_plan_rules(case, R)


def _record_plan_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """:func:`plan_follows_record` of the record's own plan."""
    t = case.treatment
    return plan_follows_record(case, t.plan, t.medications or (), t.safety or (), R, follow_up=t.follow_up or "")


def plan_follows_record(
    case: Case,
    plan: str,
    medications: Any = (),
    safety: Iterable[str] = (),
    R: Mapping[str, Any] | None = None,
    opening: bool = True,
    follow_up: str = "",
) -> list[Finding]:
    """A plan that does not follow its record (review.json ``plan_record``): a relapse-prevention drug or
    moderation for a drinker still drinking, hazardous drinking on the AUDIT the plan is silent about, parenteral thiamine for an outpatient, a pregnancy test for
    someone who cannot become pregnant or 'before the first dose' of a drug already taken, psychosis without
    an antipsychotic, a community plan for an inpatient, 'outpatient management' beside an admission today,
    delirium in the emergency department not admitted under the medical team. ``plan`` is the record's own plan
    (the audit) or a doctor's (the MentalEval judge: the same rules, one reading of the record). ``opening``: the two
    rules on how a record's plan opens (its first sentence states the disposition) are read; a doctor's plan is
    read for its content (the judge passes False; its critical actions read a delirium's disposition). ``follow_up``: the
    record's follow-up line, read by the overreach rules (a repeat test or a review the plan already says otherwise)."""
    R = R if R is not None else review_facts()
    P = R["plan_record"]
    cid, age, sex = case.case_id, case.demographics.age, case.demographics.sex
    status = record_status(case)
    sentences = [x for x in re.split(r"(?<=[.!?])\s+", plan) if x]
    out = []
    if status["still_drinking"]:
        timed = re.compile(P["after_withdrawal_pattern"], re.I)
        drugs = re.compile(r"\b(" + "|".join(P["relapse_drugs"]) + r")\b", re.I)
        for x in sentences:
            m = drugs.search(x)
            if m and not timed.search(x) and not re.search(r"\b(?:avoid|not|no|never)\b", x.split(",")[0], re.I):
                out.append(Finding(cid, "treatment.plan", "plan.substance", f"{m.group(1)} started while the patient still drinks ({(case.ehr.substance_use or '')[:50]!r}): it starts after the withdrawal"))
        m = re.search(P["moderation_pattern"], plan, re.I)
        if m:
            out.append(Finding(cid, "treatment.plan", "plan.substance", f"{m.group(0)!r} for a dependent drinker: abstinence is the aim"))
        for x in abstinence_first(plan, headed=True):
            out.append(Finding(cid, "treatment.plan", "plan.abstinence_first", f"an antidepressant started while the patient still drinks ({x[:60]!r}): the drinking is treated first and the mood reassessed after 3-4 weeks of abstinence"))
    elif status["still_using"]:
        for x in abstinence_first(plan, headed=True):
            out.append(Finding(cid, "treatment.plan", "plan.abstinence_first", f"an antidepressant started while the patient still uses {status['codes'][0]} ({x[:60]!r}): the drug is treated first and the anxiety or mood reassessed after 3-4 weeks of abstinence"))
    score = unanswered_audit(case, plan)
    if score is not None:
        out.append(Finding(cid, "treatment.plan", "plan.substance", f"AUDIT {score}/40 on file (hazardous drinking) and the plan says nothing about alcohol"))
    if case.setting == "outpatient" and not re.search(P["admitted_pattern"], plan, re.I):
        for x in sentences:
            # parenteral thiamine held for a suspected Wernicke's ("parenteral only if Wernicke's is suspected") is not given
            if re.search(P["thiamine_pattern"], x, re.I) and re.search(P["parenteral_pattern"], x) and not re.search(P["supervised_pattern"], x, re.I) and not re.search(P["conditional_parenteral_pattern"], x, re.I):
                out.append(Finding(cid, "treatment.plan", "plan.setting", f"parenteral thiamine for an outpatient ({x[:60]!r}): oral thiamine in the community"))
    texts = [("treatment.plan", plan)] + [("treatment.safety", x) for x in safety]
    if not status["childbearing"]:
        for field, text in texts + [("treatment.medications", f"{m.name} {m.dose or ''}") for m in medications]:
            m = re.search(P["pregnancy_pattern"], text, re.I)
            if m:
                out.append(Finding(cid, field, "plan.pregnancy", f"{m.group(0)!r} in the plan of a {age}-year-old {sex} who cannot become pregnant"))
    else:
        kept = continued_drugs(plan, P["teratogens"])
        on_file = re.search(r"pregnancy test (?:on file|is negative|negative today)", plan, re.I)
        for field, text in texts:
            m = re.search(P["pregnancy_first_pattern"], text, re.I)
            if m and kept:
                out.append(Finding(cid, field, "plan.pregnancy", f"{m.group(0)!r} for {kept[0]}, which she already takes"))
            elif m and on_file:
                out.append(Finding(cid, field, "plan.pregnancy", f"{m.group(0)!r} while the plan reports the test on file"))
    if antipsychotic_needed(case, medications):
        codes = ", ".join(c for c in case.diagnosis.codes if c.upper().startswith(tuple(P["psychosis_codes"])))
        out.append(Finding(cid, "treatment.medications", "plan.psychosis", f"{codes} (psychotic features) with no antipsychotic in the plan"))
    if case.setting == "inpatient":
        m = re.search(P["not_inpatient_pattern"], plan, re.I)
        if m:
            out.append(Finding(cid, "treatment.plan", "plan.setting", f"{m.group(0)!r} in the plan of an inpatient"))
    if opening and case.setting == "outpatient" and re.search(P["admitted_pattern"], plan, re.I) and re.match(P["outpatient_opener_pattern"], plan):
        out.append(Finding(cid, "treatment.plan", "plan.setting", f"the plan opens {plan.split('.')[0]!r} but admits the patient today"))
    for _name, rule, why in record_needs(case, plan):
        out.append(Finding(cid, "treatment.plan", rule["rule"], f"{why} and the plan does not answer it ({rule['say'][0].format_map(defaultdict(str, rule.get('values', {})))[:60]!r}...)"))
    for drug in restarted_drugs(case, plan):
        out.append(Finding(cid, "treatment.plan", "plan.restart", f"the plan starts {drug}, which the history says {case.demographics.sex == 'female' and 'she' or 'he'} took before: it is restarted"))
    m = re.search(r"\bthey (" + "|".join(P["they_verbs"]) + r")\b", " ".join([plan, follow_up, *safety]))
    if m:
        out.append(Finding(cid, "treatment.plan", "plan.they_agreement", f"{m.group(0)!r}: 'they' takes a plural verb"))
    for rule, m in record_overreach(case, f"{plan} {follow_up}".strip()):
        out.append(Finding(cid, "treatment.plan", rule["rule"], f"the plan says {m.group(0).strip()!r}, which the record does not call for ({rule.get('when', 'said already').replace('_', ' ')})"))
    delirium = any(c.upper().startswith(tuple(P["medical_admission_codes"])) for c in case.diagnosis.codes)
    if opening and case.setting == "emergency" and delirium and sentences and not re.search(P["medical_admission_pattern"], sentences[0], re.I):
        out.append(Finding(cid, "treatment.plan", "plan.setting", f"delirium in the emergency department without a medical admission ({sentences[0][:60]!r})"))
    return out


def abstinence_first(plan: str, headed: bool = False) -> list[str]:
    """The plan sentences that start an antidepressant (review.json ``plan_record.abstinence_first_drugs``) without
    waiting for 3-4 weeks of abstinence (NICE CG115: in a dependent drinker the drinking is treated first); the
    caller knows the patient still drinks. ``headed`` (a doctor's plan, read by the audit's rules and the judge; the
    generator's own sentences keep the plain reading): a sentence may open with a heading ("Medication: start
    sertraline 50 mg", test-v2-0298's scripted plan) or with the drug and its dose ("Sertraline 50 mg daily.")."""
    P = review_facts()["plan_record"]
    names = "|".join(P["abstinence_first_drugs"])
    if headed:
        drugs = re.compile(r"^(?:[A-Z][\w /&-]{0,30}:\s*)?(?:(?:Start|Begin|Commence|Offer)\b[^.;]*?\b(?:" + names + r")\b|(?:" + names + r")\s+\d)", re.I)
    else:
        drugs = re.compile(r"^(?:Start|Begin|Commence|Offer)\b[^.;]*?\b(?:" + names + r")\b", re.I)
    return [x for x in re.split(r"(?<=[.!?])\s+", plan) if drugs.search(x) and not re.search(P["abstinence_first_pattern"], x, re.I)]


def restarted_drugs(case: Case, plan: str) -> list[str]:
    """Drugs the plan says it starts ('Commence sertraline') that the past psychiatric history says the patient
    took before and did not stop for harm or failure (review.json ``plan_record.restart``): they are restarted."""
    Rs = review_facts()["plan_record"]["restart"]
    from mentalhospital_env.knowledge import load_knowledge

    kb = load_knowledge()
    history = " ".join(getattr(case.ehr, f) or "" for f in Rs["history_fields"])
    out = []
    for x in re.split(r"(?<=[.!?])\s+", plan):
        m = re.match(Rs["start_pattern"], x)
        if not m or kb.resolve_drug(m.group(1)) is None:  # a drug ('Offer cognitive ...' is not)
            continue
        told = [t for t in re.split(r"(?<=[.;])\s+", history) if re.search(rf"\b{re.escape(m.group(1))}\b", t, re.I)]
        if told and not any(re.search(Rs["failed_pattern"], t, re.I) for t in told):
            out.append(m.group(1))
    return out


def record_status(case: Case) -> dict[str, Any]:
    """What review.json's ``plan_record`` rules read of a record: whether the patient is a dependent drinker
    still drinking, whether she could become pregnant, and which teratogens the plan continues. Shared by the
    builder (``cases/generator/plans.py``'s ``follow_record``) and the audit's plan rules."""
    P = review_facts()["plan_record"]
    codes = [c.upper() for c in case.diagnosis.codes]
    substance = (case.ehr.substance_use or "").lower()
    dependent = any(c.startswith(tuple(P["dependence_codes"])) and not c.startswith(tuple(P["remission_codes"])) for c in codes)
    abstinent = any(w in substance for w in P["abstinent_words"])
    record = " ".join(t for _, t in _record_texts(case)).lower()
    low, high = P["childbearing_ages"]
    d = case.demographics
    childbearing = d.sex == "female" and low <= d.age <= high and not any(w in record for w in P["not_childbearing_words"])
    U = P["use_first"]  # a principal drug dependence still going on: the drug is treated first (0068, 0280)
    using = bool(codes) and codes[0].startswith(tuple(U["codes"])) and not codes[0].startswith(tuple(P["remission_codes"])) and any(
        any(w in x for w in U["words"]) and not re.search(U["abstinent_pattern"], x) for x in re.split(r"(?<=[.;])\s+", substance))
    return {"still_drinking": dependent and not abstinent, "dependent": dependent, "childbearing": childbearing,
            "codes": codes, "setting": case.setting, "still_using": using}


def _record_texts(case: Case) -> list[tuple[str, str]]:
    e = case.ehr
    return [(k, getattr(e, k) or "") for k in ("chief_complaint", "history_of_present_illness", "past_psychiatric_history", "medical_history", "medications", "personal_history")]


def unanswered_audit(case: Case, plan: str) -> int | None:
    """An AUDIT score in the hazardous range (review.json ``plan_record.hazardous_audit_min`` or more) on file,
    with no alcohol diagnosis and a plan that says nothing about alcohol; None otherwise."""
    P = review_facts()["plan_record"]
    if any(c.upper().startswith("F10") for c in case.diagnosis.codes) or re.search(P["alcohol_plan_pattern"], plan, re.I):
        return None
    for e in case.exams:
        if e.name == "AUDIT":
            m = re.search(P["audit_score_pattern"], e.result)
            if m and int(m.group(1)) >= P["hazardous_audit_min"]:
                return int(m.group(1))
    return None


def continued_drugs(plan: str, drugs: list[str]) -> list[str]:
    """Those of ``drugs`` the plan continues (not starts): 'Continue lithium at 300 mg twice daily'."""
    return [d for d in drugs if re.search(rf"\b(?:continue|continuing|remain on|stay on|keep (?:on|taking))\s+(?:the\s+)?{re.escape(d)}\b", plan, re.I)]


def antipsychotic_needed(case: Case, medications: Any) -> bool:
    """Whether the record's illness has psychotic features (psychosis codes of review.json ``plan_record``)
    and the plan's medications hold no antipsychotic."""
    P = review_facts()["plan_record"]
    if not any(c.upper().startswith(tuple(P["psychosis_codes"])) for c in case.diagnosis.codes):
        return False
    from mentalhospital_env.knowledge import load_knowledge

    kb = load_knowledge()
    for m in medications or ():
        name = m["name"] if isinstance(m, Mapping) else m.name
        drug = kb.resolve_drug(name)
        if drug is not None and P["antipsychotic_class"] in drug.drug_class.lower():
            return False
    return True


def _contraindications(case: Case) -> list[str]:
    """Drugs in the plan that a disorder of the case contraindicates (knowledge base data)."""
    from mentalhospital_env.knowledge import load_knowledge

    kb = load_knowledge()
    names = {m.name.lower() for m in case.treatment.medications or ()}
    if not names:
        return []
    out = []
    for d in case.diagnosis.disorders:
        try:
            entry = kb.disorder(d.code)
        except Exception:
            entry = None
        if entry is None:
            continue
        for c in _get(entry, "contraindicated_drugs") or ():
            drug = str(_get(c, "drug") or "").lower()
            if drug in names:
                out.append(f"{drug} with {d.code}: {_get(c, 'reason')}")
    return out


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


# --------------------------------------------------------------------------------------- labs

_COMPONENT = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9 ]*?)\s+(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>[A-Za-z%/^0-9.x]+(?:/[A-Za-z0-9]+)?)?\s*(?:\((?P<flag>[^)]*)\))?")


def _band(age: int, sex: str) -> str:
    if age < 12:
        return "child"
    if age < 18:
        return "adolescent"
    return "adult_male" if sex == "male" else "adult_female"


YOUNG_ADOLESCENT = (12, 14)


def band_spec(comp: Mapping[str, Any], band: str, age: int) -> Any:
    """A component's ranges for this patient: the ``young_adolescent`` ranges at 12-14 where the
    reviewer keeps them (creatinine 84 umol/L is an adult's normal, high for a 12-year-old: stop 29),
    else the age band's."""
    if band == "adolescent" and YOUNG_ADOLESCENT[0] <= age <= YOUNG_ADOLESCENT[1] and "young_adolescent" in comp:
        return comp["young_adolescent"]
    return comp[band]


def charted(exam: str, result: str, back: bool = False) -> str:
    """``result`` of ``exam`` in the units a UK chart writes (``review.json`` ``labs.charted.units``:
    haemoglobin in g/L, HbA1c in mmol/mol ...), or, ``back``, a charted result read back into the units
    the reference ranges are kept in. Quoted reference ranges of a single-value exam go with the value."""
    for rule in _charted_units():
        if "exam" in rule and rule["exam"] != exam:
            continue
        src, dst = (rule["to"], rule["from"]) if back else (rule["from"], rule["to"])
        if src not in result:
            continue
        factor, offset = rule["factor"], rule["offset"]

        def conv(number: str, factor: float = factor, offset: float = offset, places: int = rule["places"]) -> str:
            if factor == 1 and offset == 0:
                return number
            value = (float(number) - offset) / factor if back else float(number) * factor + offset
            return f"{round(value, 3):g}" if back else (f"{value:.{places}f}" if places else str(int(round(value))))

        if "label" in rule:
            result = re.sub(rf"\b({rule['label']}) (\d+(?:\.\d+)?) {re.escape(src)}(?![A-Za-z/])", lambda m: f"{m.group(1)} {conv(m.group(2))} {dst}", result)
            continue
        lead = re.match(rf"(\d+(?:\.\d+)?) {re.escape(src)}(?![A-Za-z/])", result)
        if lead:
            result = f"{conv(lead.group(1))} {dst}" + result[lead.end():]
            result = re.sub(r"(reference(?: range)? )(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)", lambda m: f"{m.group(1)}{conv(m.group(2))}-{conv(m.group(3))}", result)
    return result


@lru_cache(maxsize=1)
def _charted_units() -> tuple[Mapping[str, Any], ...]:
    return tuple(review_facts()["labs"]["charted"]["units"])


def chart_name(exam: str) -> str:
    """The name a UK laboratory reports ``exam`` under (``review.json`` ``labs.charted.names``: CBC -> FBC)."""
    return review_facts()["labs"]["charted"]["names"].get(exam, exam)


_LAB_ITEMS = re.compile(r",\s*|;\s*|:\s+(?=[A-Za-z])")
_LAB_BP = re.compile(r"BP (\d+)/(\d+)")
_LAB_PULSE = re.compile(r"(pulse|heart rate) (\d+)")
_LAB_VALUE = re.compile(r"([A-Za-z][A-Za-z0-9 ]*?) (\d+(?:\.\d+)?)\b(.*)$")


def lab_values(result: str) -> list[tuple[str, float, str]]:
    """(component, value, flag text) for each ``name value unit (flag)`` item of a result string (a
    charted value read back into the reference ranges' units first, see :func:`charted`)."""
    return list(_lab_values(result))


_LAB_UNIT = re.compile(r"\s*([A-Za-z\u00b5%][A-Za-z0-9\u00b5/^.]*)")


@lru_cache(maxsize=1)
def _read_units() -> tuple[Mapping[str, str], Mapping[str, Mapping[str, float]]]:
    """(alias -> component, component -> {unit -> factor}) of ``review.json`` ``labs.read_units``."""
    L = review_facts()["labs"]
    alias = {a.lower(): name for name, c in L["components"].items() for a in c["aliases"]}
    units = {name: {u.lower(): float(f) for u, f in table.items()} for name, table in L["read_units"].items() if not name.startswith("_")}
    return alias, units


def in_component_units(component: str, value: float, rest: str) -> float:
    """``value`` of ``component`` in the unit its reference ranges are kept in, read with the unit written just
    after it (``rest``): glucose 104 mg/dL is 5.8 mmol/L, creatinine 1.0 mg/dL is 88 umol/L (``review.json``
    ``labs.read_units``). A unit not listed there, or none, leaves the value as written."""
    m = _LAB_UNIT.match(rest)
    if not m:
        return value
    unit = m.group(1).lower().replace("\u00b5", "u").replace("mcg", "ug").rstrip(".")
    factor = _read_units()[1].get(component, {}).get(unit)
    return value * factor if factor is not None else value


@lru_cache(maxsize=memo_size(4096))
def _lab_values(result: str) -> tuple[tuple[str, float, str], ...]:
    """:func:`lab_values`, remembered per result string (a draft's results are read by several audit rules,
    the generator's own checks and again by every later draft that keeps them). A value written in another
    unit than its component's (a US chart's mg/dL) is read in the component's unit (:func:`in_component_units`)."""
    out = []
    alias = _read_units()[0]
    result = charted("", result, back=True)
    for part in _LAB_ITEMS.split(result):
        part = part.strip()
        bp = _LAB_BP.match(part)
        if bp:
            flag = part[bp.end():]
            out.append(("systolic", float(bp.group(1)), flag))
            out.append(("diastolic", float(bp.group(2)), flag))
            continue
        m = _LAB_PULSE.match(part)
        if m:
            out.append(("pulse", float(m.group(2)), part[m.end():]))
            continue
        m = _LAB_VALUE.match(part)
        if m:
            name, value = m.group(1).strip(), float(m.group(2))
            component = alias.get(name.lower())
            if component is not None:
                value = in_component_units(component, value, m.group(3))
            out.append((name, value, m.group(3)))
    return tuple(out)


def _lab_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    out = []
    L = R["labs"]
    alias = {a.lower(): name for name, c in L["components"].items() for a in c["aliases"]}
    band = _band(case.demographics.age, case.demographics.sex)
    for i, exam in enumerate(case.exams):
        if exam.kind not in ("lab", "physiological"):
            continue
        field = f"exams[{i}] {exam.name}"
        result = charted(exam.name, exam.result, back=True)
        whole_normal = bool(re.search(r"\((all )?within (reference range|target)[^)]*\)\s*$|\(healthy range\)|\bnormal\b", result)) and not re.search(r"\b(abnormal|raised|low|high)\b", result)
        if exam.name in L["components"]:  # a single-value exam: its first number, flagged by the whole text
            m = re.search(r"\d+(?:\.\d+)?", result)
            values = [(exam.name, in_component_units(exam.name, float(m.group(0)), result[m.end():]), result)] if m else []
        else:
            values = lab_values(result)
        for name, value, flag in values:
            comp = alias.get(name.lower())
            if comp is None:
                continue
            spec = L["components"][comp]
            ref_low, ref_high, plaus_low, plaus_high = band_spec(spec, band, case.demographics.age)
            flag_low = flag.lower()
            flagged = bool(_has(flag_low, L["abnormal_words"])) or (whole_normal is False and "(" in flag_low and "within" not in flag_low and flag_low.strip(" ;),") != "")
            # an unflagged value is presented as unremarkable, whatever the report's closing words
            said_normal = whole_normal or "within" in flag_low or (not flagged and exam.kind == "lab")
            if not flagged and not said_normal and band in ("child", "adolescent"):
                # an unflagged vital sign of a child that only an adult's range would call normal
                adult = spec["adult_male" if case.demographics.sex == "male" else "adult_female"]
                if (value < ref_low or value > ref_high) and adult[0] <= value <= adult[1]:
                    out.append(Finding(case.case_id, field, "labs.flag", f"{comp} {value:g} {spec['unit']} is an adult's normal, unflagged for a {band} patient (reference {ref_low}-{ref_high})"))
                    continue
            if not plaus_low <= value <= plaus_high:
                out.append(Finding(case.case_id, field, "labs.range", f"{comp} {value:g} {spec['unit']} is outside what a living {band.replace('_', ' ')} patient has ({plaus_low}-{plaus_high})"))
                continue
            outside = value < ref_low or value > ref_high
            margin = 0.04 * (ref_high - ref_low)
            clearly_outside = value < ref_low - margin or value > ref_high + margin
            clearly_inside = ref_low + margin <= value <= ref_high - margin
            if clearly_outside and said_normal and not flagged:
                out.append(Finding(case.case_id, field, "labs.flag", f"{comp} {value:g} {spec['unit']} is called normal; reference for a {band.replace('_', ' ')} patient is {ref_low}-{ref_high}"))
            elif clearly_inside and flagged and _has(flag_low, ("raised", "high", "low", "elevated", "reduced")) and not outside:
                out.append(Finding(case.case_id, field, "labs.flag", f"{comp} {value:g} {spec['unit']} is flagged {flag.strip()!r} but lies inside {ref_low}-{ref_high}"))
    ceilings = R["scale_ceilings"]
    for i, exam in enumerate(case.exams):
        ceiling = ceilings.get(exam.name)
        score = _score_of(exam.result) if exam.kind == "scale" and ceiling is not None else None
        if score is not None and score > ceiling:
            out.append(Finding(case.case_id, f"exams[{i}] {exam.name}", "labs.scale_ceiling", f"{exam.name} total {score:g} is above {ceiling}, rarely seen even in the most severely ill"))
    return out


# ------------------------------------------------------------------------------------- labels


_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@lru_cache(maxsize=memo_size(4096))
def _tokens(text: str) -> tuple[str, ...]:
    """The words of a text, lower-cased (remembered: the label rules read each text three times)."""
    return tuple(_TOKEN.findall(text.lower()))


@lru_cache(maxsize=None)
def _label_terms() -> tuple[dict[tuple[str, ...], str], dict[tuple[str, ...], str], int]:
    """Disorder labels and criteria phrases as token sequences (looked up by n-gram: fast on long texts)."""
    from mentalhospital_env.knowledge import load_knowledge

    R = review_facts()["labels"]
    heads = tuple(h.lower() for h in R["heads"])
    allowed = {a.lower() for a in R["allowed_as_words"]}
    terms: set[str] = set(t.lower() for t in R["extra"])
    for entry in load_knowledge().disorders:
        name = str(_get(entry, "name"))
        for t in [name, name.split(",")[0]] + list(_get(entry, "synonyms") or ()):
            if not t:
                continue
            low = str(t).lower()
            if low in allowed:
                continue
            if any(h in re.findall(r"[a-z'/-]+", low) or (len(h) > 4 and h in low) for h in heads):
                terms.add(low)
    labels = {tuple(_tokens(t)): t for t in terms if len(t) >= 3 and _tokens(t)}
    crit = {tuple(_tokens(p)): p for p in review_facts()["criteria_phrases"] if _tokens(p)}
    return labels, crit, _first_words(labels), _first_words(crit)


@lru_cache(maxsize=None)
def _label_owners() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """(label -> the codes of the disorders it names, the labels written as capitals in the knowledge base).
    A label of the labels' ``extra`` list names no one disorder and has no entry. An abbreviation ('ODD',
    'GAD') is a label only in capitals: 'the odd one' is a word, not oppositional defiant disorder."""
    from mentalhospital_env.knowledge import load_knowledge

    owners: dict[str, set[str]] = {}
    capitals: set[str] = set()
    for entry in load_knowledge().disorders:
        name, code = str(_get(entry, "name")), str(_get(entry, "code"))
        for t in [name, name.split(",")[0]] + list(_get(entry, "synonyms") or ()):
            if not t:
                continue
            owners.setdefault(str(t).lower(), set()).add(code)
            if str(t).isupper() and " " not in str(t).strip():
                capitals.add(str(t).lower())
    return {k: frozenset(v) for k, v in owners.items()}, frozenset(capitals)


def _cased_tokens(text: str) -> list[str]:
    """The words of :func:`_tokens` as the text writes them ('ODD' against 'odd'): the same tokenizer's spans,
    read back from the text (none where lower-casing changed the text's length, so the two do not align)."""
    low = text.lower()
    return [text[m.start() : m.end()] for m in _TOKEN.finditer(low)] if len(low) == len(text) else []


def _names_own_disorder(term: str, case: Case) -> bool:
    """Whether a label the record holds names one of the case's own disorders or one of their categories (a
    label of no one disorder counts as naming them). A referral's working diagnosis that the case does not
    hold ('recurrent depression' in the GP's letter for bipolar II) gives nothing away: it is what the
    assessment has to look past."""
    from mentalhospital_env.knowledge.codes import category_of_code

    codes = _label_owners()[0].get(term.lower())
    if not codes:
        return True
    own = {d.code for d in case.diagnosis.disorders}
    cats = {category_of_code(c) for c in own} | set(case.diagnosis.categories or ())
    return any(c in own or category_of_code(c) in cats for c in codes)


def _first_words(table: Mapping[tuple[str, ...], str]) -> dict[str, tuple[int, ...]]:
    """first word -> the lengths of the terms that start with it, longest first."""
    out: dict[str, set[int]] = defaultdict(set)
    for key in table:
        out[key[0]].add(len(key))
    return {w: tuple(sorted(n, reverse=True)) for w, n in out.items()}


@lru_cache(maxsize=None)
def _label_patterns() -> tuple[Any, Any, re.Pattern[str]]:
    """(labels, criteria, band pattern): the first two answer ``.search(text)`` like a pattern would."""
    bands = re.compile("|".join(re.escape(p) for p in review_facts()["label_scale_bands"]), re.I)
    return _TermFinder(0), _TermFinder(1), bands


@dataclass(frozen=True)
class _Hit:
    text: str
    index: int

    def group(self, _n: int = 0) -> str:
        return self.text

    def start(self) -> int:
        return self.index


class _TermFinder:
    """Finds disorder labels (``which=0``) or criteria phrases (``which=1``) by token n-grams."""

    def __init__(self, which: int):
        self.which = which

    def finditer(self, text: str) -> list[_Hit]:
        return list(_term_hits(self.which, text))

    def search(self, text: str) -> _Hit | None:
        found = self.finditer(text)
        return found[0] if found else None


@lru_cache(maxsize=memo_size(8192))
def _term_hits(which: int, text: str) -> tuple[_Hit, ...]:
    """:meth:`_TermFinder.finditer`, remembered per text (a patient's quotes recur across cases and drafts)."""
    terms = _label_terms()
    table, starts = terms[which], terms[2 + which]
    words = _tokens(text)
    out = []
    i, end = 0, len(words)
    while i < end:
        lengths = starts.get(words[i])
        if lengths:
            for n in lengths:
                if i + n <= end and tuple(words[i:i + n]) in table:
                    out.append(_Hit(" ".join(words[i:i + n]), i))
                    i += n - 1
                    break
        i += 1
    return tuple(out)


def _negated_before(words: Sequence[str], index: int) -> bool:
    cues = set(review_facts()["labels"]["negation_window_words"])
    return bool(cues & set(words[max(0, index - 5):index]))


def _label_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    known = bool(case.extra and case.extra.get("known_diagnosis"))
    label, crit, bands = _label_patterns()
    out = []
    cid = case.case_id
    texts = list(_narrative(case))
    texts += [(f"facts[{f.id}].patient_says", f.patient_says) for f in case.facts if f.patient_says and f.section != "family_history"]
    seen: set[tuple[str, str]] = set()
    for name, text in texts:
        if name.startswith("family_history"):
            continue
        words = _tokens(text)
        cased: list[str] | None = None
        for m in ([] if known else label.finditer(text)):
            if _negated_before(words, m.start()) or (name, m.group(0)) in seen:
                continue
            if m.group(0) in _label_owners()[1]:
                cased = cased if cased is not None else _cased_tokens(text)
                if len(cased) == len(words) and not cased[m.start()].isupper():
                    continue  # 'the odd one' is not ODD
            if not _names_own_disorder(m.group(0), case):
                continue
            seen.add((name, m.group(0)))
            out.append(Finding(cid, name, "labels.diagnosis", f"names the diagnosis {m.group(0)!r}"))
        # the mental state is written in the examiner's technical terms ('flight of ideas'): criteria
        # wording is a fault of the history, not of the examination
        for m in ([] if name.startswith("mental_status_exam") else crit.finditer(text)):
            if (name, m.group(0)) in seen:
                continue
            seen.add((name, m.group(0)))
            out.append(Finding(cid, name, "labels.criteria", f"criteria wording {m.group(0)!r}"))
    for i, exam in enumerate(case.exams):
        m = bands.search(exam.result)  # a screening band that names a disorder; a diagnostic exam's report may
        if m:
            out.append(Finding(cid, f"exams[{i}] {exam.name}", "labels.scale", f"result names a diagnosis: {m.group(0)!r}"))
    return out


@lru_cache(maxsize=None)
def _giveaway_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    G = review_facts()["history_giveaways"]
    words = lambda key: re.compile(r"\b(?:" + "|".join(re.escape(t) for t in sorted(G[key], key=len, reverse=True)) + r")\b", re.I)  # noqa: E731
    return words("differential_terms"), words("cc_lifelong"), words("cc_technical")


def differential_terms(text: str) -> tuple[list[str], list[str]]:
    """The differential terms of ``review.json`` ``history_giveaways`` in a text, lower-cased and each once:
    (asserted, denied). Denied is a term under a negation cue of its sentence's clause within
    ``negation_window`` tokens ('No psychotic symptoms and no elevated mood at any time', 'no episodes of
    bingeing or purging'): a pertinent negative."""
    from ..knowledge.language import negated_spans_in, tokenize

    window = review_facts()["history_giveaways"]["negation_window"]
    differential = _giveaway_patterns()[0]
    asserted: dict[str, None] = {}
    denied: dict[str, None] = {}
    for sentence in _sentences(text):
        hits = list(differential.finditer(sentence))
        if not hits:
            continue
        spans = negated_spans_in(sentence, window=window)
        for m in hits:
            i = len(tokenize(sentence[:m.start()]))
            n = max(1, len(tokenize(m.group(0))))
            negated = any(max(i, s + 1) < min(i + n, e) for s, e in spans)
            (denied if negated else asserted)[m.group(0).lower()] = None
    return list(asserted), [t for t in denied if t not in asserted]


def _giveaway_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """A history written before the diagnosis is known (``review.json`` ``history_giveaways``): no
    differential named in the textbook's terms, asserted or denied; a chief complaint that says what
    brings the patient now, in plain words, not a pattern dated to childhood. Quoted speech is not read."""
    G = R["history_giveaways"]
    differential, lifelong, technical = _giveaway_patterns()
    out = []
    for name in G["sections"]:
        text = getattr(case.ehr, name, None)
        if not text:
            continue
        plain = _QUOTE.sub(" ", text)
        asserted, denied = differential_terms(plain)
        routine = {t.lower() for t in G["routine_negatives"]}
        pertinent = [t for t in denied if t not in routine]
        if len(pertinent) > G["negatives_at_most"]:
            # a checklist of the textbook's negatives, not a history; the routine screening denials of an ordinary
            # clerking ('No psychotic symptoms, no elevated mood and no suicidal ideation') do not make one
            asserted = list(dict.fromkeys([*asserted, *denied]))
        else:
            asserted = list(dict.fromkeys([*asserted, *pertinent]))
        for m in asserted:
            out.append(Finding(case.case_id, name, "labels.differential", f"names a differential in the examiner's terms: {m!r}"))
        if name == "chief_complaint":
            for m in dict.fromkeys(x.group(0).lower() for x in lifelong.finditer(plain)):
                out.append(Finding(case.case_id, name, "labels.cc_lifelong", f"the complaint dates a pattern to childhood ({m!r}), not what brings the patient now"))
            for m in dict.fromkeys(x.group(0).lower() for x in technical.finditer(plain)):
                out.append(Finding(case.case_id, name, "labels.cc_technical", f"the complaint is in the examiner's words ({m!r}), not the patient's"))
    return out


def _critical_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """The reference plan against the knowledge base's critical actions (``knowledge/critical.py``):
    every action the case requires said, nothing it forbids proposed."""
    from mentalhospital_env.knowledge.critical import load_critical_actions

    check = load_critical_actions().check_case(case, case.treatment.plan)
    out = [Finding(case.case_id, "treatment.plan", "plan.critical", f"misses {r.label} (rule {r.rule})") for r in check.missing]
    out += [Finding(case.case_id, "treatment.plan", "plan.critical", f"proposes {c.label}: {c.reason}") for c in check.contraindicated]
    return out



_STOPPED_SMOKING = re.compile(r"\bstopped (\d+) years ago\b", re.I)


def _record_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """The contradictions a reader catches at once inside one record (``review.json`` ``records``)."""
    W = R["records"]
    out = []
    cid = case.case_id
    demo = case.demographics
    age = demo.age
    living = (demo.living_situation or "").lower()
    marital = (demo.marital_status or "").lower()
    personal = (case.ehr.personal_history or "").lower()
    own = re.sub(r"\b(?:parents|mother|father|parents')\s+(?:\w+\s+)?(?:divorced|separated|married)\b", " ", personal)  # the patient's own marriage
    hpi = case.ehr.history_of_present_illness or ""
    limit = W["young_child_max_age"].get(demo.sex or "", max(W["young_child_max_age"].values()))
    if "young child" in living and age > limit:
        out.append(Finding(cid, "demographics.living_situation", "household.young_child", f"{living!r} at {age}"))
    for rule in W["marital_history"]:
        said = _has(own, rule["words"])
        if not said:
            continue
        if marital and marital in rule.get("not_with", ()):
            out.append(Finding(cid, "personal_history", "household.marital_history", f"the history says {said!r} but marital status is {marital!r}"))
        lived = _has(living, rule.get("living", ()))
        if lived:
            out.append(Finding(cid, "personal_history", "household.marital_history", f"the history says {said!r} but the patient {living!r}"))
    nest = _has(hpi, W["empty_nest_words"])
    if nest and _has(living, W["child_at_home_words"]):
        out.append(Finding(cid, "history_of_present_illness", "household.empty_nest", f"{nest!r} but the patient {living!r}"))
    if age < 18 and _has(living, W["care_living_words"]):
        settled = _has(personal, W["settled_childhood_words"])
        if settled:
            out.append(Finding(cid, "personal_history", "household.care_childhood", f"{settled!r} for a child who is {living!r}"))
    trigger = _has(hpi, W["illness_triggers"])
    well = _has(case.ehr.medical_history or "", W["no_illness_words"])
    if trigger and well:
        out.append(Finding(cid, "medical_history", "history.trigger_medical", f"the illness began after {trigger!r} but the medical history says {well!r}"))
    for m in _STOPPED_SMOKING.finditer(case.ehr.substance_use or ""):
        if age - int(m.group(1)) < W["smoking_stop_min_age"]:
            out.append(Finding(cid, "substance_use", "timeline.smoking", f"{m.group(0)!r} at {age}: stopped at {age - int(m.group(1))}"))
    if case.setting == "emergency" and not _has(hpi, W["today_words"]):
        out.append(Finding(cid, "history_of_present_illness", "history.reason_today", "an emergency history that does not say what brought the patient in today"))
    if case.setting == "inpatient" and not _has(hpi, W["admission_words"] + W["today_words"]):
        out.append(Finding(cid, "history_of_present_illness", "history.reason_today", "an inpatient history that does not say why the patient was admitted now"))
    quotes = len(_QUOTE.findall(hpi))
    if quotes > W["max_quotes"]:
        out.append(Finding(cid, "history_of_present_illness", "history.quotes", f"{quotes} quotations in a row of the patient's words (at most {W['max_quotes']}): a history, not a list of symptoms"))
    mse = case.ehr.mental_status_exam
    appearance = " ".join(filter(None, [_get(mse, "appearance"), _get(mse, "behavior"), _get(mse, "behaviour")])) if mse is not None else ""
    neglect = _has(hpi, W["neglect_words"]) or _has(appearance, W["neglect_words"])
    fine = _has(case.ehr.risk_assessment.self_neglect or "", W["self_care_fine_words"]) if case.ehr.risk_assessment else None
    if neglect and fine:
        out.append(Finding(cid, "risk_assessment.self_neglect", "risk.self_neglect", f"{fine!r} beside {neglect!r} in the history or mental state"))
    for name, text in _narrative(case):
        hole = re.search(r"\{[A-Za-z_]+\}", text)
        if hole:
            out.append(Finding(cid, name, "text.placeholder", f"an unfilled template slot {hole.group(0)!r}"))
        open_choice = next((k for k in W["either_or"] if not k.startswith("_") and k in text), None)
        if open_choice:
            out.append(Finding(cid, name, "text.either_or", f"{open_choice!r} leaves the choice open: a record says which"))
    split = _has(hpi, R["separation_stressors"])
    if split and _has(living, W["partner_living_words"]):
        out.append(Finding(cid, "history_of_present_illness", "household.stressor", f"the illness followed {split!r} but the patient {living!r}"))
    moved = _has(hpi, W["moved_away_words"])
    if moved and _has(living, W["parent_home_words"]):
        out.append(Finding(cid, "history_of_present_illness", "household.moved_away", f"{moved!r} but the patient {living!r}"))
    low = hpi.lower()
    for season, months in W["season_months"].items():
        m = re.search(rf"\b(?:in|early in|late in|in mid-)\s*({'|'.join(W['months'])})\b[^.]*\bonset of {season}\b", low)
        if m and m.group(1) not in months:
            out.append(Finding(cid, "history_of_present_illness", "timeline.season", f"the onset of {season} in {m.group(1).title()}"))
    m = re.search(W["childhood_trigger_pattern"], hpi)
    if m:
        out.append(Finding(cid, "history_of_present_illness", "timeline.childhood_trigger", f"an adult onset after childhood abuse: {m.group(0)[:80]!r}"))
    pph = case.ehr.past_psychiatric_history or ""
    if re.search(W["pph_denial_pattern"], pph, re.I) and re.search(W["pph_attempt_pattern"], pph, re.I):
        out.append(Finding(cid, "past_psychiatric_history", "history.self_contradiction", "the past history denies overdoses or self-harm and records one"))
    # a health visitor sees the under-fives and their mothers: a mother after a birth is theirs to refer (uw-001)
    if age >= 6 and "health visitor" in hpi.lower() and not (case.demographics.sex == "female" and _has(hpi, R["sections_agree"]["postpartum_words"])):
        out.append(Finding(cid, "history_of_present_illness", "household.referrer", f"a health visitor (under-fives) refers a {age}-year-old"))
    if case.setting == "inpatient" and case.treatment and re.search(W["admitted_plan_pattern"], case.treatment.plan or "", re.I):
        out.append(Finding(cid, "treatment.plan", "plan.setting", "admission considered in the plan of a patient already admitted"))
    if case.setting != "inpatient":
        plan = " ".join(x for x in (case.treatment.plan, case.treatment.follow_up) if x) if case.treatment else ""
        m = re.search(W["inpatient_plan_pattern"], plan, re.I)
        if m:
            out.append(Finding(cid, "treatment.plan", "plan.setting", f"{m.group(0)!r} in the plan of a patient seen as {case.setting}"))
    if age <= W["adult_life_max_age"]:
        adult = _has(hpi + " " + (case.ehr.chief_complaint or ""), W["adult_life_words"])
        if adult:
            out.append(Finding(cid, "history_of_present_illness", "history.age_words", f"{adult!r} in the history of a {age}-year-old"))
    return out


def _sections_agree_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """What one section says about the person that another contradicts (``review.json`` ``sections_agree``)."""
    W = R["sections_agree"]
    out = []
    cid = case.case_id
    age = case.demographics.age
    living = (case.demographics.living_situation or "").lower()
    ehr = case.ehr
    mse = ehr.mental_status_exam
    appearance = " ".join(filter(None, [_get(mse, "appearance"), _get(mse, "behavior"), _get(mse, "behaviour")])) if mse is not None else ""
    for rule in W["age_descriptors"]:
        said = _has(appearance, rule["words"])
        if said and not rule["min_age"] <= age <= rule["max_age"]:
            out.append(Finding(cid, "mental_status_exam.appearance", "sections.age_descriptor", f"{said!r} describes a {age}-year-old"))
    for rule in W["sex_descriptors"]:
        said = _has(appearance, rule["words"])
        if said and case.demographics.sex and case.demographics.sex != rule["sex"]:
            out.append(Finding(cid, "mental_status_exam.appearance", "sections.sex_descriptor", f"{said!r} describes a {case.demographics.sex} patient"))
    personal = ehr.personal_history or ""
    story = " ".join(filter(None, [ehr.chief_complaint, ehr.history_of_present_illness]))
    children = _has(living, W["child_words"]) or _has(personal, W["child_words"])
    care = _has(story + " " + personal, W["childcare_words"])
    if care and not children:
        out.append(Finding(cid, "history_of_present_illness", "sections.childcare", f"{care!r} but no child in the household or the personal history ({living!r})"))
    birth = _has(story, W["postpartum_words"]) or any(c.startswith("F53") for c in case.diagnosis.codes)
    if birth and not (_has(living, W["baby_words"]) or _has(personal, W["baby_words"])):
        out.append(Finding(cid, "demographics.living_situation", "sections.postpartum_baby", f"a birth in the history ({birth if isinstance(birth, str) else 'postpartum code'!r}) but no baby in the household or the personal history"))
    if case.treatment is not None:
        plan = " ".join(filter(None, [case.treatment.plan, case.treatment.follow_up]))
        for rule in W["treatment_ages"]:
            said = _has(plan, rule["words"])
            if said and not rule["min_age"] <= age <= rule["max_age"]:
                out.append(Finding(cid, "treatment.plan", "sections.treatment_age", f"{said!r} (ages {rule['min_age']}-{rule['max_age']}) in the plan of a {age}-year-old"))
        if age < 18 and _has(living, W["care_living_words"]):
            said = _has(plan, W["involve_parents_words"])
            if said:
                out.append(Finding(cid, "treatment.plan", "sections.parents_in_care", f"{said!r} for a child who {living!r}"))
        measured: dict[str, tuple[float, str]] = {}
        for e in case.exams:
            if e.kind != "lab":
                continue
            for name, value, flag in lab_values(e.result):
                if re.search(W["abnormal_flag_pattern"], flag, re.I):
                    measured[name.lower()] = (value, flag.strip())
        for m in re.finditer(W["conditional_check_pattern"], plan, re.I):
            names = W["analytes"].get(m.group(1).lower(), ())
            hit = next((n for n in names if n.lower() in measured), None)
            if hit:
                value, flag = measured[hit.lower()]
                out.append(Finding(cid, "treatment.plan", "sections.plan_labs", f"{m.group(0)!r} when {hit} is already {value:g} {flag}"))
    return out + _cross_section_rules(case, W["cross_section"])


def _cross_section_rules(case: Case, X: Mapping[str, Any]) -> list[Finding]:
    """Household, family, timeline, course and mental state against the history (``sections_agree.cross_section``)."""
    out = []
    cid, ehr = case.case_id, case.ehr
    living = (case.demographics.living_situation or "").lower()
    hpi = ehr.history_of_present_illness or ""
    personal = ehr.personal_history or ""
    family = ehr.family_history or ""
    story = " ".join(filter(None, [ehr.chief_complaint, hpi]))
    m = re.search(X["parents_conflict_pattern"], story, re.I)
    if m and not re.search(X["both_parents_living_pattern"], living, re.I):
        out.append(Finding(cid, "history_of_present_illness", "sections.parents_conflict", f"{m.group(0)!r} but the patient {living!r}"))
    for m in re.finditer(X["relative_house_pattern"], story, re.I):
        who = m.group(1).lower()
        home = who in living or (who in X["partner_words"] and _has(living, X["partner_words"]))
        if home:
            out.append(Finding(cid, "history_of_present_illness", "sections.relative_house", f"{m.group(0)!r} but the patient {living!r}"))
    m = re.search(X["separated_pattern"], story, re.I)
    if m and _has(living, X["partner_words"]):
        out.append(Finding(cid, "history_of_present_illness", "sections.relative_house", f"{m.group(0)!r} but the patient {living!r}"))
    for sibling, order in (("younger_sibling_pattern", "youngest_pattern"), ("older_sibling_pattern", "eldest_pattern")):
        s = re.search(X[sibling], family, re.I)
        o = re.search(X[order], personal, re.I)
        if s and o:
            out.append(Finding(cid, "family_history", "sections.birth_order", f"{s.group(0)!r} in the family history of someone who is {o.group(0)!r}"))
    cause = re.search(X["no_cause_pattern"], hpi, re.I)
    stop = re.search(X["recent_stop_pattern"], " ".join(filter(None, [hpi, ehr.past_psychiatric_history, ehr.medications if isinstance(ehr.medications, str) else None])), re.I)
    stop_days = X["stop_days"].get(stop.group(0).split()[-2], 0) if stop else 0
    if cause and stop and stop_days >= illness_days(case, ("chief_complaint", "history_of_present_illness")):
        out.append(Finding(cid, "history_of_present_illness", "sections.unexplained_onset", f"onset {cause.group(0)!r} though a drug was stopped {stop.group(0)!r}"))
    acute = re.search(X["acute_confusion_pattern"], hpi, re.I)
    if acute:
        mse = ehr.mental_status_exam
        cognition = " ".join(filter(None, [_get(mse, "cognition"), _get(mse, "sensorium")])) if mse is not None else ""
        intact = re.search(X["attention_intact_pattern"], cognition, re.I)
        if intact:
            out.append(Finding(cid, "mental_status_exam.cognition", "sections.acute_confusion", f"{intact.group(0)!r} beside {acute.group(0)!r} in the history"))
        plan = " ".join(filter(None, [case.treatment.plan if case.treatment else None, " ".join(d.code for d in case.diagnosis.disorders)]))
        if not re.search(X["delirium_plan_pattern"], plan, re.I) and not any(d.code.startswith("F05") for d in case.diagnosis.disorders):
            out.append(Finding(cid, "treatment.plan", "sections.acute_confusion", f"{acute.group(0)!r} in the history and no delirium screen in the plan"))
    if case.diagnosis.disorders and case.diagnosis.disorders[0].code in X["cyclical_codes"]:
        m = re.search(X["worsening_course_pattern"], hpi, re.I)
        if m:
            out.append(Finding(cid, "history_of_present_illness", "sections.cyclical_course", f"{m.group(0)!r} in a cyclical disorder ({case.diagnosis.disorders[0].code}) that clears between cycles"))
    from .reference import ClinicalReference

    for i, exam in enumerate(case.exams):
        t = re.search(r"(\d+)\s*/\s*(\d+)", exam.result or "") if exam.kind == "scale" else None
        if not (t and t.group(1) == t.group(2) and int(t.group(2)) >= X["scale_maximum_min_total"]):
            continue
        entry = ClinicalReference.bundled().exam(exam.name)
        top = next((b for b in (entry or {}).get("bands", ()) if b["min"] <= int(t.group(2)) <= b["max"]), None)
        if top is None or not top.get("normal", top is entry["bands"][0]):  # a full MoCA is a healthy score, a full SI-R is not
            out.append(Finding(cid, f"exams[{i}] {exam.name}", "labs.scale_maximum", f"{exam.name} total {t.group(0)}: every item at its ceiling"))
    return out


def _score_of(result: str) -> float | None:
    m = re.search(r"(\d+(?:\.\d+)?)\s*/\s*\d+", result)
    return float(m.group(1)) if m else None


def abnormal_results(exams: Iterable[Any], J: Mapping[str, Any]) -> list[tuple[str, str, float, str]]:
    """(key, component, value, flag) for each lab component flagged raised or low whose key is one of
    ``review.json`` ``joins.abnormal_labs`` (the results a plan must answer)."""
    out = []
    for e in exams:
        if e.kind != "lab":
            continue
        for name, value, flag in lab_values(e.result):
            name = name.strip()
            key = name.lower().split()[-1] if name else ""
            if key in J["abnormal_labs"] and re.search(r"\b(?:high|raised|low|above|below)\b", flag, re.I):
                out.append((key, name, value, flag.strip()))
    return out


def liver_multiple(exams: Iterable[Any], age: int, sex: str, R: Mapping[str, Any]) -> float:
    """The highest liver enzyme (``joins.liver_analytes``) as a multiple of its upper reference limit
    for the patient's age and sex; 0 when none is on file."""
    return liver_worst(exams, age, sex, R)[0]


def liver_worst(exams: Iterable[Any], age: int, sex: str, R: Mapping[str, Any]) -> tuple[float, str, float, float]:
    """(multiple, enzyme, value, upper limit) of the liver enzyme furthest above its upper reference
    limit for the patient's age and sex, so that a plan quoting the multiple names what it is a multiple
    of (stop 33's consultant read 'liver enzymes 2.9 times the upper limit' against GGT 158/61 and ALT 44);
    (0, '', 0, 0) when none is on file."""
    worst: tuple[float, str, float, float] = (0.0, "", 0.0, 0.0)
    for e in exams:
        if e.kind != "lab":
            continue
        for name, value, _flag in lab_values(e.result):
            if name.strip().upper() not in R["joins"]["liver_analytes"]:
                continue
            comp = R["labs"]["components"].get(name.strip().upper(), {})
            ranges = comp.get(_band(age, sex)) or comp.get("adult_male")
            if ranges and value / float(ranges[1]) > worst[0]:
                worst = (value / float(ranges[1]), name.strip().upper(), value, float(ranges[1]))
    return worst


def record_needs(case: Case, plan: str) -> list[tuple[str, Mapping[str, Any], str]]:
    """(name, rule, why) for each thing the record calls for that ``plan`` does not answer
    (``review.json`` ``plan_record.record_needs``): a birth before the illness, a young person, low
    platelets beside raised liver enzymes. Read by the audit and by the plan builder."""
    R = review_facts()
    N = R["plan_record"]["record_needs"]
    ehr, age = case.ehr, case.demographics.age
    out = []
    story = " ".join(filter(None, [ehr.chief_complaint, ehr.history_of_present_illness]))
    birth = _has(story, R["sections_agree"]["postpartum_words"]) or next((c for c in case.diagnosis.codes if c.startswith("F53")), None)
    if birth and case.demographics.sex == "female":
        out.append(("perinatal", N["perinatal"], f"a birth in the history ({birth!r})"))
    young = N["young_person"]
    if young["min_age"] <= age <= young["max_age"]:
        out.append(("young_person", young, f"a {age}-year-old"))
    smoking = N["smoking"]
    tobacco = re.search(smoking["pattern"], ehr.substance_use or "", re.I)
    if tobacco and not re.search(smoking["not_pattern"], tobacco.group(0), re.I) and not re.search(smoking["past_pattern"], re.split(r"(?<=[.;])\s", (ehr.substance_use or "")[tobacco.start():], maxsplit=1)[0], re.I):
        out.append(("smoking", {**smoking, "values": {"n": tobacco.group(1)}}, f"smokes {tobacco.group(1)} a day"))
    if record_status(case)["still_drinking"]:
        out.append(("alcohol_withdrawal", N["alcohol_withdrawal"], "a dependent drinker still drinking"))
    sleep = N["insomnia"]
    found = next((c for c in case.diagnosis.codes if c.upper().startswith(tuple(sleep["codes"]))), None)
    if found:
        out.append(("insomnia", sleep, f"insomnia on the diagnosis list ({found})"))
    kids = N["children_drugs"]
    living = str(getattr(case.demographics, "living_situation", "") or "")
    if re.search(kids["living_pattern"], living, re.I) and not re.search(kids["not_living_pattern"], living, re.I):
        for part in re.split(r"(?<=[.;])\s+", ehr.substance_use or ""):
            drug = re.search(kids["substance_pattern"], part, re.I)
            if drug and not re.search(kids["not_substance_pattern"], part, re.I):
                out.append(("children_drugs", {**kids, "values": {"drug": drug.group(1).lower()}}, f"a child at home ({living!r}) and {drug.group(1)} use"))
                break
    weed = N["stimulant_cannabis"]
    if re.search(weed["plan_pattern"], plan, re.I) and any(re.search(weed["substance_pattern"], x, re.I) and not re.search(weed["not_substance_pattern"], x, re.I) for x in re.split(r"(?<=[.;])\s+", ehr.substance_use or "")):
        out.append(("stimulant_cannabis", weed, "a stimulant in the plan of a patient using cannabis"))
    liver = N["liver_disease"]
    platelets = [v for e in case.exams if e.kind == "lab" for n, v, _f in lab_values(e.result) if n.strip().lower().split()[-1:] == ["platelets"]]
    worst, enzyme, value, upper = liver_worst(case.exams, age, case.demographics.sex, R)
    if platelets and min(platelets) < liver["platelets_below"] and worst >= liver["liver_multiple"]:
        values = {"platelets": f"{min(platelets):g}", "multiple": f"{worst:.0f}" if worst >= 3 else f"{worst:.1f}", "enzyme": enzyme, "value": f"{value:g}", "upper": f"{upper:g}"}
        out.append(("liver_disease", {**liver, "values": values}, f"platelets {min(platelets):g} with liver enzymes {worst:.1f}x the upper limit"))
    benzo = N["benzodiazepine_choice"]
    if re.search(benzo["plan_pattern"], plan, re.I) or record_status(case)["still_drinking"]:
        why = benzodiazepine_caution(case)
        if why:
            # a switch to oxazepam or lorazepam when the liver tests worsen weighs the liver, not an older patient's age
            answered = benzo["answered_pattern"] if age >= benzo["min_age"] else f"{benzo['answered_pattern']}|{benzo['liver_answered_pattern']}"
            out.append(("benzodiazepine_choice", {**benzo, "answered_pattern": answered, "values": {"why": why}}, f"a withdrawal regimen for a patient {why}"))
    drive = N["driving"]
    if age >= drive["min_age"]:
        job = str(case.demographics.occupation or "")
        driver = re.search(drive["driver_pattern"], job, re.I)
        remission = tuple(R["plan_record"]["remission_codes"])
        dependence = next((c for c in case.diagnosis.codes if c.upper().startswith(tuple(drive["dependence_codes"])) and not c.upper().startswith(remission)), None)
        sedative = re.search(drive["sedative_pattern"], plan, re.I)
        if dependence:
            what = next(v for k, v in drive["dependence_codes"].items() if dependence.upper().startswith(k))
            says = drive["say_driver"] if driver else drive["say"]
            out.append(("driving", {**drive, "say": says, "values": {"what": what, "job": job.lower()}}, f"{what} ({dependence})" + (f" in a {job.lower()}" if driver else "")))
        elif driver and sedative:
            out.append(("driving", {**drive, "say": drive["say_sedated"], "values": {"drug": sedative.group(0).lower(), "job": job.lower()}}, f"{sedative.group(0)} in the plan of a {job.lower()}"))
    fit = N["fitness_to_practise"]
    job = str(case.demographics.occupation or "")
    regulator = next((r for p, r in fit["professions"] if re.search(p, job, re.I)), None) if age >= fit["min_age"] and not re.search(fit["not_pattern"], job, re.I) else None
    if regulator:
        remission = tuple(R["plan_record"]["remission_codes"])
        dependence = next((c for c in case.diagnosis.codes if c.upper().startswith(tuple(drive["dependence_codes"])) and not c.upper().startswith(remission)), None)
        if dependence:
            what = next(v for k, v in drive["dependence_codes"].items() if dependence.upper().startswith(k))
            out.append(("fitness_to_practise", {**fit, "values": {"what": what, "job": job.lower(), "regulator": regulator}}, f"{what} ({dependence}) in a {job.lower()}"))
    return [(name, rule, why) for name, rule, why in out if not re.search(rule["answered_pattern"], plan, re.I)]


def benzodiazepine_caution(case: Case) -> str | None:
    """Why a long-acting benzodiazepine cleared by the liver (chlordiazepoxide) is the wrong withdrawal drug
    for this patient (review.json ``plan_record.record_needs.benzodiazepine_choice``): an age of ``min_age`` or
    more, liver enzymes ``liver_multiple`` times the upper limit, or low platelets beside raised enzymes; None
    when neither holds. Read by the audit and the plan builder, which gives lorazepam instead."""
    R = review_facts()
    B = R["plan_record"]["record_needs"]["benzodiazepine_choice"]
    age = case.demographics.age
    worst, enzyme, value, upper = liver_worst(case.exams, age, case.demographics.sex, R)
    platelets = [v for e in case.exams if e.kind == "lab" for n, v, _f in lab_values(e.result) if n.strip().lower().split()[-1:] == ["platelets"]]
    liver = worst >= B["liver_multiple"] or (platelets and min(platelets) < B["platelets_below"] and worst >= B["liver_with_platelets"])
    said = dict(times=f"{worst:.0f}" if worst >= 3 else f"{worst:.1f}", enzyme=enzyme, value=f"{value:g}", upper=f"{upper:g}")
    if age >= B["min_age"] and liver:
        return B["why"]["both"].format(age=age, **said)
    if age >= B["min_age"]:
        return B["why"]["age"].format(age=age)
    if liver:
        return B["why"]["liver"].format(**said)
    return None


@lru_cache(maxsize=64)
def _any_pattern(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    """One case-insensitive pattern matching wherever one of ``patterns`` does (``None`` when one of them refers to
    a group or sets a flag of its own, which an alternation would not keep)."""
    if any(re.search(r"\\\d|\(\?P=|\(\?[aiLmsux]+\)", p) for p in patterns):
        return None
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I)


def record_overreach(case: Case, plan: str, profile: Any = None) -> list[tuple[Mapping[str, Any], re.Match[str]]]:
    """(rule, match) for each plan clause the record does not call for (``review.json``
    ``plan_record.record_overreach``): a written safety plan or weekly dispensing beside a risk assessment
    with no suicidal thoughts, alcohol reduction for a drinker within the low-risk limit, a substance
    service for a child who uses nothing, weekly dispensing said twice. Read by the audit and by the plan
    builder, which rewrites them."""
    O = review_facts()["plan_record"]["record_overreach"]
    anyone = _any_pattern(tuple(rule["pattern"] for rule in O["rules"]))
    if anyone is not None and not anyone.search(plan):
        return []  # one search of every rule's pattern at once: most plans hold none
    found = [(rule, m) for rule in O["rules"] for m in [re.search(rule["pattern"], plan, re.I)] if m]
    if not found:
        return []
    return [(rule, m) for rule, m in found
            if ("beside" not in rule or re.search(rule["beside"], plan, re.I)) and ("when" not in rule or overreach_holds(rule["when"], case, profile))
            and not ("unless" in rule and re.search(rule["unless"], plan, re.I))]


def overreach_holds(when: str, case: Case, profile: Any = None) -> bool:
    """Whether a record fact a ``record_overreach`` rule depends on holds: ``suicide_risk_none`` (no
    suicide risk as the knowledge base's critical-action profile reads the record; ``profile`` when the
    caller has it), ``no_self_poisoning`` (no overdose taken now, as the same profile reads it), ``light_drinker`` (within the low-risk limit, no alcohol diagnosis), ``teetotal``, ``no_drug_use``
    (drugs denied, no substance diagnosis)."""
    O = review_facts()["plan_record"]["record_overreach"]
    codes = [c.upper() for c in case.diagnosis.codes]
    substance = case.ehr.substance_use or ""
    if when == "suicide_risk_none":
        if profile is None:
            from mentalhospital_env.knowledge.critical import load_critical_actions

            profile = load_critical_actions().profile(case)
        said = getattr(case.ehr.risk_assessment, "suicide", None) or ""
        return not set(profile.risks) & {"suicide", "active_suicide"} and not re.search(O["death_wish_pattern"], said)
    if when == "light_drinker":  # read over the drinking, not 'first one on waking' of the cigarettes
        substance = " ".join(x for x in re.split(r"(?<=[.;])\s+", substance) if not re.search(O["tobacco_sentence_pattern"], x, re.I) or re.search(r"\b(?:drink|alcohol|units?)\b", x, re.I))
        light = re.search(O["light_drinking_pattern"], substance, re.I)
        units = int(light.group(1)) if light and light.group(1) else 0
        return bool(light) and units <= O["light_units_max"] and not re.search(O["heavy_drinking_pattern"], substance, re.I) and not any(c.startswith("F10") for c in codes)
    if when == "teetotal":
        return bool(_has(substance.lower(), review_facts()["abstinent_words"])) and not any(c.startswith("F10") for c in codes)
    if when == "benzodiazepine_caution":
        return benzodiazepine_caution(case) is not None
    if when == "no_self_poisoning":  # the knowledge base's own reading: no overdose taken now, only past ones
        if profile is None:
            from mentalhospital_env.knowledge.critical import load_critical_actions

            profile = load_critical_actions().profile(case)
        return "self_poisoning" not in profile.signs
    if when == "no_drug_use":
        return bool(re.search(O["drug_denial_pattern"], substance, re.I)) and not any(c.startswith("F1") and not c.startswith(("F10", "F17")) for c in codes)
    raise KeyError(f"record_overreach: unknown condition {when!r}")


def plan_assumptions(plan: str, record: str, codes: Iterable[str], J: Mapping[str, Any]) -> list[str]:
    """The plan phrases (``joins.plan_needs``) that assume a disorder or behaviour which neither the
    diagnosis codes nor the record text (``record``: the narrative, without the plan) carries."""
    record = record.lower()
    for ok in J["plan_violence_ok_words"]:
        record = record.replace(ok, " ")
    codes = tuple(codes)
    out = []
    for need in J["plan_needs"]:
        said = _has(plan.lower(), need["plan"])
        if not said:
            continue
        if any(c.startswith(k) for c in codes for k in need["codes"]):
            continue
        if need["record"] and _has(record, need["record"]):
            continue
        out.append(said)
    return out


_TOLD_SECTIONS = ("chief_complaint", "history_of_present_illness", "mental_status_exam", "risk_assessment", "substance_use")


def comorbid_support(case: Case) -> list[tuple[str, frozenset[str]]]:
    """For each co-diagnosis (every disorder after the principal): its code and the symptoms of its
    presentation that the chief complaint, history, mental state, risk assessment or substance history asserts."""
    if len(case.diagnosis.disorders) < 2:
        return []
    from .derive import derive_facts
    from .reference import ClinicalReference

    ref = ClinicalReference.bundled()
    facts = derive_facts(case.ehr) if case.facts_derived else case.facts
    told: set[str] = set()
    for f in facts:
        if f.section.startswith(_TOLD_SECTIONS):
            pos, neg = ref.readings(f.text)
            told |= pos - neg
    out = []
    for d in case.diagnosis.disorders[1:]:
        pres = ref.presentations.get(d.code)
        if not pres:  # no presentation in the knowledge base (a hand-written record's F10.10): nothing to count, no finding
            continue
        own = {x["concept"] for x in pres["symptoms"]}
        out.append((d.code, frozenset(told & own)))
    return out


def _joins_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """Where one section must agree with another (``review.json`` ``joins``): the drug screen and the
    substance history, drinking in the history and in the substance section, the plan and the
    drinking, the past history and the plan, years in work against a job's training, the mental
    state against the rest of the record, abnormal results against the plan, plan sentences that
    assume a disorder or a behaviour, and labels in the chief complaint."""
    J = R["joins"]
    out: list[Finding] = []
    cid = case.case_id
    ehr = case.ehr
    demo = case.demographics
    substance = (ehr.substance_use or "").lower()
    hpi = ehr.history_of_present_illness or ""
    cc = ehr.chief_complaint or ""
    plan = " ".join(filter(None, [case.treatment.plan, case.treatment.follow_up])) if case.treatment else ""
    plan_low = plan.lower()
    codes = case.diagnosis.codes
    exams = {e.name: e.result for e in case.exams}
    # the urine drug screen and DAST-10 against the substance history
    screen = next((r for n, r in exams.items() if n.lower().startswith("urine drug screen")), "")
    # only what the screen is positive for: "positive for cannabinoids; negative for cocaine, opiates ..." (hw-021)
    positive = " ".join(re.findall(r"\bpositive\b(.*?)(?=\bnegative\b|$)", screen.lower(), re.S))
    if positive:
        for key, words in J["screen_substances"].items():
            if key.startswith("_") or key not in positive:
                continue
            if not _has(substance, words):
                out.append(Finding(cid, "substance_use", "joins.drug_screen", f"the urine drug screen is positive for {key}s but the substance history ({ehr.substance_use!r}) does not mention it"))
    dast = next((r for n, r in exams.items() if n.upper().startswith("DAST")), "")
    score = _score_of(dast) if dast else None
    if score is not None and score >= J["dast_min_positive"] and not _has(substance, J["drug_use_words"]):
        out.append(Finding(cid, "substance_use", "joins.drug_screen", f"DAST-10 {score:g} but the substance history names no drug use ({ehr.substance_use!r})"))
    # drink kinds in the history against the substance section
    story = (cc + " " + hpi).lower()
    kinds_story = {k for k, w in J["drink_kinds"].items() if not k.startswith("_") and _has(story, w)}
    kinds_sub = {k for k, w in J["drink_kinds"].items() if not k.startswith("_") and _has(substance, w)}
    if kinds_story and kinds_sub and not kinds_story & kinds_sub:
        out.append(Finding(cid, "substance_use", "joins.drink_kind", f"the history names {', '.join(sorted(kinds_story))} but the substance history {', '.join(sorted(kinds_sub))}"))
    # the plan or the history treats drinking that the substance history calls light
    light = re.search(J["light_drinking_pattern"], substance)
    units = int(light.group(1)) if light and light.group(1) else 0
    if light and units <= J["light_units_max"] and not any(c.startswith("F10") for c in codes):
        said = _has(plan_low, J["alcohol_plan_words"])
        if said:
            out.append(Finding(cid, "treatment.plan", "joins.alcohol_plan", f"the plan says {said!r} but the substance history says {light.group(0)!r}"))
        drinking = _has(substance + " " + hpi.lower(), J["with_alcohol_words"])
        if drinking:
            out.append(Finding(cid, "substance_use", "joins.alcohol_plan", f"drug use {drinking!r} beside {light.group(0)!r}"))
    # the past history copying the plan
    pph = (ehr.past_psychiatric_history or "").lower()
    for item in (case.treatment.psychotherapy if case.treatment else ()) or ():
        if len(item.split()) >= J["past_plan_min_words"] and item.lower() in pph:
            out.append(Finding(cid, "past_psychiatric_history", "joins.past_copies_plan", f"the past history repeats the plan's {item!r} word for word"))
            break
    # years in work against the training the job needs
    personal = ehr.personal_history or ""
    for m in re.finditer(J["work_years_pattern"], personal, re.I):
        job, years = m.group(1).strip().lower(), int(m.group(2))
        youngest = R["professional_min_age"].get(job)
        if youngest is None and job in R["graduate_occupations"]:
            youngest = J["graduate_min_age"]
        if youngest is not None and demo.age - years < youngest:
            out.append(Finding(cid, "personal_history", "joins.work_years", f"{m.group(0)!r} at {demo.age} means qualifying at {demo.age - years} (usually {youngest} or older)"))
    education = (demo.education or "").lower()
    occupation = re.sub(r"^(retired|part-time|former)\s+", "", (demo.occupation or "").lower())
    if "postgraduate" in education and demo.age < J["postgraduate_min_age"]:
        out.append(Finding(cid, "demographics.education", "joins.education_age", f"{demo.education!r} at {demo.age}"))
    if "postgraduate" in education and occupation in J["no_degree_occupations"]:
        out.append(Finding(cid, "demographics.education", "joins.education_occupation", f"{demo.education!r} for a {occupation} (a job that needs no degree) with nothing in the history to explain it"))
    if _has(occupation, J["unemployed_words"]):
        sick = _has(story + " " + personal.lower(), J["sick_leave_words"])
        if sick:
            out.append(Finding(cid, "history_of_present_illness", "joins.employment", f"{sick!r} but the patient is {demo.occupation!r}"))
    # the mental state against the rest of the record
    mse = ehr.mental_status_exam
    risk = ehr.risk_assessment
    risk_text = " ".join(filter(None, [_get(risk, k) for k in ("suicide", "violence", "self_neglect", "other")])) if risk is not None else ""
    mse_parts = {k: _get(mse, k) or "" for k in ("appearance", "behavior", "thought_content", "judgment", "insight")} if mse is not None else {}
    rest = " ".join(t for n, t in _narrative(case) if not n.startswith("mental_status_exam")).lower() + " " + plan_low
    groomed = _has(mse_parts.get("appearance", ""), J["groomed_words"])
    neglect = _has(hpi + " " + risk_text, J["neglect_words"])
    if groomed and neglect:
        out.append(Finding(cid, "mental_status_exam.appearance", "joins.mse_appearance", f"{groomed!r} beside {neglect!r} elsewhere in the record"))
    for topic in J["mse_topics"]:
        for field in ("thought_content", "judgment", "insight"):
            said = _has(mse_parts.get(field, ""), topic["mse"])
            if said and not _has(rest, topic["needs"]):
                out.append(Finding(cid, f"mental_status_exam.{field}", "joins.mse_topic", f"{said!r} but nothing else in the record mentions it"))
    wish = _has(mse_parts.get("thought_content", ""), J["death_wish_words"])
    if wish:
        denied = _has(hpi + " " + (_get(risk, "suicide") or "" if risk is not None else ""), J["death_wish_denials"])
        if denied:
            out.append(Finding(cid, "mental_status_exam.thought_content", "joins.mse_death_wishes", f"{wish!r} in the mental state but {denied!r} in the history or risk assessment"))
        elif not _has(hpi + " " + risk_text, J["death_wish_told_words"]):
            out.append(Finding(cid, "mental_status_exam.thought_content", "joins.mse_death_wishes", f"{wish!r} in the mental state but not in the history or risk assessment"))
    cssrs = next((r for n, r in exams.items() if n == J["cssrs_exam"]), "")
    if cssrs and _score_of(cssrs) == 0:
        harm = _has(hpi + " " + risk_text, J["frequent_self_harm_words"])
        if harm:
            out.append(Finding(cid, "exams", "joins.cssrs_self_harm", f"C-SSRS {cssrs!r} in a patient whose record says {harm!r}"))
    # abnormal results against the plan
    for key, name, value, flag in abnormal_results(case.exams, J):
        if not _has(plan_low, J["abnormal_labs"][key]):
            out.append(Finding(cid, "treatment.plan", "joins.labs_ignored", f"{name} {value:g} {flag} on file but the plan does not address it"))
        urgent = J["urgent_labs"].get(key)
        if urgent and value < urgent["below"] and not _has(plan_low, urgent["words"]):
            out.append(Finding(cid, "treatment.plan", "joins.labs_ignored", f"{name} {value:g} needs same-day review, which the plan does not arrange"))
    worst = liver_multiple(case.exams, demo.age, demo.sex, R)
    for drug, limit in J["liver_drugs"].items():
        if not drug.startswith("_") and drug in plan_low and worst >= limit:
            out.append(Finding(cid, "treatment.plan", "joins.labs_ignored", f"{drug} planned with liver enzymes {worst:.1f}x the upper limit"))
    # plan sentences that assume a disorder or a behaviour the record does not carry
    record = " ".join(t for _, t in _narrative(case))
    for said in plan_assumptions(plan_low, record, codes, J):
        out.append(Finding(cid, "treatment.plan", "joins.plan_assumes", f"the plan says {said!r} but neither the diagnosis nor the record supports it"))
    for code in codes:  # a substance diagnosis names its substance in the substance history
        family = next((f for f in J["code_substances"] if not f.startswith("_") and (code == f or code.startswith(f + "."))), None)
        if family and not _has(substance, J["code_substances"][family]):
            out.append(Finding(cid, "substance_use", "joins.substance_code", f"{code} is diagnosed but the substance history ({ehr.substance_use!r}) does not name its substance"))
    # the history against the substance section, the referrer and the patient's age
    abstinent = _has(substance, J["abstinent_words"])
    drinking = _has(hpi, J["abstinent_drinking_words"])
    if abstinent and drinking:
        out.append(Finding(cid, "history_of_present_illness", "joins.abstinent_drinking", f"{drinking!r} in the history but the substance history says {abstinent!r}"))
    signs = _has(hpi + " " + " ".join(mse_parts.values()), J["injecting_signs"])
    if signs and not _has(substance, J["injecting_words"]):
        out.append(Finding(cid, "substance_use", "joins.injecting", f"{signs!r} in the history or mental state but the substance history records no injecting ({ehr.substance_use!r})"))
    memory = _has(hpi, J["memory_clinic_words"])
    from mentalhospital_env.knowledge.codes import category_of_code

    if memory and category_of_code(case.diagnosis.principal.code) not in J["memory_clinic_categories"]:
        out.append(Finding(cid, "history_of_present_illness", "joins.referrer", f"referred by the {memory} for {case.diagnosis.principal.code} {case.diagnosis.principal.name}"))
    for event in J["age_limited_events"]:
        said = _has(hpi, event["words"])
        if said and demo.age > event["max_age"]:
            out.append(Finding(cid, "history_of_present_illness", "joins.age_event", f"{said!r} at {demo.age}"))
    for code, told in comorbid_support(case):
        if len(told) < J["comorbid_min_symptoms"]:
            out.append(Finding(cid, "history_of_present_illness", "joins.comorbid_support",
                               f"co-diagnosis {code} rests on {len(told)} of its symptoms in the record ({', '.join(sorted(told)) or 'none'}); at least {J['comorbid_min_symptoms']} expected beside any scale score"))
    audit = next((r for n, r in exams.items() if n.upper() == "AUDIT"), "")
    audit_score = _score_of(audit) if audit else None
    abstinent = _has(substance, J["abstinent_words"])
    if abstinent and audit_score is not None and audit_score > J["abstinent_audit_max"]:
        out.append(Finding(cid, "exams AUDIT", "joins.abstinent_audit", f"AUDIT {audit_score:g} for a patient who is {abstinent!r}"))
    told = " ".join(filter(None, [cc, hpi, ehr.past_psychiatric_history or ""]))
    nap = _has(told, J["nap_words"])
    alert = _has(told, J["no_somnolence_words"])
    if nap and alert:
        out.append(Finding(cid, "history_of_present_illness", "joins.nap_somnolence", f"{nap!r} beside {alert!r}"))
    police = _has(told, J["police_referral_words"])
    family = _has(hpi, J["family_brought_words"])
    if police and family:
        out.append(Finding(cid, "history_of_present_illness", "joins.referrer", f"{police!r} yet the patient asked family {family!r}"))
    opening, *rest = _sentences(hpi) or [""]
    for name, text in (("chief_complaint", cc), ("history_of_present_illness", " ".join(rest))) if re.search(J["referral_opening_pattern"], opening) else ():
        said = referral_disagrees(case.setting, opening, text, J)
        if said:
            out.append(Finding(cid, name, "joins.referral_source", f"{said!r} but the history opens {opening[:80]!r}"))
    label = _has(cc, J["cc_labels"])
    if label and not re.search(r"\"[^\"]*" + re.escape(label) + r"[^\"]*\"", cc, re.I):
        out.append(Finding(cid, "chief_complaint", "joins.cc_label", f"the chief complaint is a clinical label ({label!r}), not the patient's complaint"))
    return out


def referral_disagrees(setting: str, referrer: str, text: str, J: Mapping[str, Any]) -> str | None:
    """The words of ``text`` that say how the patient came in a way the referrer (the history's opening,
    or the referrer the generator drew) does not bear out (review.json ``joins.referral_agree``), or None."""
    for rule in J["referral_agree"]:
        if rule.get("settings") and setting not in rule["settings"]:
            continue
        m = re.search(rule["said"], text)
        if m and not re.search(rule["referrer"], referrer):
            return m.group(0)
    return None


def offending_told(text: str, A: Mapping[str, Any]) -> str | None:
    """The first offending word (``agree.forensic_words``) in a sentence of ``text`` that does not deny it."""
    for s in _sentences(text):
        said = _has(s, A["forensic_words"])
        if said and not re.search(r"\b(?:no|never|not|denies|none)\b", s, re.I):
            return said
    return None


def _agree_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """Where a record's sections, or its plan and its results, must say the same thing (``review.json``
    ``agree``): plan clauses left to a condition the record answers, doses written as alternatives, two
    targets for one drug level, 'avoid benzodiazepines' beside a benzodiazepine withdrawal regimen, a
    test ordered that the results hold, a reason not to act on thoughts the patient denies, working and
    off sick at once, a settled upbringing beside a criminal record, a drinker's own measure against the
    units, a medical illness the plan ignores, a depression rating near the top of its scale without
    psychosis or active intent."""
    A = R["agree"]
    out: list[Finding] = []
    cid = case.case_id
    ehr = case.ehr
    plan = " ".join(filter(None, [case.treatment.plan, case.treatment.follow_up])) if case.treatment else ""
    plan_low = plan.lower()
    for pattern in A["plan_conditionals"]:
        m = re.search(pattern, plan_low)
        if m:
            out.append(Finding(cid, "treatment.plan", "agree.plan_conditional", f"the plan leaves {m.group(0)!r} open, which the record answers"))
    doses = [plan] + ([m.dose for m in case.treatment.medications or ()] if case.treatment else [])
    for text in doses:
        m = re.search(A["dose_alternatives"], text or "")
        if m:
            out.append(Finding(cid, "treatment.plan", "agree.dose_alternatives", f"a dose written as alternatives: {m.group(0)!r}"))
            break
    targets = {m.group(1) + "-" + m.group(2) for m in re.finditer(A["level_target"], plan)}
    if len(targets) > 1:
        out.append(Finding(cid, "treatment.plan", "agree.level_targets", f"two target ranges for one level: {', '.join(sorted(targets))}"))
    avoid = re.search(A["avoid_benzodiazepines"], plan_low)
    regimen = _has(plan_low, A["benzodiazepine_regimen_words"])
    if avoid and regimen:
        out.append(Finding(cid, "treatment.plan", "agree.benzodiazepines", f"{avoid.group(0)!r} beside {regimen!r}"))
    on_file = {e.name.lower() for e in case.exams}
    for rule in A["ordered_but_on_file"]:
        m = re.search(rule["pattern"], plan_low)
        if m and rule["exam"].lower() in on_file:
            out.append(Finding(cid, "treatment.plan", "agree.ordered_on_file", f"the plan orders {m.group(0)!r} but the results already hold a {rule['exam']}"))
    suicide = (_get(ehr.risk_assessment, "suicide") or "") if ehr.risk_assessment is not None else ""
    denied, reason = _has(suicide, A["risk_denial_words"]), _has(suicide, A["reason_not_to_act_words"])
    if denied and reason:
        out.append(Finding(cid, "risk_assessment.suicide", "agree.risk_reason", f"{reason!r}: a reason not to act on thoughts the patient denies ({denied!r})"))
    personal = ehr.personal_history or ""
    story = " ".join(filter(None, [ehr.chief_complaint, ehr.history_of_present_illness]))
    working, off = _has(personal, A["working_words"]), _has(story, A["not_working_words"])
    if working and off:
        out.append(Finding(cid, "personal_history", "agree.employment", f"{working!r} in the personal history but {off!r} in the history"))
    lost, in_work = _has(story, A["job_lost_words"]), _has(personal, A["in_work_words"])
    if lost and in_work:
        out.append(Finding(cid, "personal_history", "agree.job_lost", f"{in_work!r} in the personal history but {lost!r} in the history"))
    many = _has(story, A["many_admissions_words"])
    once = re.search(A["one_admission_pattern"], ehr.past_psychiatric_history or "", re.I)
    if many and once:
        out.append(Finding(cid, "past_psychiatric_history", "agree.admissions", f"{many!r} in the history but {once.group(0)!r} in the past history"))
    weapon = _has(story, A["weapon_words"])
    violence = (_get(ehr.risk_assessment, "violence") or "") if ehr.risk_assessment is not None else ""
    if weapon and not _has(violence, A["weapon_risk_words"]):
        out.append(Finding(cid, "risk_assessment.violence", "agree.weapon_risk", f"{weapon!r} in the history but the violence risk ({violence!r}) does not mention it"))
    settled = _has(personal, A["settled_upbringing_words"])
    crime = offending_told(" ".join(t for _, t in _narrative(case)), A) if settled else None
    if settled and crime:
        out.append(Finding(cid, "personal_history", "agree.upbringing", f"{settled!r} beside {crime!r}"))
    substance = ehr.substance_use or ""
    units = [int(g) for m in re.finditer(A["units_pattern"], substance, re.I) for g in m.groups() if g]
    if units:
        for amount in A["drink_amounts"]:
            said = _has(story, amount["words"])
            if not said:
                continue  # the first measure told is the one read ('half a bottle of vodka' before 'a bottle of vodka')
            low, high = amount["units"]
            if not low <= max(units) <= high:
                out.append(Finding(cid, "substance_use", "agree.drink_units", f"{said!r} in the history is {low}-{high} units a day, but the substance history gives {max(units)}"))
            break
    medical = (ehr.medical_history or "").lower()
    for condition, answers in A["medical_conditions_needing_plan"].items():
        if re.search(rf"(?<!no )\b{re.escape(condition)}", medical) and not _has(plan_low, answers):
            out.append(Finding(cid, "treatment.plan", "agree.medical_plan", f"{condition} in the medical history but the plan does not mention it"))
    codes = case.diagnosis.codes
    psychotic = any(c == p or c.startswith(p + ".") or c.startswith(p) for c in codes for p in A["psychotic_codes"])
    risk_text = " ".join(filter(None, [_get(ehr.risk_assessment, k) for k in ("suicide", "other")])) if ehr.risk_assessment is not None else ""
    active = _has(re.sub(r"\b(?:no|not|without|denies)\b[^.;]*", "", risk_text, flags=re.I), A["active_suicide_words"])
    if not psychotic and not active:
        for exam in case.exams:
            ceiling = A["nonpsychotic_scale_ceilings"].get(exam.name)
            score = _score_of(exam.result) if ceiling is not None and exam.kind == "scale" else None
            if score is not None and score > ceiling:
                out.append(Finding(cid, f"exams {exam.name}", "agree.scale_severity", f"{exam.name} total {score:g} without psychotic features or active suicidal intent (usually at most {ceiling})"))
    out.extend(_told_once_rules(case, R))
    return out


def use_years(substance: str, story: str, age: int, A: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """The years of use a substance history gives ('daily cannabis use for 5 years') and the years since the
    age the patient says use began ('every day since I was sixteen'), each ``None`` when not told."""
    m = re.search(A["use_years_pattern"], substance, re.I)
    since = re.search(A["use_since_pattern"], story, re.I)
    start = since.group(1).lower() if since else ""
    began = int(start) if start.isdigit() else _NUMBERS.get(start) if start in _NUMBERS and start not in ("a", "an") else None
    return (int(m.group(1)) if m else None), (age - began if began is not None and began < age else None)


def _first_told(cid: str, sections: Sequence[tuple[str, str]], pattern: str, rule: str, whom: str) -> list[Finding]:
    """The first section that tells what ``pattern`` finds, as one finding of ``rule`` (``whom``: of whom it is told)."""
    for name, text in sections:
        m = re.search(pattern, text, re.I)
        if m:
            return [Finding(cid, name, rule, f"{m.group(0)!r} {whom}")]
    return []


def care_home_misplaced(living: str, age: int, codes: Iterable[str], A: Mapping[str, Any]) -> bool:
    """Whether a patient is said to live in a care home without what puts someone there: a dementia or
    delirium among the diagnoses, or great age (``review.json`` ``agree.care_home_*``)."""
    return bool(re.search(A["care_home_pattern"], living, re.I)) and age < A["care_home_min_age"] and not any(c.startswith(tuple(A["care_home_codes"])) for c in codes)


def _told_once_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """One life told the same way in every section (``review.json`` ``agree``, stop 24): an only child
    without brothers or sisters elsewhere, years of use that fit the age use began and the patient's
    age, intoxication and withdrawal not shown at the same visit, no adult's life in a child's record, a job as a protective factor only for someone in work,
    a partner who has left not living at home, a rough sleeper without a house to clean, a parent's
    death not beside living with both parents."""
    A = R["agree"]
    out: list[Finding] = []
    cid, ehr, age = case.case_id, case.ehr, case.demographics.age
    sections = _narrative(case)
    personal = ehr.personal_history or ""
    if re.search(A["only_child_pattern"], personal, re.I):
        for name, text in sections:
            m = re.search(A["sibling_pattern"], text, re.I)
            if m:
                out.append(Finding(cid, "personal_history", "agree.only_child", f"'only child' in the personal history but {m.group(0)!r} in {name}"))
                break
    substance = ehr.substance_use or ""
    story = " ".join(filter(None, [ehr.chief_complaint, ehr.history_of_present_illness]))
    years, since = use_years(substance, story, age, A)
    if years is not None and age - years < A["use_min_age"]:
        out.append(Finding(cid, "substance_use", "agree.use_years", f"use for {years} years at {age} means starting at {age - years}"))
    elif years is not None and since is not None and abs(years - since) > A["use_years_tolerance"]:
        out.append(Finding(cid, "substance_use", "agree.use_years", f"use for {years} years in the substance history, but since {age - since} (for {since} years) in the patient's words"))
    mse = ehr.mental_status_exam
    shown = " ".join(filter(None, [_get(mse, k) for k in ("appearance", "behavior", "speech")])) if mse is not None else ""
    intoxicated = re.search(A["intoxication_signs"], shown, re.I)
    if intoxicated:
        for exam in case.exams:
            threshold = A["withdrawal_scale_thresholds"].get(exam.name)
            score = _score_of(exam.result) if threshold is not None else None
            if score is not None and score >= threshold:
                out.append(Finding(cid, f"exams {exam.name}", "agree.intoxicated_withdrawing", f"{intoxicated.group(0)!r} in the mental state beside {exam.name} {score:g} (withdrawal)"))
    if age <= A["adult_life_max_age"]:
        for name, text in sections:
            m = re.search(A["adult_life_pattern"], text, re.I)
            if m:
                out.append(Finding(cid, name, "agree.adult_life", f"{m.group(0)!r} in the record of a {age}-year-old"))
    suicide = (_get(ehr.risk_assessment, "suicide") or "") if ehr.risk_assessment is not None else ""
    job = re.search(A["protective_job_pattern"], suicide, re.I)
    if job:
        idle = _has(case.demographics.occupation or "", A["not_working_occupations"]) or _has(story, A["not_working_words"]) or _has(story, A["job_lost_words"])
        if idle:
            out.append(Finding(cid, "risk_assessment.suicide", "agree.protective_job", f"{job.group(0)!r} but {idle!r}"))
    living = case.demographics.living_situation or ""
    if _has(living, R["homeless_words"]):
        out.extend(_first_told(cid, sections, A["homeless_home_pattern"], "agree.homeless_home", f"of a patient who is {living!r}"))
    death = re.search(A["parent_death_pattern"], story, re.I)
    if death and re.search(A["both_parents_living"], living, re.I):
        out.append(Finding(cid, "history_of_present_illness", "agree.parent_death", f"{death.group(0)!r} but {living!r}"))
    if age < 16:
        for name, text in sections:
            m = re.search(A["child_baby_pattern"], text, re.I)
            if m:
                out.append(Finding(cid, name, "agree.adult_life", f"{m.group(0)!r} in the record of a {age}-year-old"))
    remedy = re.search(A["alcohol_tried_pattern"], story, re.I)
    if remedy and not any(c.startswith("F10") for c in case.diagnosis.codes) and not re.search(A["drinker_pattern"], substance, re.I):
        out.append(Finding(cid, "history_of_present_illness", "agree.tried_alcohol", f"{remedy.group(0)!r} tried, but no drinking in the substance history ({substance[:60]!r})"))
    left = re.search(A["partner_left_pattern"], story, re.I)
    home = _has(case.demographics.living_situation or "", A["partner_words"])
    if left and home:
        out.append(Finding(cid, "history_of_present_illness", "agree.partner_left", f"{left.group(0)!r} but {case.demographics.living_situation!r}"))
    if age < 18 and _has(living, R["care_words"]):
        out.extend(_first_told(cid, sections, A["in_care_parent_pattern"], "agree.in_care_parents", f"of a child who is {living!r}"))
    never = re.search(A["never_partnered_pattern"], story, re.I)
    partnered = (case.demographics.marital_status or "") in A["partnered_status"] or _has(case.demographics.living_situation or "", A["partner_words"])
    if never and partnered:
        out.append(Finding(cid, "history_of_present_illness", "agree.never_partnered", f"{never.group(0)!r} of a patient who is {case.demographics.marital_status or case.demographics.living_situation!r}"))
    if care_home_misplaced(case.demographics.living_situation or "", age, case.diagnosis.codes, A):
        out.append(Finding(cid, "demographics.living_situation", "agree.care_home", f"{case.demographics.living_situation!r} at {age} without a dementia or delirium among the diagnoses"))
    offence = re.search(A["violent_offence_pattern"], personal)
    violence = (_get(ehr.risk_assessment, "violence") or "") if ehr.risk_assessment is not None else ""
    never = re.search(A["no_violence_pattern"], violence, re.I) if offence else None
    if offence and never:
        out.append(Finding(cid, "risk_assessment.violence", "agree.violent_offence", f"{never.group(0)!r} beside {offence.group(0)!r} in the personal history"))
    if mse is not None and any(c.startswith(tuple(A["low_mood_codes"])) for c in case.diagnosis.codes):
        flat = re.search(A["euthymic_pattern"], (_get(mse, "affect") or "").strip(), re.I)
        said = re.search(A["euthymic_pattern"], (_get(mse, "mood") or "").strip(), re.I) if flat else None
        for key, m in (("affect", flat), ("mood", said)):  # 'alright' said of a low mood the affect shows is what patients say
            if m:
                out.append(Finding(cid, f"mental_status_exam.{key}", "agree.low_mood", f"{m.group(0)!r} in a record diagnosing a depressive episode"))
    return out


def lone_parent(living: str) -> str | None:
    """The one parent a living situation names ('lives with mother and a younger brother' -> 'mother'), or None
    when it names both, parents, or neither (``review.json`` ``stop28.lone_parent_patterns``)."""
    P = review_facts()["stop28"]["lone_parent_patterns"]
    if re.search(P["both"], living, re.I):
        return None
    mother, father = re.search(P["mother"], living, re.I), re.search(P["father"], living, re.I)
    return "mother" if mother and not father else "father" if father and not mother else None


_LIPID_PART = re.compile(r"(total cholesterol|LDL|HDL|triglycerides) (\d+(?:\.\d+)?)")


def _stop28_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """The contradictions a consultant found reading test-v2 records at stop 28 (``review.json`` ``stop28``)."""
    S = R["stop28"]
    cid = case.case_id
    out: list[Finding] = []
    echo = re.compile(S["repeated_clause_pattern"])
    plan = case.treatment.plan if case.treatment else ""
    for name, text in [*_narrative(case), ("treatment.plan", plan or "")]:
        m = echo.search(text or "")
        if m:
            out.append(Finding(cid, name, "text.repeated_clause", f"{m.group(1).strip(',; ')!r} said twice in a row"))
    for i, exam in enumerate(case.exams):
        parts = dict(_LIPID_PART.findall(exam.result or ""))
        if len(parts) == 4:
            total = float(parts["total cholesterol"])
            made = float(parts["LDL"]) + float(parts["HDL"]) + float(parts["triglycerides"]) / 2.2
            if abs(total - made) > 0.6:
                out.append(Finding(cid, f"exams[{i}] {exam.name}", "labs.lipid_sum", f"LDL + HDL + triglycerides/2.2 make {made:.1f} mmol/L, not the total cholesterol of {total:g}"))
    if case.setting == "outpatient" and plan and re.search(S["outpatient_plan_pattern"], plan):
        m = re.search(S["outpatient_admission_pattern"], plan, re.I)
        if m:
            out.append(Finding(cid, "treatment.plan", "plan.outpatient_admission", f"an outpatient plan that books clinic follow-up and says {m.group(0)!r}"))
    living = str(case.demographics.living_situation or "")
    personal = case.ehr.personal_history or ""
    if re.search(S["with_parents_pattern"], living, re.I):
        m = re.search(S["parents_apart_pattern"], personal, re.I)
        if m:
            out.append(Finding(cid, "personal_history", "household.parents_apart", f"{m.group(0)!r} in the childhood of someone who {living}, with no word of how they came back together"))
    hpi = case.ehr.history_of_present_illness or ""
    if re.search(S["alone_living_pattern"], living, re.I):
        m = re.search(S["shared_signs_pattern"], hpi, re.I)
        if m:
            out.append(Finding(cid, "history_of_present_illness", "household.alone_seen", f"{m.group(0)!r}: seen only by someone at home, but the patient {living}"))
    story = f"{case.ehr.chief_complaint or ''} {hpi}"
    code = case.diagnosis.principal.code
    cores = S["core_complaints"]
    key = max((k for k in cores if not k.startswith("_") and code.startswith(k)), key=len, default=None)
    if key is not None and not re.search(cores[key], story, re.I):
        out.append(Finding(cid, "history_of_present_illness", "history.core_complaint", f"nothing in the complaint or history of a {code} case tells its core complaint"))
    informant = ((case.persona.informant if case.persona else None) or "").lower()
    named = re.split(r"[ ,]", informant, maxsplit=1)[0]
    lone = lone_parent(living)
    if case.demographics.age < 18 and lone and named in ("mother", "father") and named != lone:
        whole = " ".join(t for _, t in _narrative(case))
        if not re.search(S["parent_apart_explained_pattern"], whole, re.I):
            out.append(Finding(cid, "persona.informant", "household.informant_apart", f"the child's {named} is the informant, but the child {living}, and nothing says why"))
    schooling = f"{case.demographics.education or ''} {case.demographics.occupation or ''}"
    if re.search(r"\bprimary\b", schooling, re.I):
        m = re.search(S["secondary_school_pattern"], personal, re.I)
        if m:
            out.append(Finding(cid, "personal_history", "sections.school_stage", f"{m.group(0)!r} for a child at primary school"))
    if case.demographics.age >= S["remote_trigger_min_age"]:
        m = re.search(S["remote_trigger_pattern"], hpi, re.I)
        if m and not _has(hpi, ["since adolescence", "since childhood"]):
            out.append(Finding(cid, "history_of_present_illness", "timeline.remote_trigger", f"{m.group(0)!r}: a trigger from the patient's youth for the illness of a {case.demographics.age}-year-old"))
    if _family_match(code, S["police_unlikely_codes"]):
        m = re.search(S["police_referral_pattern"], story, re.I)
        if m:
            out.append(Finding(cid, "history_of_present_illness", "household.police_referral", f"{m.group(0)!r} for {code}, an illness the police rarely meet"))
    return out


_UNITS = re.compile(r"(\d+(?:\.\d+)?) units? (?:a|per|each) (day|week|night)\b|(\d+(?:\.\d+)?) units? (most) (?:days|evenings|nights)\b|\bdaily\b[^.;]{0,30}?(\d+(?:\.\d+)?) units\b|(\d+(?:\.\d+)?) units\b[^.;]{0,20}?\bdaily\b", re.I)


def drinking_units(substance: str) -> tuple[float, float, float]:
    """(units a day, units a session, units a week) of the drinking a substance history records (0 where
    it gives none): 'a night' is a session (a weekend binge), 'most evenings' and 'daily' a day."""
    day = session = week = 0.0
    for m in _UNITS.finditer(substance or ""):
        if m.group(1):
            value, per = float(m.group(1)), m.group(2).lower()
            if per == "week":
                week = max(week, value)
            elif per == "night":
                session = max(session, value)
            else:
                day = max(day, value)
        else:
            day = max(day, float(m.group(3) or m.group(5) or m.group(6)))
    return day, max(session, day), max(week, day * 7)


def _stop29_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """What a consultant reading ten test-v2 records at stop 29 found (``review.json`` ``stop29``)."""
    S = R["stop29"]
    cid, ehr = case.case_id, case.ehr
    out: list[Finding] = []
    plan = (case.treatment.plan if case.treatment else "") or ""
    hpi = ehr.history_of_present_illness or ""
    story = f"{ehr.chief_complaint or ''} {hpi}"
    codes = [d.code for d in case.diagnosis.disorders]
    # infection on the results, and what the plan and the history make of it
    signs = []
    for exam in case.exams:
        for sign in S["infection_signs"]:
            if re.search(sign["exam"], exam.name):
                m = re.search(sign["pattern"], exam.result or "")
                if m:
                    signs.append(sign["what"].format(*m.groups()))
    if signs and plan and not re.search(S["infection_treated_pattern"], plan, re.I):
        out.append(Finding(cid, "treatment.plan", "plan.infection_untreated", f"{' and '.join(signs)} on the results, and no antibiotic or sepsis care in the plan"))
    if signs and _family_match(codes[0], S["delirium_codes"]) and not re.search(S["infection_story_pattern"], story, re.I):
        out.append(Finding(cid, "history_of_present_illness", "history.cause_missed", f"{' and '.join(signs)} on the results, but the history never names an infection as the delirium's cause"))
    for need in S["precipitant_needs"]:
        m = re.search(need["pattern"], hpi, re.I)
        if not m:
            continue
        shown = [e for e in case.exams if re.search(need["exam"], e.name) and re.search(need["needs"], e.result or "", re.I)]
        if not shown:
            out.append(Finding(cid, "history_of_present_illness", "history.cause_unsupported", f"the history blames {m.group(0)!r}, but no result shows {need['what']}"))
    meds = list(case.treatment.medications or ()) if case.treatment else []
    for med in meds:
        if re.search(S["adjunct_pattern"], f"{med.dose or ''}", re.I) and len(meds) == 1:
            out.append(Finding(cid, "treatment.medications", "plan.adjunct_alone", f"{med.name} {med.dose!r} with no other drug in the plan for it to be added to"))
    marital = (case.demographics.marital_status or "").lower()
    m = re.search(S["divorce_pattern"], hpi, re.I)
    if m and marital and marital not in S["divorce_status"]:
        out.append(Finding(cid, "history_of_present_illness", "household.divorce_status", f"{m.group(0)!r} set it off, but the patient is recorded {marital!r}"))
    living = (case.demographics.living_situation or "").lower()
    recent = re.search(S["recent_separation_pattern"], living)
    told = re.sub(re.escape(living), " ", hpi, flags=re.I) if living else hpi  # the household line itself is not the trigger
    told = re.sub(S["recent_separation_pattern"], " ", told, flags=re.I)
    split = re.search(S["divorce_pattern"] + r"|\bseparation\b|\bbreak-?up\b", told, re.I)
    if recent and split:
        days = illness_days(case, ("chief_complaint", "history_of_present_illness"))
        if days > S["recent_separation_max_days"]:
            out.append(Finding(cid, "history_of_present_illness", "household.separation_timing", f"the illness began after {split.group(0)!r} about {days / 365:.0f} years ago, but the patient {living!r}"))
    nest = re.search(S["empty_nest_pattern"], hpi, re.I)
    if nest and case.demographics.age < S["empty_nest_min_age"]:
        out.append(Finding(cid, "history_of_present_illness", "timeline.empty_nest_age", f"{nest.group(0)!r} at {case.demographics.age}: a child old enough to leave home"))
    if re.search(S["known_children_pattern"], living, re.I):
        m = re.search(S["ask_children_pattern"], plan, re.I)
        if m:
            out.append(Finding(cid, "treatment.plan", "plan.known_children", f"{m.group(0)!r} but the record says the patient {living}"))
    substance = ehr.substance_use or ""
    for dm in re.finditer(S["daily_use_pattern"], story, re.I):
        drug = (dm.group(1) or dm.group(2)).lower()
        wm = re.search(S["weekly_use_pattern"].replace("{drug}", re.escape(drug)), substance, re.I)
        if wm:
            out.append(Finding(cid, "substance_use", "agree.use_frequency", f"{dm.group(0)!r} in the history but {wm.group(0)!r} in the substance history"))
            break
    if not _has(substance, R["joins"]["injecting_words"]):
        for ev in S["injecting_evidence"]:
            texts = [("treatment.plan", plan)] if ev["where"] == "plan" else [(f"exams[{i}] {e.name}", e.result or "") for i, e in enumerate(case.exams)]
            hit = next(((f, mm.group(0)) for f, txt in texts for mm in [re.search(ev["pattern"], txt, re.I)] if mm), None)
            if hit:
                out.append(Finding(cid, hit[0], "joins.injecting_plan", f"{hit[1]!r} but the substance history records no injecting ({substance!r})"))
    risk = ehr.risk_assessment
    violence = (risk.violence if risk else None) or ""
    denied = re.search(S["aggression_denied_pattern"], violence, re.I)
    if denied:
        for name, text in _narrative(case):
            if name.startswith("risk_assessment"):
                continue
            fight = re.search(S["aggression_pattern"], text or "", re.I)
            if fight:
                out.append(Finding(cid, "risk_assessment.violence", "agree.aggression_denied", f"{denied.group(0)!r} beside {fight.group(0)!r} in {name}"))
                break
    family = ehr.family_history or ""
    for rel in S["relative_words"]:
        bare = re.search(rf"(?:^|[.;]\s+)({rel.capitalize()}) (?!'s)", family)
        owned = re.search(rf"(?:^|[.;]\s+)((?:His|Her|Their) {rel})\b", family)
        if bare and owned:
            out.append(Finding(cid, "family_history", "family.two_relatives", f"{bare.group(1)!r} and {owned.group(1)!r} in one family history read as two different {rel}s"))
    neglect = (risk.self_neglect if risk else None) or ""
    fine = re.search(S["eating_fine_pattern"], neglect, re.I)
    if fine:
        poor = re.search(S["eating_poor_pattern"], story, re.I)
        if poor or _family_match(codes[0], S["eating_codes"]):
            out.append(Finding(cid, "risk_assessment.self_neglect", "risk.eating", f"{fine.group(0)!r} beside " + (f"{poor.group(0)!r} in the history" if poor else f"an eating disorder ({codes[0]})")))
    day, session, week = drinking_units(substance)
    heavy = day >= S["heavy_drinking_units_day"] or session >= S["heavy_session_units"] or week >= S["heavy_drinking_units_week"] or re.search(S["heavy_drinking_pattern"], substance, re.I)
    if heavy and not any(_family_match(c, S["alcohol_codes"]) for c in codes):
        out.append(Finding(cid, "diagnosis.disorders", "diagnosis.alcohol_missing", f"{substance!r}: heavy drinking, but no alcohol use disorder among {', '.join(codes)}"))
    if case.demographics.age < 18:
        for i, exam in enumerate(case.exams):
            if "BMI" in exam.name and re.search(S["child_bmi_adult_words"], exam.result or "", re.I) and not re.search(S["child_bmi_age_words"], exam.result or "", re.I):
                out.append(Finding(cid, f"exams[{i}] {exam.name}", "labs.child_bmi", f"{exam.result!r}: a {case.demographics.age}-year-old's BMI labelled by the adult cut-offs, not a centile for age"))
    medical = ehr.medical_history or ""
    if re.search(S["no_medication_pattern"], (ehr.medications or "").strip(), re.I):
        ill = next((c for c in S["treated_conditions"] if re.search(rf"(?<!no )\b{re.escape(c)}", medical, re.I)), None)
        if ill:
            out.append(Finding(cid, "medications", "agree.condition_untreated", f"{ill} in the medical history, but {ehr.medications!r}"))
    if case.demographics.age >= S["adult_min_age"]:
        m = re.search(S["child_plan_pattern"], plan, re.I)
        if m:
            out.append(Finding(cid, "treatment.plan", "plan.child_only", f"{m.group(0)!r} in the plan of a {case.demographics.age}-year-old"))
    for phrase in S["teaching_phrases"]:
        where = next((f for f, txt in [("treatment.plan", plan), *[(f"treatment.medications[{i}]", m.dose or "") for i, m in enumerate(meds)]] if phrase.lower() in txt.lower()), None)
        if where:
            out.append(Finding(cid, where, "text.teaching", f"{phrase!r}: teaching text, not a decision about this patient"))
    return out


def substance_untold(case: Case) -> list[tuple[str, str]]:
    """The record's substance-use diagnoses (``joins.code_substances``) whose substance the chief complaint
    and history never mention, as (code, name): a section (the diagnosis, the substance history) the
    story was written without reading."""
    R = review_facts()
    words_by_family = R["joins"]["code_substances"]
    story = " ".join(getattr(case.ehr, s) or "" for s in R["stop30"]["story_sections"])
    out = []
    for d in case.diagnosis.disorders:
        family = substance_family(d.code)
        if family and not _has(story, words_by_family[family]):
            out.append((d.code, d.name))
    return out


def substance_family(code: str) -> str | None:
    """The ``joins.code_substances`` family of a substance-use (or gambling) code (``F10.20`` -> ``F10``), or None."""
    table = review_facts()["joins"]["code_substances"]
    return next((f for f in table if not f.startswith("_") and (code == f or code.split(".")[0] == f)), None)


def upbringing_untold(case: Case) -> list[tuple[str, str]]:
    """A parent's drinking told in the personal history that the family history does not name, as
    (what the upbringing says, the relative)."""
    S = review_facts()["stop30"]
    personal = case.ehr.personal_history or ""
    family = case.ehr.family_history or ""
    out = []
    for m in re.finditer(S["parent_drinking_pattern"], personal, re.I):
        rel = m.group(1).lower()
        words = S["relative_words"].get(rel, rel)
        if not re.search(S["family_drinking_pattern"].replace("{relative}", words), family, re.I):
            out.append((m.group(0), rel))
    return out


def relapse_as_new(case: Case) -> bool:
    """A case marked as the relapse of a known illness whose chief complaint and history never refer back to
    the earlier illness, its treatment or its stopping (``stop30.relapse_back_pattern``)."""
    if (case.extra or {}).get("known_diagnosis") != "relapse":
        return False
    S = review_facts()["stop30"]
    story = " ".join(getattr(case.ehr, s) or "" for s in S["story_sections"])
    return not re.search(S["relapse_back_pattern"], story, re.I)


def readiness_unfounded(case: Case) -> str | None:
    """Why a plan's 'once she is ready' is unfounded: the mental state records good insight, or the same plan
    says the patient is willing to try it; None when neither (``stop30`` readiness patterns)."""
    S = review_facts()["stop30"]
    plan = (case.treatment.plan if case.treatment else "") or ""
    ready = re.search(S["readiness_pattern"], plan, re.I)
    if not ready:
        return None
    willing = re.search(S["willing_pattern"], plan, re.I)
    if willing:
        return f"{ready.group(0)!r} beside {willing.group(0)!r} in one plan"
    mse = case.ehr.mental_status_exam
    insight = (getattr(mse, "insight", None) if mse else None) or ""
    if re.search(S["insight_good_pattern"], insight, re.I):
        return f"{ready.group(0)!r} but the mental state records insight as {insight!r}"
    return None


def _stop30_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """What a psychiatrist reading fresh records at stop 30 found (``review.json`` ``stop30``)."""
    cid = case.case_id
    out: list[Finding] = []
    for code, name in substance_untold(case):
        out.append(Finding(cid, "history_of_present_illness", "history.substance_untold", f"{code} {name} among the diagnoses, but the history never mentions the substance ({(case.ehr.substance_use or '')[:80]!r})"))
    if relapse_as_new(case):
        out.append(Finding(cid, "history_of_present_illness", "history.relapse_as_new", f"a relapse of a known illness ({(case.ehr.past_psychiatric_history or '')[:80]!r}), but the history reads as a first illness: nothing refers back to it"))
    why = readiness_unfounded(case)
    if why:
        out.append(Finding(cid, "treatment.plan", "plan.readiness_unfounded", why))
    for said, rel in upbringing_untold(case):
        out.append(Finding(cid, "family_history", "family.upbringing_untold", f"{said!r} in the personal history, but the family history does not name the {rel}'s drinking ({(case.ehr.family_history or '')[:80]!r})"))
    return out


@lru_cache(maxsize=1)
def _exam_indications() -> Mapping[str, frozenset[str]]:
    """exam name (and its UK chart name) -> the codes and categories the knowledge base indicates it for."""
    text = resources.files("mentalhospital_env.knowledge").joinpath("data/exams.json").read_text("utf-8")
    out: dict[str, frozenset[str]] = {}
    for e in json.loads(text)["exams"]:
        keys = frozenset(e.get("indicated_for", ()))
        out[e["name"].lower()] = out[chart_name(e["name"]).lower()] = keys
    return out


def indicated_untold(case: Case) -> list[str]:
    """Exams on file marked not indicated that the knowledge base indicates for one of the case's disorders
    (its code or its category): vital signs 'not indicated' in an alcohol dependence whose plan is a withdrawal."""
    from ..knowledge.codes import category_of_code

    keys = set()
    for d in case.diagnosis.disorders:
        keys.add(d.code)
        keys.add(category_of_code(d.code))
    table = _exam_indications()
    return [e.name for e in case.exams if not e.indicated and table.get(e.name.lower(), frozenset()) & keys]


def alone_untrue(case: Case, S: Mapping[str, Any]) -> str | None:
    """The record's or plan's words that the patient lives alone, when the living situation says otherwise
    (a hostel, a shared house, a family): None when they agree."""
    living = str(case.demographics.living_situation or "")
    if re.search(S["alone_pattern"], living, re.I):
        return None
    for name, text in list(_narrative(case)) + [("treatment.plan", case.treatment.plan or "")]:
        m = re.search(S["lives_alone_said"], text, re.I)
        if m:
            return f"{name}: {m.group(0)!r}"
    return None


def insight_read(text: str, S: Mapping[str, Any]) -> str | None:
    """The mental state's insight as a persona's level ('full', 'partial', 'none'), or None when unclear."""
    for level, pattern in S["insight_levels"].items():
        if re.search(pattern, text or "", re.I):
            return level
    return None


def _stop31_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """What stop 30's consultant left (``review.json`` ``stop31``)."""
    S = R["stop31"]
    cid = case.case_id
    out: list[Finding] = []
    for name in indicated_untold(case):
        out.append(Finding(cid, f"exams {name}", "exams.indicated", f"{name} marked not indicated, but the knowledge base indicates it for {', '.join(d.code for d in case.diagnosis.disorders)}"))
    said = alone_untrue(case, S)
    if said:
        out.append(Finding(cid, "demographics.living_situation", "household.alone_untrue", f"{said} says the patient lives alone, but {case.demographics.living_situation!r}"))
    insight = case.ehr.section("mental_status_exam.insight")
    if case.persona is not None and insight:
        level = insight_read(insight, S)
        if level is not None and case.persona.insight != level:
            out.append(Finding(cid, "persona.insight", "agree.persona_insight", f"the patient plays insight {case.persona.insight!r}, but the mental state records {insight!r}"))
    return out



def heart_rates(exams: Iterable[Any], R: Mapping[str, Any] | None = None) -> tuple[int | None, int | None]:
    """(the ECG's sinus rate, the vital signs' pulse) per minute on file, each None when absent."""
    S = (R if R is not None else review_facts())["stop35"]
    ecg = pulse = None
    for e in exams:
        name = str(getattr(e, "name", "")).upper()
        if name == "ECG" and ecg is None:
            m = re.search(S["ecg_rate_pattern"], e.result)
            ecg = int(m.group(2)) if m else None
        elif name.startswith("VITAL SIGNS") and pulse is None:
            m = re.search(S["pulse_pattern"], e.result)
            pulse = int(m.group(1)) if m else None
    return ecg, pulse


def _stop35_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """Stop 34's consultant (review.json ``stop35``): 'Never smoked' beside a smoked drug (test-v2-0132, crack
    cocaine); the ECG's rate and the pulse of the same encounter's vital signs far apart (test-v2-0255, 0325)."""
    S = R["stop35"]
    cid = case.case_id
    out = []
    substance = case.ehr.substance_use or ""
    if re.search(S["smoked_drug_pattern"], substance):
        m = re.search(S["never_smoked_pattern"], substance)
        if m:
            out.append(Finding(cid, "substance_use", "agree.never_smoked", f"{m.group(0).strip()!r} beside a smoked drug ({re.search(S['smoked_drug_pattern'], substance).group(0)!r}): name the tobacco as tobacco"))
    ecg, pulse = heart_rates(case.exams, R)
    if ecg is not None and pulse is not None and abs(ecg - pulse) > S["ecg_pulse_max_gap"]:
        out.append(Finding(cid, "exams", "agree.ecg_pulse", f"ECG rate {ecg}/min beside a pulse of {pulse}/min in the same encounter's vital signs"))
    return out

def complaint_fits(said: str, code: str, category: str) -> bool:
    """Whether a chief complaint holding ``said`` fits a principal ``code`` of ``category`` (``review.json``
    ``stop36.complaint_fits``: the categories, or code families written in capitals, a complaint fits; one not
    listed fits any). The audit's records.complaint_fit, and the test the generator chooses its complaints by."""
    fits = review_facts()["stop36"]["complaint_fits"].get(said)
    return fits is None or category in fits or code.startswith(tuple(f for f in fits if f[:1].isupper()))


def _stop36_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """Stop 35's consultant (review.json ``stop36``): fresh self-harm wounds seen on examination beside a risk
    assessment that says self-harm is denied or a C-SSRS of 0, or with no wound care in the plan (R4); a
    benzodiazepine in the medication list beside a safety line that says to avoid benzodiazepines (R6); a psychiatric
    admission for a dementia with someone at home and no acute risk (R5); street drugs begun late in life by the
    record's own arithmetic (R6); a chief complaint that does not fit the principal (the delirium that 'wants someone
    to talk to')."""
    S = R["stop36"]
    cid = case.case_id
    out = []
    mse = case.ehr.mental_status_exam
    risk = case.ehr.risk_assessment
    seen = " ".join(str(_get(mse, k) or "") for k in ("appearance", "behavior")) if mse is not None else ""
    risk_text = " ".join(str(_get(risk, k) or "") for k in ("suicide", "self_harm", "violence", "self_neglect")) if risk is not None else ""
    wound = re.search(S["fresh_wound_pattern"], seen)
    if wound:
        denial = re.search(S["self_harm_denial_pattern"], risk_text)
        cssrs = next((e.result for e in case.exams if e.name == "C-SSRS"), "")
        if denial or (cssrs and _score_of(cssrs) == 0):
            said = repr(denial.group(0)) if denial else f"C-SSRS {cssrs!r}"
            out.append(Finding(cid, "risk_assessment", "risk.fresh_wounds", f"{wound.group(0)!r} on examination beside {said}"))
        plan = " ".join([case.treatment.plan or "", *(case.treatment.safety or ())])
        if not re.search(S["wound_care_pattern"], plan):
            out.append(Finding(cid, "treatment.plan", "risk.fresh_wounds", f"{wound.group(0)!r} on examination and no wound care in the plan"))
    if case.diagnosis.principal.code.startswith(tuple(S["dementia_codes"])) and not re.search(R["stop31"]["alone_pattern"], case.demographics.living_situation or "", re.I):
        admit = re.search(S["dementia_admit_pattern"], f"{case.treatment.plan or ''} {case.treatment.follow_up or ''}")
        parts = [str(_get(risk, k) or "") for k in ("suicide", "violence")] if risk is not None else []
        if admit and parts and all(re.search(S["low_risk_pattern"], x) for x in parts if x):
            out.append(Finding(cid, "treatment.plan", "plan.dementia_admission", f"{admit.group(0)!r} for {case.diagnosis.principal.code} with someone at home and no acute risk in the risk assessment: care at home, the crisis team, OT and respite first"))
    late = [d.code for d in case.diagnosis.disorders if d.code.startswith(tuple(S["late_onset_codes"]))]
    if late and case.demographics.age > S["late_onset_age"]:
        days = illness_days(case)
        if days and case.demographics.age - days / 365.0 > S["late_onset_age"]:
            out.append(Finding(cid, "history_of_present_illness", "records.substance_late_onset", f"{late[0]} begun at about {case.demographics.age - days / 365.0:.0f} ({case.demographics.age}, {days / 365.0:.1f} years of use)"))
    from mentalhospital_env.knowledge.codes import category_of_code

    category = category_of_code(case.diagnosis.principal.code)
    cc = (case.ehr.chief_complaint or "").lower()
    for said in S["complaint_fits"]:
        if said in cc and not complaint_fits(said, case.diagnosis.principal.code, category):
            out.append(Finding(cid, "chief_complaint", "records.complaint_fit", f"{said!r} as the complaint of {case.diagnosis.principal.code} ({category})"))
    meds = [str(m.name).lower() for m in case.treatment.medications or ()]
    benzo = next((m for m in meds if any(b in m for b in S["benzodiazepines"])), None)
    if benzo is None:  # the plan's own regimen (test-v2-0323: 'an inpatient assisted withdrawal (lorazepam on the CIWA-Ar ...')
        m = re.search(S["given_benzodiazepine_pattern"], case.treatment.plan or "")
        benzo = m.group(0) if m else None
    if benzo:
        for line in case.treatment.safety or ():
            m = re.search(S["avoid_benzodiazepine_pattern"], line)
            if m:
                out.append(Finding(cid, "treatment.safety", "plan.benzodiazepine_contradiction", f"{benzo} given in the plan or its medication list beside the safety line {line!r}"))
    return out


@lru_cache(maxsize=None)
def _core_tables() -> tuple[Mapping[str, Any], dict[str, frozenset[str]], tuple[tuple[re.Pattern[str], str], ...]]:
    """The generator's core.json (what each principal's referral tells; the scales that name a disorder), each
    presentation quote with the concepts it tells, and the referral's problem words with theirs."""
    gen = resources.files("mentalhospital_env.cases.generator")
    core = json.loads(gen.joinpath("data/core.json").read_text("utf-8"))
    voices = json.loads(gen.joinpath("data/voices.json").read_text("utf-8"))
    from .reference import ClinicalReference

    quotes: dict[str, set[str]] = defaultdict(set)
    for pres in ClinicalReference.bundled().presentations.values():
        for s in pres.get("symptoms", ()):
            for q in s.get("patient_says", ()):
                quotes[q.lower().rstrip(".!?")].add(s["concept"])
    words = []
    for concept, options in voices["problem_words"].items():
        for o in options if isinstance(options, list) else [options]:
            words.append((re.compile(re.sub(r"\\\{[^}]*\\\}", ".*", re.escape(o.lower()))), concept))
    return core, {k: frozenset(v) for k, v in quotes.items()}, tuple(words)


def core_untold(case: Case) -> frozenset[str] | None:
    """The principal's core complaints (generator core.json) when neither the chief complaint nor the history tells
    one of them, read by the lexicon, by the presentation's own quotes or by the referral's problem words; None
    when one is told or the principal has none listed."""
    core, quotes, words = _core_tables()
    key = _family_match(case.diagnosis.principal.code, core["core"])
    if key is None:
        return None
    want = frozenset(core["core"][key])
    also = core.get("also_told", {})
    extra = also.get(_family_match(case.diagnosis.principal.code, also) or "", ())
    from .reference import ClinicalReference

    story = f"{case.ehr.chief_complaint or ''} {case.ehr.history_of_present_illness or ''}"
    if ClinicalReference.bundled().readings(story)[0] & (want | set(extra)):
        return None
    low = story.lower()
    if any(q in low for q, concepts in quotes.items() if concepts & want):
        return None
    if any(concept in want and pattern.search(low) for pattern, concept in words):
        return None
    return want


def giveaway_scales(case: Case) -> list[str]:
    """Rating scales of one of the case's own disorders on the exam list of a first assessment (core.json
    ``giveaway_scales``); a known diagnosis keeps its service's rating scale (``known_keeps``)."""
    core = _core_tables()[0]
    names = set(core["giveaway_scales"])
    if case.extra and case.extra.get("known_diagnosis"):
        names -= set(core["known_keeps"])
    from .reference import ClinicalReference

    ref = ClinicalReference.bundled()
    keys = set(case.diagnosis.codes) | set(case.diagnosis.categories)
    out = []
    for exam in case.exams:
        entry = ref.exam(exam.name) if exam.name in names else None
        if entry is not None and any(k in keys or any(c.startswith(k) for c in case.diagnosis.codes) for k in entry.get("indicated_for", ())):
            out.append(exam.name)
    return out


def _stop40_rules(case: Case, R: Mapping[str, Any]) -> list[Finding]:
    """Stop 40's blind reading (issue 14): a history that never tells the principal's core complaint (an OCD
    referral with no obsession or compulsion, a panic referral with no attack), so the diagnosis rests on the exam
    list; an exam list that names the disorder's own rating scale; a protective factor the record holds nowhere
    else ('talks warmly about her faith'); a risk section of passive wishes beside a mental state with a method
    thought of (review.json ``stop40``)."""
    S = R["stop40"]
    cid = case.case_id
    out = []
    want = core_untold(case)
    if want is not None:
        out.append(Finding(cid, "history_of_present_illness", "history.core_told", f"neither the complaint nor the history tells a core complaint of {case.diagnosis.principal.code} ({', '.join(sorted(want))})"))
    for name in giveaway_scales(case):
        out.append(Finding(cid, "exams", "exams.giveaway_scale", f"{name} rates one of the case's own disorders before the first assessment has made it"))
    risk = case.ehr.risk_assessment
    said = str(_get(risk, "suicide") or "") if risk is not None else ""
    m = re.search(S["protective_pattern"], said, re.I)
    if m:
        what = m.group(1).lower()
        need = S["protective_needs"].get(what)
        if need is not None:
            rest = " ".join(str(t) for _, t in _narrative(case) if t is not said) + " " + str(case.demographics.living_situation or "")
            if not re.search(need, rest.replace(said, " "), re.I):
                out.append(Finding(cid, "risk_assessment.suicide", "risk.protective_unfounded", f"{m.group(0)!r}, which nothing else in the record holds"))
    mse = case.ehr.mental_status_exam
    thought = str(_get(mse, "thought_content") or "") if mse is not None else ""
    if re.search(S["method_pattern"], thought, re.I) and re.search(S["passive_pattern"], said, re.I):
        out.append(Finding(cid, "risk_assessment.suicide", "risk.method_understated", "the mental state records a method thought of, the risk section only passive wishes"))
    return out


CASE_RULES = {
    "duration": _duration_rules, "trauma": _trauma_rules, "timeline": _timeline_rules, "people": _people_rules,
    "plan": _plan_rules, "critical": _critical_rules, "labs": _lab_rules, "labels": _label_rules, "giveaways": _giveaway_rules,
    "records": _record_rules, "sections": _sections_agree_rules, "joins": _joins_rules, "agree": _agree_rules,
    "stop28": _stop28_rules, "stop29": _stop29_rules, "stop30": _stop30_rules, "stop31": _stop31_rules,
    "stop35": _stop35_rules, "stop36": _stop36_rules, "stop40": _stop40_rules,
}


def audit_case(case: Case, *, skip: Iterable[str] = ()) -> list[Finding]:
    """Every finding of the single-record rules for one case (``skip`` names groups of
    :data:`CASE_RULES` a caller has already enforced, e.g. the generator's ``critical``)."""
    R = review_facts()
    skipped = set(skip)
    out: list[Finding] = []
    for name, rule in CASE_RULES.items():
        if name not in skipped:
            out.extend(rule(case, R))
    return out


# -------------------------------------------------------------------------------- suite rules

_QUOTE = re.compile(r"\"[^\"]*\"|“[^”]*”|'(?=[A-Z])[^']*(?<=[.!?,])'")
_PRONOUN = {"he": "P", "she": "P", "they": "P", "his": "P", "her": "P", "their": "P", "him": "P", "them": "P", "hers": "P", "himself": "P", "herself": "P", "themselves": "P"}


def frame_of(sentence: str) -> list[str]:
    """A sentence as a frame: lower case, quotes as Q, numbers as N, personal pronouns as P."""
    return list(_frame(sentence))


@lru_cache(maxsize=memo_size(8192))
def _frame(sentence: str) -> tuple[str, ...]:
    """:func:`frame_of`, remembered per sentence (a suite's sentences recur, and so do a draft's)."""
    text = _QUOTE.sub(" Q ", sentence)
    words = re.findall(r"[A-Za-z][A-Za-z'-]*|\d+(?:\.\d+)?", text)
    out = []
    for w in words:
        low = w.lower()
        if low[0].isdigit() or low in _NUMBERS and low not in ("a", "an", "some", "many", "few"):
            out.append("N")
        elif low in _PRONOUN:
            out.append("P")
        elif w == "Q":
            out.append("Q")
        else:
            out.append(low)
    return tuple(out)


def frames_in(case: Case, sections: Sequence[str], opening: int, closing: int, min_words: int) -> set[str]:
    T = review_facts()["template"]
    function = frozenset(T["function_words"])
    need = T["min_content_words"]

    def worded(words: list[str]) -> bool:
        return sum(1 for w in words if w.lower() not in function) >= need

    keys = set()
    for name in sections:
        text = _QUOTE.sub(" Q. ", getattr(case.ehr, name) or "")  # a quote is one slot, whatever its sentences
        for s in _sentences(text):
            words = _frame(s)
            if len(words) < 3:
                continue
            if worded(words):
                keys.add("= " + " ".join(words))
            if len(words) >= min_words:
                if worded(words[:opening]):
                    keys.add(" ".join(words[:opening]) + " ...")
                if worded(words[-closing:]):
                    keys.add("... " + " ".join(words[-closing:]))
    return keys


def _template_rules(cases: Sequence[Case], R: Mapping[str, Any]) -> list[Finding]:
    T = R["template"]
    holders: dict[str, list[str]] = defaultdict(list)
    for case in cases:
        for key in frames_in(case, T["sections"], T["opening_words"], T["closing_words"], T["min_words"]):
            holders[key].append(case.case_id)
    limit = max(T["min_cases"] - 1, T["share"] * len(cases))
    out = []
    for key, ids in sorted(holders.items(), key=lambda kv: -len(kv[1])):
        if len(ids) > limit:
            share = len(ids) / len(cases)
            for cid in ids:
                out.append(Finding(cid, "narrative", "template.frame", f"sentence frame {key!r} is in {len(ids)} cases ({share:.0%} of the suite)"))
    return out


def _multi_value(exam: Any, need: int) -> bool:
    measured = re.sub(r"reference(?: range)? [\d.]+-[\d.]+", "", exam.result)
    kinds = review_facts()["duplicate_results"].get("kinds", ("lab",))
    return exam.kind in kinds and len(re.findall(r"\d+(?:\.\d+)?", measured)) >= need


def multi_value_results(case: Case) -> set[str]:
    """The case's lab result strings that hold enough measured values to be this patient's alone."""
    need = review_facts()["duplicate_results"]["min_numbers"]
    return {e.result.strip() for e in case.exams if _multi_value(e, need)}


def _duplicate_rules(cases: Sequence[Case], R: Mapping[str, Any]) -> list[Finding]:
    need = R["duplicate_results"]["min_numbers"]
    first: dict[str, str] = {}
    out = []
    for case in cases:
        for i, exam in enumerate(case.exams):
            if not _multi_value(exam, need):
                continue
            key = exam.result.strip()
            if key in first and first[key] != case.case_id:
                out.append(Finding(case.case_id, f"exams[{i}] {exam.name}", "results.duplicate", f"the same result string as {first[key]}: {key[:60]!r}"))
            else:
                first.setdefault(key, case.case_id)
    return out


def quote_sentences(quote: str, min_words: int) -> set[str]:
    """A patient's quoted words as the suite rule counts them: each sentence lower-cased, punctuation
    dropped, kept when it has at least ``min_words`` words."""
    out = set()
    for part in re.split(r"(?<=[.!?])\s+", quote.lower().replace("’", "'")):
        q = " ".join(re.sub(r"[^a-z0-9' ]+", " ", part).split())
        if len(q.split()) >= min_words:
            out.add(q)
    return out


def quotes_in(case: Case, min_words: int) -> set[str]:
    """The sentences of the patient's quoted words in a case (any section), as :func:`quote_sentences`."""
    out: set[str] = set()
    for _, text in _narrative(case):
        for m in re.finditer(r"\"([^\"]+)\"|“([^”]+)”", text):
            out |= quote_sentences(m.group(1) or m.group(2), min_words)
    return out


def _quote_rules(cases: Sequence[Case], R: Mapping[str, Any]) -> list[Finding]:
    A = R["agree"]
    holders: dict[str, list[str]] = defaultdict(list)
    for case in cases:
        for q in quotes_in(case, A["quote_min_words"]):
            holders[q].append(case.case_id)
    limit = max(A["quote_min_cases"] - 1, A["quote_share"] * len(cases))
    out = []
    for q, ids in sorted(holders.items(), key=lambda kv: -len(kv[1])):
        if len(ids) > limit:
            for cid in ids:
                out.append(Finding(cid, "narrative", "template.quote", f"the patient's words {q!r} are in {len(ids)} cases ({len(ids) / len(cases):.0%} of the suite)"))
    return out


_LINE_WORDS = re.compile(r"[a-z0-9]+(?:['.][a-z0-9]+)*")
_SINGLE_QUOTE = re.compile(r"(?<![A-Za-z])'(.{12,}?)'(?![A-Za-z])")


def _line_key(text: str) -> str:
    return " ".join(_LINE_WORDS.findall(text.lower().replace("’", "'")))


def _clauses(text: str) -> list[str]:
    return [c for s in _sentences(text) for c in re.split(r"\s*[;:]\s+", s) if c]


def own_lines(case: Case, C: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The lines of a record that should be this patient's alone, as the near-clone rule compares them:
    line key -> its kind ('quote', 'report', 'lab', 'plan' or the record section). A line is a clause
    (a sentence cut at semicolons and colons) of at least ``min_words`` words of any record section or
    of the plan, its opening word left out (a plan's 'Begin' or 'Start' is the same sentence); a quoted
    sentence of the patient's (a mental state's quoted mood included); an exam report (not a scale's score) of that many words
    (a symptom diary; 'normal report' when it reads as unremarkable); a flagged lab value ('MCV 102 fL (raised)'); a
    mental-state field too short to be a line of its own (``mental_state_min_words`` words up to ``min_words``), 'mental
    state line', so that two mental states made of the same short lines count as shared."""
    C = C or review_facts()["clone"]
    need = C["min_words"]
    out: dict[str, str] = {}
    short = C.get("mental_state_min_words")
    for name, text in _narrative(case):
        for key, kind in text_lines(text, name.split(".")[0], C).items():
            out.setdefault(key, kind)
        if short and name.startswith("mental_status_exam."):  # a mental state made of short lines is still one patient's
            key = _line_key(text)
            if short <= len(key.split()) < need:
                out.setdefault("M " + name.split(".", 1)[1] + ": " + key, "mental state line")
    flag = re.compile(C["lab_flag_pattern"], re.I)
    for exam in case.exams:
        if exam.kind in ("lab", "physiological"):
            for part in re.split(r",\s+|;\s+", exam.result):
                if flag.search(part) and re.search(r"\d", part):
                    out["L " + _line_key(exam.name) + ": " + _line_key(part)] = "lab"
            continue
        key = _line_key(exam.result)
        if exam.kind != "scale" and len(key.split()) >= need and not re.search(r"\d+/\d+", exam.result):
            normal = re.search(C["normal_report_pattern"], exam.result, re.I)
            out["R " + _line_key(exam.name) + ": " + key] = "normal report" if normal else "report"
    for key, kind in text_lines(case.treatment.plan or "", "plan", C).items():
        out.setdefault(key, kind)
    return out


_TEXT_LINES: dict[tuple[str, str], dict[str, str]] = {}
_TEXT_LINES_KEPT = memo_size(32768)


def text_lines(text: str, kind: str, C: Mapping[str, Any] | None = None) -> dict[str, str]:
    """One text's own lines as :func:`own_lines` keys them: its quoted sentences ('quote') and its clauses
    of at least ``min_words`` words, opening word left out (``kind``). Remembered per text and kind under the
    reviewer's own clone rule (a suite's draw reads each draft's lines for the guard and again when it takes
    the draft, and template sentences recur across drafts); the mapping returned is shared: read it, do not change it."""
    R = review_facts()["clone"]
    if C is None or C is R:
        key = (text, kind)
        found = _TEXT_LINES.get(key)
        if found is None:
            found = _read_text_lines(text, kind, R)
            if len(_TEXT_LINES) >= _TEXT_LINES_KEPT:
                _TEXT_LINES.clear()
            _TEXT_LINES[key] = found
        return found
    return _read_text_lines(text, kind, C)


def _read_text_lines(text: str, kind: str, C: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in re.finditer(r"\"([^\"]+)\"|\u201c([^\u201d]+)\u201d", text):
        for q in quote_sentences(m.group(1) or m.group(2), C["quote_min_words"]):
            out["Q " + q] = "quote"
    for m in _SINGLE_QUOTE.finditer(text):
        key = _line_key(m.group(1))
        if len(key.split()) >= C["quote_min_words"]:
            out["Q " + key] = "quote"
    for clause in _clauses(_QUOTE.sub(" Q ", _SINGLE_QUOTE.sub(" Q ", text))):
        words = _line_key(clause).split()
        if len(words) >= C["min_words"]:
            out.setdefault(" ".join(words[1:]), kind)
    return out


def clone_pairs(cases: Sequence[Case], C: Mapping[str, Any] | None = None) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """Pairs of a suite's records whose shared own lines (:func:`own_lines`) weigh at least ``min_score``
    (:func:`clone_score`; a set of ``mental_state_set.min_lines`` mental-state lines, short ones included, is a pair
    by itself), counting only lines no more than ``max_share`` of the suite holds
    (commoner ones are stock phrases, the frame rules' business): (first case, second case, [(kind, line),
    ...]), most shared first."""
    C = C or review_facts()["clone"]
    holders: dict[str, list[str]] = defaultdict(list)
    kinds: dict[str, str] = {}
    for case in cases:
        for key, kind in own_lines(case, C).items():
            holders[key].append(case.case_id)
            kinds.setdefault(key, kind)
    cap = max(C["min_cap"], int(C["max_share"] * len(cases)))
    shared: dict[tuple[str, str], list[str]] = defaultdict(list)
    for key, ids in holders.items():
        if 2 <= len(ids) <= cap:
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    shared[(a, b)].append(key)
    out = [(a, b, [(kinds[k], k) for k in keys]) for (a, b), keys in shared.items() if clone_score([kinds[k] for k in keys], C) >= C["min_score"]]
    out.sort(key=lambda t: (-len(t[2]), t[0], t[1]))
    return out


_FLAGGED_VALUE = re.compile(r"\s*([A-Za-z][A-Za-z0-9 ]*?) (\d+(?:\.\d+)?)\s*\S*\s*\((raised|high|low|elevated|reduced)")


def same_flagged_values(cases: Sequence[Case], C: Mapping[str, Any] | None = None) -> list[tuple[str, str, str, list[str], int]]:
    """Flagged lab values a suite gives most of its patients with that flag alike: (component, flag, value,
    the cases holding it, the cases flagged for the component), when at least ``same_value_min_cases`` are
    flagged and one value, held by at least ``same_value_min_holders``, is more than ``same_value_share`` of them
    ('MCV 102 fL (raised)' in 33 of 33)."""
    C = C or review_facts()["clone"]
    held: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for case in cases:
        for exam in case.exams:
            if exam.kind not in ("lab", "physiological"):
                continue
            for part in re.split(r",\s+|;\s+", exam.result):
                m = _FLAGGED_VALUE.match(part)
                if m:
                    held[(m.group(1), m.group(3))][m.group(2)].append(case.case_id)
    out = []
    for (comp, flag), values in held.items():
        n = sum(len(ids) for ids in values.values())
        if n < C["same_value_min_cases"]:
            continue
        for value, ids in values.items():
            if len(ids) > C["same_value_share"] * n and len(ids) >= C["same_value_min_holders"]:
                out.append((comp, flag, value, ids, n))
    return out


def clone_score(kinds: Iterable[str], C: Mapping[str, Any] | None = None) -> float:
    """How much the shared lines of two records weigh (``weights`` by kind, 1 when unnamed; a kind's total at
    most its ``caps``: a plan protocol copied is one plan copied, however many clauses it has); at least ``min_score``
    when ``mental_state_set.min_lines`` of the lines are mental-state lines of any length (``mental_state_set.kinds``)."""
    C = C or review_facts()["clone"]
    W, caps = C["weights"], C["caps"]
    total: dict[str, float] = defaultdict(float)
    kinds = list(kinds)
    for kind in kinds:
        total[kind] += W.get(kind, 1)
    score = sum(min(v, caps.get(k, v)) for k, v in total.items())
    whole = C.get("mental_state_set")
    if whole and sum(1 for k in kinds if k in whole["kinds"]) >= whole["min_lines"]:
        return max(score, C["min_score"])  # one mental state written twice, however short its lines
    return score


def _clone_rules(cases: Sequence[Case], R: Mapping[str, Any]) -> list[Finding]:
    """Two records of one suite that read as one patient written twice: the same quotes, reports, plan
    sentences and descriptors, word for word."""
    out = []
    for a, b, lines in clone_pairs(cases, R["clone"]):
        by_kind = Counter(kind for kind, _ in lines)
        what = ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0])))
        example = max(lines, key=lambda kl: (kl[0] in ("quote", "report"), len(kl[1])))[1].split(" ", 1)[-1] if lines else ""
        msg = f"shares {len(lines)} lines word for word with {b} ({what}), e.g. {example[:70]!r}"
        out.append(Finding(a, "record", "template.clone", msg))
    for comp, flag, value, ids, n in same_flagged_values(cases, R["clone"]):
        for cid in ids:
            out.append(Finding(cid, "exams", "labs.same_value", f"{comp} {value} ({flag}) in {len(ids)} of the suite's {n} cases with a {flag} {comp}: a value drawn per patient differs"))
    return out


def _occupation_sex_rules(cases: Sequence[Case], R: Mapping[str, Any]) -> list[Finding]:
    """A suite whose holders of a job held overwhelmingly by one sex are too often of the other."""
    A = R["agree"]
    table = A["occupation_other_sex_share"]
    holders: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        holders[str(case.demographics.occupation or "").lower()].append(case)
    out = []
    for sex, jobs in table.items():
        if sex.startswith("_"):
            continue
        for job, share in jobs.items():
            held = holders.get(job, [])
            other = [c for c in held if c.demographics.sex == sex]
            if len(other) > max(A["occupation_sex_min_cases"], 3 * share * len(held)):
                for c in other:
                    out.append(Finding(c.case_id, "demographics.occupation", "people.occupation_sex", f"{len(other)} of the suite's {len(held)} {job}s are {sex} (about {share:.0%} expected)"))
    return out


def audit_suite(cases: Iterable[Case]) -> list[Finding]:
    """Every case's findings, then the suite's (templates, duplicated results)."""
    cases = list(cases)
    R = review_facts()
    out: list[Finding] = []
    for case in cases:
        out.extend(audit_case(case))
    out.extend(_template_rules(cases, R))
    out.extend(_quote_rules(cases, R))
    out.extend(_occupation_sex_rules(cases, R))
    out.extend(_duplicate_rules(cases, R))
    out.extend(_clone_rules(cases, R))
    return out


def count_by_rule(findings: Iterable[Finding]) -> dict[str, tuple[int, int]]:
    """rule -> (findings, cases with one), in the order of :data:`RULES`."""
    n: Counter[str] = Counter()
    cases: dict[str, set[str]] = defaultdict(set)
    for f in findings:
        n[f.rule] += 1
        cases[f.rule].add(f.case_id)
    return {r: (n[r], len(cases[r])) for r in RULES if n[r]}


def format_findings(findings: Sequence[Finding], n_cases: int, *, limit: int | None = None) -> str:
    lines = [str(f) for f in (findings if limit is None else findings[:limit])]
    if limit is not None and len(findings) > limit:
        lines.append(f"... {len(findings) - limit} more")
    flagged = len({f.case_id for f in findings})
    lines.append("")
    lines.append(f"{len(findings)} finding(s) in {flagged} of {n_cases} case(s)")
    for rule, (k, c) in count_by_rule(findings).items():
        lines.append(f"  {rule:34s} {k:5d} finding(s) in {c:4d} case(s)")
    return "\n".join(lines)
