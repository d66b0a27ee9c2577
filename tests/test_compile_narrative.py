"""Narrative records compile into facts a patient can say (issue 13, stop 23): document headings and
settings are never told, passives and marriages are said from a parse, medicine and illness lists are
told whole, and the persona's described manner and sayings shape the replies. Expectations written by
reading the sentences, never from the compiler's output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mentalhospital_env.cases.compile import compile_facts, heading
from mentalhospital_env.cases.loader import load_case
from mentalhospital_env.cases.model import EHR
from mentalhospital_env.patient.decide import catchphrases, persona_for


def _facts(sex: str = "male", **sections: str):
    cc = sections.pop("chief_complaint", "")
    hpi = sections.pop("history_of_present_illness", "")
    return compile_facts(EHR(chief_complaint=cc, history_of_present_illness=hpi, **sections), sex)


def _said(facts) -> list[str]:
    return [f.patient_says for f in facts if f.told and f.patient_says]


@pytest.mark.parametrize(
    "sentence",
    ["Admission clerking, older adult ward.", "Home visit (joint, CPN and SpR).",
     "History from Mr Hughes (limited, long pauses) and his wife Margaret, who has been with him throughout.",
     "Outpatient review, memory clinic.", "Seen jointly with the school nurse."],
)
def test_headings_and_settings_are_headings(sentence: str) -> None:
    assert heading(sentence)


@pytest.mark.parametrize(
    "sentence", ["He wakes at 3 a.m. and paces the hallway.", "Low mood for two months.", "Hand-wringing and restlessness.",
                 "She visits her mother weekly."],
)
def test_what_happened_is_no_heading(sentence: str) -> None:
    assert not heading(sentence)


def test_a_heading_is_never_told_but_the_history_is() -> None:
    facts = _facts(history_of_present_illness="Admission clerking, older adult ward. Home visit (joint, CPN and SpR). "
                                              "He wakes at 3 a.m. and paces the hallway.")
    said = _said(facts)
    assert not any("clerking" in s or "visit" in s for s in said)
    assert "I wake at 3 a.m. and pace the hallway." in said


def test_an_agent_passive_is_said_with_the_agent_as_subject() -> None:
    said = _said(_facts(personal_history="Described by his son as 'always a bit prickly and private'."))
    assert said == ["My son says I'm always a bit prickly and private."]


@pytest.mark.parametrize(
    "sentence, expected",
    [("Married to Tom for four years.", "I've been married to Tom for four years."),
     ("Married to Alan 51 years.", "I've been married to Alan for 51 years."),
     ("Teaches Year 2.", "I teach Year 2."),
     ("Law-abiding all his life.", "I've been law-abiding all my life.")],
)
def test_personal_history_in_the_first_person(sentence: str, expected: str) -> None:
    assert _said(_facts(personal_history=sentence)) == [expected]


def test_a_widower_speaks_of_his_marriage_in_the_past() -> None:
    said = _said(_facts(personal_history="Railway signalman for 44 years. Married 55 years; wife died four years ago."))
    assert "I was married 55 years. My wife died four years ago." in said
    assert not any("I've been married" in s for s in said)


def test_drinking_before_a_time_is_said_with_a_verb() -> None:
    said = _said(_facts("female", substance_use="No alcohol since pregnancy; before, a few glasses of wine at weekends."))
    assert said == ["I haven't had any alcohol since pregnancy.", "Before that I used to have a few glasses of wine at weekends."]


def test_a_medicine_list_is_one_fact_naming_every_medicine() -> None:
    facts = _facts("female", medications="Sertraline 100 mg daily; amlodipine 10 mg daily; atorvastatin 40 mg at night; "
                                         "clopidogrel 75 mg daily. Hearing aids (not worn).")
    told = [f for f in facts if f.told]
    assert [f.patient_says for f in told] == ["I take sertraline, amlodipine, atorvastatin and clopidogrel."]
    assert told[0].time == "current" and told[0].topics == ("medication",)


def test_an_illness_list_is_told_whole_with_past_events_in_the_past() -> None:
    said = _said(_facts("female", medical_history="Hypertension. High cholesterol. "
                                                   "Transient ischaemic attack three years ago. Right hip replacement 2018."))
    assert said == [("I have high blood pressure and high cholesterol. I had a transient ischaemic attack three years ago. "
                     "I had a right hip replacement in 2018.")]


def test_a_past_treatment_does_not_say_how_long_it_has_been_going_on() -> None:
    said = _said(_facts("female", past_psychiatric_history="Depression at 19, treated by the GP with sertraline for a year; "
                                                             "full recovery."))
    assert not any("going on" in s for s in said)
    assert any(s.startswith("I had depression at 19") for s in said)


def test_a_day_alone_names_no_medicine() -> None:
    facts = _facts(history_of_present_illness="He washes his hands 30 to 40 times a day.")
    assert all("medication" not in f.topics for f in facts)


@pytest.mark.parametrize(
    "style, phrases",
    [("slow, monotone, long pauses, answers 'it's too late' or 'I don't know'", ("It's too late.", "I don't know.")),
     ("slow, pleasant, says 'I can't be bothered' and 'I'm just getting old', looks to her husband",
      ("I can't be bothered.", "I'm just getting old.")),
     ("articulate, frightened of 'going mad'", ()),
     ("short, gruff, wants 'something for the shakes'", ()),
     (None, ())],
)
def test_catchphrases_are_what_the_style_says_the_patient_says(style, phrases) -> None:
    assert catchphrases(style) == phrases


def _case(**overrides):
    data = {
        "case_id": "t-manner", "language": "en",
        "demographics": {"age": 60, "sex": "male", "occupation": "joiner", "marital_status": "married",
                         "living_situation": "lives with his wife"},
        "setting": "outpatient",
        "ehr": {"chief_complaint": "Low mood.", "history_of_present_illness": "He has felt low for two months.",
                "mental_status_exam": {"speech": "Terse, monosyllabic answers.", "behavior": "Gruff and guarded."}},
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Major depressive disorder, single episode, moderate",
                                                                   "code": "F32.1"}]},
        "treatment": {"plan": "Review."},
        "exams": [{"name": "PHQ-9", "kind": "scale", "result": "15/27"}],
    }
    data.update(overrides)
    return load_case(data)


def test_a_record_without_a_persona_plays_the_manner_it_describes() -> None:
    profile = persona_for(_case())
    assert profile.verbosity == "terse" and profile.guardedness >= 0.6 and "blunt" in profile.traits


def test_a_persona_field_wins_over_the_described_manner() -> None:
    profile = persona_for(_case(persona={"verbosity": "talkative", "guardedness": 0.1}))
    assert profile.verbosity == "talkative" and profile.guardedness == 0.1


def test_a_dialect_and_sayings_are_heard_in_the_replies() -> None:
    from mentalhospital_env.patient.patient import Patient

    case = _case(persona={"verbosity": "average", "guardedness": 0.1,
                          "speech_style": "blunt Yorkshireman, says 'I'm not one for doctors'"})
    patient = Patient(case, seed=3)
    patient.reset(3)
    replies = [patient.respond(q).text for q in ("How has your mood been?", "How do you see the future?",
                                                  "Have you ever heard voices?", "How is your mood today?",
                                                  "What brought you here?", "Do you feel low?")]
    assert any(r.startswith(("No, nowt", "No.")) for r in replies)  # the dialect's denial bank
    assert sum("I'm not one for doctors." in r for r in replies) >= 1
    assert not any("I suppose" in r or "you know" in r for r in replies)  # the blunt never hedge


def test_the_stop_23_user_record_loads_and_tells_no_heading() -> None:
    """A narrative record written for this stop (tests/data, no code tuned on it) loads; no heading told."""
    data = json.loads((Path(__file__).parent / "data" / "user_narrative_record_s23.json").read_text(encoding="utf-8"))
    assert "facts" not in data and "persona" not in data
    case = load_case(data)
    assert case.facts_derived and len(case.facts) >= 20
    assert not any(f.told and "assessment" in (f.patient_says or "").lower() for f in case.facts)


@pytest.mark.parametrize(
    ("sentence", "sex", "expected"),
    [
        # a subordinate clause leans on the clause before it: never "Until the skin cracks." alone
        ("She washes her hands up to forty times a day, until the skin cracks, and showers for an hour.", "female",
         "I wash my hands up to forty times a day, until the skin cracks, and shower for an hour."),
        # an "and" inside a relative clause is never a cut; "I've been troubled" keeps its auxiliary
        ("Since starting university a year ago she has been troubled by thoughts that she will pass on germs and make someone seriously ill.",
         "female", "Since starting university a year ago I've been troubled by thoughts that I will pass on germs and make someone seriously ill."),
        # a singular verb joined to a plural subject's clause is the speaker's
        ("She knows the thoughts are excessive but feels unbearable anxiety if she resists.", "female",
         "I know the thoughts are excessive but feel unbearable anxiety if I resist."),
        ("Referred from the GP after a mountain of normal tests.", "female", "I was referred from the GP after a mountain of normal tests."),
    ],
)
def test_a_record_sentence_is_said_whole_and_agreeing(sentence: str, sex: str, expected: str) -> None:
    assert _said(_facts(sex, history_of_present_illness=sentence)) == [expected]


def test_a_child_never_says_her_own_birth_history() -> None:
    assert not any("pregnancy" in s for s in _said(_facts("female", medical_history="Normal pregnancy and birth.")))
