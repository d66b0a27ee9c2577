"""Stop 60 (s60-clin): test-v2-0092, a woman of 30 with an adjustment disorder after breast cancer, said 'Three months
ago, in the weeks after a diagnosis of serious illness, it started.' The lexicon's 'serious illness' (health anxiety)
was read in it and the note said 'She describes fear of serious illness', a note-precision error. An illness diagnosed
or treated is an event, not a fear of one (plan.other_meanings blanks it before the reply is read)."""

from __future__ import annotations

from tests.scripted_encounters import ask, start


def test_a_diagnosis_of_serious_illness_is_no_fear_of_one():
    doctor = start("Outpatient clinic. A 30-year-old woman is here to see you, alone.")
    ask(doctor, "I haven't been coping for three months now.")
    ask(doctor, "Three months ago, in the weeks after a diagnosis of serious illness, it started.")
    assert "health_anxiety" not in doctor.findings.present, doctor.findings.present


def test_a_fear_of_serious_illness_is_still_heard():
    doctor = start("Outpatient clinic. A 30-year-old woman is here to see you, alone.")
    ask(doctor, "I'm terrified I have a serious illness, I check my body every day.")
    assert "health_anxiety" in doctor.findings.present, doctor.findings.present
