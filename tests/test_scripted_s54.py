"""Stop 54 (s54-clin): faults a consultant marked down in the scripted clinician's plans and diagnoses on test-v2 at
stop 53 (benchmarks/data/judge_agreement/ratings.jsonl, held_out53, and the blind A/B of /work/notes/s53/sets/ab53*),
each fixed by a mechanism meant to carry to cases not seen."""

from __future__ import annotations

import re

from tests.test_scripted_routes import encounter, replies

WALK_IN = "Outpatient clinic. A 41-year-old woman is here to see you, alone."

DEPRESSED = [
    (r"brought you here", "I've been so low for two months. I can't enjoy anything any more."),
    (r"sleep", "I wake at four every morning."),
    (r"energy|day-to-day", "No energy at all, I can't face work."),
    (r"enjoy", "Nothing, I can't enjoy anything."),
    (r"medicines do you take", "I don't take any tablets."),
    (r"alcohol", "Just a glass of wine at the weekend."),
]


def test_a_death_wish_told_limits_the_supply_now_not_if_risk_is_raised():
    # test-v2-0206, 0355 (stop 53's consultant) and 0100, 0281, 0300, 0382 (stop 54's sample): suicidal thoughts were in
    # the record, yet the plan limited the tablets dispensed only 'if risk is raised'
    told = [(r"life is not worth|end your life|suicid", "Sometimes I think I'd be better off dead, but I wouldn't act on it."),
            (r"plans or preparations|thinking how", "No, I don't have a plan.")]
    plan = encounter(WALK_IN, replies(told + DEPRESSED))["treat"]
    assert re.search(r"\bstart sertraline\b", plan), plan
    assert "if risk is raised" not in plan, plan
    assert re.search(r"limit the medication supply now", plan), plan
    assert "Restrict access to means" not in plan, plan  # the step is met, not said twice


def test_suicidal_thoughts_denied_keep_the_supply_limit_conditional():
    told = [(r"life is not worth|end your life|suicid", "No, never, I've got my kids to think about.")]
    plan = encounter(WALK_IN, replies(told + DEPRESSED))["treat"]
    assert "limit quantities of medication dispensed if risk is raised" in plan, plan


VETERAN = [
    (r"brought you here", "I barely sleep, and when I do the dreams come. I wake up screaming."),
    (r"first notice|started|going on in your life", "It started five years ago, not long after I came back from a combat deployment."),
    (r"sleeping|sleep", "I wake up screaming most nights."),
    (r"worr", "No, I'm not a worrier."),
    (r"medicines do you take", "I don't take any tablets."),
    (r"alcohol", "Just a glass of wine at the weekend."),
]


def test_nightmares_after_a_combat_deployment_lead_as_ptsd_not_nightmare_disorder():
    # test-v2-0471 (stop 54's sample) and test-v2-0162 (stop 52's consultant): nightmares that began after a trauma led as
    # nightmare disorder with PTSD second, and the plan gave prazosin and imagery rehearsal, not PTSD's first-line care
    # what follows the trauma is not answered either way ("Hard to say, really."), as test-v2-0471's patient did not
    out = encounter("Outpatient clinic. A 45-year-old man is here to see you, alone.", replies(VETERAN, "Hard to say, really."))
    first = re.search(r"1\. (F[\d.]+)", out["diagnose"]).group(1)
    assert first.startswith("F43.1"), out["diagnose"]
    assert "F51.5" not in out["diagnose"], out["diagnose"]
    assert re.search(r"trauma-focused", out["treat"]), out["treat"]


def test_nightmares_with_no_trauma_told_stay_a_nightmare_disorder():
    quiet = [(r"brought you here", "I barely sleep, and when I do the dreams come. I wake up screaming."),
             (r"first notice|started|going on in your life", "It started five years ago, nothing in particular happened."),
             *VETERAN[2:]]
    out = encounter("Outpatient clinic. A 45-year-old man is here to see you, alone.", replies(quiet, "Hard to say, really."))
    assert re.search(r"1\. F51", out["diagnose"]), out["diagnose"]


def test_a_drug_already_taken_and_continued_is_no_new_medicine_to_reconcile_before():
    # stop 53's consultant: continuation plans said 'Before the new medicine starts: reconcile ...' when nothing new
    # starts (hw-028, hw-034 at stop 54: 'she already takes sertraline: check adherence ... raise the dose')
    from tests.test_scripted_routes import OCD_REPLIES

    plan = encounter("Outpatient clinic. A 27-year-old woman is here to see you, alone.", replies(OCD_REPLIES))["treat"]
    assert "already takes sertraline" in plan, plan
    assert "Before the new medicine starts" not in plan, plan
    assert re.search(r"reconcile every medicine the patient takes", plan), plan  # still reconciled, before a dose change


def test_a_new_drug_beside_medicines_taken_is_still_reconciled_before_it_starts():
    told = [(r"medicines do you take", "I take amlodipine 5 mg once daily for my blood pressure."),
            (r"life is not worth|end your life|suicid", "No, never, I've got my kids to think about.")]
    plan = encounter(WALK_IN, replies(told + DEPRESSED))["treat"]
    assert re.search(r"\bstart sertraline\b", plan), plan
    assert "Before the new medicine starts: reconcile" in plan, plan


