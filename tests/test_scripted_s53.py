"""Stop 53 (s53-clin): faults a consultant marked down in the scripted clinician's notes and plans on test-v2 at stop 52
(benchmarks/data/judge_agreement/ratings.jsonl, held_out52, and the blind A/B of /work/notes/s52/sets/ab52*), each fixed
by a mechanism meant to carry to cases not seen."""

from __future__ import annotations

import re

import gymnasium
from mentalhospital_env.agents.scripted import ScriptedClinician

import mentalhospital_env  # noqa: F401  (registers the environments)
from tests.test_note_s47_mendc import _answer, _doctor, _line  # the note filer's probes, one copy
from tests.test_scripted_clinician import play
from tests.test_scripted_routes import encounter, replies


def test_a_bare_no_said_before_is_still_the_answer_to_a_history_question():
    # test-v2-0396 (stop 52): 'No, no.' to 'Have you had any help for your mental health before?' was written
    # 'Past psychiatric history: Asked, no direct answer.' because an earlier question had also been answered 'No, no.'
    # (0381's 'Not at all.' likewise): a bare no repeats itself, it is no earlier answer said again
    doctor = _doctor()
    _answer(doctor, "auditory_hallucinations", "No, no. I don't hear voices.")
    _answer(doctor, "elevated_mood", "Not at all. I don't have spells where I'm on a high.")
    _answer(doctor, "past_psychiatric_treatment", "No, no.")
    _answer(doctor, "previous_episodes", "Not at all.")
    line = _line(doctor, "Past psychiatric history:")
    assert "no direct answer" not in line, doctor._note()
    assert line, doctor._note()


def test_a_longer_sentence_said_again_is_still_no_answer_to_a_history_question():
    doctor = _doctor()
    _answer(doctor, "excessive_worry", "I worry about everything, my health, the bills.")
    _answer(doctor, "past_psychiatric_treatment", "Like I said, I worry about everything, my health, the bills.")
    assert "no direct answer" in _line(doctor, "Past psychiatric history:"), doctor._note()


INSOMNIA_DRIVER = [
    (r"brought you here", "I can't get off to sleep however tired I am. Then I'm a zombie the next day."),
    (r"first notice|started", "It started about four months ago."),
    (r"sleeping", "I lie awake for hours, I dread going to bed."),
    (r"day-to-day|energy", "I'm shattered all day. I drive a van for work and I nod off at lunch in the cab."),
    (r"mood", "My mood's fine, just tired."),
    (r"enjoyment", "I still enjoy my football."),
    (r"medicines do you take", "I don't take any tablets."),
    (r"alcohol", "Just a glass of wine at the weekend."),
]


def test_chronic_insomnia_gets_cbt_i_first_and_no_hypnotic_started_at_once():
    # test-v2-0108, test-v2-0444 (stop 52): a plumber and a taxi driver with chronic insomnia were started on zolpidem
    # beside CBT-I; CBT-I comes first, a hypnotic is second line, short-term, with the driving warning
    out = encounter("Outpatient clinic. A 56-year-old man is here to see you, alone.", replies(INSOMNIA_DRIVER))
    assert out["diagnose"] and "F51.0" in out["diagnose"], out["diagnose"]
    plan = out["treat"]
    assert not re.search(r"\bstart (?:zolpidem|zopiclone|melatonin|temazepam)", plan, re.IGNORECASE), plan
    assert "insomnia" in plan.lower() and re.search(r"cognitive behavioural therapy for insomnia|CBT for insomnia", plan), plan
    assert re.search(r"not to drive", plan), plan



def test_an_elevated_mood_beside_a_persecutory_belief_is_no_delusional_disorder():
    # test-v2-0015 (stop 52): 'I feel absolutely amazing. Best I've ever felt in my life!', talking too much and a
    # poisoning belief were called a delusional disorder and given risperidone 1 mg: the mood disorder that explains
    # the belief leads (manic_features_first), and the plan treats the mood episode
    env = gymnasium.make("MentalHospital-v0", suite="test-v2", turn_budget=40)
    try:
        chart = play(env, ScriptedClinician(), "test-v2-0015")
    finally:
        env.close()
    # stop 53 review: an elevated mood now needs two other manic groups beside it to lead (manic_features_first); this
    # interview hears only the talking too much ('I sleep all right', 'My energy's been okay'), so the mood disorder
    # stays on the differential beside the psychosis, no longer first
    assert any(d.startswith(("F25", "F31", "F30")) for d in chart.disorders), chart.disorders


