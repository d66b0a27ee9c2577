"""Stop 36's keyword-picked answers of the offline patient (issue 13), through the public API (make_patient, respond).

Each premise is checked against the record before the reply is judged, so a redrawn or edited record fails loudly
instead of passing for nothing."""

from __future__ import annotations

from pathlib import Path

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.patient import make_patient

ROOT = Path(__file__).resolve().parents[1]
UW009 = ROOT / "benchmarks" / "data" / "patient_exam" / "unseen" / "uw-009.json"
FAMILY_MENTAL = "Has anyone in your family had problems with their mental health?"


def _case(suite: str, case_id: str):
    return next(c for c in load_suite(suite).cases if c.case_id == case_id)


def _reply(case, *questions: str, seed: int = 3) -> str:
    patient = make_patient(case, variant="full", seed=seed)
    text = ""
    for q in questions:
        text = patient.respond(q).text
    return text


def test_a_word_shared_with_a_mood_question_does_not_pick_the_answer():
    # hw-011: "In your own words, how would you describe your mood right now?" - "I did my own shopping."
    case = _case("handwritten", "hw-011")
    assert "did her own shopping" in case.ehr.history_of_present_illness
    reply = _reply(case, "In your own words, how would you describe your mood right now?")
    assert "shopping" not in reply.lower() and "dosette" not in reply.lower()
    # hw-012: "In Reception I was moved to a table on my own."
    case = _case("handwritten", "hw-012")
    assert "table on his own" in case.ehr.history_of_present_illness
    reply = _reply(case, "In your own words, how would you describe your mood right now?")
    assert "reception" not in reply.lower() and "table" not in reply.lower()


def test_on_your_own_still_finds_the_sentence_that_says_it():
    # the frame "in your own words" is ignored, "on your own" is not: the agoraphobic patient of dev-0049 says she
    # cannot go to the supermarket on her own
    reply = _reply(_case("dev", "dev-0049"), "Can you go to the shops on your own, and how about buses?")
    assert "on my own" in reply


def test_family_mental_health_is_not_answered_with_a_stroke():
    case = _case("handwritten", "hw-028")
    assert "stroke" in case.ehr.family_history.lower()
    reply = _reply(case, FAMILY_MENTAL)
    assert "stroke" not in reply.lower()
    assert reply.strip()


def test_family_mental_health_of_a_narrative_record_tells_the_relative_who_had_it():
    case = load_case(str(UW009))
    assert "died by suicide" in case.ehr.family_history and "Father Graham" in case.ehr.family_history
    reply = _reply(case, "Who do you live with?", FAMILY_MENTAL)
    assert "Graham" not in reply
    assert "suicide" in reply.lower() and "uncle" in reply.lower()
    assert "Marcus" not in reply  # the patient does not speak of himself by name ("when Marcus was 15")


def test_a_relatives_mental_health_only_ruled_out_in_passing_is_no_answer_of_his_name():
    # "Father Graham (68), retired plasterer, never seen by a psychiatrist": not "My father was Graham."
    reply = _reply(load_case(str(UW009)), "Has your father had any problems with his mental health?")
    assert "was Graham" not in reply


def test_anything_similar_in_the_family_is_still_answered_from_the_whole_family_history():
    # only a question that says "mental health" is narrowed; "anything similar" is told the relative's disorder
    case = _case("dev", "dev-0026")
    assert "post-traumatic" in case.ehr.family_history.lower()
    reply = _reply(case, "Anyone in the family had anything similar?")
    assert "post-traumatic" in reply.lower()


def test_a_child_named_beside_children_is_not_taken_for_the_patient():
    # uw-009's son Alfie was read as the patient's name: "I shouted at me over a spilt drink"
    case = load_case(str(UW009))
    assert "shouted at Alfie" in case.ehr.history_of_present_illness
    reply = _reply(case, "Has anything happened to you that was very frightening, such as an assault or an accident?")
    assert "at me over" not in reply


TRIGGER = "Was anything going on in your life around the time it started?"


def test_what_was_going_on_when_it_started_is_not_how_they_came():
    # hw-007: "I was admitted from the paediatric ward after I fainted at school" -> the remarks in the dance class
    case = _case("handwritten", "hw-007")
    assert "dance class" in case.ehr.history_of_present_illness
    reply = _reply(case, TRIGGER)
    assert "admitted" not in reply.lower() and "dance class" in reply
    # hw-020: "I was referred from the GP after a mountain of normal tests" names the referral, not a stressor
    case = _case("handwritten", "hw-020")
    assert case.ehr.history_of_present_illness.startswith("Referred from the GP after")
    assert "referred" not in _reply(case, TRIGGER).lower()
    # dev-v2-0225: "Once I start I can't stop" shared "start" with the question
    assert "can't stop" not in _reply(_case("dev-v2", "dev-v2-0225"), TRIGGER)