def test_a_hazardous_audit_on_file_gets_alcohol_advice_whatever_words_the_drinking_was_told_in():
    # test-v2-0100 (stop 53's consultant, and stop 54's sample): 'I don't drink in the week, but at the weekend I go for
    # it' beside an AUDIT of 11/40 (hazardous) got no alcohol advice; test-v2-0034 (stop 52) likewise
    told = [(r"alcohol", "I don't drink in the week, but at the weekend I go for it.")]
    plan = encounter(WALK_IN, replies(told + DEPRESSED), results="AUDIT: total 11/40 (hazardous)")["treat"]
    assert "Alcohol: feedback on the amount" in plan, plan


def test_a_low_risk_audit_gets_no_alcohol_advice():
    plan = encounter(WALK_IN, replies(DEPRESSED), results="AUDIT: total 3/40 (low risk)")["treat"]
    assert "Alcohol: feedback on the amount" not in plan, plan


def test_a_drug_taken_and_continued_gets_its_pregnancy_test_worded_for_a_drug_taken():
    # hw-034 (stop 54): 'she already takes lithium: check adherence and the current lithium level first' was followed by
    # 'Pregnancy test before starting it'; the test stays, worded for the lithium she takes
    import gymnasium

    import mentalhospital_env  # noqa: F401
    from mentalhospital_env.agents.scripted import ScriptedClinician
    from tests.test_scripted_clinician import play

    env = gymnasium.make("MentalHospital-v0", suite="handwritten", turn_budget=40)
    try:
        plan = play(env, ScriptedClinician(), "hw-034").treatment
    finally:
        env.close()
    assert "already takes lithium" in plan, plan
    assert "before starting it" not in plan, plan
    assert "Pregnancy test now" in plan, plan


def test_a_drug_dated_to_an_age_long_past_is_not_a_drug_taken_now():
    # test-v2-0311 (stop 53's consultant): asked about current medicines, 'I had a first episode at 17, after losing a job,
    # settled on escitalopram prescribed by the child and adolescent mental health service' was planned 'she already
    # takes escitalopram: ... raise the dose', and nothing was started for her panic and depression
    from tests.test_note_s47_mendc import _answer, _doctor

    doctor = _doctor()
    _answer(doctor, "medications_current", "I had a first episode at 17, after losing a job, settled on escitalopram "
            "prescribed by the child and adolescent mental health service.")
    assert "escitalopram" not in doctor._drugs_taken()
    for said in ("I've been on escitalopram since I was 17.", "I take escitalopram 10 mg at 8 every morning."):
        doctor = _doctor()
        _answer(doctor, "medications_current", said)
        assert doctor._drugs_taken() == ["escitalopram"], said


def test_a_drug_dated_to_an_age_is_past_only_when_the_number_is_an_age_and_nothing_says_it_goes_on():
    # m54-clin (a reviewer of 42eef112): the pattern that reads 'settled on escitalopram at 17' as a past course read
    # current drugs as stopped: a course that goes on ('keeps me well', 'continue it') and a number that is a duration or
    # a level ('at 12 weeks', 'at 12 hours') is no past course
    from tests.test_note_s47_mendc import _answer, _doctor

    for said, drug in (("I started lithium at 25 and it keeps me well.", "lithium"),
                       ("I started fluoxetine at 17 and continue it.", "fluoxetine"),
                       ("Sertraline 50 mg, dose went up at 12 weeks.", "sertraline"),
                       ("My lithium level was 0.6 at 12 hours.", "lithium"),
                       ("Sertraline, I take it every day since my GP started it at 40.", "sertraline")):
        doctor = _doctor()
        _answer(doctor, "medications_current", said)
        assert doctor._drugs_taken() == [drug], said
    for said in ("I took escitalopram at 17.", "I was given escitalopram aged 19.", "Escitalopram when I was 15.",
                 "I had escitalopram at age 16."):
        doctor = _doctor()
        _answer(doctor, "medications_current", said)
        assert "escitalopram" not in doctor._drugs_taken(), said


def test_nightmares_of_a_veteran_with_no_trauma_told_stay_a_nightmare_disorder():
    # m54-clin (a reviewer of b01393b0): military service was one of the findings that let PTSD lead over a nightmare
    # disorder, so a veteran's nightmares with no trauma told led as PTSD; service is no trauma, a trauma told is
    served = [(r"brought you here", "I barely sleep, and when I do the dreams come. I wake up screaming."),
              (r"first notice|started|going on in your life", "It started five years ago. I was a cook in the army then, "
               "nothing in particular happened."),
              *VETERAN[2:]]
    out = encounter("Outpatient clinic. A 45-year-old man is here to see you, alone.", replies(served, "Hard to say, really."))
    assert re.search(r"1\. F51", out["diagnose"]), out["diagnose"]


def test_an_audit_of_20_or_more_is_assessed_for_dependence_not_given_a_goal_to_cut_down():
    # m54-clin (a reviewer of 15bbbdd3): an AUDIT of 20 or more on file got the hazardous drinker's 'a goal agreed to cut
    # down'; the WHO AUDIT manual's zone from 20 calls for assessment for dependence (withdrawal asked, an assisted
    # withdrawal considered), which a goal to cut down can make dangerous
    told = [(r"alcohol", "I don't drink in the week, but at the weekend I go for it.")]
    plan = encounter(WALK_IN, replies(told + DEPRESSED), results="AUDIT: total 23/40")["treat"]
    assert "goal agreed to cut down" not in plan, plan
    assert re.search(r"assess(?:ed|ment)? for (?:alcohol )?dependence", plan), plan
    assert re.search(r"withdrawal", plan), plan
    plan = encounter(WALK_IN, replies(told + DEPRESSED), results="AUDIT: total 17/40")["treat"]
    assert "goal agreed to cut down" in plan, plan
