"""Stop 57 (s57-clin): meals skipped in a mania are no eating disorder.

hw-026 (58M, a manic relapse: pressured speech, driving at night with no sleep, lithium stopped) said 'I skip meals on
purpose' and denied any fear of weight gain; the plan added 'Refeeding syndrome precautions: increase calories
gradually with daily phosphate, potassium and magnesium', an anorexia's safety step. The mania's own signs explain
the skipped meals, as a psychosis's or a delirium's do."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write


def test_meals_skipped_in_a_mania_bring_no_refeeding_precautions():
    doctor = with_findings(
        "Emergency department. A 58-year-old man is here to see you, accompanied by his wife.",
        present={"pressured_speech": "I've been talking so fast she can't get a word in.",
                 "irritability": "I've been irritable.", "decreased_need_for_sleep": "I need only two hours of sleep.",
                 "food_restriction": "My weight hasn't changed, and I skip meals on purpose."},
        denied={"fear_of_weight_gain", "body_image_disturbance"},
    )
    plan = write(doctor, "treat")
    assert "efeeding" not in plan, plan


def test_meals_skipped_with_a_fear_of_weight_gain_still_bring_them():
    doctor = with_findings(
        "Outpatient clinic. A 17-year-old girl is here to see you, accompanied by her mother.",
        present={"food_restriction": "I skip meals on purpose.", "fear_of_weight_gain": "I'm terrified of getting fat.",
                 "low_weight": "I've lost a lot of weight."},
        results=[("Weight and BMI", "BMI 14.9 kg/m2 (severely underweight)")],
    )
    assert "efeeding" in write(doctor, "treat")
