"""Stop 57 (s57-clin): a dependent drinker seen in the emergency department is not admitted to the acute psychiatric
ward on 'I've let things slide'.

test-v2-0332 (55M, alcohol dependence, possible cirrhosis, no suicidal thoughts, no psychosis): the plan read
'Disposition: admission to the acute ward today; the crisis team is informed' and 'Legal framework: informal admission
if he agrees and has capacity, otherwise assessment under the Mental Health Act' (mental health law excludes dependence
on alcohol as its ground), on the self-care answer alone, and gave Pabrinex IV for 3-5 days. A substance disorder's
self-care let slide is met by its own plan; a patient sent home gets parenteral thiamine in the department, then oral
thiamine at home."""

from __future__ import annotations

from tests.scripted_encounters import played


def _played(case_id: str, suite: str = "test-v2"):
    return played(case_id, suite)


def test_a_dependent_drinker_who_let_things_slide_is_not_sent_to_the_acute_ward():
    chart = _played("test-v2-0332")
    assert chart.disorders[0].startswith("F10.2"), chart.disorders
    plan = chart.treatment
    assert "admission to the acute ward" not in plan and "Mental Health Act" not in plan, plan
    assert "inpatient detoxification" in plan, plan  # the liver still calls for a supervised withdrawal
    # sent home: parenteral thiamine in the department, then oral (a consultant read the clinic's oral thiamine alone,
    # blind, on test-v2-0097, and preferred the IV)
    assert "Pabrinex) in the department today" in plan and "oral thiamine 100 mg" in plan, plan
    assert "Pabrinex IV for 3-5 days" not in plan and "every 1-4 hours" not in plan, plan


def test_a_dependent_drinker_sent_home_is_still_asked_who_depends_on_him():
    plan = _played("test-v2-0332").treatment
    assert "Whether anyone depends on him at home" in plan, plan


def test_a_dependent_drinker_living_alone_is_not_asked_again():
    # hw-010: 'I live alone since separating from my wife', 'I have two adult children who keep their distance'
    plan = _played("hw-010", "handwritten").treatment
    assert "Whether anyone depends on him at home" not in plan, plan
