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


WOMAN_27 = "Outpatient clinic. A 27-year-old woman is here to see you, alone."
WORRY = {"excessive_worry": "If my husband is ten minutes late I've got him dead in a ditch.",
         "restlessness": "I'm on edge all the time.", "muscle_tension": "My shoulders are up round my ears.",
         "insomnia": "The minute I get into bed my brain switches on.", "fatigue": "I've got no energy.",
         "irritability": "I've got a short fuse lately."}


def _worried(onset: str) -> list[str]:
    doctor = _doctor(WOMAN_27, present=dict(WORRY),
                     answers={"hpi:1": onset, "hpi:2": "In December, a little while after a family member's illness, the change came."})
    return _codes(_write(doctor, "diagnose"))


def test_a_stress_reaction_does_not_override_a_fuller_picture_when_no_length_was_heard():
    """test-v2-0432: generalised anxiety (worry, restlessness, tension, sleep, fatigue, irritability) told to have begun
    'in December', after a relative's illness, led as an adjustment disorder scoring far below it. With no length heard
    the stress reaction leads only when it accounts for what was heard about as well; a length heard that is shorter
    than generalised anxiety's six months still rules the anxiety out."""
    month_only = _worried("It started in December.")
    assert month_only[0] == "F41.1", month_only
    weeks = _worried("It started about six weeks ago.")
    assert weeks[0].startswith("F43.2"), weeks


def test_an_adjustment_disorder_heard_to_have_lasted_years_does_not_lead():
    """test-v2-0460 ('for ten years now'), dev-v2-0060 ('for some four years now') led as adjustment disorders: a stress
    reaction does not outlast two years (ICD-10 F43.2)."""
    present = {"stress_preoccupation": "I can't stop thinking about the job.", "excessive_worry": "I worry about everything.",
               "palpitations": "My heart races.", "restlessness": "I can't sit still.",
               "muscle_tension": "My shoulders ache with tension."}
    short = _codes(_write(_doctor(WOMAN_27, present=dict(present), answers={"hpi:1": "For three months now.",
                   "hpi:2": "Following a stressful job, it all began."}), "diagnose"))
    assert short[0].startswith("F43.2"), short  # the premise: the same picture of months is a stress reaction
    long = _codes(_write(_doctor(WOMAN_27, present=dict(present), answers={"hpi:1": "For four years now.",
                  "hpi:2": "Following a stressful job, it all began."}), "diagnose"))
    assert not long[0].startswith("F43.2"), long


def test_a_borderline_picture_told_after_its_screen_is_asked_about():
    """test-v2-0469: 'Being alone terrifies me' came in answer to the question the picture's screen had put, so the rest
    of the borderline picture was never asked and the personality disorder never ranked. Told after the screen was put,
    the picture's questions are put now."""
    from scripted_encounters import ask, start

    doctor = start("Emergency department. A 29-year-old man is here to see you, alone.")
    asked = [ask(doctor, "I asked to be seen.")]
    for reply in ["It started about two weeks ago.", "Not that I can think of.", "I just feel flat all the time."] + ["I don't know."] * 12:
        if not any(q == "__picture__" for q, _ in doctor.plan):
            break
        asked.append(ask(doctor, reply))
    assert not any(q == "__picture__" for q, _ in doctor.plan)  # the premise: the screen was put before the picture
    assert "chronic_emptiness" not in doctor.findings.asked
    for _ in range(4):
        asked.append(ask(doctor, "Being alone terrifies me." if len(asked) < 30 and "fear_of_abandonment" not in doctor.findings.present else "I don't know."))
    assert {"unstable_relationships", "chronic_emptiness"} & doctor.findings.asked, asked