def test_an_elevated_mood_with_two_other_manic_groups_beside_a_persecutory_belief_is_no_delusional_disorder():
    # test-v2-0015 as first played (stop 52); stop 53 review: the elevated mood needs two other manic groups beside it
    doctor = _doctor("Outpatient clinic. A 53-year-old woman is here to see you, alone.")
    _answer(doctor, "persecutory_delusions", "My neighbours are poisoning my food, I only eat tins.")
    _answer(doctor, "pressured_speech", "Sorry, sorry, talking too much again!")
    _answer(doctor, "decreased_need_for_sleep", "I only need two hours a night, I don't feel tired at all.")
    _answer(doctor, "increased_activity", "I've been up doing projects all night, painting the whole house.")
    _answer(doctor, "mse:mood", "I feel absolutely amazing. Best I've ever felt in my life!",
            question="In your own words, how would you describe your mood right now?")
    assert doctor._leading()[0][0].code.startswith(("F25", "F31", "F30")), doctor._leading()


def test_a_persecutory_belief_without_elevated_mood_stays_a_psychosis():
    doctor = _doctor("Outpatient clinic. A 53-year-old woman is here to see you, alone.")
    _answer(doctor, "persecutory_delusions", "My neighbours are poisoning my food, I only eat tins.")
    _answer(doctor, "pressured_speech", "Sorry, sorry, talking too much again!")
    _answer(doctor, "elevated_mood", "No, never, I haven't been on a high.")
    assert not doctor._leading()[0][0].code.startswith(("F25", "F31", "F30")), doctor._leading()


def test_no_denial_of_elevated_mood_beside_a_mood_given_as_fantastic():
    # test-v2-0201 (stop 52): 'She denies elevated mood' beside 'Mood described as "Fantastic, I suppose"'
    doctor = _doctor("Inpatient ward. A 37-year-old woman is here to see you, alone.")
    _answer(doctor, "hpi:complaint", "I'm going to be the richest person on earth. I've invented a way to end poverty.",
            question="What has brought you here?")
    _answer(doctor, "mse:mood", "Let me think. Fantastic, I suppose.",
            question="In your own words, how would you describe your mood right now?")
    _answer(doctor, "elevated_mood", "No, no, and I haven't been on a high.")
    hpi = _line(doctor, "History of present illness:")
    assert not re.search(r"denies[^.]*elevated mood", hpi), hpi
    assert "Fantastic" in doctor._note(), doctor._note()


def test_a_denial_of_elevated_mood_stands_beside_an_ordinary_mood():
    doctor = _doctor("Inpatient ward. A 37-year-old woman is here to see you, alone.")
    _answer(doctor, "hpi:complaint", "I'm going to be the richest person on earth. I've invented a way to end poverty.",
            question="What has brought you here?")
    _answer(doctor, "mse:mood", "Not brilliant, to be honest. Fed up.",
            question="In your own words, how would you describe your mood right now?")
    _answer(doctor, "elevated_mood", "No, no, and I haven't been on a high.")
    assert re.search(r"denies[^.]*elevated mood", _line(doctor, "History of present illness:")), doctor._note()


def test_a_drug_named_as_current_then_said_to_be_stopped_is_not_left_as_current():
    # test-v2-0201 (stop 52): 'Medications: Current medications: "I take lithium"' beside 'Lithium helped. I stopped
    # it a few weeks ago' told later
    doctor = _doctor("Inpatient ward. A 37-year-old woman is here to see you, alone.")
    _answer(doctor, "medications_current", "I take lithium, I take tablets.")
    _answer(doctor, "past_psychiatric_treatment", "I've been known to the mental health team since I was 32. Lithium helped. "
            "But I stopped it a few weeks ago.")
    line = _line(doctor, "Medications:")
    assert "stopped" in line, doctor._note()


