"""How generator version 2 words a record so that it does not give its diagnosis away (issue 14, stop 36).

A consultant who read ten test-v2 records with the diagnosis hidden named the principal in ten of ten, four
outright: mental states that listed the disorder's features ('psychomotor retardation', 'preoccupation with shape
and weight', 'testing boundaries'), referrals in criteria wording. Real charts describe what was seen, and a GP's
letter carries the GP's own working question, sometimes about another illness. These tests draw cases through
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
from mentalhospital_env.cases.reference import ClinicalReference

REF = ClinicalReference.bundled()
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
persistent presentation reaction psychotic symptoms state""".split())


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


def test_referrals_carry_a_working_question_sometimes_about_another_illness() -> None:
    """A share of referral letters carries the referrer's working question; some of those ask about another
    illness than the principal (a GP's wrong first guess), none names a diagnosis, and the question is in the
    history as written."""
    from mentalhospital_env.cases.generator.v2 import clean_text

    cases = drawn()
    asked = [c for c in cases if (c.extra or {}).get("referral_question")]
    other = [c for c in asked if not c.extra["referral_question"]["principal_own"]]
    assert len(asked) >= len(cases) // 5, len(asked)
    assert 0.2 * len(asked) <= len(other) <= 0.8 * len(asked), (len(other), len(asked))
    questions = wording()["referral"]["questions"]
    for case in asked:
        kind = case.extra["referral_question"]["asks"]
        stems = [re.escape(q.split("{")[0].strip()) for q in questions[kind]]
        sentence = next((s for s in re.split(r"(?<=[.!?])\s+", case.ehr.history_of_present_illness) if re.search("|".join(stems), s)), None)
        assert sentence is not None, (case.case_id, kind, case.ehr.history_of_present_illness)
        assert clean_text(sentence), sentence
        assert case.setting != "emergency"


def test_working_questions_read_as_no_symptom() -> None:
    """The question is the referrer's guess, not the patient's complaint: the lexicon reads no symptom in it, so
    the simulated patient never affirms 'low mood' because the GP asked about it."""
    for kind, options in wording()["referral"]["questions"].items():
        for q in options:
            text = "The GP " + q.format(subj="she", obj="her", poss="her") + "."
            assert REF.readings(text) == (frozenset(), frozenset()), (kind, text, REF.readings(text))
    for category, kinds in wording()["referral"]["by_category"].items():
        assert set(kinds["own"]) | set(kinds["other"]) <= set(wording()["referral"]["questions"]), category
        assert not set(kinds["own"]) & set(kinds["other"]), category


def test_a_drawn_suite_with_the_new_wording_passes_the_audit() -> None:
    assert audit_suite(list(drawn())) == []


def test_the_patient_never_says_the_referrers_working_question() -> None:
    """The letter's working question is the referrer's, not the patient's: at stop 36's integration the offline patient
    answered 'How have you been sleeping?' with 'The referrer describes tiredness and poor sleep and asks whether
    tablets would help.' (test-v2-0003) and 'How is your concentration?' with 'The GP describes poor concentration ...
    and wonders whether this is burnout.' (test-v2-0016): 8 of 560 symptom answers on 80 cases."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient import make_patient

    cases = [c for c in load_suite("test-v2").cases if (c.extra or {}).get("referral_question")][:40]
    assert len(cases) == 40
    asked = ["How have you been sleeping?", "How is your concentration?", "How has your appetite been?",
             "Tell me more about what's been happening."]
    for case in cases:
        # the premise: the history carries the letter's sentence with its working question
        letter = re.search(r"[^.]*\b(?:asks|wonders|queries)\b[^.]*", case.ehr.history_of_present_illness)
        assert letter, case.case_id
        patient = make_patient(case, "full", seed=0)
        for ask in asked:
            said = patient.respond(ask).text
            assert letter.group(0).strip().lower() not in said.lower(), (case.case_id, ask, said)
            assert not re.search(r"\b(?:the )?(?:referrer|gp) (?:describes|asks|wonders)\b", said, re.I), (case.case_id, said)
