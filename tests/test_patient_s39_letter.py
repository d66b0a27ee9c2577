"""A quoted referral letter and the clinician's observations of the interview are not the patient's speech
(issue 13, uw-013: "Me is a 22-year-old ... student", "I gave my history slowly and in few words")."""
import json

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

_RECORD = {
    "case_id": "t-letter-1",
    "language": "en",
    "demographics": {"age": 30, "sex": "male", "occupation": "bus driver"},
    "setting": "outpatient",
    "exams": [{"name": "PHQ-9", "kind": "scale", "result": "16/27 (moderately severe range)."}],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}]},
    "treatment": {"plan": "Continue sertraline 50 mg; offer CBT; review in four weeks."},
    "ehr": {
        "chief_complaint": "Referred by his GP, Dr Ann Lee (letter of 2 May 2026): 'Tomas is a 30-year-old bus driver "
                           "with three months of low mood and poor sleep. I have started sertraline 50 mg.' "
                           "In his own words: 'I can't switch off at night.'",
        "history_of_present_illness": "Tomas gave his history slowly and in few words. He says his mood has been low "
                                      "since February, when his father died. He wakes at 4 am most nights and cannot "
                                      "get back to sleep. The counselling service saw him in April; they recorded low "
                                      "mood and poor sleep.",
    },
}


def _case(tmp_path):
    path = tmp_path / "t-letter-1.json"
    path.write_text(json.dumps(_RECORD))
    return load_case(str(path))


def test_letter_and_interview_observations_are_not_said(tmp_path):
    case = _case(tmp_path)
    said = [f.patient_says for f in case.facts if getattr(f, "patient_says", None)]
    assert said, "the record's own history is still the patient's to say"
    for text in said:
        assert not text.startswith("Me "), text
        assert "gave my history" not in text, text
        assert "30-year-old" not in text, text
        assert not text.lower().startswith("they recorded"), text
    patient = make_patient(case, variant="full", seed=0)
    for question in ("What brings you here today?", "How have you been sleeping?", "How is your mood?"):
        reply = str(getattr(patient.respond(question), "text", ""))
        assert not reply.startswith("Me "), reply
        assert "gave my history" not in reply and "30-year-old" not in reply, reply
    reply = str(getattr(make_patient(case, variant="full", seed=0).respond("How have you been sleeping?"), "text", ""))
    assert "4 am" in reply or "sleep" in reply.lower(), reply
