"""Stop 52 (s52-clin): faults a consultant marked down in the scripted clinician's notes and plans on test-v2 at stop 51
(benchmarks/data/judge_agreement/ratings.jsonl, held_out51, and the blind A/B of /work/notes/s51/sets/ab51*): cocaine
binges filed as binge eating, no safeguarding for a young child at home beside violence told in plain words, a stopped
antidepressant planned as a new start."""

from __future__ import annotations

import re

from tests.test_note_s47_mendc import _answer, _doctor, _line  # the note filer's probes, one copy
from tests.test_scripted_routes import encounter, replies


def test_a_binge_told_to_the_drug_follow_up_is_no_binge_eating():
    # test-v2-0468 (stop 51): 'I go on binges for a couple of days at a time' to 'How often do you use stimulants ...'
    doctor = _doctor("Emergency department. A 20-year-old man is here to see you, alone.")
    _answer(doctor, "drug_use", "I do lines of coke, most weekends.")
    for key in ("follow:use_amount", "follow:use_without"):
        _answer(doctor, key, "I go on binges for a couple of days at a time.",
                question="How often do you use stimulants, how much at a time, and since when?")
    assert "binge_eating" not in doctor.findings.present, doctor.findings.present
    assert "binge eating" not in _line(doctor, "History of present illness:"), doctor._note()


def test_a_food_binge_is_still_binge_eating():
    doctor = _doctor()
    _answer(doctor, "binge_eating", "I go on binges, I eat everything in the fridge and can't stop.")
    assert "binge_eating" in doctor.findings.present


PSYCHOSIS_PUSHED = [
    (r"brought you here", "I hear voices through the walls. People are following me."),
    (r"angry with someone|hurt anyone|harm", "I lost it and pushed someone. I'm not proud of it."),
    (r"who do you live with", "I live with my partner and our young child."),
    (r"depends on you|relying on you", "Our little boy, he's three."),
    (r"medicines do you take", "I don't take anything."),
]


def test_violence_told_in_plain_words_beside_a_young_child_at_home_brings_safeguarding():
    # test-v2-0066 (stop 51): a psychotic mother who pushed someone, a young child at home, no safeguarding in the plan
    out = encounter("Outpatient clinic. A 40-year-old woman is here to see you, alone.", replies(PSYCHOSIS_PUSHED))
    plan = out["treat"]
    assert "Risk to others" in plan, plan
    assert "safeguarding" in plan.lower() and "child" in plan.lower(), plan
    assert "Check who is caring for the children" not in plan, plan  # the safeguarding sentence asks it once


def test_no_safeguarding_step_for_the_same_violence_without_dependants():
    table = [row for row in PSYCHOSIS_PUSHED if "live with" not in row[0] and "depends" not in row[0]]
    table += [(r"who do you live with", "I live alone."), (r"depends on you|relying on you", "No, nobody.")]
    out = encounter("Outpatient clinic. A 40-year-old woman is here to see you, alone.", replies(table))
    assert "caring for the children" not in out["treat"], out["treat"]


DEPRESSION_OFF_SERTRALINE = [
    (r"brought you here", "My mood is low, I feel down all day every day and I've stopped enjoying anything."),
    (r"help for your mental health before", "Depression was diagnosed at 44. I took sertraline from a psychiatrist until some weeks ago."),
    (r"medicines do you take", "No, I'm not on any tablets, nothing regular."),
    (r"sleep", "I can't get to sleep however tired I am."),
]


def test_a_stopped_antidepressant_is_restarted_with_why_it_was_stopped_asked():
    # test-v2-0403 (stop 51): sertraline taken 'until some weeks ago' was planned 'start sertraline 50 mg once daily'
    out = encounter("Outpatient clinic. A 53-year-old woman is here to see you, alone.", replies(DEPRESSION_OFF_SERTRALINE))
    plan = out["treat"]
    assert not re.search(r"\bstart sertraline", plan), plan
    assert "restart sertraline" in plan and "ask why" in plan, plan


def test_an_antidepressant_never_taken_is_started():
    table = [row for row in DEPRESSION_OFF_SERTRALINE if "before" not in row[0]]
    table.append((r"help for your mental health before", "No, never, this is the first time."))
    out = encounter("Outpatient clinic. A 53-year-old woman is here to see you, alone.", replies(table))
    assert "Medication: start sertraline" in out["treat"], out["treat"]


