"""Stop 36 (issue 15): the scripted clinician acts on the results on file, writes no trauma it never heard of, fits
the household question to the patient, and keeps sedatives away from nightly drinking.

The doctor is driven through ``act`` (the note, the diagnosis and the plan it writes when the environment allows
them), from findings set as an interview would have left them."""

from __future__ import annotations

import re

import gymnasium
import pytest
from mentalhospital_env.agents.scripted import ScriptedClinician
from scripted_encounters import codes as _codes
from scripted_encounters import with_findings as _doctor
from scripted_encounters import write as _write

import mentalhospital_env  # noqa: F401  (registers the environments)
from mentalhospital_env.cases import load_suite

MEMORY = {"memory_loss": "I have to write everything down now or it goes.", "getting_lost": "I got lost driving home.",
          "low_mood": "I feel empty."}
OLD_MAN = "Outpatient clinic. A 81-year-old man is here to see you, accompanied by his daughter."


def test_a_cognitive_screen_in_the_mild_range_is_a_mild_cognitive_disorder_with_no_donepezil():
    # stop 35, test-v2-0161: MMSE 28/30 (normal), MoCA 21/30 (mild impairment) tied dementia with a mild cognitive
    # disorder on the symptoms and donepezil was started
    assert _codes(_write(_doctor(OLD_MAN, present=dict(MEMORY)), "diagnose"))[0].startswith("F03")  # the premise
    mild = [("MMSE", "total 28/30 (normal)"), ("MoCA", "total 21/30 (mild impairment)")]
    doctor = _doctor(OLD_MAN, present=dict(MEMORY), results=mild)
    codes = _codes(_write(doctor, "diagnose"))
    assert codes[0].startswith("F06.7"), codes
    assert any(c.startswith("F03") for c in codes[1:])  # a dementia stays in view, to be told apart by the course
    assert "donepezil" not in _write(_doctor(OLD_MAN, present=dict(MEMORY), results=mild), "treat").lower()
    # the same history with a screen in the moderate range is a dementia's, and its drug is started
    moderate = [("MMSE", "total 16/30 (moderate impairment)"), ("MoCA", "total 12/30 (moderate impairment)")]
    doctor = _doctor(OLD_MAN, present=dict(MEMORY), results=moderate)
    assert _codes(_write(doctor, "diagnose"))[0].startswith("F03")
    assert "donepezil" in _write(_doctor(OLD_MAN, present=dict(MEMORY), results=moderate), "treat").lower()


YOUNG_MAN = "Outpatient clinic. A 24-year-old man is here to see you, accompanied by his friend."
LOW = {"low_mood": "I feel grey.", "anhedonia": "I've lost interest in the crossword.", "social_withdrawal": "I've withdrawn."}
ALKALOSIS = ("BMP", "Na 139 mmol/L, K 3.4 mmol/L (low), bicarbonate 34 mmol/L (raised), creatinine 99 umol/L")


def test_a_hypokalaemic_alkalosis_puts_an_eating_disorder_on_the_list_and_is_acted_on():
    # stop 34-35, test-v2-0234: a depression with K 3.4 and bicarbonate 34 got sertraline and exercise advice
    before = _codes(_write(_doctor(YOUNG_MAN, present=dict(LOW), results=[("BMP", "Na 139 mmol/L, K 4.2 mmol/L")]), "diagnose"))
    assert not any(c.startswith("F50") for c in before)  # the premise: the history alone names no eating disorder
    codes = _codes(_write(_doctor(YOUNG_MAN, present=dict(LOW), results=[ALKALOSIS]), "diagnose"))
    assert any(c.startswith(("F50.0", "F50.2")) for c in codes), codes
    plan = _write(_doctor(YOUNG_MAN, present=dict(LOW), results=[ALKALOSIS]), "treat")
    assert "metabolic alkalosis" in plan and "purging" in plan
    assert "Other: " not in plan or "exercise;" not in plan.split("Other: ")[1].split(".")[0]
    # an older patient's alkalosis (diuretics, a heart failure) is not read so
    old = "Outpatient clinic. A 74-year-old man is here to see you, alone."
    assert not any(c.startswith("F50") for c in _codes(_write(_doctor(old, present=dict(LOW), results=[ALKALOSIS]), "diagnose")))


