"""Stop 60 (s60-clin): uw-033, a US outpatient chart: her daughter said 'She left a burner on once in January.', and the
plan had no fire-safety step; the critical actions' fire hazard knew only the British kitchen ('left the cooker on',
'hob left on'). The American words (burner, stove, oven) are the same hazard (critical_actions.json record_signs
fire_hazard), read in the record and in what the clinician heard."""

from __future__ import annotations

from mentalhospital_env.knowledge.critical import load_critical_actions
from tests.scripted_encounters import with_findings, write


def test_a_burner_left_on_is_a_fire_hazard_sign():
    actions = load_critical_actions()
    assert "fire_hazard" in actions.signs(["She left a burner on once in January."])
    assert "fire_hazard" in actions.signs(["Kitchen safety (gas burner left on in August 2026)."])
    assert "fire_hazard" not in actions.signs(["She has never left the stove on."])


def test_a_burner_left_on_told_puts_fire_safety_in_the_plan():
    doctor = with_findings("Outpatient clinic. A 67-year-old woman is here to see you, accompanied by her daughter.",
                           present={"memory_loss": "I've been forgetful for more than a year, I repeat questions."})
    doctor.findings.replies.append(("How is this affecting her day-to-day life?",
                                    "She left a burner on once in January."))
    plan = write(doctor, "treat")
    assert "fire_safety" in load_critical_actions().proposed(plan), plan


def test_the_american_words_for_making_the_kitchen_safe_are_the_action():
    """uw-010's reference plan ('gas stove knob covers or automatic shut-off'), failed by the checker once a burner left
    on became a sign; a plan that only names the hazard or the stove in passing is still no action."""
    actions = load_critical_actions()
    assert "fire_safety" in actions.proposed("No power tools; gas stove knob covers or automatic shut-off.")
    assert "fire_safety" in actions.proposed("Fit an automatic stove shut-off.")
    assert "fire_safety" not in actions.proposed("Continue sertraline 50 mg; review in four weeks.")
