"""Stop 41's reading of the scripted clinician's notes and plans (issue 15, part 5): each risk item quotes only what
answers it, the mood line quotes a mood described now, a firearm told is named in the plan by what is done about it,
and a road traffic collision told in the opening opens the trauma questions."""

from __future__ import annotations

import re

from scripted_encounters import ask as _ask
from scripted_encounters import start

WALK_IN = "Outpatient clinic. A 44-year-old man is here to see you, alone."


def _risk_lines(doctor):
    return doctor._risk_follow_up_lines(set())


def _with(doctor, **answers):
    doctor.findings.answers.update(answers)
    return doctor


def test_a_suicidal_thought_told_with_no_plan_is_not_quoted_as_the_plan():
    """uw-001: 'I've had fleeting thoughts that ... would be better off without me, but no plans' was quoted whole under
    'Plan or preparations'; the thought belongs to the ideation, the plan line holds only the answer about a plan."""
    doctor = _with(start(WALK_IN), **{"risk:plan": "I've had fleeting thoughts that my wife would be better off without me, but no plans."})
    line = next(x for x in _risk_lines(doctor) if x.startswith("Plan or preparations"))
    assert "better off" not in line and "No plans" in line, line
    doctor = _with(start(WALK_IN), **{"risk:plan": "It should have been me, without any plan."})
    line = next(x for x in _risk_lines(doctor) if x.startswith("Plan or preparations"))
    assert "should have been me" not in line and "plan" in line.lower(), line
    # a reply that is all about a plan is quoted whole
    doctor = _with(start(WALK_IN), **{"risk:plan": "I've looked up how many tablets it would take and saved them up."})
    line = next(x for x in _risk_lines(doctor) if x.startswith("Plan or preparations"))
    assert "saved them up" in line, line


def test_another_act_or_another_items_subject_is_no_answer_to_the_item():
    """uw-014: 'I tried to stop for a weekend' (his drinking) under 'Past attempts'; uw-013: 'I've never hurt myself on
    purpose before' under 'Intent'. A terse answer that names nothing is still the answer (test-v2-0317)."""
    doctor = _with(start(WALK_IN), **{"risk:attempts": "I tried to stop for a weekend in 2026."})
    assert "Past attempts: asked, no direct answer." in _risk_lines(doctor)
    doctor = _with(start(WALK_IN), **{"risk:intent": "I've never hurt myself on purpose before."})
    assert "Intent: asked, no direct answer." in _risk_lines(doctor)
    doctor = _with(start(WALK_IN), **{"risk:attempts": "There was one time."})
    assert any(x.startswith('Past attempts: "') for x in _risk_lines(doctor))
    doctor = _with(start(WALK_IN), **{"risk:intent": "I wouldn't act on it, because of my kids."})
    assert any(x.startswith('Intent: "I wouldn\'t act on it') for x in _risk_lines(doctor))


def _mood_line(doctor):
    note = doctor._note()
    return re.search(r"Mood (?:described as [^.]*\.|not described\.)", note).group(0)


def test_the_mood_line_quotes_a_mood_described_now_not_a_dated_history():
    """uw-013: 'At 13, after my parents separated, I saw a school counsellor ... for low mood' and uw-014: 'I saw GP in
    2009 for low mood' were written 'Mood described as ...'; nor is a mood word in passing ('takings down') a mood."""
    for told in ("I saw my GP in 2009 for low mood after being laid off.", "At 13 I saw a school counsellor for low mood.",
                 "I have takings down about a third at work."):
        doctor = _ask_mood(told)
        assert told.rstrip(".") not in _mood_line(doctor), _mood_line(doctor)
    doctor = _ask_mood("I've been feeling really low.")
    assert 'Mood described as "I\'ve been feeling really low' in _mood_line(doctor)
    doctor = _ask_mood("Down.")
    assert 'Mood described as "Down' in _mood_line(doctor)


def _ask_mood(reply):
    doctor = start(WALK_IN)
    doctor.findings.answers["mse:mood"] = reply
    return doctor


def test_a_firearm_told_is_named_in_the_plan_by_its_removal():
    """uw-014 told of a shotgun when asked about means; the plan held his medicines and 'anything else named removed'.
    A firearm is out of the home and the licensing police told; tablets alone get no firearm sentence."""
    doctor = start(WALK_IN)
    _ask(doctor, "Patient: I've been low for months. Sometimes I think they'd be better off without me.")
    for _ in range(6):
        concept = doctor.last_concept
        reply = {"risk:means": "I keep a shotgun in a cabinet in the loft."}.get(concept, "No.")
        _ask(doctor, f"Patient: {reply}")
    assert doctor.risk_followed
    plan = doctor._plan()
    assert re.search(r"firearm[^.]*out of the home", plan), plan
    doctor = start(WALK_IN)
    _ask(doctor, "Patient: I've been low for months. Sometimes I think they'd be better off without me.")
    for _ in range(6):
        reply = {"risk:means": "I have a box of paracetamol in the kitchen."}.get(doctor.last_concept, "No.")
        _ask(doctor, f"Patient: {reply}")
    plan = doctor._plan()
    assert "firearm" not in plan and "Means:" in plan, plan


def test_a_road_traffic_collision_told_in_the_opening_opens_the_trauma_questions():
    """uw-014: 'I witnessed a road traffic collision on the M6 last year' opened no trauma question, and the PTSD was
    lost; a collision witnessed is a traumatic event as a crash is."""
    doctor = start(WALK_IN)
    asked = [_ask(doctor, "Patient: My wife says I'm not myself. I witnessed a road traffic collision on the M6 last year.")]
    for _ in range(6):
        asked.append(_ask(doctor, "Patient: About a year ago."))
    assert "trauma" in doctor.explored, asked
    assert any("hurt" in q and "happened" in q for q in asked), asked
    # a collision of plans is no event
    doctor = start(WALK_IN)
    _ask(doctor, "Patient: I've been low, there's a collision of deadlines at work.")
    assert "trauma" not in doctor.explored


def test_a_mood_now_told_with_its_onset_date_is_still_the_mood():
    """uw-012: 'From about July 2026 my mood has been low most days' is the mood now, with its onset; the first cut of
    the dated-history rule dropped it for 'I'm tired all the time'."""
    doctor = _ask_mood("From about July 2026 my mood has been low most days.")
    assert 'Mood described as "From about July 2026 my mood has been low most days' in _mood_line(doctor)


def test_a_preparation_told_after_a_denied_plan_is_never_cut_from_the_plan_line():
    """Stop-41 review M2: the item's word list lacks 'saving up', 'googled', 'letters' and 'in a drawer', and the
    plan's line quoted 'No plan as such' alone, so the note said there was no plan while the patient told of
    stockpiling, researching a method and final acts."""
    for reply, told in (("No plan as such, but I have been saving up my tablets.", "saving up my tablets"),
                        ("Not really a plan, though I googled how many paracetamol it would take.", "googled"),
                        ("I have not planned anything, but I wrote letters to my kids.", "letters to my kids"),
                        ("No plans. I have been keeping my tablets in a drawer.", "in a drawer")):
        doctor = _with(start(WALK_IN), **{"risk:plan": reply})
        line = next(x for x in _risk_lines(doctor) if x.startswith("Plan or preparations"))
        assert told in line, line
    # a suicidal thought after the denial is still the ideation's, not the plan's
    doctor = _with(start(WALK_IN), **{"risk:plan": "No. I don't have a plan to end it. I think about dying every day."})
    line = next(x for x in _risk_lines(doctor) if x.startswith("Plan or preparations"))
    assert "dying every day" not in line, line
