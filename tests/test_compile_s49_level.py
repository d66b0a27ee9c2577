"""A drug level read against the treatment line is the laboratory's reading, not the patient's speech (stop 49: uw-022's
'Paracetamol level above the treatment line' was said "I've had paracetamol level above the treatment line" and then
chosen as how a past treatment went, for its word 'treatment')."""

import json
from pathlib import Path

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient.patient import make_patient

UW022 = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "patient_exam" / "unseen" / "uw-022.json"


def test_a_level_against_the_treatment_line_is_never_said_as_the_patients_treatment():
    patient = make_patient(load_case(json.loads(UW022.read_text("utf-8"))), seed=13)
    asked = [  # a reviewer's interview, in order: the reply came only after the drug questions before it
        "Hello, what's brought you here today?", "How long has this been going on?", "How has your mood been?",
        "And your sleep?", "Can you sleep at night?", "What about your appetite?",
        "Have you had any thoughts of harming yourself or ending your life?", "Have you ever tried to end your life?",
        "Have you ever harmed yourself?", "Do you ever hear voices when no one is around?", "Do you use any drugs?",
        "Any allergies?", "How much alcohol do you drink?", "Do you have any physical health problems?",
        "Any past medical history?", "Have you had any mental health problems before?", "Are you on any medication?",
        "Have you tried any treatment before? How did it go?",
    ]
    for q in asked:
        reply = patient.respond(q).text
    assert "treatment line" not in reply
    assert "level above" not in reply
