"""Stop 51 (s51-clin): faults a consultant marked down in the scripted clinician's notes and plans on test-v2 at stop 50
(benchmarks/data/judge_agreement/ratings.jsonl, held_out50): a suicide denial filed under personal history by its
protective clause; a childhood answer pasted into the present illness; a needle exchange offered where nothing was
injected; 'Before starting lithium' for a patient already on it, and a dose raised before the level is known."""

from __future__ import annotations

from tests.test_note_s47_mendc import _answer, _doctor, _line  # the note filer's probes, one copy
from tests.test_scripted_routes import encounter, replies


def test_a_suicide_denial_with_a_protective_clause_is_not_filed_under_personal_history():
    # test-v2-0228/0240 (stop 50): "I've got my job to think about" read as occupation filed the whole denial there
    doctor = _doctor()
    _answer(doctor, "low_mood", "I feel low most days.")
    _answer(doctor, "living_situation", "I live with my adult son.")
    _answer(doctor, "suicidal_ideation",
            "No, I've never hurt myself on purpose, I've never had thoughts of ending my life, I've got my job to think about.")
    note = doctor._note()
    assert "ending my life" not in _line(doctor, "Personal history:"), note
    assert "ending my life" not in _line(doctor, "History of present illness:"), note


def test_a_childhood_answer_that_says_nothing_of_the_symptom_stays_out_of_the_present_illness():
    # test-v2-0073/0178/0281 (stop 50): 'Asked about childhood, "My childhood was fine, nothing bad"' in the HPI
    doctor = _doctor()
    _answer(doctor, "low_mood", "I feel low most days.")
    _answer(doctor, "childhood_onset_attention", "My childhood was fine, nothing bad.")
    assert "childhood was fine" not in _line(doctor, "History of present illness:"), doctor._note()


def test_a_childhood_answer_on_the_symptom_is_kept():
    doctor = _doctor()
    _answer(doctor, "poor_concentration", "I can't focus on anything at work.")
    _answer(doctor, "childhood_onset_attention", "My sister says it has always been there, since early childhood.")
    assert "always been there" in doctor._note(), doctor._note()



HEROIN_SMOKED = [
    (r"brought you here", "I'm using heroin every day, I smoke it off foil, about half a gram. I crave it all the time."),
    (r"how much|how often", "I smoke gear every day, half a gram."),
    (r"without|stop|cut down", "If I stop I get sick, sweating and aching, so I use again."),
    (r"drink|alcohol", "I don't drink."),
]


def test_no_needle_exchange_where_no_injecting_was_told():
    # test-v2-0125/0425 (stop 50): a needle exchange offered to a woman who smokes heroin
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", replies(HEROIN_SMOKED))
    plan = out["treat"]
    assert "needle" not in plan.lower(), plan
    assert "never to start injecting" in plan, plan


def test_a_needle_exchange_where_injecting_was_told():
    table = [(r"brought you here", "I'm injecting heroin every day, about half a gram. I crave it all the time.")] + HEROIN_SMOKED[1:]
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", replies(table))
    assert "needle and syringe" in out["treat"], out["treat"]


BIPOLAR_ON_LITHIUM = [
    (r"brought you here", "My mood is low, I feel down most days and nothing is fun any more."),
    (r"medicines do you take", "I take lithium 400 mg at night."),
    (r"help for your mental health before", "I have bipolar disorder, I've been on lithium for years."),
    (r"high|energy|full of", "Yes, I've had highs where I didn't sleep for days and spent a fortune."),
]


def test_a_lithium_already_taken_is_not_started_and_no_dose_is_raised_before_its_level():
    # test-v2-0308 (stop 50): 'Before starting lithium' for a man on lithium 300 mg twice daily, and the dose raised first
    out = encounter("Outpatient clinic. A 33-year-old man is here to see you, alone.", replies(BIPOLAR_ON_LITHIUM))
    plan = out["treat"]
    assert "already takes lithium" in plan, plan
    assert "Before starting lithium" not in plan, plan
    level = plan.find("level")
    assert 0 <= level < plan.find("raise"), plan


def test_a_driving_incident_told_is_answered_with_driving_advice_in_the_plan():
    # test-v2-0308 (stop 50): 'My family took the car keys away after a night of driving around', no driving advice
    table = BIPOLAR_ON_LITHIUM + [(r"day-to-day|affecting|life", "My family took the car keys away after a night of driving around.")]
    out = encounter("Outpatient clinic. A 33-year-old man is here to see you, alone.", replies(table))
    risk = next(line for line in out["write_note"].splitlines() if line.startswith("Risk assessment:"))
    assert "car keys" in risk, out["write_note"]
    assert "DVLA" in out["treat"], out["treat"]


def test_no_driving_advice_where_driving_was_denied():
    table = BIPOLAR_ON_LITHIUM + [(r"day-to-day|affecting|life", "I haven't driven fast or anything like that, I'm careful.")]
    out = encounter("Outpatient clinic. A 33-year-old man is here to see you, alone.", replies(table))
    assert "Driving:" not in out["treat"], out["treat"]


