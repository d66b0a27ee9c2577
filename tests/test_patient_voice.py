"""Whose voice, and is it spoken (issue 13, stop 22): how a narrative record's sentences become what
the patient, or the relative present, says. Each test is a fault an independent psychiatrist reader
quoted from stop 21's transcripts of the hand-written suite, asked again through the public API."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.env import MentalHospitalEnv
from mentalhospital_env.patient import make_patient

HANDWRITTEN = {c.case_id: c for c in load_suite("handwritten").cases}


def ask(case_id: str, *questions: str, seed: int = 0):
    patient = make_patient(HANDWRITTEN[case_id], "full", seed=seed)
    return [patient.respond(q) for q in questions]


def said(case_id: str) -> dict[str, str]:
    """Every rendering the compiler gives the patient to say, by fact id."""
    return {f.id: f.patient_says for f in HANDWRITTEN[case_id].facts if f.told and f.patient_says}


def test_a_referrers_request_is_never_the_chief_complaint():
    # hw-025's GP letter ends "Please assess."; it was said as "I've had please assess." three times
    (reply,) = ask("hw-025", "What has brought you here?")
    assert "please" not in reply.text.lower() and "assess" not in reply.text.lower()
    for case_id in ("hw-025", "hw-028", "hw-033"):
        assert not any(re.search(r"\bplease (?:assess|advise)\b", s, re.I) for s in said(case_id).values())


def test_i_ve_had_only_before_something_a_person_can_have():
    for case in HANDWRITTEN.values():
        for fid, text in said(case.case_id).items():
            assert not re.search(r"\bI've had (?:please|as|refusing|demanding)\b", text), (case.case_id, fid, text)
    (reply,) = ask("hw-015", "What has brought you here?")
    assert "I've had refusing" not in reply.text


@pytest.mark.parametrize(
    "case_id, record, expected, never",
    [
        ("hw-027", "Domestic abuse by his father", "There was domestic abuse by my father until I was 6", "I'm a domestic"),
        ("hw-016", "Degree in computing", "I have a degree in computing", "I'm a degree"),
        ("hw-040", "Year 8 at a large secondary school", "I'm in Year 8", "I'm a year 8"),
        ("hw-040", "good relationship with both", "I have a good relationship with both", "I'm a good relationship"),
        ("hw-021", "Labourer on building sites until 22", "I was a labourer", "I'm a labourer"),
        ("hw-028", "Bank clerk for 35 years", "I've been a bank clerk for 35 years", "I have a bank clerk"),
    ],
)
def test_a_personal_history_phrase_is_said_as_what_it_is(case_id, record, expected, never):
    # "I'm a" only before a kind of person; what happened, what one has, the school year said as such
    fact = next(f for f in HANDWRITTEN[case_id].facts if f.text.startswith(record))
    assert fact.told and fact.patient_says and fact.patient_says.startswith(expected), fact.patient_says
    assert never not in fact.patient_says


def test_a_relatives_fact_is_not_said_as_the_patients_own():
    # hw-017: "father a bus driver." was "I'm a father a bus driver."; "grandmother nearby." "I'm a grandmother"
    for f in HANDWRITTEN["hw-017"].facts:
        assert not (f.patient_says or "").startswith(("I'm a father", "I'm a grandmother")), f.patient_says


def test_the_patients_own_name_inside_a_sentence_is_i():
    # "until Kyle was 6", "that Sarah nursed her through": the patient named mid-sentence
    assert any("until I was 6" in s for s in said("hw-027").values())
    assert any("that I nursed her through" in s for s in said("hw-033").values())
    assert not any(re.search(r"\b(?:Kyle|Ruby)\b", s) for s in (*said("hw-027").values(), *said("hw-040").values()))


def test_a_parent_named_in_the_record_is_mum_to_the_patient():
    # hw-040: "Helen knew I was moody" (Helen is her mother); hw-027 "I live with Donna, work in a supermarket"
    assert any(s.startswith("My mum knew I was moody") for s in said("hw-040").values())
    assert "I live with my mum and sisters aged 8 and 5 on a large estate." in said("hw-027").values()


def test_an_aside_with_doses_per_kilogram_is_not_said():
    # hw-040: "(2.8 g; she weighs 44 kg, about 64 mg/kg)" split at its semicolon and said as
    # "She weighs 44 kg, about 64 mg/kg from me's bathroom cabinet"
    texts = list(said("hw-040").values())
    assert not any("mg/kg" in s or "mg or kg" in s or "weigh" in s for s in texts)
    assert any(s.startswith("At lunchtime today I swallowed 14 ibuprofen") for s in texts)


def test_the_mother_answers_as_herself_and_is_heard_as_herself():
    patient = make_patient(HANDWRITTEN["hw-040"], "full", seed=0)
    reply = patient.respond("And may I ask your mother too: What medicines does she take at the moment?")
    assert reply.speaker == "informant"
    assert "me's" not in reply.text and "mg/kg" not in reply.text
    family = patient.respond("And may I ask your mother too: Has anyone in the family had mental health problems?")
    assert family.speaker == "informant" and "postnatal depression" in family.text
    # the doctor hears who speaks: a mother's "I had postnatal depression" is never the 13-year-old's
    env = MentalHospitalEnv(suite="handwritten", case_ids=["hw-040"])
    env.reset(seed=0)
    obs, *_ = env.step("<ask>And may I ask your mother too: Has anyone in the family had mental health problems?</ask>")
    text = obs if isinstance(obs, str) else obs.get("text", str(obs))
    assert text.startswith("Mother (Helen): ") and "postnatal depression" in text
    obs, *_ = env.step("<ask>How have you been sleeping?</ask>")
    text = obs if isinstance(obs, str) else obs.get("text", str(obs))
    assert text.startswith("Patient: ")


def test_the_informant_drops_the_clinicians_frame_and_speaks_of_the_child():
    patient = make_patient(HANDWRITTEN["hw-040"], "full", seed=0)
    reply = patient.respond("And may I ask your mother too: Have you had any help for your mental health before?")
    assert reply.speaker == "informant"
    assert "disclosed" not in reply.text and "with encouragement" not in reply.text.lower()
    # hw-027: the boy's quoted "how it made me feel", told by his mother, is how it made him feel
    kyle = make_patient(HANDWRITTEN["hw-027"], "full", seed=0)
    from mentalhospital_env.patient.informant import informant_for

    mother = informant_for(HANDWRITTEN["hw-027"])
    assert mother is not None and mother.label == "Mother (Donna)"
    line = next(f.text for f in HANDWRITTEN["hw-027"].facts if "made me feel" in f.text)
    spoken = mother.say(line)
    assert "made him feel" in spoken and "I couldn't get him to take it" in spoken
    del kyle


def test_the_informant_keeps_lay_words_in_the_third_person():
    # hw-007's mother said "no thoughts of ending my life" (the lay table is written for the patient)
    from mentalhospital_env.patient.informant import informant_for

    mother = informant_for(HANDWRITTEN["hw-007"])
    assert mother is not None
    spoken = mother.say("No suicidal ideation or self-harm.")
    assert "my life" not in spoken and "her life" in spoken
    assert mother.say("No known drug allergies.") != "No known drug allergies."


def test_a_sentence_opening_with_a_time_and_a_bare_verb_gets_the_patient_as_subject():
    # hw-017: "for the last three months sleeps in her parents' bed because she has nightmares ..."
    assert any(s.startswith("For the last three months I sleep in my parents") for s in said("hw-017").values())
    # a relative's possessive stays theirs in family history ("Rachel had panic attacks in her twenties")
    family = [f.patient_says for f in HANDWRITTEN["hw-017"].facts if f.section == "family_history" and f.patient_says]
    assert any("panic attacks in her twenties" in s for s in family) and not any("in my twenties" in s for s in family)


@pytest.mark.parametrize(
    "section, sentence, expected",
    [
        # a record sentence no hand-written record holds: the faults' classes, not their instances
        ("past_psychiatric_history", "Saw a psychologist twice at university.", "I saw a psychologist twice at university."),
        ("personal_history", "Diploma in nursing.", "I have a diploma in nursing."),
        ("personal_history", "Keen cyclist.", "I'm a keen cyclist."),
        ("personal_history", "Married 12 years, 3 children (9, 7 and 4).", "I've been married 12 years"),
        ("personal_history", "Physical abuse by his stepfather until he was 12.", "There was physical abuse by my stepfather"),
        ("chief_complaint", "Low mood and poor sleep. Please assess and advise.", None),
    ],
)
def test_the_compiler_says_a_correct_sentence_or_nothing(section, sentence, expected):
    from mentalhospital_env.cases.compile import compile_facts
    from mentalhospital_env.cases.model import EHR

    sections = {"chief_complaint": "", "history_of_present_illness": "", section: sentence}
    facts = compile_facts(EHR(**sections), "male")
    says = [f.patient_says for f in facts if f.told and f.patient_says]
    if expected is None:
        assert not any("please" in s.lower() or "assess" in s.lower() for s in says), says
    else:
        assert any(s.startswith(expected) for s in says), says
