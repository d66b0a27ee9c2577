"""Stop 55 (s55-clin): faults a consultant marked down in the scripted clinician's notes and plans (held_out53 and
held_out54 ratings, stop 54's blind A/B, /work/notes/s54/closing54.md 'Noticed and left alone'), each fixed by a
mechanism meant to carry to cases not seen."""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import clinician_script

from tests.test_scripted_routes import encounter, replies
from tests.scripted_encounters import played
from tests.test_scripted_s53 import INSOMNIA_DRIVER


def test_a_drug_awaiting_its_test_names_a_test_that_can_confirm_it():
    # stop 54's closing: the insomnia rule (CBT for insomnia first) rode on plan.medication_by_code, the rule for a drug
    # that waits on a confirming test, with an empty confirmed_by and the never-matching pattern '(?!)'. A rule there
    # now names the test that confirms the diagnosis and a pattern that is not the empty lookahead; a treatment that is
    # psychological first has its own rule (plan.therapy_first_by_code)
    plan = clinician_script()["plan"]
    for prefix, rule in plan["medication_by_code"].items():
        if prefix.startswith("_"):
            continue
        assert rule["confirmed_by"], prefix
        assert rule["confirmed_pattern"] and rule["confirmed_pattern"] != "(?!)", prefix
        assert re.compile(rule["confirmed_pattern"]).pattern
    assert "F51.0" in plan["therapy_first_by_code"]


def test_insomnia_still_gets_cbt_i_first_through_its_own_rule():
    out = encounter("Outpatient clinic. A 56-year-old man is here to see you, alone.", replies(INSOMNIA_DRIVER))
    assert out["diagnose"] and "F51.0" in out["diagnose"], out["diagnose"]
    plan = out["treat"]
    assert plan.startswith("Medication: no hypnotic started now: CBT for insomnia comes first."), plan
    # the sentence starts no drug: no reconciliation 'before the new medicine starts'
    assert "Before the new medicine starts" not in plan, plan


def _played(case_id: str):
    return played(case_id, "test-v2")


def test_a_personality_disorder_left_on_the_differential_gets_its_assessment_not_silence():
    # test-v2-0100 (held_out53's consultant): borderline personality disorder third on the differential of a moderate
    # depression, and the plan said nothing of it ('no DBT or mentalisation-based therapy, no crisis plan'). Stop 50's
    # rule stands (no specialist therapy started or named from the differential): a structured assessment, a crisis
    # plan meanwhile, a specialist therapy only if it is confirmed
    chart = _played("test-v2-0100")
    assert "F60.3" in chart.disorders[1:], chart.disorders
    plan = chart.treatment
    assert re.search(r"structured assessment of personality[^.]*crisis plan[^.]*if it is confirmed[^.]*structured psychological therapy", plan), plan
    # stop 55's review: not in the midst of the depressive episode (clinician.json settled_prefixes)
    assert re.search(r"structured assessment of personality[^.;]*once the episode has settled", plan), plan
    # stop 50's rule (test_clinician_s50_clin): no DBT named for a personality disorder only on the differential
    assert "dialectical" not in plan, plan


COMBAT_NIGHTMARES = [
    (r"brought you here", "I snap over the smallest thing."),
    (r"going on in your life", "It started not long after I came back from a combat deployment."),
    (r"first notice|started", "For twelve months now."),
    (r"on your mind|worrying", "I have nightmares about it most nights. I just feel down pretty much all the time."),
    (r"come back|memories|bring it back|pictures", "It comes back to me in the day too, out of nowhere. I can't stop it."),
    (r"keep away|avoid", "By now I've stopped driving. I stay in most days."),
    (r"jumpy|on edge", "I jump at every bang, and I sit with my back to the wall."),
    (r"mood", "Down, and angry."),
]

