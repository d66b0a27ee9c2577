"""The risk questions are answered on their subject (stop 62, uw-035, a boy of 15 seen with his mother): "When thoughts
of ending your life or harming yourself come, do you feel you might act on them?" was read as intrusive thoughts of
harming someone ("thoughts of ... harming") and answered with the examiner's quotes of them ("But what if. A monster.");
"How likely do you think it is that you would act on those thoughts?" was read as his view of an illness too ("I'm not
sure it's an illness."); "Do you have access to anything you could use to harm yourself, such as medicines?" was
answered with the list of his medicines ("I take sertralin teva, a decubal cream ..."), his mother having locked them
away. Now whether he would act, how likely, and the medicines locked away. And a night at a height "thinking of
jumping" (uw-032's corridor parapet) was filed under no topic, so no suicide question could reach it.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json
import re

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s62-risk-answers",
    "language": "en",
    "demographics": {"age": 34, "sex": "male", "occupation": "bus driver", "marital_status": "married",
                     "education": "secondary", "living_situation": "lives with his wife"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Tom Reid, 34: low mood and unwanted thoughts.",
        "history_of_present_illness": (
            "Low mood for four months, with thoughts that he would be better off dead. Denies intent. "
            "His wife has locked the tablets in a box in the bedroom."),
        "past_psychiatric_history": "None.",
        "medical_history": "Asthma.",
        "medications": "Sertraline 100 mg each morning. Salbutamol inhaler when needed.",
        "allergies": "No known drug allergies.",
        "substance_use": "No alcohol.",
        "family_history": "None known.",
        "personal_history": "Married, no children.",
        "mental_status_exam": {
            "thought_content": "Unwanted thoughts and images of harming a stranger, which he finds abhorrent ('but what "
                               "if'), with fear of being 'a monster'; no intent or wish to harm anyone."},
        "risk_assessment": {"suicide": "Moderate."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
    "treatment": {"plan": "Review.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "Two weeks."},
    "persona": {"verbosity": "average", "guardedness": 0.2, "insight": "partial",
                "speech_style": "34-year-old bus driver, plain-spoken."},
}

_ACT = re.compile(r"\bwouldn't act on\b|\bwould not act on\b|\bintention\b|\bintent\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s62") / "risk_answers.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def test_might_you_act_on_them_is_answered_with_whether_he_would(case) -> None:
    reply = make_patient(case, "full", seed=13).respond(
        "When thoughts of ending your life or harming yourself come, do you feel you might act on them?")
    assert _ACT.search(reply.text), reply.text
    assert "monster" not in reply.text.lower() and "what if" not in reply.text.lower(), reply.text


def test_how_likely_is_no_question_about_an_illness(case) -> None:
    reply = make_patient(case, "full", seed=13).respond(
        "How likely do you think it is that you would act on those thoughts?")
    assert _ACT.search(reply.text), reply.text
    assert "illness" not in reply.text and not reply.text.startswith(("All right", "Fine", "It's been")), reply.text


def test_access_to_means_is_answered_with_the_medicines_locked_away(case) -> None:
    reply = make_patient(case, "full", seed=13).respond(
        "Do you have access to anything you could use to harm yourself, such as medicines or weapons?")
    assert "locked the tablets" in reply.text, reply.text
    assert "I take" not in reply.text, reply.text


def test_a_night_at_a_height_thinking_of_jumping_is_filed_under_suicide(tmp_path) -> None:
    record = json.loads(json.dumps(RECORD))
    record["ehr"]["history_of_present_illness"] = (
        "Low mood for four months, with thoughts that he would be better off dead. On 3 September he stood on the "
        "railway bridge near his flat for twenty minutes, thinking of jumping.")
    path = tmp_path / "bridge.json"
    path.write_text(json.dumps(record))
    bridge = [f for f in load_case(str(path)).facts if "railway bridge" in f.text]
    assert bridge and "suicide" in bridge[0].topics, bridge


def test_a_saying_that_names_a_risk_is_filed_under_that_risk() -> None:
    """uw-035's style: "Minimises: 'I scratch sometimes, it's nothing'" after a sentence on his medicine was said after
    his list of medicines, and "on bad nights 'I'd rather be dead than be like that'" after his sleep."""
    from mentalhospital_env.patient.decide import topic_sayings

    style = ("Quiet boy of 15. He cannot give the doses of his medicine and leaves those to his mother. Minimises: "
             "'I scratch sometimes, it's nothing'. Sleeps badly; on bad nights 'I'd rather be dead than be like that'.")
    filed = {said: topics for said, topics, _no in topic_sayings(style)}
    assert filed.get("I scratch sometimes, it's nothing.") == frozenset({"self_harm"}), filed
    assert filed.get("I'd rather be dead than be like that.") == frozenset({"suicide"}), filed