def test_a_low_bmi_with_bradycardia_makes_anorexia_the_diagnosis_and_a_medical_admission():
    results = [
        ("Weight and BMI", "BMI 14.5 kg/m2 (severely underweight)"),
        ("ECG", "sinus bradycardia 42/min, QTc 440 ms"),
        ("Vital signs", "pulse 43/min, BP 131/76 mmHg with postural drop to 74/46 mmHg, temperature 35.6 C"),
        ALKALOSIS,
    ]
    assert _codes(_write(_doctor(YOUNG_MAN, present=dict(LOW), results=results), "diagnose"))[0].startswith("F50.0")
    plan = _write(_doctor(YOUNG_MAN, present=dict(LOW), results=results), "treat")
    assert "Medically unstable" in plan and "sertraline" not in plan.lower()


def test_avoidance_of_trauma_reminders_is_written_only_beside_an_event():
    # stop 35: "my son says I stopped driving after getting lost" became "avoidance of trauma reminders" (0316, 0161)
    present = dict(MEMORY, trauma_avoidance="My son says I stopped driving after getting lost.")
    note = _write(_doctor(OLD_MAN, present=present), "write_note")
    assert "trauma reminders" not in note
    told = dict(present, trauma_history="I was in a car crash last year.")
    note = _write(_doctor(OLD_MAN, present=told), "write_note")
    assert "trauma reminders" in note


INSOMNIA = {"insomnia": "I can't get to sleep.", "sleep_onset_difficulty": "I lie awake for hours."}
NOT_LOW = {"low_mood", "excessive_worry", "anhedonia"}
MAN_44 = "Outpatient clinic. A 44-year-old man is here to see you, alone."
HYPNOTICS = ("zolpidem", "zopiclone", "temazepam", "lorazepam", "diazepam", "clonazepam")


def test_no_hypnotic_or_benzodiazepine_beside_nightly_drinking():
    sober = _write(_doctor(MAN_44, present=dict(INSOMNIA), answers={"alcohol_use": "I don't drink."},
                           denied=NOT_LOW | {"alcohol_use"}), "treat")
    # the premise: without the drinking, a hypnotic is this insomnia's second line (stop 53: CBT-I first); its own
    # wording, since "no hypnotic started now" alone also holds the word (stop 53 review)
    assert re.search(r"if sleep is still poor after an adequate course of it, a short course of a hypnotic", sober, re.IGNORECASE), sober
    answers = {"alcohol_use": "A couple of glasses of wine most nights, to help me sleep."}
    plan = _write(_doctor(MAN_44, present=dict(INSOMNIA, alcohol_use="x"), answers=answers, denied=set(NOT_LOW)), "treat")
    assert not any(h in plan.lower() for h in HYPNOTICS), plan
    assert "No hypnotic or benzodiazepine while he drinks" in plan


def test_an_adult_with_narcolepsy_starts_no_drug_before_the_sleep_study():
    present = {"cataplexy": "My knees buckle when I laugh.", "excessive_daytime_sleepiness": "I fall asleep at my desk."}
    walk_in = "Outpatient clinic. A 34-year-old woman is here to see you, alone."
    plan = _write(_doctor(walk_in, present=dict(present)), "treat")
    assert "Medication: none started before the sleep study" in plan
    assert "start modafinil" not in plan.lower()
    confirmed = [("Multiple sleep latency test", "mean sleep latency 3 min with 3 SOREMPs (consistent with narcolepsy)")]
    assert "start modafinil" in _write(_doctor(walk_in, present=dict(present), results=confirmed), "treat").lower()


