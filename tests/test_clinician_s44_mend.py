"""Stop 44 (mend): two ways a missing denial reached the scripted clinician's ranking.

s44-recall stopped the patient flatly denying what the record implies: a depressive episode's low energy is now
hedged ("It's hard to put into words."), where "I'm not tired all the time" used to count against every disorder
that lists fatigue. With that denial gone two rules of the ranking showed faults they had carried all along:
- an adjustment disorder handed over to PTSD on avoidance alone ("I avoid thinking about it", said of unwanted
  images of harming the baby), with no trauma nor re-experiencing heard (uw-001, a postnatal depression);
- nightmare disorder took a place on the differential beside PTSD and a depression that hold its nightmares and
  broken sleep (hw-039), a sleep disorder the classifications give only when no other disorder explains it.

The doctor is set down mid-encounter with findings as an interview would have left them (tests/scripted_encounters.py)."""

from __future__ import annotations

from scripted_encounters import codes as _codes
from scripted_encounters import with_findings as _doctor
from scripted_encounters import write as _write

MOTHER = "Outpatient clinic. A 32-year-old woman is here to see you, alone."
VETERAN = "Outpatient clinic. A 41-year-old man is here to see you, alone."
POSTNATAL = {  # what uw-001's interview heard (seed 13), the energy question hedged
    "excessive_worry": "I've had low mood and constant worry about the baby since about six weeks after the birth.",
    "low_mood": "I've had low mood and constant worry about the baby since about six weeks after the birth.",
    "postpartum": "I've had low mood and constant worry about the baby since about six weeks after the birth.",
    "restlessness": "I check that the baby is breathing several times each night and can't settle.",
    "worthlessness": "I've been feeling useless.",
    "guilt": "I feel guilty all the time.",
    "suicidal_ideation": "I've had fleeting thoughts that my husband and my daughter would be better off without me.",
}
ANSWERS = {"hpi:complaint": "I've had low mood and constant worry about the baby since about six weeks after the birth.",
           "hpi:1": "It started about four months ago."}


def test_avoidance_alone_hands_no_adjustment_disorder_over_to_ptsd():
    doctor = _doctor(MOTHER, present={**POSTNATAL, "trauma_avoidance": "I avoid thinking about it."}, answers=ANSWERS,
                     denied={"poor_concentration", "hypomanic_episodes", "auditory_hallucinations"})
    diagnosis = _write(doctor, "diagnose")
    assert not any(c.startswith("F43.1") for c in _codes(diagnosis)), diagnosis


def test_re_experiencing_still_hands_an_adjustment_disorder_over_to_ptsd():
    present = {**POSTNATAL, "trauma_avoidance": "I avoid thinking about it.",
               "intrusive_memories": "I keep seeing the delivery room in my head, over and over.",
               "flashbacks": "It's like I'm back on the table in theatre."}
    doctor = _doctor(MOTHER, present=present, answers=ANSWERS, denied={"poor_concentration"})
    diagnosis = _write(doctor, "diagnose")
    assert any(c.startswith("F43.1") for c in _codes(diagnosis)[:2]), diagnosis


HEARD = {  # hw-039's interview (seed 13): PTSD and a depression, the energy question hedged
    "low_mood": "I feel low most days.", "guilt": "I feel guilty that I came back and he didn't.",
    "trauma_related_guilt": "I feel guilty that I came back and he didn't.",
    "flashbacks": "I get flashbacks to the explosion.", "nightmares": "I have nightmares about it most nights.",
    "intrusive_memories": "It keeps coming back to me in the day.", "hypervigilance": "I am always on guard.",
    "insomnia": "I barely sleep.", "poor_concentration": "I can't concentrate on anything.",
    "decreased_appetite": "I'm not hungry.", "restlessness": "I can't sit still.",
    "suicidal_ideation": "Sometimes I think they'd be better off without me.",
}


def test_no_nightmare_disorder_beside_the_ptsd_and_depression_that_hold_its_nightmares():
    doctor = _doctor(VETERAN, present=HEARD, denied={"hypomanic_episodes", "auditory_hallucinations", "suicide_plan"})
    found = _codes(_write(doctor, "diagnose"))
    assert not any(c.startswith("F51") for c in found), found
    assert any(c.startswith("F43.1") for c in found) and found[0].startswith(("F32", "F43.1")), found


def test_nightmares_with_nothing_else_to_explain_them_still_name_nightmare_disorder():
    doctor = _doctor(VETERAN, present={"nightmares": "I have nightmares most nights and wake up terrified.",
                                       "insomnia": "I'm scared to go back to sleep after them."},
                     denied={"low_mood", "flashbacks", "intrusive_memories", "trauma_history"})
    found = _codes(_write(doctor, "diagnose"))
    assert any(c.startswith("F51.5") for c in found), found
