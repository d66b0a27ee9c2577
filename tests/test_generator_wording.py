"""How generator version 2 words a record so that it does not give its diagnosis away (issue 14, stops 36-37).

A consultant who read ten test-v2 records with the diagnosis hidden named the principal in ten of ten, four
outright: mental states that listed the disorder's features ('psychomotor retardation', 'preoccupation with shape
and weight', 'testing boundaries'), referrals in criteria wording. Real charts describe what was seen. Stop 36's
referral working questions were taken out (letters lost the presenting problem); stop 37 adds what a second
blind reading found: 'they' for a woman, hope closing every suicide section, interpreted lab lines, two code systems. These tests draw cases through
the public generator and read the records as written.
"""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from importlib import resources

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.cases.audit import audit_suite
from mentalhospital_env.cases.generator import generate_case, generate_cases
# the syndrome words stop 36's consultant read as a diagnosis in a mental state (wording.json mse_observed)
SYNDROME_WORDS = re.compile(
    r"psychomotor (retardation|slowing|agitation)|preoccupation with shape|testing boundaries|tests boundaries|"
    r"'what if' thinking|attachment to possessions|intrusive sensory memories|black-and-white thinking|"
    r"preoccupation with having cancer|recognises worry is excessive|knows the worry is excessive|"
    r"ashamed when describing purging|outside flashbacks|\bdepressed\b",
    re.I,
)
# words of a chart name that say nothing of the illness itself
GENERIC = set("""disorder disorders episode moderate severe mild type unspecified with without other current single
recurrent syndrome due and the not specified use partial remission adult predominantly mixed acute chronic
persistent presentation reaction psychotic symptoms state features uncomplicated known physiological condition
behavioral disturbance imposed self onset deficit symptom""".split())  # the last two lines: ICD-10-CM titles' wording


@lru_cache(maxsize=1)
def wording() -> dict:
    return json.loads(resources.files("mentalhospital_env.cases.generator").joinpath("data/wording.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def drawn() -> tuple:
    return tuple(load_case(c) for c in generate_cases(60, seed=3636, prefix="w", version=2))


def _mse(case) -> str:
    m = case.ehr.mental_status_exam
    return " ".join(v for v in (getattr(m, k, None) for k in ("appearance", "behavior", "speech", "affect", "thought_process",
                                                               "thought_content", "perception", "cognition", "insight", "judgment")) if v)


@pytest.mark.parametrize("code", ["F32.2", "F50.2", "F60.3", "F41.1", "F42.3", "F45.21", "F43.10"])
def test_the_mental_state_describes_what_was_seen(code: str) -> None:
    """The presentations' mental states for these illnesses name their syndrome ('marked psychomotor
    retardation', 'catastrophic what-if thinking'); the record says what the examiner saw instead."""
    for seed in range(4):
        case = load_case(generate_case(random.Random(3600 + seed), f"m-{seed}", principal=code, version=2))
        text = _mse(case)
        assert not SYNDROME_WORDS.search(text), (code, seed, SYNDROME_WORDS.search(text).group(0), text)


def test_no_mental_state_names_its_principal() -> None:
    """No mental state of a drawn suite holds a word of its principal's chart name (the syndrome's own word:
    'depressive', 'borderline', 'hoarding'); 'anxious' and other words the examiner uses of any patient, and the
    substance of a dependence, are the examiner's ordinary vocabulary and named in the list below."""
    # stems an examiner writes of anyone ('anxious', 'sleepy'), and the substance a dependence is on ('smell of alcohol')
    ordinary = {"anxiou", "eating", "attent", "sleep", "stress", "alcoho", "cannab", "cocain", "opioid", "benzod", "stimul", "sedati"}
    named = []
    for case in drawn():
        stems = {w[:6] for w in re.findall(r"[a-z]+", case.diagnosis.principal.name.lower()) if w not in GENERIC and len(w) > 3} - ordinary
        words = {w[:6] for w in re.findall(r"[a-z]+", _mse(case).lower()) if len(w) > 3}
        if stems & words:
            named.append((case.case_id, case.diagnosis.principal.name, sorted(stems & words)))
    assert not named, named


def test_the_mental_state_calls_a_man_or_a_woman_by_their_pronoun() -> None:
    """Stop 36's blind consultant: 'Believes they are famous' of a woman; the presentations' descriptors say 'they'
    of the patient, and the record says 'she' or 'he' (wording.json mse_pronouns)."""
    they = re.compile(r"\b(believes|accepts|says) they (are|have|were)\b|\bas their personality\b|\b(calling|commending|obstructing) them\b|\bthe patient's own\b|\w+self-harm", re.I)
    for code in ("F31.2", "F25.0", "F32.3", "F34.1", "F31.12", "F42.2"):
        for seed in range(6):
            case = load_case(generate_case(random.Random(3700 + seed), f"p-{seed}", principal=code, version=2))
            if case.demographics.sex in ("male", "female"):
                assert not they.search(_mse(case)), (code, seed, case.demographics.sex, _mse(case))


def test_lab_reports_give_the_flag_and_range_not_the_reading() -> None:
    """A flagged value carries its reference range as a laboratory prints it, never an interpretation
    ('(raised; AST:ALT above 2)', '(raised, neutrophilia)' told stop 36's consultant the answer)."""
    flagged = 0
    for case in drawn():
        for e in case.exams:
            if e.kind != "lab":
                continue
            for inside in re.findall(r"\(((?:raised|high|low)[^)]*)\)", e.result):
                flagged += 1
                assert re.fullmatch(r"(raised|high|low); reference [\d.]+-[\d.]+", inside), (case.case_id, e.name, e.result)
    assert flagged >= 10, flagged


def test_diagnoses_are_icd10cm_codes_under_icd10cm_titles() -> None:
    """One code system in a suite's answer key (docs/cases.md: ICD-10-CM): each disorder under the knowledge
    base's ICD-10-CM title, not a WHO chart title beside a CM code ('F10.230 Alcohol dependence syndrome with
    withdrawal state', stop 36's consultant)."""
    from mentalhospital_env.knowledge import load_knowledge

    names = {d.code: d.name for d in load_knowledge().disorders}
    for case in drawn():
        for d in case.diagnosis.disorders:
            assert d.name == names[d.code], (case.case_id, d.code, d.name)


def test_not_every_suicide_section_ends_on_a_hope() -> None:
    """Stop 36's consultant: every low-risk suicide section ended on something to look forward to. Some end on
    nothing more, some on a protective factor of another kind."""
    hope = re.compile(r"looking forward|talks about|without prompting|unprompted|own accord|talks readily|future-oriented", re.I)
    sections = [c.ehr.risk_assessment.suicide for c in drawn() if c.ehr.risk_assessment and c.ehr.risk_assessment.suicide]
    ends = [bool(hope.search(re.split(r"[;.]\s*", s.strip().rstrip("."))[-1])) for s in sections]
    assert 0 < sum(ends) <= 0.3 * len(ends), (sum(ends), len(ends))


def test_a_drawn_suite_with_the_new_wording_passes_the_audit() -> None:
    assert audit_suite(list(drawn())) == []