DELIRIUM = {"disorientation": "I don't know where I am.", "fluctuating_attention": "It comes and goes.",
            "visual_hallucinations": "There are people in the corner."}
CAM = [("CAM", "CAM positive: acute onset with fluctuating course, inattention and disorganised thinking")]


def test_the_household_question_of_an_admitted_old_man_asks_about_no_children():
    walk_in = "Emergency department. A 82-year-old man is here to see you, alone."
    plan = _write(_doctor(walk_in, present=dict(DELIRIUM), results=CAM), "treat")
    assert "children" not in plan and "depends on his care" in plan, plan
    care_home = {"living_situation": "I live in a care home."}
    plan = _write(_doctor(walk_in, present=dict(DELIRIUM), answers=care_home, results=CAM), "treat")
    assert "depends on" not in plan
    # a woman of 40 admitted the same way is still asked about children
    plan = _write(_doctor("Emergency department. A 40-year-old woman is here to see you, alone.", present=dict(DELIRIUM), results=CAM), "treat")
    assert "children" in plan


def test_intent_and_what_keeps_them_safe_told_in_other_answers_are_quoted():
    # stop 35: test-v2-0024's "I wouldn't do anything, though" (to the self-harm question) was "asked, no direct
    # answer"; test-v2-0078's "I've got things to live for" likewise
    walk_in = "Outpatient clinic. A 46-year-old man is here to see you, alone."
    doctor = _doctor(
        walk_in,
        present={"suicidal_ideation": "I think I'd be better off dead."},
        answers={
            "suicidal_ideation": "I think I'd be better off dead.",
            "self_harm": "Sometimes I think they'd be better off without me. I wouldn't do anything, though.",
            "risk:protective": "Sometimes it'd be easier not to wake up, but I've got things to live for.",
        },
    )
    doctor.risk_followed = True
    note = _write(doctor, "write_note")
    assert "Intent: \"I wouldn't do anything, though\"" in note
    assert "things to live for" in note.split("What keeps him safe:")[1].split("\n")[0]


def test_a_worried_mood_is_quoted_and_a_pan_left_on_is_a_risk():
    walk_in = "Emergency department. A 25-year-old man is here to see you, alone."
    doctor = _doctor(walk_in, present={"excessive_worry": "I've been feeling worried."},
                     answers={"low_mood": "I've been feeling worried, if that makes sense."})
    assert 'Mood described as "I\'ve been feeling worried' in _write(doctor, "write_note")
    for other in ("My back is agony most days.", "What worries me most is hearing people talk when the room is empty."):
        doctor = _doctor(walk_in, present={"excessive_worry": "x"}, answers={"low_mood": other})
        assert "Mood not described" in _write(doctor, "write_note"), other
    doctor = _doctor(OLD_MAN, present=dict(MEMORY), answers={"hpi:3": "I forgot I'd left the pan on. The kitchen filled with smoke."})
    doctor.findings.replies.append(("How is this affecting your day-to-day life?", "I forgot I'd left the pan on. The kitchen filled with smoke."))
    risk = _write(doctor, "write_note").split("Risk assessment:")[1].split("\n")[0]
    assert "fire or gas hazard" in risk and "pan on" in risk


def test_a_relative_who_died_by_suicide_keeps_the_suicide_question_in_the_plan():
    answers = {"family_psychiatric_history": "My father has PTSD. My maternal aunt took their own life."}
    plan = _write(_doctor(MAN_44, present=dict(INSOMNIA), answers=answers), "treat")
    assert "Family history of suicide: ask about suicidal thoughts at every review" in plan
    plan = _write(_doctor(MAN_44, present=dict(INSOMNIA), answers={"family_psychiatric_history": "Nobody."}), "treat")
    assert "Family history of suicide" not in plan


