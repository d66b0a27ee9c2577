"""Stop 55 (s55-clin): faults a consultant marked down in the scripted clinician's notes and plans (held_out53 and
held_out54 ratings, stop 54's blind A/B, /work/notes/s54/closing54.md 'Noticed and left alone'), each fixed by a
mechanism meant to carry to cases not seen."""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import clinician_script

from tests.test_scripted_routes import encounter, replies
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
    import gymnasium

    import mentalhospital_env  # noqa: F401  (registers the environments)
    from mentalhospital_env.agents.scripted import ScriptedClinician
    from tests.test_scripted_clinician import play

    env = gymnasium.make("MentalHospital-v0", suite="test-v2", turn_budget=40)
    try:
        return play(env, ScriptedClinician(), case_id)
    finally:
        env.close()


def test_a_personality_disorder_left_on_the_differential_gets_its_assessment_not_silence():
    # test-v2-0100 (held_out53's consultant): borderline personality disorder third on the differential of a moderate
    # depression, and the plan said nothing of it ('no DBT or mentalisation-based therapy, no crisis plan'). Stop 50's
    # rule stands (no specialist therapy started from the differential): a structured assessment, a crisis plan
    # meanwhile, the therapy only if it is confirmed
    chart = _played("test-v2-0100")
    assert "F60.3" in chart.disorders[1:], chart.disorders
    plan = chart.treatment
    assert re.search(r"structured assessment of personality[^.]*crisis plan[^.]*if it is confirmed[^.]*dialectical behaviour therapy", plan), plan
    assert not re.search(r"refer for [^.]*dialectical", plan), plan