def test_an_early_review_is_not_followed_by_a_second_later_first_review():
    # test-v2-0073 (stop 50): 'Follow-up within a week' and then 'Follow-up: review in 2 weeks'
    table = [
        (r"brought you here", "My mood is rock bottom, I've got zero energy and I can't enjoy anything."),
        (r"life is not worth|better off|wish", "Sometimes I wish I could just not wake up."),
        (r"plans|ending your life|act on", "No, I'd never do anything, I have no plans."),
        (r"sleep", "I'm lucky if I get four hours."),
        (r"appetite", "I've lost my appetite."),
    ]
    out = encounter("Outpatient clinic. A 41-year-old woman is here to see you, alone.", replies(table))
    plan = out["treat"]
    assert "within a week" in plan or "within 48 hours" in plan, plan
    assert "Follow-up: review in" not in plan and "Follow-up: every" not in plan, plan


def test_a_quoted_clause_does_not_begin_mid_sentence():
    # test-v2-0048/0337 (stop 50): 'In her words, ... "and it's exhausting"', '"and I'm on top of the world"'
    doctor = _doctor()
    _answer(doctor, "elevated_mood", "My mind's racing, it's like ten radios on at once, and I'm on top of the world, why would I need to see a doctor?")
    hpi = _line(doctor, "History of present illness:")
    assert "top of the world" in hpi, doctor._note()
    assert '"and ' not in hpi, hpi


# s51-clin2: a supervisor's review of s51-clin

BIPOLAR_STOPPED_LITHIUM = [
    (r"brought you here", "I'm so happy, I could hug everyone in this room. I don't need sleep, two hours and I'm raring to go."),
    (r"medicines do you take", "I take lithium, I'm on tablets."),
    (r"help for your mental health before", "I have bipolar disorder. Lithium helped. But I stopped it a few weeks ago."),
    (r"irritab|temper|nerves", "I'll be honest, everyone gets on my nerves."),
]


def test_a_lithium_stopped_is_not_worded_as_taken_in_the_work_up():
    # test-v2-0018 (s51-clin review): 'restart lithium ... ask why it was stopped' and then 'On lithium already: the
    # current lithium level ... checked now' for a lithium stopped a few weeks ago
    out = encounter("Outpatient clinic. A 45-year-old man is here to see you, alone.", replies(BIPOLAR_STOPPED_LITHIUM))
    plan = out["treat"]
    assert "lithium" in plan.lower(), plan
    assert "On lithium already" not in plan, plan


def _driving(walk_in: str, reply: str) -> dict:
    table = BIPOLAR_ON_LITHIUM + [(r"day-to-day", reply)]
    return encounter(walk_in, replies(table))


def _risk(out: dict) -> str:
    return next(line for line in out["write_note"].splitlines() if line.startswith("Risk assessment:"))


MAN_33 = "Outpatient clinic. A 33-year-old man is here to see you, alone."


def test_driving_to_the_high_street_is_no_driving_risk():
    out = _driving(MAN_33, "I drove to the high street once last week, that's about all I've done.")
    assert "high street" not in _risk(out) and "DVLA" not in out["treat"], (_risk(out), out["treat"])


def test_driving_while_high_is_a_driving_risk():
    out = _driving(MAN_33, "I drove home high on speed last weekend.")
    assert "drove home high" in _risk(out) and "DVLA" in out["treat"], (_risk(out), out["treat"])


def test_a_taxi_driver_working_all_night_is_no_driving_risk():
    out = _driving(MAN_33, "I drive a taxi, I work all night.")
    assert "taxi" not in _risk(out) and "DVLA" not in out["treat"], (_risk(out), out["treat"])


def test_driving_around_all_night_is_a_driving_risk():
    out = _driving(MAN_33, "I was driving around all night with the music on full blast.")
    assert "all night" in _risk(out) and "DVLA" in out["treat"], (_risk(out), out["treat"])


def test_car_keys_lost_are_no_driving_risk():
    # a 78-year-old who forgets things: keys lost are no keys taken away
    table = [
        (r"brought you here", "I keep forgetting things, I lose my car keys."),
        (r"memory|forget", "My memory has got worse this last year."),
    ]
    out = encounter("Outpatient clinic. A 78-year-old man is here to see you, alone.", replies(table))
    assert "car keys" not in _risk(out) and "DVLA" not in out["treat"], (_risk(out), out["treat"])


def test_a_risk_denial_keeps_its_protective_clause_in_the_risk_assessment():
    # s51 review (0199/0228/0240/0283): the denial went to the risk assessment alone, its protective clause nowhere
    doctor = _doctor()
    _answer(doctor, "low_mood", "I feel low most days.")
    _answer(doctor, "suicidal_ideation",
            "No, I'd never end my life, I've got my two kids to look after and I love my job as a nurse.")
    risk = _line(doctor, "Risk assessment:")
    assert "two kids to look after" in risk and "Protective" in risk, doctor._note()
    assert "never end my life" not in _line(doctor, "Personal history:"), doctor._note()