def test_a_drug_still_taken_is_left_as_current():
    doctor = _doctor("Inpatient ward. A 37-year-old woman is here to see you, alone.")
    _answer(doctor, "medications_current", "I take lithium, 400 mg at night.")
    _answer(doctor, "past_psychiatric_treatment", "I've been known to the mental health team since I was 32. Lithium helps.")
    assert "stopped" not in _line(doctor, "Medications:"), doctor._note()


def test_a_drug_the_medicines_answer_already_calls_past_gets_no_second_sentence():
    # hw-021, hw-026: 'I don't take any currently. I used to take aripiprazole' already says it is not current
    doctor = _doctor()
    _answer(doctor, "medications_current", "I don't take any currently. I used to take aripiprazole.")
    _answer(doctor, "past_psychiatric_treatment", "I stopped aripiprazole last year.")
    assert "later said to have been stopped" not in _line(doctor, "Medications:"), doctor._note()


def test_praise_of_another_person_is_no_elevated_mood():
    # stop 53 review: 'Low, really low. My husband has been amazing though' was read as the patient's elevated mood
    doctor = _doctor("Outpatient clinic. A 34-year-old woman is here to see you, alone.")
    _answer(doctor, "mse:mood", "Low, really low. My husband has been amazing though.",
            question="In your own words, how would you describe your mood right now?")
    assert "elevated_mood" not in doctor.findings.inferred, doctor.findings.inferred
    _answer(doctor, "mse:mood", "Honestly? I feel absolutely amazing.",
            question="In your own words, how would you describe your mood right now?")
    assert "elevated_mood" in doctor.findings.inferred  # said of her own mood it still counts


def test_voices_with_praise_of_a_sister_stay_a_schizophrenia():
    # stop 53 review: voices, a poisoning belief, 'My sister has been brilliant' and 'My sister says I talk too fast'
    # moved the lead from F20.0 to F25.0; a sister's praise is no elevated mood, and one other manic group is too few
    doctor = _doctor("Outpatient clinic. A 34-year-old woman is here to see you, alone.")
    _answer(doctor, "auditory_hallucinations", "Yes, I hear voices talking about me when nobody is there.")
    _answer(doctor, "persecutory_delusions", "The neighbours are poisoning my food.")
    before = doctor._leading()[0][0].code
    _answer(doctor, "mse:mood", "Not great, honestly. My sister has been brilliant though.",
            question="In your own words, how would you describe your mood right now?")
    _answer(doctor, "pressured_speech", "My sister says I talk too fast.")
    assert doctor._leading()[0][0].code == before, (before, doctor._leading())
    assert not doctor._leading()[0][0].code.startswith(("F25", "F31", "F30")), doctor._leading()


INSOMNIA_CBT_DONE = INSOMNIA_DRIVER[:-2] + [
    (r"medicines do you take", "I don't take any tablets. I did a six-week CBT for insomnia course last year and it didn't help."),
    (r"alcohol", "Just a glass of wine at the weekend."),
]


def test_insomnia_after_a_course_of_cbt_i_is_not_told_cbt_i_first_again():
    # stop 53 review: a patient who completed CBT for insomnia without benefit was told CBT-I comes first
    out = encounter("Outpatient clinic. A 56-year-old man is here to see you, alone.", replies(INSOMNIA_CBT_DONE))
    assert out["diagnose"] and "F51.0" in out["diagnose"], out["diagnose"]
    assert "CBT for insomnia comes first" not in out["treat"], out["treat"]


def test_a_stop_the_same_sentence_says_was_followed_by_taking_it_every_night_is_no_stopped_drug():
    # stop 53 review: 'I stopped it once in 2019 and ended up in hospital, so I've taken it every night since'
    doctor = _doctor("Inpatient ward. A 37-year-old woman is here to see you, alone.")
    _answer(doctor, "medications_current", "Lithium. I stopped it once in 2019 and ended up in hospital, "
            "so I've taken it every night since.")
    assert "lithium" not in doctor._drugs_stopped()
    assert "later said to have been stopped" not in _line(doctor, "Medications:"), doctor._note()
