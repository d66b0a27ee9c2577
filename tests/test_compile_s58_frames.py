"""Stop 58, the frame room: chart text said as the patient's own. A verbless phrase is framed "I've had X" only
when X is something a person has had; a clinician's opinion, plan, eligibility decision or counselling, a
service's label for an event and another person's remark stay the chart's. Records written here for the test
(no bundled record's words)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR


def _said(facts) -> str:
    return " ".join(f.patient_says or "" for f in facts if f.told)


def _hpi(text: str, sex: str = "male") -> str:
    return _said(compile_facts(EHR(chief_complaint="Worried about sleep.", history_of_present_illness=text), sex))


@pytest.mark.parametrize("phrase", ["Sunnybrook Lodge.", "Key safe.", "Pictures and short words.",
                                    "Reminder texts, never letters.", "Bakery by the station.", "Support plan review."])
def test_a_verbless_heading_name_or_object_is_no_thing_he_has_had(phrase: str) -> None:
    # 'Door.', 'My words.', 'Text reminders, not phone calls.' were said "I've had door." and the like
    said = _hpi(f"Sleeping badly since June. {phrase}")
    assert "I've had" not in said and "I had" not in said, said


@pytest.mark.parametrize(("phrase", "kept"), [
    ("Nightmares most nights.", "I've had nightmares most nights"),
    ("A fall in the garden in May.", "fall in the garden"),
    ("Shaky hands and a fine tremor.", "tremor"),
    ("Thoughts that she would be better off dead.", "I've had thoughts that I would be better off dead"),
])
def test_a_symptom_or_event_is_still_said_as_had(phrase: str, kept: str) -> None:
    said = _hpi(f"Sleeping badly since June. {phrase}", "female")
    assert kept in said, said


def test_a_phrase_opening_on_a_place_is_not_had() -> None:
    # 'In bed at 14:00, room dark, ...' was said 'I had an in bed at 14:00, room dark.'
    said = _hpi("Sleeping badly since June. On the sofa at noon, curtains shut, no breakfast.")
    assert "had an on" not in said and "I've had on" not in said, said