def test_a_clause_joined_to_a_risk_denial_by_but_is_filed_on_its_own():
    doctor = _doctor()
    _answer(doctor, "low_mood", "I feel low most days.")
    _answer(doctor, "suicidal_ideation", "I've never had thoughts of killing myself, but my stepdad used to hit me when I was little.")
    assert "stepdad used to hit me" in doctor._note(), doctor._note()


def test_a_loss_told_beside_a_risk_denial_is_no_protective_factor():
    doctor = _doctor()
    _answer(doctor, "low_mood", "I feel low most days.")
    _answer(doctor, "suicidal_ideation", "No, I've never had thoughts of ending my life, my husband left me in March.")
    assert "Protective" not in _line(doctor, "Risk assessment:"), doctor._note()


def test_a_school_answer_to_the_childhood_question_stays_in_the_note():
    # test-v2-0098 (s51 review): "I got through school all right" was dropped from the whole note by topic_words_only
    doctor = _doctor()
    _answer(doctor, "poor_concentration", "I can't focus on anything at work.")
    _answer(doctor, "childhood_onset_attention", "I got through school all right.")
    assert "got through school" in doctor._note(), doctor._note()


def test_a_leading_so_of_degree_is_kept_in_a_quoted_clause():
    # s51 review: "so low I can barely get out of bed" was quoted "low I can barely ..." (a 'so' of degree, no join)
    doctor = _doctor()
    _answer(doctor, "low_mood", "It has been months of this, every single day since the spring, so low I can barely get out of bed.")
    hpi = _line(doctor, "History of present illness:")
    assert '"so low I can barely' in hpi, hpi


def test_a_blood_test_within_48_hours_is_no_first_review():
    # s51 review: 'a repeat U&E within 48 hours' made the routine follow-up 'Follow-up after that first review'
    table = [
        (r"brought you here", "My mood is low, I feel down most days and nothing is fun any more."),
        (r"sleep", "I wake at four every morning."),
        (r"appetite", "I have lost my appetite and I keep being sick."),
    ]
    out = encounter("Outpatient clinic. A 41-year-old woman is here to see you, alone.", replies(table),
                    results="U&E: Na 139 mmol/L, K 2.8 mmol/L, urea 5.1 mmol/L, creatinine 80 umol/L")
    plan = out["treat"]
    assert "within 48 hours" in plan, plan
    assert "after that first review" not in plan, plan


HEROIN_NO_ROUTE = [
    (r"brought you here", "I'm using heroin every day, about half a gram. I crave it all the time."),
    (r"how much|how often", "Every day, half a gram."),
    (r"without|stop|cut down", "If I stop I get sick, sweating and aching, so I use again."),
    (r"drink|alcohol", "I don't drink."),
]


def test_with_no_route_told_the_plan_asks_about_injecting():
    # s51 review: with no route told, 'advise never to start injecting' assumed she did not inject
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", replies(HEROIN_NO_ROUTE))
    plan = out["treat"]
    assert "never to start injecting" not in plan, plan
    assert "ask about injecting" in plan and "needle and syringe" in plan, plan


def test_pins_and_needles_are_no_injecting():
    table = HEROIN_SMOKED + [(r"physical health", "I get pins and needles in my hands sometimes.")]
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", replies(table))
    assert "never to start injecting" in out["treat"], out["treat"]


def test_an_early_review_keeps_the_liver_follow_up_of_a_dependent_drinker():
    # stop 51, found by a blind consultant's A/B reading of the scripted clinician: where an early review was said
    # already, s51-clin's 'Follow-up after that first review' rebuilt the follow-up from the disorder's routine wording
    # and dropped the liver replacement ('repeat LFT, FBC and clotting within 2 weeks ...' became 'check LFT at 3 months')
    table = [
        (r"brought you here", "I drink a litre of vodka every day and I shake in the mornings until I have a drink. I feel hopeless."),
        (r"life is not worth|better off|wish", "Sometimes I wish I could just not wake up."),
        (r"plans|ending your life|act on", "No, I'd never do anything, I have no plans."),
        (r"how much|alcohol|drink", "A litre of vodka a day, every day, for years."),
        (r"morning|shak|without", "I shake and sweat in the mornings until I have a drink."),
    ]
    results = ("LFT: ALT 108 U/L, AST 250 U/L, GGT 620 U/L, bilirubin 18 umol/L, albumin 38 g/L. "
               "FBC: Hb 132 g/L, MCV 104 fL, platelets 190 x10^9/L.")
    out = encounter("Emergency department. A 46-year-old man is here to see you, alone.", replies(table), results=results)
    plan = out["treat"]
    assert "Liver:" in plan and "within 48 hours" in plan and "Follow-up after that first review" in plan, plan
    assert "check LFT at 3 months" not in plan, plan
    assert "repeat LFT, FBC and clotting within 2 weeks" in plan, plan