def test_a_low_glucose_on_file_is_worked_up_in_the_plan():
    # test-v2-0151 (stop 51): glucose 3.2 mmol/L (low) cited as 'bearing on' an anxiety disorder, nothing planned
    table = [(r"brought you here", "I worry all the time about everything, I can't switch off."),
             (r"sleep", "I lie awake worrying.")]
    results = "BMP: Na 137 mmol/L, K 4.0 mmol/L, glucose 3.2 mmol/L (low; reference 3.9-7), creatinine 99 umol/L"
    out = encounter("Emergency department. A 30-year-old man is here to see you, alone.", replies(table), results=results)
    assert "low blood glucose" in out["treat"] and "C-peptide" in out["treat"], out["treat"]
    normal = results.replace("3.2 mmol/L (low; reference 3.9-7)", "5.2 mmol/L")
    out = encounter("Emergency department. A 30-year-old man is here to see you, alone.", replies(table), results=normal)
    assert "glucose" not in out["treat"], out["treat"]


def test_no_drug_and_a_provisional_diagnosis_where_no_symptom_of_it_was_told():
    # test-v2-0151 (stop 51): every anxiety symptom denied, yet 'most consistent with Generalized anxiety disorder'
    # and sertraline started
    table = [(r"brought you here", "I asked to be seen."),
             (r"mood", "I've been feeling fine, really."),
             (r"worry|on your mind", "Not really, I don't worry much."),
             (r"sleep", "I sleep all right."),
             (r"who do you live with", "I live with my wife and our two children.")]
    out = encounter("Emergency department. A 30-year-old man is here to see you, alone.", replies(table))
    assert not re.search(r"\bstart \w+ \d", out["treat"]), out["treat"]
    assert "provisional" in out["write_note"], out["write_note"]


MANIA_WITH_CHILDREN = [
    (r"brought you here", "I've got so much energy, I barely sleep, two hours a night and I'm buzzing. I've spent thousands."),
    (r"high|full of energy|unusually good", "Yes, I'm on top of the world, my thoughts are racing."),
    (r"who do you live with", "I live with my partner and our two children."),
    (r"depends on you|relying on you", "My two kids, they're six and eight."),
    (r"medicines do you take", "I don't take anything."),
]


def test_a_mania_seen_in_clinic_with_children_at_home_asks_who_cares_for_them():
    # test-v2-0105 (sample, stop 52): a manic mother of two in clinic; the rules ask it only in hospital
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", replies(MANIA_WITH_CHILDREN))
    assert "caring for the children" in out["treat"] or "children at home" in out["treat"], out["treat"]


def test_a_sleep_answer_in_hours_a_night_is_kept_in_the_present_illness():
    # test-v2-0337 (stop 50): a mania note without 'Maybe three hours a night, and I'm not tired at all'
    doctor = _doctor()
    _answer(doctor, "elevated_mood", "I'm on top of the world, never better.")
    _answer(doctor, "insomnia", "Maybe three hours a night, and I'm not tired at all.", question="How have you been sleeping?")
    assert "three hours a night" in _line(doctor, "History of present illness:"), doctor._note()


def test_a_reply_off_the_sleep_question_is_still_left_out():
    doctor = _doctor()
    _answer(doctor, "low_mood", "I feel low most days.")
    _answer(doctor, "insomnia", "I'm a chef at a hotel.", question="How have you been sleeping?")
    assert "chef" not in _line(doctor, "History of present illness:"), doctor._note()


ACUTE_REACTION = [
    (r"brought you here", "I want someone to talk to."),
    (r"look after yourself", "The trouble lately has been being dazed and shaken since it happened."),
    (r"first notice|when did", "It started about two days ago."),
    (r"going on in your life", "I was attacked on my way home two days ago. The police brought me in."),
    (r"mood", "I feel terrified."),
    (r"energy|on your mind|worr", "My mind is always going, it's what if, what if, and it's exhausting."),
    (r"heart|panic|fear", "My heart's racing and won't settle."),
]


def test_a_stress_reaction_of_two_days_is_an_acute_stress_reaction_with_its_first_line_care():
    # test-v2-0237 (stop 51): two days after an event, an adjustment disorder and a GAD, no first-line acute care
    out = encounter("Emergency department. A 30-year-old woman is here to see you, alone.", replies(ACUTE_REACTION))
    assert "F43.0" in out["diagnose"], out["diagnose"]
    assert "psychological first aid" in out["treat"], out["treat"]


def test_a_conviction_for_a_fight_is_written_in_the_risk_section():
    # test-v2-0468 (stop 51): the assault he told was absent from the risk section
    doctor = _doctor("Emergency department. A 20-year-old man is here to see you, alone.")
    _answer(doctor, "homicidal_ideation", "Just the one time, the assault. I've kept out of trouble since. I was done for a fight a few years back.")
    assert "done for a fight" in _line(doctor, "Risk assessment:"), doctor._note()


def test_never_lashing_out_is_no_violence_in_the_risk_section():
    doctor = _doctor()
    _answer(doctor, "homicidal_ideation", "I've never lashed out at anyone, I'd never hurt anyone.")
    assert "Violence" not in _line(doctor, "Risk assessment:"), doctor._note()
