"""Stop 58 (s58-clin): hw-014, a woman seen in the emergency department the day after a paracetamol overdose, told of
wanting to die and of past overdoses; her plan sent her home without a word of her physical state (critical action: a
medical assessment of the overdose). In the department a suicidal crisis is seen with its physical state confirmed
first (any overdose or injury before attendance looked for and treated, medically fit), in words that presuppose no
overdose (an overdose told keeps its own sentence, hw-040); a clinic plan says nothing of it."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write


_SUICIDAL = {"suicidal_ideation": "I wanted to die, or at least for everything to stop for a bit."}


def test_a_suicidal_crisis_in_the_emergency_department_has_its_physical_state_confirmed():
    doctor = with_findings("Emergency department. A 24-year-old woman is here to see you, alone.", present=_SUICIDAL)
    plan = write(doctor, "treat")
    assert "medically fit confirmed before leaving the department" in plan, plan
    assert "paracetamol and salicylate levels" in plan, plan


def test_a_suicidal_patient_in_clinic_has_no_emergency_physical_step():
    doctor = with_findings("Outpatient clinic. A 24-year-old woman is here to see you, alone.", present=_SUICIDAL)
    plan = write(doctor, "treat")
    assert "medically fit" not in plan, plan


def test_an_overdose_told_keeps_its_own_medical_assessment():
    doctor = with_findings("Emergency department. A 24-year-old woman is here to see you, alone.", present=_SUICIDAL)
    doctor.findings.replies.append(("What happened?", "Last night I took 32 paracetamol tablets."))
    plan = write(doctor, "treat")
    assert "Medical assessment of the overdose first" in plan, plan
    assert "any overdose or self-injury before attendance" not in plan, plan
