"""Stop 39's answers of the offline patient (issue 13) that answered another question, or said yes and no at once,
through the public API (make_patient, Patient.respond).

Each premise is checked against the record before the reply is judged, so a redrawn or edited record fails loudly
instead of passing for nothing."""

from __future__ import annotations

import re
from pathlib import Path

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.patient import make_patient

_UW012 = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "patient_exam" / "unseen" / "uw-012.json"


def _case(suite: str, case_id: str):
    return next(c for c in load_suite(suite).cases if c.case_id == case_id)


def _replies(case, *questions: str, seed: int = 3) -> list[str]:
    patient = make_patient(case, variant="full", seed=seed)
    return [patient.respond(q).text for q in questions]


def test_the_words_of_the_concept_asked_in_another_sense_are_no_answer():
    # uw-012: "Have you ever tried to end your life?" got "I've had him as kind and patient but at the end of his
    # rope" (the 'end' of 'end your life', a sentence on her partner)
    case = load_case(_UW012)
    assert "end of his rope" in case.ehr.personal_history
    for seed in (0, 3):
        (reply,) = _replies(case, "Have you ever tried to end your life?", seed=seed)
        assert "rope" not in reply and "kind and patient" not in reply, reply


def test_a_denial_in_the_substance_history_is_not_overruled_by_a_word_read_elsewhere():
    # hw-019: the substance history says "No drugs."; "snorts like a horse" of his sleep reads as a stimulant, and
    # "Do you use any drugs, such as cannabis, cocaine or others?" was answered "Okay, look, yeah. I stop breathing,
    # then snort like a horse several times a night. I don't use any drugs."
    case = _case("handwritten", "hw-019")
    assert "No drugs" in case.ehr.substance_use and "snorts like a horse" in case.ehr.history_of_present_illness
    for seed in (0, 3):
        (reply,) = _replies(case, "Do you use any drugs, such as cannabis, cocaine or others?", seed=seed)
        assert "don't use any drugs" in reply or "no drugs" in reply.lower(), reply
        assert not re.search(r"\b(?:yes|yeah)\b", reply, re.IGNORECASE) and "snort" not in reply, reply


def test_a_denied_list_whose_joiner_falls_at_the_edge_of_the_negation_window_is_denied_whole():
    # uw-012's reply "I haven't had any periods of elevated mood or reduced need for sleep" was read as denying the
    # elevated mood and affirming the reduced need for sleep: the 'or' fell one token past the six-token window
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    lexicon = load_lexicon()
    found = {m.concept_id: m.negated for m in lexicon.find(
        "I haven't had any periods of elevated mood or reduced need for sleep.")}
    assert found.get("decreased_need_for_sleep") is True, found
    # a new clause after the list is not denied with it
    found = {m.concept_id: m.negated for m in lexicon.find("I don't drink, but I hear voices most nights.")}
    assert found.get("auditory_hallucinations") is False, found


def test_how_much_is_told_in_the_patients_words_not_left_unknown_for_a_clinicians_amount():
    # test-v2-0023: after the vodka was told, "How much alcohol do you drink in a typical week?" got "I really don't
    # know": the risk assessment's "(16 units of vodka a day)", with no words for the patient, came first for the amount
    # (the premise: the risk assessment gives the amount in the clinician's words; "16 units of vodka a day" until stop
    # 39's redraw, "16 units a day, mostly vodka" since; stop 40's redraw made test-v2-0023 a wine drinker, and
    # test-v2-0116, a daily vodka drinker whose risk assessment says "16 units a day, mostly vodka", carries it now)
    case = _case("test-v2", "test-v2-0116")
    assert re.search(r"16 units (?:of vodka|a day, mostly vodka)", str(case.ehr.risk_assessment))
    assert "vodka" in case.ehr.substance_use
    for seed in (0, 3):
        _, reply = _replies(case, "How would you say you have been moving and thinking compared with your usual pace?",
                            "How much alcohol do you drink in a typical week?", seed=seed)
        assert "don't know" not in reply and ("vodka" in reply or "drink" in reply), reply
