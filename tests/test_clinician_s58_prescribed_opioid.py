"""Stop 58 (s58-clin): hw-020, asked about painkillers not prescribed for her, a woman with a somatic symptom disorder
answered 'Yeah. I take co-codamol, mebeverine and vitamin D.', the medicines she listed again to the medications
question, and was read as using opioids: her plan supplied take-home naloxone and offered methadone or buprenorphine
through the drug service. A yes followed only by her own current medicines is her prescription, reviewed as such, no
drug habit; opioids told beyond her medicines still bring the opioid steps."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write

_WALK_IN = "Outpatient clinic. A 38-year-old woman is here to see you, alone."
_SOMATIC = {
    "somatic_symptoms": "I've had pains all over and dizzy spells for years and nobody finds anything.",
    "chronic_pain": "Low back pain, every day.",
    "dizziness": "I get dizzy when I stand.",
    "excessive_worry": "I worry all the time.",
}
_MEDICINES = {"medications_current": "As I said, I take co-codamol, mebeverine and vitamin D."}


def test_a_prescribed_opioid_named_among_the_medicines_brings_no_naloxone_or_methadone():
    doctor = with_findings(_WALK_IN, present={**_SOMATIC, "opioid_use": "Yeah. I take co-codamol, mebeverine and vitamin D."},
                           answers=_MEDICINES)
    plan = write(doctor, "treat")
    assert "naloxone" not in plan and "methadone" not in plan, plan


def test_opioids_told_beyond_the_medicines_still_bring_naloxone():
    doctor = with_findings(_WALK_IN, present={**_SOMATIC, "opioid_use": "Yeah. I buy extra co-codamol online and take twenty a day."},
                           answers=_MEDICINES)
    plan = write(doctor, "treat")
    assert "naloxone" in plan, plan
