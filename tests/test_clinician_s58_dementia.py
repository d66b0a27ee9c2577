"""Stop 58 (s58-clin): hw-008, a man of 79 with a dementia who had left the gas on twice (his wife's account in the
record; the interview never reached it), had no gas safety step. A dementia plan's occupational therapy home safety
assessment now names the cooker and gas (a shut-off valve, smoke and carbon monoxide alarms), as such an assessment
covers them whatever was told."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write


def test_a_dementia_plan_covers_cooker_and_gas_safety_at_home():
    doctor = with_findings(
        "Outpatient clinic. A 79-year-old man is here to see you, accompanied by his wife.",
        present={"memory_loss": "Over two years I've started repeating questions, missing appointments.",
                 "getting_lost": "I've been losing my way on familiar walks."},
    )
    plan = write(doctor, "treat")
    assert "cooker and gas safety" in plan and "carbon monoxide alarms" in plan, plan