NIGHTMARES_NO_EVENT = [
    (r"brought you here", "I keep having bad dreams and I'm exhausted."),
    (r"going on in your life", "Nothing really, life's been normal."),
    (r"first notice|started", "About a year ago."),
    (r"on your mind|worrying|dream|nightmare", "I have nightmares most nights, about falling and being chased."),
    (r"mood", "My mood's fine, just tired."),
]


def test_nightmares_after_a_traumatic_event_open_the_trauma_questions_and_reach_ptsd():
    # test-v2-0457 (in the 40 sampled): 'not long after combat deployment' and 'nightmares about it most nights': no
    # question about memories coming back, avoidance or being on edge was asked, and PTSD never reached the list
    # (nightmare disorder did); stop 53's consultant on test-v2-0162 the same ('ignores the trauma pointers')
    out = encounter("Outpatient clinic. A 22-year-old man is here to see you, alone.", replies(COMBAT_NIGHTMARES))
    asked = [q for q in out["questions"] if re.search(r"bring it back|jumpy|on edge|come back", q, re.I)]
    assert asked, out["questions"]
    assert out["diagnose"] and "F43.1" in out["diagnose"], out["diagnose"]


def test_nightmares_with_no_event_told_open_no_trauma_questions():
    out = encounter("Outpatient clinic. A 30-year-old woman is here to see you, alone.", replies(NIGHTMARES_NO_EVENT))
    asked = [q for q in out["questions"] if re.search(r"when it happened|bring it back|jumpy", q, re.I)]
    assert not asked, out["questions"]


def test_avoidance_after_an_event_told_in_words_counts_as_avoidance_of_reminders():
    # test-v2-0457: the event told only in words ('combat deployment': the trauma domain's event_said), nightmares about
    # it, and asked what he keeps away from, 'By now I've stopped driving': the avoidance was dropped (evidence.needs_event
    # let only a finding of its 'unless_heard' open it), so the PTSD stayed off the list. With no event told it still
    # counts for nothing (stop 35: a man with dementia who stopped driving after getting lost)
    table = [(p, r) for p, r in COMBAT_NIGHTMARES if not p.startswith("come back")]
    table.insert(0, (r"come back|memories", "No, not really."))
    out = encounter("Outpatient clinic. A 22-year-old man is here to see you, alone.", replies(table))
    hpi = next(line for line in out["write_note"].split("\n") if line.startswith("History of present illness"))
    assert "avoidance of trauma reminders" in hpi, hpi
    assert "F43.1" in out["diagnose"], out["diagnose"]


MANIA_STORMY = [
    (r"brought you here", "My partner made me come. I've been on a high for two weeks, barely sleeping, spending thousands."),
    (r"first notice|started", "About two weeks ago. It happened before, three years ago, and then I crashed into a bad depression."),
    (r"sleeping|sleep", "Two or three hours a night and I'm not tired at all."),
    (r"mood", "Amazing, but I snap at people. When I'm high my relationships blow up, I fall out with everyone and then make up."),
    (r"relationship|partner|people", "My relationships are always intense and stormy, I'm terrified people will leave me."),
    (r"thoughts|racing|speech", "My thoughts race, I have so many ideas."),
    (r"harm|hurt|end your life|suicid", "When I crashed three years ago I cut my arms, not now."),
    (r"alcohol|drink", "A few drinks at weekends."),
    (r"medicines do you take", "None."),
]


def test_no_personality_assessment_for_findings_a_disorder_ranked_above_explains():
    # stop 55's review: a mania (F31.12) whose patient said her relationships are always stormy, with a cyclothymia
    # second and a borderline personality disorder fourth on the list, was planned 'a structured assessment of
    # personality by the community mental health team' in the midst of the manic episode: only the principal's
    # findings were set aside, and the stormy relationships are the cyclothymia's too, ranked above it
    out = encounter("Outpatient clinic. A 28-year-old woman is here to see you, with her partner.", replies(MANIA_STORMY))
    assert "F31.1" in out["diagnose"].split(";")[0] and "F60.3" in out["diagnose"], out["diagnose"]
    assert "assessment of personality" not in out["treat"], out["treat"]
