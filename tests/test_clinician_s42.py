"""Stop 42 (issue 15): the scripted clinician's plan follows the diagnosis it names and holds every drug to the results,
its safeguarding step keeps the patient's own safety and words the dependants by who they are, and the note's mood line
reads a mood described now as the mood (stop 41's review S4-S7; test-v2-0391).

The doctor is driven through ``act`` from findings set as an interview would have left them (tests/scripted_encounters.py)."""

from __future__ import annotations

import pytest
from scripted_encounters import codes as _codes
from scripted_encounters import with_findings as _doctor
from scripted_encounters import write as _write

from mentalhospital_env.agents.scripted import ScriptedClinician
from mentalhospital_env.knowledge.critical import load_critical_actions

ALKALOSIS = ("U&E", "Na 137 mmol/L, K 3.0 mmol/L (low; reference 3.5-5), bicarbonate 31 mmol/L (raised; reference 22-29), creatinine 74 umol/L")


def test_the_results_sentence_beside_an_eating_disorder_does_not_ask_whether_one_is_found():
    """test-v2-0391: an anorexia led and the plan said 'refer to the eating disorders service if an eating disorder is
    found'. The results sentence follows the diagnosis named; without one it still asks."""
    woman = "Outpatient clinic. A 22-year-old woman is here to see you, alone."
    eating = {"food_restriction": "I barely eat.", "fear_of_weight_gain": "I'm terrified of putting on weight.",
              "body_image_disturbance": "I look huge.", "low_weight": "I've lost two stone."}
    doctor = _doctor(woman, present=dict(eating), results=[ALKALOSIS])
    assert _codes(_write(doctor, "diagnose"))[0].startswith("F50")  # the premise: an eating disorder leads
    plan = _write(doctor, "treat")
    assert "metabolic alkalosis" in plan and "purging" in plan
    assert "if an eating disorder is found" not in plan
    low = {"low_mood": "I feel low most days.", "anhedonia": "Nothing is fun.", "fatigue": "I'm shattered."}
    other = _doctor(woman, present=dict(low), results=[ALKALOSIS])
    assert not _codes(_write(other, "diagnose"))[0].startswith("F50")  # the premise: no eating disorder leads
    assert "if an eating disorder is found" in _write(other, "treat")


def test_a_withdrawal_still_asks_about_purging_and_harmful_drinking_is_no_explanation():
    """Review S6: 'explained_by_lead' covered every alcohol disorder (harmful use too) and dropped the purging question.
    Now only a withdrawal explains the vomiting, and its plan still asks about purging."""
    man = "Emergency department. A 36-year-old man is here to see you, alone."
    withdrawal = {"alcohol_use": "I drink a litre of vodka a day.", "withdrawal_tremor": "I get the shakes in the morning.",
                  "relief_drinking": "I have a drink first thing to stop the shakes."}
    doctor = _doctor(man, present=dict(withdrawal), answers={"alcohol_use": withdrawal["alcohol_use"]}, results=[ALKALOSIS])
    assert _codes(_write(doctor, "diagnose"))[0].startswith("F10.23")  # the premise
    plan = _write(doctor, "treat")
    assert "purging" in plan
    rules = ScriptedClinician().script["evidence"]["results_weigh"]["rules"]
    for rule in rules:
        assert not any(p in ("F10", "F10.1", "F10.2") for p in rule.get("explained_by_lead", ())), rule


def test_an_adolescents_own_drug_is_held_to_the_results_on_file():
    """Review S4: a 15-year-old's depression took the age's own drug sentence (fluoxetine) past the results check, so a
    sodium of 118 did not hold it."""
    girl = "Outpatient clinic. A 15-year-old girl is here to see you, accompanied by her mother."
    low = {"low_mood": "I feel low all the time.", "anhedonia": "Nothing is fun any more.", "fatigue": "I'm always tired.",
           "insomnia": "I can't sleep.", "poor_concentration": "I can't concentrate at school.", "guilt": "It's my fault."}
    normal = _write(_doctor(girl, present=dict(low), results=[("U&E", "Na 139 mmol/L, K 4.1 mmol/L")]), "treat")
    assert "fluoxetine" in normal.lower()  # the premise: the age's own drug with normal results
    sodium = [("U&E", "Na 118 mmol/L (low; reference 135-145), K 4.0 mmol/L")]
    assert "sodium_below_125" in load_critical_actions().abnormal_findings([sodium[0][1]])
    plan = _write(_doctor(girl, present=dict(low), results=sodium), "treat")
    assert "start fluoxetine" not in plan.lower()
    assert "Not started on these results: fluoxetine" in plan or "not started on these results: fluoxetine" in plan.lower()


@pytest.mark.parametrize("home, says, never", [
    ("I live with my two children, aged 4 and 7.", "children's social care", "adult social care"),
    ("I live with my mother. I'm a carer for her since her stroke.", "adult social care", "children's social care"),
])
def test_the_safeguarding_step_keeps_the_patients_own_safety_and_names_the_dependants_by_who_they_are(home, says, never):
    """Review S7: once dependants were named the safeguarding step was only theirs (the patient's own safety dropped out),
    and a carer of her mother was told of 'children's social care'."""
    woman = "Emergency department. A 38-year-old woman is here to see you, alone."
    drink = {"alcohol_use": "A bottle of wine a night, more at weekends.", "withdrawal_tremor": "I shake in the mornings.",
             "relief_drinking": "I need a drink first thing.", "violence_history": "I hit my partner last month."}
    doctor = _doctor(woman, present=dict(drink), answers={"living_situation": home, "alcohol_use": drink["alcohol_use"]})
    plan = _write(doctor, "treat")
    assert "Safeguarding: ask about abuse, neglect or danger at home." in plan
    assert says in plan and never not in plan


@pytest.mark.parametrize("sentence, now", [
    ("Low, really low most of the time lately.", True),
    ("Pretty flat and empty most days now.", True),
    ("I wake at 3 and feel awful.", True),
    ("Low since I was made redundant two years ago.", True),
    ("I have takings down about a third.", False),
    ("At 13, after my parents separated, I saw a school counsellor for low mood.", False),
    ("I saw my GP in 2009 for low mood.", False),
])
def test_a_mood_described_now_is_the_mood(sentence, now):
    """Review S5: the mood line rejected moods told now ('Low, really low most of the time lately'; a clock time read as
    an age) and must still reject dated histories and a mood word in passing (uw-013, uw-014)."""
    assert ScriptedClinician()._mood_not_now(sentence) is (not now)
