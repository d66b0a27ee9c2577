"""The person in the room corrects the patient whichever voice speaks (stop 61): the correction was added on the
offline path only, so a patient voiced by a language model (``respond_batch``) heard no correction from her
daughter. It is decided once, after the reply, for the model's reply and its offline fallback alike.

A short record written for the test; a scripted model client stands in for the language model."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.llm import ScriptedClient
from mentalhospital_env.patient import make_patient, respond_batch

RECORD = {
    "case_id": "s61-llm-corrects",
    "language": "en",
    "demographics": {"age": 70, "sex": "female", "occupation": "retired cook", "marital_status": "widowed"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mrs Rose Kelly, 70: low mood since her husband died.",
        "history_of_present_illness": "Low mood for a year since her husband died. She says she has 'a sherry at "
                                      "Christmas'. Her son says she drinks most evenings.",
        "past_psychiatric_history": "None.",
        "medications": "None.",
        "substance_use": "Sherry, 'at Christmas'.",
        "mental_status_exam": {"mood": "'Low.'"},
        "risk_assessment": {"suicide": "No thoughts of ending her life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
    "treatment": {"plan": "Sertraline."},
    "persona": {
        "verbosity": "average",
        "guardedness": 0.2,
        "insight": "partial",
        "speech_style": "quiet, plays it down.",
        "informant": "Her son, Tom Kelly, in the room throughout; she answers for herself. Corrects her: "
                     "'Mum, it's a bottle of sherry every two days'.",
    },
}
CASE = load_case(RECORD)
ASKED = "How much alcohol do you drink in a typical week?"
HIS = "Mum, it's a bottle of sherry every two days."


def test_a_model_voiced_patient_is_corrected_as_the_offline_one_is() -> None:
    offline = make_patient(CASE, "full", seed=13).respond(ASKED)
    assert offline.added == HIS, offline
    client = ScriptedClient(lambda conversation: "Just a sherry at Christmas.")
    reply = make_patient(CASE, "full", backend=client, seed=13).respond(ASKED)
    assert reply.source in ("llm", "fallback") and reply.speaker == "patient", reply
    assert reply.added == HIS and HIS not in reply.text, reply


def test_in_a_batch_each_patient_is_corrected_once() -> None:
    client = ScriptedClient(lambda conversation: "Just a sherry at Christmas.")
    voiced, plain = make_patient(CASE, "full", backend=client, seed=13), make_patient(CASE, "full", seed=13)
    first = respond_batch([voiced, plain], [ASKED, ASKED])
    assert [r.added for r in first] == [HIS, HIS], first
    again = respond_batch([voiced, plain], ["Do you drink alcohol at all?"] * 2)
    assert [r.added for r in again] == ["", ""], again
