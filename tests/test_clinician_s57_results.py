"""Stop 57 (s57-clin): a tachycardia on the ECG is explained in the plan.

A consultant's reading of test-v2-0235: a boy with ADHD had 'ECG: sinus tachycardia 117/min' on file and a pulse of
114/min; the plan started methylphenidate and never mentioned the fast heart rate. A tachycardia on the ECG is now
explained (the pulse repeated at rest, a cause looked for) before a drug that raises the heart rate starts, unless a
withdrawal that leads explains it."""

from __future__ import annotations

from tests.scripted_encounters import played, with_findings, write

SAID = "the ECG shows a tachycardia"


def _played(case_id: str, suite: str = "test-v2"):
    return played(case_id, suite)


def test_a_tachycardia_before_a_stimulant_is_explained():
    chart = _played("test-v2-0235")
    assert any(c.startswith("F90") for c in chart.disorders), chart.disorders
    assert SAID in chart.treatment and "stimulant" in chart.treatment, chart.treatment


def test_a_normal_ecg_says_nothing_of_a_tachycardia():
    doctor = with_findings(
        "Outpatient clinic. A 27-year-old man is here to see you, alone.",
        present={"panic_attacks": "I've had sudden attacks of racing heart.", "palpitations": "My heart pounded."},
        results=[("ECG", "sinus rhythm 74/min, QTc 405 ms, no acute changes")],
    )
    assert SAID not in write(doctor, "treat")


def test_a_withdrawal_that_leads_explains_its_tachycardia():
    doctor = with_findings(
        "Emergency department. A 46-year-old man is here to see you, alone.",
        present={"withdrawal_tremor": "I've got the shakes, really bad.", "relief_drinking": "I need a drink in the morning.",
                 "alcohol_use": "I drink all day, every day."},
        answers={"alcohol_use": "I drink all day, every day."},
        results=[("ECG", "sinus tachycardia 118/min, QTc 430 ms")],
    )
    assert SAID not in write(doctor, "treat")
