"""A relative asked what the patient has done at home says it (stop 61, hw-024): asked "A question for his son: has
he done anything at home to keep them out, like blocking vents or the boiler flue?", an 82-year-old's son said "I'm
not sure, to be honest." though the record holds "Last week he taped over the air vents and the boiler flue": the
sentence recalled in the question's own words was dropped for its topic (his home). An adult's relative now keeps the
present illness recalled so. And a question put to the relative by name ("A question for his son: ...") is theirs to
answer though it says "you".

A short record written for the test, read through the public API."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s61-safety",
    "language": "en",
    "demographics": {"age": 84, "sex": "female", "occupation": "retired seamstress", "marital_status": "widowed",
                     "living_situation": "lives alone in a bungalow"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mrs Edna Price, 84: believes the man next door comes in at night.",
        "history_of_present_illness": "For six months she has believed the man next door comes in at night and moves "
                                      "her things. Last month she nailed the back door shut and blocked the chimney "
                                      "with newspaper 'so he can't get down it'. She sleeps in her chair.",
        "mental_status_exam": {"mood": "'Cross.'"},
        "risk_assessment": {"suicide": "No thoughts of ending her life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["schizophrenia_spectrum"], "disorders": [{"name": "Delusional disorder", "code": "F22"}]},
    "treatment": {"plan": "CPN visits."},
    "persona": {"verbosity": "average", "guardedness": 0.8, "insight": "none", "speech_style": "sharp, suspicious.",
                "informant": "her daughter Jean, present throughout"},
}
CASE = load_case(RECORD)


def test_asked_what_her_mother_has_done_at_home_the_daughter_says_it() -> None:
    reply = make_patient(CASE, "full", seed=13).respond(
        "A question for her daughter: has she done anything at home to keep him out, like blocking the chimney or the doors?")
    assert reply.speaker == "informant", reply
    assert "chimney" in reply.text and "not sure" not in reply.text, reply.text


def test_a_question_put_to_her_by_name_is_hers_though_it_says_you() -> None:
    reply = make_patient(CASE, "full", seed=13).respond("A question for her daughter: how often do you visit?")
    assert reply.speaker == "informant", reply