def test_insomnia_that_began_with_a_separation_is_the_adjustment_reaction():
    # stop 35, test-v2-0404: "In January, in the wake of a separation, it all began" (said when asked about bedtime)
    walk_in = "Emergency department. A 25-year-old man is here to see you, alone."
    present = {"insomnia": "I'm wide awake at four.", "early_morning_waking": "Four every morning.",
               "excessive_worry": "I've been feeling worried."}
    answers = {"hpi:1": "It started in January.",
               "sleep_related_worry": "I dread going to bed. In January, in the wake of a separation, it all began."}
    codes = _codes(_write(_doctor(walk_in, present=dict(present), answers=answers), "diagnose"))
    assert codes[0].startswith("F43.2"), codes
    # without the event, the insomnia leads as before
    answers = {"hpi:1": "It started in January.", "sleep_related_worry": "I dread going to bed."}
    assert not _codes(_write(_doctor(walk_in, present=dict(present), answers=answers), "diagnose"))[0].startswith("F43.2")


@pytest.mark.parametrize("case_id", ["test-v2-0161"])
def test_an_episode_with_a_mild_moca_gets_no_dementia_drug_and_no_invented_trauma(case_id):
    suite = load_suite("test-v2")
    case = next(c for c in suite if c.case_id == case_id)
    # the premise: the record's cognitive screens are in the normal and mild ranges, and no trauma is in it
    results = {e.name: e.result for e in case.exams}
    assert "mild impairment" in results.get("MoCA", "") and "(normal)" in results.get("MMSE", "")
    env = gymnasium.make("MentalHospital-v0", suite="test-v2", turn_budget=40)
    observation, info = env.reset(seed=0, options={"case_id": case_id})
    doctor = ScriptedClinician()
    doctor.reset(observation, info)
    for _ in range(400):
        observation, _, terminated, truncated, info = env.step(doctor.act(observation, info))
        if terminated or truncated:
            break
    chart = env.unwrapped.episode_record().chart
    assert "donepezil" not in (chart.treatment or "").lower()
    assert "trauma reminders" not in chart.note
    assert chart.disorders[0].startswith("F06.7")


def test_the_self_care_line_quotes_only_an_answer_about_self_care():
    # stop 35's consultant on test-v2-0065: "the self-care line quotes an irrelevant answer"
    walk_in = "Emergency department. A 49-year-old man is here to see you, alone."
    off = _write(_doctor(walk_in, answers={"risk:self_care": "My wife says I'm arguing with family."}), "write_note")
    assert "arguing with family" not in off.split("Risk assessment:")[1].split("\n")[0]
    on = _write(_doctor(walk_in, answers={"risk:self_care": "I've let things slide. My wife does the cooking."}), "write_note")
    assert "let things slide" in on.split("Risk assessment:")[1].split("\n")[0]


def test_a_medicine_for_mental_health_beside_no_past_treatment_is_marked_to_reconcile():
    # stop 35's consultant on test-v2-0065 and 0417: the claim was copied unreconciled
    walk_in = "Emergency department. A 49-year-old man is here to see you, alone."
    answers = {"medications_current": "I take amlodipine 5 mg once daily, I'm on medication for my mental health.",
               "past_psychiatric_treatment": "Before this, I had never had treatment for my mental health."}
    meds = next(l for l in _write(_doctor(walk_in, answers=answers), "write_note").splitlines() if l.startswith("Medications:"))
    assert "To reconcile" in meds
    # a denial of such a medicine is no claim to reconcile (test-v2-0234: "I'm not on any tablets for my mental health")
    negated = dict(answers, medications_current="I don't take any tablets, I'm not on any tablets for my mental health.")
    meds = next(l for l in _write(_doctor(walk_in, answers=negated), "write_note").splitlines() if l.startswith("Medications:"))
    assert "To reconcile" not in meds
    answers["past_psychiatric_treatment"] = "I saw a psychiatrist in 2019 and was on sertraline."
    meds = next(l for l in _write(_doctor(walk_in, answers=answers), "write_note").splitlines() if l.startswith("Medications:"))
    assert "To reconcile" not in meds
