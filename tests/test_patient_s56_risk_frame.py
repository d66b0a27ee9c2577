"""Stop 56 integration (a blind A/B rater on test-v2-0097): a record's risk line says what could happen, not what did.

Generator v2 writes 'Drinking 11 units a day, ..., he risks a complicated withdrawal if he stops suddenly and has been told
to seek help first.' into the risk assessment of 12 test-v2 and 9 dev-v2 cases. The patient read 'complicated
withdrawal' as the concept of a past withdrawal seizure and said 'I had a fit when I stopped' to a withdrawal question
(dev-v2-0001, 0112, 0128: none of their records has a fit); the scripted clinician then wrote 'withdrawal seizures' in
the note. A concept that follows a risk frame ('risks', 'at risk of': ``hypothetical.risk_frames`` of language.json)
within three words is not read as the patient's state. Through the public API (make_patient / respond, read_statements).
"""

from __future__ import annotations

import pytest

from mentalhospital_env.patient.reading import read_statements


@pytest.mark.parametrize(
    ("text", "concept", "read"),
    [
        ("Drinking 12 units a day, he risks a complicated withdrawal if he stops suddenly.", "withdrawal_seizure_risk", False),
        ("At 10 units a day, stopping suddenly puts him at risk of a complicated withdrawal.", "withdrawal_seizure_risk", False),
        ("He had a withdrawal seizure in 2019.", "withdrawal_seizure_risk", True),
        ("He hears voices most days.", "auditory_hallucinations", True),
    ],
)
def test_a_risk_frame_names_what_could_happen_not_a_state(text, concept, read):
    assert any(s.concept_id == concept for s in read_statements(text)) is read


def test_a_patient_at_risk_of_a_complicated_withdrawal_never_says_he_had_a_fit():
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient.patient import make_patient

    case = next(c for c in load_suite("dev-v2").cases if c.case_id == "dev-v2-0001")
    patient = make_patient(case, seed=0)
    reply = patient.respond("Have you ever had a fit or seen things when you stopped drinking?").text
    assert "fit" not in reply.lower(), reply
