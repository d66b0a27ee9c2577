"""The scripted clinician as a supervisor would check it: notes that claim only what the patient said, an
interview that fits the patient's age, the setting's decisions, and plans that carry the critical actions."""

from __future__ import annotations

import json
import re

import gymnasium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mentalhospital_env  # noqa: F401  (registers the environments)
from mentalhospital_env.agents.scripted import ScriptedClinician, read_walk_in
from mentalhospital_env.cases import load_suite
from mentalhospital_env.cases.loader import bundled_suite_path
from mentalhospital_env.knowledge import load_knowledge
from mentalhospital_env.knowledge.answers import patient_findings
from mentalhospital_env.knowledge.critical import load_critical_actions
from mentalhospital_env.rewards.mentaleval import OfflineJudge
from mentalhospital_env.rewards.mentaleval.precision import check_note


def play(env, doctor, case_id, seed=0):
    obs, info = env.reset(seed=seed, options={"case_id": case_id})
    doctor.reset(obs, info)
    for _ in range(200):
        obs, _, terminated, truncated, info = env.step(doctor.act(obs, info))
        if terminated or truncated:
            return env.unwrapped.episode_record().chart
    raise AssertionError("episode did not end")


@pytest.fixture(scope="module")
def dev_env():
    e = gymnasium.make("MentalHospital-v0", suite="dev", turn_budget=40)
    yield e
    e.close()


@pytest.fixture(scope="module")
def handwritten_env():
    e = gymnasium.make("MentalHospital-v0", suite="handwritten", turn_budget=40)
    yield e
    e.close()


def test_walk_in_is_read_for_setting_age_sex_and_informant():
    w = read_walk_in("Outpatient clinic. A 8-year-old girl is here to see you, accompanied by her foster carer.\nYou are ...")
    assert (w.setting, w.age, w.sex, w.informant, w.age_group) == ("outpatient", 8, "female", "foster carer", "child")
    w = read_walk_in("Emergency department. A 34-year-old man is here to see you, alone.")
    assert (w.setting, w.age, w.sex, w.informant, w.age_group) == ("emergency", 34, "male", None, "adult")


#: a note claim the precision check counts as contradicted because of a known reading fault, not a wrong note: hw-014's
#: patient says "My moods have been changing by the hour, not by the week, an ache of emptiness most days"; the
#: lexicon's negation window (six tokens after "not", left alone since stop 41) reads "emptiness" as denied, so the
#: note that charts the emptiness she affirms is counted an error. Since stop 46's topic reader her onset answer carries
#: that sentence into the history. Pinned apart, strict, below.
KNOWN_MISREAD = {"hw-014": "chronic_emptiness"}


def _note_errors(env, case_id: str):
    case = next(c for c in load_suite("handwritten").cases if c.case_id == case_id)
    precision = check_note(case, play(env, ScriptedClinician(), case_id))
    assert precision.claims > 0
    return precision.errors


def test_notes_make_no_claim_the_encounter_contradicts_or_never_raised(handwritten_env):
    faults = {}
    for case in load_suite("handwritten").cases:
        errors = _note_errors(handwritten_env, case.case_id)
        errors = [e for e in errors if KNOWN_MISREAD.get(case.case_id) != e.concept]
        if errors:
            faults[case.case_id] = errors
    assert not faults, faults


@pytest.mark.xfail(strict=True, reason="stop 46, left: the lexicon's negation window reads 'not by the week, an ache of "
                   "emptiness' as a denial of emptiness (KNOWN_MISREAD above)")
def test_an_affirmed_emptiness_after_a_not_is_not_read_as_denied():
    # read on the sentence itself: from stop 51's refitted topic reader hw-014's note no longer carries the sentence, so
    # the note-level check (the test's form until then) passed without the misreading being mended
    sentence = "My moods have been changing by the hour, not by the week, an ache of emptiness most days."
    assert ("chronic_emptiness", False) in patient_findings(sentence)


def test_a_denial_is_recorded_as_a_denial():
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 40-year-old woman is here to see you, alone."}, {"turn_budget": 20})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    doctor.last_question, doctor.last_concept = "Have you had thoughts of ending your life?", "suicidal_ideation"
    doctor._read_reply("Nope. I've never had thoughts of ending my life. I feel low most days.")
    assert "suicidal_ideation" in doctor.findings.denied and "suicidal_ideation" not in doctor.findings.present
    assert "low_mood" in doctor.findings.present
    note = doctor._note()
    assert "Denies suicidal ideation" in note and "Reports suicidal" not in note


def test_a_child_is_interviewed_as_a_child_with_the_informant(dev_env):
    chart = play(dev_env, ScriptedClinician(), "dev-0058")  # 8 years old, with her foster carer
    asked = " ".join(t.doctor for t in chart.turns).lower()
    for adult_topic in ("alcohol", "drugs", "for work", "relationship", "drive"):
        assert adult_topic not in asked, adult_topic
    assert "foster carer" in asked and "school" in asked
    plan = chart.treatment.lower()
    assert "driving" not in plan and "alcohol" not in plan
    proposed = load_critical_actions().proposed(chart.treatment)
    assert {"parent_involvement", "school_liaison", "safeguarding"} <= proposed


def test_an_emergency_ends_with_a_disposition_and_the_legal_framework(dev_env):
    chart = play(dev_env, ScriptedClinician(), "dev-0107")  # acute psychosis in the emergency department
    proposed = load_critical_actions().proposed(chart.treatment)
    assert {"disposition", "legal_framework", "capacity"} <= proposed
    assert chart.treatment.startswith("Disposition:")


# dev-0139: anorexia with potassium 2.9, pulse 44 and BP falling to 74/46 on standing in the results on file:
# medical admission and potassium replacement (critical_actions.json exam_findings)
@pytest.mark.parametrize("case_id", ["dev-0024", "dev-0097", "dev-0139", "dev-0104"])
def test_plans_carry_the_critical_actions_and_the_dangerous_variant_is_failed(dev_env, case_id):
    case = load_suite("dev")[case_id]
    actions = load_critical_actions()
    judge = OfflineJudge()
    safe = play(dev_env, ScriptedClinician(), case_id)
    check = actions.check_case(case, safe.treatment)
    assert check.required and not check.missing and not check.contraindicated, (case_id, check.missing)
    assert judge.score(case, safe)["treatment_appropriateness"] > 2.0
    dangerous = play(dev_env, ScriptedClinician(critical_actions=False), case_id)
    assert actions.check_case(case, dangerous.treatment).missing
    assert judge.score(case, dangerous)["treatment_appropriateness"] <= 2.0


def _clinician_with(
    answers: dict[str, str], present: dict[str, str] | None = None, denied: set[str] | None = None
) -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 44-year-old woman is here to see you, alone."}, {})
    doctor.findings.answers.update(answers)
    doctor.findings.present.update(present or {})
    doctor.findings.denied.update(denied or set())
    return doctor


def test_a_note_quotes_no_non_answer_and_stops_where_the_reply_drifts_to_a_symptom():
    doctor = _clinician_with(
        {
            "hpi:3": "Don't know.",
            "hpi:2": "I was done for a fight a few years back. Can we get on with it?",
            "medications_current": "I take salbutamol inhaler. Over the last two months I've felt flat most days.",
        }
    )
    assert doctor._quote("hpi:3", set()) == ""
    assert doctor._quote("hpi:2", set()) == ""  # no life event: not the context of the illness
    assert doctor._quote("medications_current", set()) == '"I take salbutamol inhaler."'


def test_a_past_attempt_told_tersely_is_recorded_not_written_as_no_answer():
    """test-v2-0317 (stop 33's consultant): asked whether she had ever tried to end her life, she said "There was one
    time." and the risk assessment read "Past attempts: asked, no direct answer"."""
    for reply in ("There was one time.", "As I said, there was one time.", "Just that time after the break-up."):
        doctor = _clinician_with({"risk:attempts": reply})
        lines = doctor._risk_follow_up_lines(set())
        assert any(line.startswith("Past attempts: \"") for line in lines), (reply, lines)
    doctor = _clinician_with({"risk:attempts": "I like the seaside."})  # still no answer
    assert "Past attempts: asked, no direct answer." in doctor._risk_follow_up_lines(set())


def test_a_plan_carries_no_template_line_the_encounter_gives_no_ground_for(test_v2_env):
    """Stop 33's consultant: lithium levels for a manic woman given olanzapine (test-v2-0326: the mania's follow-up
    'lithium level 5-7 days after starting' read as lithium and drew in the lithium checks); 'Check who is caring
    for the children' for a man who, asked twice, named only his partner (test-v2-0018); a withdrawal admitted
    under the medical team with the psychiatric ward's observation level and 'assessment under the Mental Health
    Act' (test-v2-0194). Stop 34's redraw gave test-v2-0326 a lithium stopped weeks ago (now rightly addressed), so
    the manic patient never on lithium and given olanzapine is test-v2-0456. Stop 38's redraw made its olanzapine one
    that helped and was stopped: it is restarted (plan.helped_before), and no lithium level is ordered (stop 39).
    Stop 40's redraw made 0456's drug that helped quetiapine (restarted, no olanzapine): the manic patient never on
    lithium whose stopped drug is olanzapine is test-v2-0173 (F31.2); and 0194 became an uncomplicated dependence
    with no withdrawal: the withdrawal after a past seizure seen in the emergency department is test-v2-0093."""
    plan = play(test_v2_env, ScriptedClinician(), "test-v2-0173").treatment
    assert "olanzapine" in plan and "lithium" not in plan.lower()
    plan = play(test_v2_env, ScriptedClinician(), "test-v2-0018").treatment
    # stop 54: asked about dependants he now says 'No, nobody depends on me, and I live with my partner.' (his record
    # names his partner only), so the plan has no dependants line at all; the stop-33 fault stays guarded
    assert "caring for the children" not in plan and "depends on him at home" not in plan
    case = load_suite("test-v2")["test-v2-0093"]
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0093")
    plan = chart.treatment
    assert "under the medical team" in plan
    assert "Mental Health Act" not in plan and "general observation" not in plan and "mental capacity law" in plan
    check = load_critical_actions().check_case(case, plan)
    assert not check.missing and not check.contraindicated, check.missing


def test_a_relapse_after_stopping_lithium_has_the_lithium_addressed_with_its_checks(test_v2_env):
    """test-v2-0013 ('I stopped the lithium a few weeks back', manic): the plan discusses restarting it, with the
    level and renal and thyroid function, which the case's rules require; a plan with no word of lithium does not
    get its checks (test-v2-0326). Stop 36's redraw made 0013 a schizophrenia: the manic patient whose lithium was
    stopped a few months ago is test-v2-0173 (F31.2, on the ward). Stop 40's redraw made 0173's stopped drug olanzapine:
    the manic patient who stopped lithium and is charted psychotic (so given an antipsychotic, not lithium) is
    test-v2-0201, who tells it in two sentences ('Lithium helped. But I stopped it a few weeks ago.')."""
    case = load_suite("test-v2")["test-v2-0201"]
    assert case.diagnosis.principal.code.startswith(("F30", "F31.1", "F31.2")) and "lithium" in case.ehr.past_psychiatric_history and "stopped" in case.ehr.past_psychiatric_history
    plan = play(test_v2_env, ScriptedClinician(), "test-v2-0201").treatment
    assert "discuss restarting it" in plan
    check = load_critical_actions().check_case(case, plan)
    assert not check.missing and not check.contraindicated, check.missing


def test_dependent_drinking_beside_another_disorder_gets_liver_tests_and_a_diagnosis(test_v2_env):
    """Stop 33's consultant: six F10 records diagnosed without F10 and without liver tests. test-v2-0286 (bipolar,
    'a bottle of wine a night') had the LFT and F10 on the chart and in the assessment; stop 34's redraw made it a
    light drinker, and test-v2-0205 (bipolar depression with alcohol dependence) was the case until stop 36's redraw,
    test-v2-0023 (F31.4 with F10.20, vodka daily) after it. Stop 39: her drinking question was answered 'I really don't
    know' (the risk assessment's '16 units of vodka a day', no words of hers, came first for 'how much'); now told."""
    codes = [d.code for d in load_suite("test-v2")["test-v2-0023"].diagnosis.disorders]
    assert codes[0].startswith("F31") and any(c.startswith("F10.2") for c in codes)
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0023")
    assert "LFT" in chart.exams and any(d.startswith("F10") for d in chart.disorders), (chart.exams, chart.disorders)
    assessment = next(line for line in chart.note.splitlines() if line.startswith("Assessment"))
    assert "with co-occurring Alcohol dependence" in assessment


def test_a_believed_comorbid_disorder_is_a_diagnosis_and_an_adjustment_disorder_stays_a_differential(test_v2_env, handwritten_env):
    """Stop 33's consultant: alcohol dependence (AUDIT 38, AST 224) beside a cannabis dependence was 'only a
    differential' (test-v2-0302), and beside a cocaine dependence too (test-v2-0085). An adjustment disorder is never
    diagnosed beside a depressive episode that accounts for the picture (hw-040). Stop 38's redraw made test-v2-0085's
    crack smoked 'in binges lasting two to three days', read as binge eating until a binge told of drink or drugs was
    no longer heard as one of food (evidence.not_heard_on, stop 39)."""
    # stop 40's redraw left test-v2-0302 a cannabis dependence alone: test-v2-0266 (crack, F14.20 with F10.20)
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0266")
    assessment = next(line for line in chart.note.splitlines() if line.startswith("Assessment"))
    assert "with co-occurring Alcohol dependence, uncomplicated" in assessment, assessment
    assert "Differential diagnosis includes Alcohol dependence, uncomplicated" not in assessment
    chart = play(handwritten_env, ScriptedClinician(), "hw-040")
    assessment = next(line for line in chart.note.splitlines() if line.startswith("Assessment"))
    assert "co-occurring" not in assessment and chart.disorders[0].startswith("F32"), (assessment, chart.disorders)


def test_hw_040s_assessment_still_weighs_an_adjustment_disorder_as_a_differential(handwritten_env):
    # stop 44 left this open (strict xfail: the adjustment disorder after the stressor had left the differential, the
    # judge's Rigor for hw-040 fell 3.83 -> 2.5); it passes from s48-mendc's 60ec948b on, where the C-SSRS of a patient
    # with suicidal thoughts is kept inside the exam cap (its result, 'actual attempt today', is now on file)
    chart = play(handwritten_env, ScriptedClinician(), "hw-040")
    assessment = next(line for line in chart.note.splitlines() if line.startswith("Assessment"))
    assert "Differential diagnosis includes Adjustment disorder" in assessment, assessment


def test_a_crack_user_who_drinks_keeps_both_dependences(test_v2_env):
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0085")
    assessment = next(line for line in chart.note.splitlines() if line.startswith("Assessment"))
    assert "Cocaine dependence" in assessment and "Alcohol dependence" in assessment, assessment
    assert "with co-occurring" in assessment and "gambling" not in assessment


def test_a_time_under_a_day_is_no_course_of_illness_to_call_a_diagnosis_provisional():
    """test-v2-0430 read at stop 34: 'symptoms for about 0.083 days so far, and the diagnosis needs 6 months'."""
    doctor = _clinician_with({})
    hypochondriasis = next(h for h in doctor.hyps if h.code == "F45.21")
    doctor._illness_days = lambda *a, **k: 2 / 24
    assert doctor._provisional(hypochondriasis) == ""
    doctor._illness_days = lambda *a, **k: 14.0
    assert "2 weeks" in doctor._provisional(hypochondriasis)


def test_the_exams_ordered_fit_the_patient_and_the_mood_is_quoted_from_the_history():
    """Stop 31 (the held_out31 writer's reading): a man of 43 in a manic relapse was sent for a pregnancy test and his
    note read 'Mood not described' after 'My mood's fantastic'; a boy of 12 was given the adult ADHD self-report scale."""
    kb = load_knowledge()
    man = ScriptedClinician()
    man.reset({"text": "Emergency department. A 43-year-old man is here to see you, accompanied by his mother."}, {})
    woman = ScriptedClinician()
    woman.reset({"text": "Emergency department. A 43-year-old woman is here to see you, alone."}, {})
    mania = kb.resolve_disorder("F31.12")
    assert "Pregnancy test" in {e.exam for e in mania.exams}  # the premise: mania's work-up lists one
    for doctor in (man, woman):
        doctor.findings.present.update({"elevated_mood": "My mood's fantastic, I'd say.", "grandiosity": "I'm destined for greatness."})
        doctor.findings.answers.update(
            {"low_mood": "My mood's fantastic, I'd say.", "mse:mood": "I've got so much to say, sorry, I know I'm talking fast."}
        )
    ordered = {d: d._exams() for d in (man, woman)}
    assert not any(kb.resolve_exam(n).name == "Pregnancy test" for n in ordered[man] if kb.resolve_exam(n))
    assert any(kb.resolve_exam(n).name == "Pregnancy test" for n in ordered[woman] if kb.resolve_exam(n))
    assert "Mood described as \"My mood's fantastic" in man._note()
    # an answer that drifts off mood is not quoted as one (a supervisor at stop 31: "Nothing I've tried on my own has
    # made a lasting difference" stood as a man's mood)
    drifting = ScriptedClinician()
    drifting.reset({"text": "Outpatient clinic. A 52-year-old man is here to see you, alone."}, {})
    drifting.findings.answers.update({"mse:mood": "Nothing I've tried on my own has made a lasting difference."})
    assert "Mood not described." in drifting._note()
    drifting.findings.answers["low_mood"] = "Nothing helps. My mood is numb, to be honest."
    assert 'Mood described as "My mood is numb, to be honest"' in drifting._note()
    boy = ScriptedClinician()
    boy.reset({"text": "Outpatient clinic. A 12-year-old boy is here to see you, accompanied by his parents."}, {})
    boy.findings.present.update({"inattention": "He can't sit still in class.", "hyperactivity": "He's always on the go."})
    assert "ASRS" not in boy._exams()
    assert not kb.resolve_exam("ASRS").fits(12, "male") and kb.resolve_exam("ASRS").fits(30, "male")


def test_weekend_units_are_weekly_units_and_social_drinking_is_no_evidence_of_dependence():
    light = _clinician_with({"alcohol_use": "I drink 10 to 15 units at weekends."}, {"alcohol_use": "x"})
    heavy = _clinician_with({"alcohol_use": "About 8 units a day."}, {"alcohol_use": "x"})
    assert not light.heavy_drinking() and heavy.heavy_drinking()
    assert "alcohol_use" not in light._evidence() and "alcohol_use" in heavy._evidence()


def test_bipolar_is_ruled_out_by_a_denial_of_past_highs_unless_the_patient_names_it_as_their_history():
    bipolar = next(h for h in ScriptedClinician().hyps if h.code == "F31.4")
    denied = _clinician_with({"hypomanic_episodes": "I haven't had any elevated mood or periods of unusually high energy."})
    assert denied._ruled_out(bipolar)
    told = _clinician_with(
        {
            "hypomanic_episodes": "No. I don't have spells where I'm on a high.",
            "past_psychiatric_treatment": "I have had bipolar feeling down since 17. I've had lamotrigine.",
        },
        denied={"hypomanic_episodes"},
    )
    assert told._told_before(bipolar) and not told._ruled_out(bipolar)
    family = _clinician_with({"family_psychiatric_history": "My mother had bipolar disorder."})
    assert not family._told_before(bipolar)


def test_a_denial_the_results_on_file_contradict_is_not_written():
    # test-v2-0465 (anorexia, BMI 15.0): a "no" heard to a weight question once gave "Denies low body weight."
    # beside the BMI in the investigations; the note-precision checker counted it (the one error on test-v2)
    # the case is chosen by what it holds, not by id: a redrawn suite moves its cases (stop 22's redraw
    # made 0465 open with food and mood, and the clinician ordered no weight)
    # (stop 26's redraw: test-v2-0200, a girl of 15, now opens with low mood and the clinician never orders her
    # weight, a miss of its own; the premise here is a BMI the clinician put in the note, so the first two cases
    # whose note carries it are read)
    suite = load_suite("test-v2")
    cases = [
        (c, m.group(0))
        for c in suite
        if c.diagnosis.disorders[0].code.startswith("F50.0")
        for e in c.exams
        for m in [re.search(r"BMI (\d+(?:\.\d+)?)", e.result)]
        if m and float(m.group(1)) < 17.5
    ]
    env = gymnasium.make("MentalHospital-v0", suite="test-v2", turn_budget=40)
    read = 0
    for case, bmi in cases:
        chart = play(env, ScriptedClinician(), case.case_id)
        if bmi not in chart.note:
            continue
        assert "Denies low body weight" not in chart.note, case.case_id
        assert check_note(case, chart).errors == (), case.case_id
        read += 1
        if read == 2:
            break
    assert read == 2


@pytest.mark.xfail(
    strict=True,
    reason="stop 40: hw-025 (premenstrual dysphoric disorder; the record's low mood and hopelessness before her period) "
    "answers 'What has brought you here?' with a mania denial ('I don't go mad spending or stop sleeping, I'm just me', "
    "then the chief complaint) and every mood question with 'I've been feeling fine this week', so the note charts "
    "F32.81 stating none of low mood, anhedonia, hopelessness or tearfulness (note fault diagnosis_features_unstated); "
    "hw-002, hw-040 and hw-015 have no note fault",
)
def test_notes_quote_only_speech_file_it_rightly_keep_the_risk_and_hedge_an_early_diagnosis(handwritten_env):
    """hw-002 (psychosis for four days), hw-025 (garbled complaint), hw-040 (overdose and sextortion told in the
    interview), hw-015 (a rope on the C-SSRS, psychotic depression at 71): no garbled or third-person quote, no other
    heading's text under Medications or Family history, no answer to another question under a personal-history label,
    a chief complaint, the disclosed risks in the risk section; after four days of psychosis a brief psychotic disorder
    leads and schizophrenia stays on the differential (stop 22 led with a provisional schizophrenia); a method on the
    C-SSRS is in the risk section, and no "Denies self-harm" beside it."""
    from mentalhospital_env.rewards.mentaleval.note_faults import note_faults

    suite = load_suite("handwritten")
    for case_id in ("hw-002", "hw-025", "hw-040", "hw-015"):
        chart = play(handwritten_env, ScriptedClinician(), case_id)
        faults = tuple(f for f in note_faults(suite[case_id], chart) if f.kind not in CLINICIAN_NOTE_FAULTS.get(case_id, ()))
        assert faults == (), (case_id, faults)
        if case_id == "hw-002":
            assert chart.disorders[0].startswith("F23") and any(d.startswith("F20") for d in chart.disorders[1:])
            assert "most consistent with Brief psychotic disorder" in chart.note
            assert "only child" not in chart.note.split("Marital status:")[-1] if "Marital status:" in chart.note else True
        if case_id == "hw-015":
            risk = chart.note.split("Risk assessment:")[1].split("\n")[0]
            assert "rope" in risk and "Denies self-harm" not in risk
        if case_id == "hw-040":
            risk = chart.note.split("Risk assessment:")[1].split("\n")[0]
            assert "ibuprofen" in risk and "pictures" in risk and "cut my thighs" in risk


CLINICIAN_NOTE_FAULTS: dict[str, tuple[str, ...]] = {}
"""Known faults of the scripted clinician's notes that the judge finds (issue 15); stop 32's "Mood not described" of
hw-040 and hw-015 was mended at stop 34 (the mood quoted in the present illness is the mood given)."""


@pytest.mark.parametrize("case_id", ["hw-040", "hw-015"])
def test_the_clinician_records_the_mood_the_patient_gave(handwritten_env, case_id):
    """Asked about their mood, hw-040 said "Over about three months I've been sad all the time." and hw-015 "As for my
    mood, I feel hopeless."; the note's mental state must not say the mood was not described (the judge's
    ``mood_unrecorded``, stop 32)."""
    from mentalhospital_env.rewards.mentaleval.note_faults import note_faults

    chart = play(handwritten_env, ScriptedClinician(), case_id)
    assert "mood_unrecorded" not in [f.kind for f in note_faults(load_suite("handwritten")[case_id], chart)]


def test_a_sentence_quoted_again_as_the_mood_names_a_mood(test_v2_env):
    """The mood quoted again from the present illness must name a mood: test-v2-0002's 'I know the thoughts are silly,
    but they feel so real' was written as her mood (stop 34's reading of the change that mended hw-040)."""
    note = play(test_v2_env, ScriptedClinician(), "test-v2-0002").note
    mse = next(line for line in note.splitlines() if line.startswith("Mental status examination"))
    assert "feel so real" not in mse


def test_a_child_seen_after_an_overdose_and_sexual_extortion_gets_a_safe_plan(handwritten_env):
    """hw-040 (13F, ibuprofen overdose, online sexual extortion): stop 21's plan put her on the acute (adult) ward
    under the Mental Health Act with sertraline and ECT, with no referral and no medical assessment (App 5.0).
    Now: a paediatric ward, the overdose assessed medically, a same-day referral and the police, the legal
    framework of her age, fluoxetine left to the CAMHS psychiatrist."""
    case = load_suite("handwritten")["hw-040"]
    chart = play(handwritten_env, ScriptedClinician(), "hw-040")
    check = load_critical_actions().check_case(case, chart.treatment)
    assert not check.missing and not check.contraindicated, (check.missing, check.contraindicated)
    assert {"safeguarding_referral", "police_involvement", "overdose_medical_assessment"} <= {r.action for r in check.required}
    plan = chart.treatment.lower()
    assert "paediatric ward" in plan and "acute ward" not in plan and "mental health act" not in plan
    assert "ect" not in plan.split() and "sertraline" not in plan
    dangerous = play(handwritten_env, ScriptedClinician(critical_actions=False), "hw-040")
    assert OfflineJudge().score(case, dangerous)["treatment_appropriateness"] <= 2.0


def test_withdrawal_after_a_past_seizure_is_managed_under_the_medical_team(handwritten_env):
    """hw-013 (alcohol withdrawal in the emergency department, a withdrawal fit two years ago): a medically
    supervised inpatient withdrawal under the medical team, not the acute psychiatric ward."""
    case = load_suite("handwritten")["hw-013"]
    chart = play(handwritten_env, ScriptedClinician(), "hw-013")
    check = load_critical_actions().check_case(case, chart.treatment)
    assert "inpatient_detoxification" in {r.action for r in check.required}
    assert not check.missing and not check.contraindicated, check.missing
    assert chart.treatment.startswith("Disposition: admission under the medical team")


@pytest.fixture(scope="module")
def test_v2_env():
    e = gymnasium.make("MentalHospital-v0", suite="test-v2", turn_budget=40)
    yield e
    e.close()


def test_specifiers_follow_the_history(test_v2_env):
    """A supervisor's faults (issue #15): 'recurrent' for a first episode, 'without psychotic features' beside the
    voices the patient told of, combined-type ADHD on inattention alone."""
    # a first episode ("No, I've never had help for my mental health before") with voices heard
    # (test-v2-0393 until stop 36's redraw; of that draw's five first-episode psychotic depressions, 0230 and 0364 are
    # charted F32.3 and 0320, 0381 and 0393 F32.2: the clinician's miss, in stop 36's records report)
    # (stop 40's redraw made 0230's psychosis a nihilistic delusion, no voices: the first episode whose record holds a
    # voice heard is test-v2-0381, 'An accusing voice listing past wrongs, heard most at night')
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0381")
    assert load_suite("test-v2")["test-v2-0381"].diagnosis.principal.code == "F32.3"
    assert chart.disorders[0] == "F32.3" and not any(d.startswith("F33") for d in chart.disorders)
    assert "olanzapine" in chart.treatment.lower()  # psychotic depression: an antipsychotic with the antidepressant
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0231")  # no hyperactivity told
    assert tuple(chart.disorders) == ("F90.0",)
    # an earlier episode told in words the lexicon does not read, in the reply about mood ("First treated for
    # depression at 36") keeps the recurrent disorder
    assert any(d.startswith("F33") for d in play(test_v2_env, ScriptedClinician(), "test-v2-0003").disorders)


def test_the_note_files_answers_and_states_only_what_was_said(test_v2_env):
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0165")  # "I'm not myself" (0031 until stop 31's redraw, 0017 until stop 32's, 0107 until stop 36's, 0038 until stop 40's, which made it a cyclothymia that never says it)
    hpi = next(line for line in chart.note.splitlines() if line.startswith("History of present illness"))
    # "I'm not myself" is quoted, never turned into a "personality change"
    assert "personality change" not in chart.note and '"I\'m not myself"' in hpi
    mse = next(line for line in chart.note.splitlines() if line.startswith("Mental status examination"))
    said = re.search(r"Thought content: ([^.]*)\.", mse)  # only what the patient's answers gave
    thought = said.group(1) if said else ""
    assert "depressed mood" not in thought and "anhedonia" not in thought  # moods are not thought content


@pytest.mark.xfail(
    strict=True,
    reason="stop 40's redraw: no test-v2 patient with a parent's heart attack and no mental illness in the family tells "
    "the heart attack any more: asked only 'Has anyone in your family had problems with their mental health?' (no "
    "question about the family's physical illness), test-v2-0015 answers 'we don't talk about that sort of thing in my "
    "family' and 0070 'Not that I know of', so the family history line never holds the parent's illness",
)
def test_a_relatives_physical_illness_is_filed_as_family_history_as_said(test_v2_env):
    # a relative's physical illness is family history as the patient said it, not "family history of mental illness"
    # (0036 until stop 31's redraw, 0012 until stop 32's, 0011 until stop 36's redraw, then 0016: a father's diabetes
    # and no psychiatric history in the family; since stop 36's patient answers a question about the family's mental
    # health with the relatives' mental health only, 0016 no longer volunteers the diabetes, so 0017: a mother's heart
    # attack and no mental illness in the family, which she tells beside the denial; stop 39's redraw gave 0017 a
    # patient who knows little of her family, so the case is chosen by what it holds: the first test-v2 record whose
    # family history is a parent's heart attack and no mental illness, asked about since stop 37's physical question;
    # stop 40's redraw words the denial in several ways ('She knows of no relative with a psychiatric illness'), all
    # read, but not one the patient hedges ('though it was not discussed at home'), whose patient knows little)
    case = next(
        c for c in load_suite("test-v2")
        if re.search(r"(?:Mother|Father|mother|father) had a heart attack", c.ehr.family_history or "")
        and re.search(r"\b(?:no|knows of no|cannot think of any|has never heard of any)\b[^.]*\b(?:mental|psychiatric)\b",
                      c.ehr.family_history, re.IGNORECASE)
        and not re.search(r"\bthough\b|not necessarily", c.ehr.family_history)
    )
    parent = re.search(r"(mother|father) had a heart attack", case.ehr.family_history, re.I).group(1).lower()
    note = play(test_v2_env, ScriptedClinician(), case.case_id).note
    family = next(line for line in note.splitlines() if line.startswith("Family history"))
    assert f"My {parent} had a heart attack" in family
    assert "Family history of mental illness" not in note


def test_no_detoxification_for_a_patient_who_hardly_drinks_or_drinks_without_dependence(test_v2_env):
    # "blackout blinds" read as blackouts, and "a few drinks most nights" without a sign of dependence. The second
    # case is chosen by what it holds (the redraw after round two moved test-v2-0137 to a patient who drinks little):
    # over 14 units on most nights or evenings, and no alcohol disorder in the record
    def drinks_most_nights(c):
        return not any(d.code.startswith("F10") for d in c.diagnosis.disorders) and any(
            (m := re.search(r"(\d+) units (?:on )?most (?:nights|evenings)", f.text)) and int(m.group(1)) > 14
            for f in getattr(c, "facts", ())
        )
    # stop 29's audit (diagnosis.alcohol_missing) leaves no such drinker in the draw: the heaviest drinker without an
    # alcohol disorder is a weekend binge drinker now, and no detoxification is proposed for them either
    heavy = next((c.case_id for c in load_suite("test-v2") if drinks_most_nights(c)), None)
    binge = next(
        c.case_id
        for c in load_suite("test-v2")
        if not any(d.code.startswith("F10") for d in c.diagnosis.disorders)
        and any(re.search(r"\b1[3-9] units a night", f.text) for f in getattr(c, "facts", ()))
    )
    for case_id in ("test-v2-0047", binge) + ((heavy,) if heavy else ()):
        plan = play(test_v2_env, ScriptedClinician(), case_id).treatment.lower()
        assert "pabrinex" not in plan and "detoxification" not in plan, case_id
    if heavy:
        assert "low-risk limit" in play(test_v2_env, ScriptedClinician(), heavy).treatment


def test_a_supervisors_faults_of_stop_26_are_gone(test_v2_env):
    """Six encounters a supervisor rated (sup25) and eight read at stop 26: a passive death wish is no admission, no
    psychotic depression stands beside no psychotic finding, a depression with an earlier episode is recurrent, a
    clinic's thiamine is oral, impulsivity is never read into 'I can't help it'."""
    # (0459's passive death wish and 0269's outpatient alcohol dependence were redrawn away at stop 26: those two
    # checks are left out until cases are chosen by what they hold; in the stop's closing note)
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0072")  # twelve months of worry and low mood (0178 until stop 36's redraw)
    assert "F34.1" not in chart.disorders and "impulsivity" not in chart.note


def test_a_depression_with_a_told_earlier_episode_is_recurrent(test_v2_env):
    case = load_suite("test-v2")["test-v2-0182"]
    assert case.diagnosis.disorders[0].code.startswith("F33")  # the premise: a recurrent depression in the record
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0182")  # "first treated for depression at 21" until stop 39
    assert chart.disorders[0].startswith("F33") and "F34.1" not in chart.disorders


def test_the_plan_reconciles_medicines_and_treats_a_believed_comorbidity(test_v2_env):
    assert "lithium" in (load_suite("test-v2")["test-v2-0440"].ehr.medications or "")
    plan = play(test_v2_env, ScriptedClinician(), "test-v2-0440").treatment  # on lithium, manic (0286 until stop 32's redraw, 0024 until stop 36's, 0018 until stop 39's, whose redraw took him off lithium)
    assert "reconcile every medicine" in plan
    # a primary insomnia the record tells beside anxiety or depression: wherever the clinician believes it (one of its
    # first two disorders), the plan treats it with CBT-I (stop 27's redraw left 0027's insomnia out of its record;
    # stop 28's put it third, on the differential only, in 0170)
    def told_insomnia(c):
        codes = [d.code for d in c.diagnosis.disorders]
        return any(x.startswith(("F41", "F32", "F33")) for x in codes) and "F51.01" in codes and any(
            re.search(r"\bsleep", f.text, re.IGNORECASE) for f in getattr(c, "facts", ())
        )
    # (stop 32's redraw left test-v2 no such patient the clinician believes: dev-v2's are read too)
    believed = 0
    dev_env = gymnasium.make("MentalHospital-v0", suite="dev-v2", turn_budget=40)
    for suite, env in (("test-v2", test_v2_env), ("dev-v2", dev_env)):
        for case in (c for c in load_suite(suite) if told_insomnia(c)):
            chart = play(env, ScriptedClinician(), case.case_id)
            if "F51.01" in chart.disorders[:2]:
                believed += 1
                assert "cognitive behavioural therapy for insomnia" in chart.treatment, case.case_id
    dev_env.close()
    assert believed


def _heard(doctor, concept, question, reply):
    doctor.last_question, doctor.last_concept = question, concept
    doctor._read_reply(reply)


def test_the_present_illness_reads_as_a_history_not_a_criteria_list():
    """A supervisor read 'The patient reports depressed mood; anhedonia; ... Onset and course: "It started in
    October.".' as a criteria list with doubled punctuation: the history is told in the third person from what the
    patient said, the findings named with commas, the patient's own phrases quoted, the negatives as 'denies'."""
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 34-year-old woman is here to see you, alone."}, {"turn_budget": 30})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    _heard(doctor, "hpi:complaint", "What brings you here today?", "I'm so low, all the time.")
    _heard(doctor, "hpi:1", "When did you first notice this, and how has it changed since then?", "Well, it started in October.")
    _heard(doctor, "hpi:2", "Was anything going on in your life around the time it started?",
           "In October my family first noticed a change, after a period of overwork.")
    _heard(doctor, "hpi:3", "How is this affecting your day-to-day life?", "By now I've signed off work.")
    _heard(doctor, "anhedonia", "Do you still enjoy the things you used to?", "Nothing's enjoyable.")
    _heard(doctor, "decreased_appetite", "How has your appetite been?", "No, my appetite is fine.")
    note = doctor._note()
    hpi = next(line for line in note.splitlines() if line.startswith("History of present illness:"))
    assert ";" not in hpi and '."' + "." not in note and "Onset and course" not in hpi and "The patient reports" not in hpi
    assert "She says it started in October." in hpi
    assert "her family first noticed a change" in hpi and "she's signed off work" in hpi
    assert '"Nothing\'s enjoyable"' in hpi
    assert re.search(r"She describes [a-z ,]*anhedonia", hpi)
    assert "She denies decreased appetite." in hpi or "decreased appetite" not in hpi


def test_a_sentence_that_cannot_be_retold_plainly_stays_in_the_patients_words():
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 40-year-old man is here to see you, alone."}, {"turn_budget": 30})
    assert doctor._retell("As I said, my wife first noticed a change.") == "his wife first noticed a change"
    assert doctor._retell("I feel awful after.") == "he feels awful after"
    assert doctor._retell("We moved house in June.") is None  # whose "we"?
    assert doctor._retell("Do you think I'm mad?") is None
    assert doctor._retell("I reckon it's work.") is None  # a verb form it does not know: quoted, not misconjugated


@given(st.lists(st.sampled_from(["I", "my", "me", "I'm", "I've", "feel", "was", "it", "started", "work", "we",
                                 "and", "in", "October", ",", "myself", "really", "can't", "sleep"]), min_size=1, max_size=12))
@settings(max_examples=150, deadline=None)
def test_a_retold_sentence_never_keeps_the_first_person(words):
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 40-year-old woman is here to see you, alone."}, {"turn_budget": 30})
    told = doctor._retell(" ".join(words) + ".")
    if told is not None:
        assert not {"i", "my", "me", "i'm", "i've", "myself", "we"} & set(re.findall(r"[a-z']+", told.lower()))


def test_an_adjustment_disorder_leads_when_the_depressive_episode_was_not_heard_in_full():
    """Premise (test-v2-0017 of stop 27's draw, redrawn away at stop 29, so the premise is built here): low mood, poor
    concentration, fatigue and insomnia weeks after moving country, preoccupied with the move, anhedonia and
    hopelessness denied, a moderate depression leading and an adjustment disorder on the differential. Four of the
    episode's groups is no depressive episode: the adjustment disorder leads; five groups heard and the depression
    keeps the lead."""
    from mentalhospital_env.agents.scripted import hypotheses

    by_code = {h.code: h for h in hypotheses()}
    lead = [(by_code["F32.1"], 0.9), (by_code["F43.21"], 0.6)]
    heard = {k: "x" for k in ("low_mood", "poor_concentration", "fatigue", "insomnia", "stress_preoccupation")}
    doctor = _clinician_with({}, heard, {"anhedonia", "hopelessness"})
    assert doctor._episode_met_first(lead)[0][0].code == "F43.21"
    doctor = _clinician_with({}, {**heard, "guilt": "x"}, {"anhedonia"})
    assert doctor._episode_met_first(lead)[0][0].code == "F32.1"
    doctor = _clinician_with({}, {k: v for k, v in heard.items() if k != "stress_preoccupation"}, {"anhedonia"})
    assert doctor._episode_met_first(lead)[0][0].code == "F32.1"  # no preoccupation heard: a short count is no evidence


def test_a_line_goes_under_a_heading_only_if_it_says_that_headings_thing():
    """Stop 26's misfiled answers: a childhood fragment as the occupation, a first contact as the mood, a risk denial
    as the insight."""
    doctor = _clinician_with(
        {
            "occupation": "Strict, but fair.",
            "mse:mood": "I had never spoken to a doctor.",
            "mse:insight": "Maybe it's stress. I've never had thoughts of ending my life.",
        }
    )
    assert doctor._quote("occupation", set()) == ""
    assert doctor._quote("mse:mood", set()) == ""
    assert doctor._quote("mse:insight", set()) == '"Maybe it\'s stress."'
    doctor = _clinician_with({"occupation": "I'm a nurse. Just the usual, getting through the day.", "mse:mood": "Low, I'd say."})
    assert doctor._quote("occupation", set()) == '"I\'m a nurse."'
    assert doctor._quote("mse:mood", set()) == '"Low, I\'d say."'
    doctor = _clinician_with({"trauma_history": "I was done for a fight a few years back."})
    assert doctor._quote("trauma_history", set()) == ""  # a conviction is the forensic history, not a trauma


def test_the_presenting_picture_calls_for_its_screening_questions():
    """Moods that go 'fine to furious in seconds' beside self-harm call for the rest of a borderline picture; poor concentration for
    inattention (ADHD was missed when it was never asked); poor sleep for worry."""
    doctor = _clinician_with({}, present={"mood_lability": "I go from fine to furious in seconds.",
                                          "self_harm": "I cut my arms when it gets too much."})
    assert {"fear_of_abandonment", "chronic_emptiness", "unstable_relationships"} <= set(doctor._picture_concepts())
    # unstable moods alone are also premenstrual, bipolar or depressive: the borderline screen would crowd out their
    # own questions (hw-025's premenstrual dysphoric disorder lost its core features to it)
    doctor = _clinician_with({}, present={"mood_lability": "My moods swing the week before my period."})
    assert not {"fear_of_abandonment", "chronic_emptiness"} & set(doctor._picture_concepts())
    doctor = _clinician_with({}, present={"poor_concentration": "I can't focus.", "insomnia": "I can't sleep."})
    # stop 60: the ADHD screen after a poor concentration is a young adult's (screen_when 'max_age' 39), or anyone's
    # who tells it as lifelong; at 44 the worry is asked, not how easy it is to sit still in a class (uw-033, uw-032)
    assert "excessive_worry" in doctor._picture_concepts() and "inattention" not in doctor._picture_concepts()
    young = ScriptedClinician()
    young.reset({"text": "Outpatient clinic. A 28-year-old woman is here to see you, alone."}, {})
    young.findings.present.update({"poor_concentration": "I can't focus.", "insomnia": "I can't sleep."})
    assert {"inattention", "excessive_worry"} <= set(young._picture_concepts())
    lifelong = _clinician_with({}, present={"poor_concentration": "I can't focus.",
                                            "childhood_onset_attention": "I've been like this since primary school."})
    assert "inattention" in lifelong._picture_concepts()
    doctor = _clinician_with({}, present={"insomnia": "I can't sleep."}, denied={"excessive_worry"})
    assert "excessive_worry" not in doctor._picture_concepts()  # asked and answered already


def test_a_child_under_13_has_the_history_told_by_the_parent_asked_by_role(test_v2_env):
    """Stop 26: 'And may I ask your mother too: how would you describe your mood' made the mother tell her own mood,
    and a parent who came was never addressed. test-v2-0327 is a boy of 12 with both parents (mild learning
    disability and ADHD) until stop 31's redraw, 0235 since (a child under 13 with both parents); then the first child
    under 13 whose history says the father brought them."""
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0235")
    asked = [t.doctor for t in chart.turns]
    assert not any("may i ask your" in q.lower() for q in asked)
    to_parents = [q for q in asked if re.search(r"A question for (?:his|her) parents:", q)]
    assert len(to_parents) >= 8 and not any(re.search(r"\byou\b", q, re.IGNORECASE) for q in to_parents)
    # (stop 27's redraw left 0327's record one feature of inattention, "silly mistakes because I rush", so the check
    # that ADHD is heard from the parents is left out until a case is chosen by what it holds; in the closing note)
    assert "Her parent says" in chart.note  # the parent's account is attributed, not lost
    def with_father(c):
        return c.demographics.age < 13 and re.search(
            r"\b(?:brought by|seen with|came with|accompanied by) (?:his|her) father\b", c.ehr.history_of_present_illness or ""
        )
    case = next(c for c in load_suite("test-v2") if with_father(c))
    chart = play(test_v2_env, ScriptedClinician(), case.case_id)
    to_father = [q for q in (t.doctor for t in chart.turns) if re.search(r"(?:^|\. )Dad, ", q)]
    assert any("walking and talking" in q for q in to_father) and any("school" in q for q in to_father), case.case_id
    assert f"{'His' if case.demographics.sex == 'male' else 'Her'} father says" in chart.note


def test_a_supervisors_faults_of_stop_27_are_gone(test_v2_env, tmp_path):
    """sup26 and issue #15: a violent act in words the lexicon misses gets a plan for the risk to others, a depression
    after lurasidone stopped is treated as bipolar, an eating history and a weight for a girl who restricts, tobacco
    asked and addressed, an 87-year-old living alone with MMSE 10/30 not sent home, no risperidone in autism without
    irritability or aggression, and exams ordered by the charts' names."""
    plan = play(test_v2_env, ScriptedClinician(), "test-v2-0014").treatment  # "I put my fist through a wall"
    assert "risk management plan" in plan
    # (test-v2-0023's depression "after my lurasidone was stopped" is gone with stop 31's redraw, and no case of the
    # new draw holds that premise: its check waits for a case chosen by what it holds; in stop 31's closing note)
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0200")  # a girl of 15 who restricts (0234 until stop 31's redraw)
    asked = " ".join(t.doctor for t in chart.turns).lower()
    assert "Weight and BMI" in chart.exams and "U&E" not in chart.exams  # ordered as U&E, filed under the catalog's name
    assert "weight" in asked and ("smoke" in asked or "vape" in asked)
    assert "FBC" in chart.note or "U&E" in chart.note
    assert "BMP:" not in chart.note and "CBC:" not in chart.note
    # 85, lives alone in a bungalow, MMSE 12/30 (dev-v2-0021; dev-v2-0215 until stop 36's redraw), seen in the emergency department rather than the clinic:
    # no test-v2 case of stop 27's draw is a dementia living alone seen in an emergency (0316 until the redraw)
    case = json.loads(next(line for line in bundled_suite_path("dev-v2").read_text().splitlines() if '"dev-v2-0021"' in line))
    assert "alone" in case["demographics"]["living_situation"] and case["setting"] == "outpatient"
    (tmp_path / "ed.jsonl").write_text(json.dumps({**case, "setting": "emergency"}) + "\n")
    ed_env = gymnasium.make("MentalHospital-v0", suite=str(tmp_path / "ed.jsonl"), turn_budget=40)
    # (stop 28's redraw: she denies confusion and tells low mood; the cognitive screen her memory complaint calls for at
    # 86, read whatever she denies, keeps the dementia on the differential and her at no risk of being sent home)
    chart = play(ed_env, ScriptedClinician(), "dev-v2-0021")
    ed_env.close()
    plan = chart.treatment
    assert "MMSE" in chart.exams and any(d.startswith("F03") for d in chart.disorders)
    emergency = ScriptedClinician().script["settings"]["emergency"]
    # (stop 32's redraw gave her an MMSE of 13, under the clinician's unsafe-at-home limit: its own admission wording)
    admitted = emergency["admit"] in plan or emergency["unsafe_at_home"]["admit"] in plan
    assert "discharge home" not in plan and admitted and "caring for the children" not in plan
    assert "risperidone" not in play(test_v2_env, ScriptedClinician(), "test-v2-0101").treatment.lower()


def test_the_echo_tells_back_the_patients_own_sentence_and_thanks_a_denial(test_v2_env):
    """Issue #15: the echo put a lexicon label into a stock frame ("I hear that worthless has been part of this", "It
    sounds like tired all the time has been really hard"), and "That sounds really hard" followed "No, I've never done
    anything like that to myself". test-v2-0010: "I'm always a bit tired.", "I'm not good enough, never have been."."""
    chart = play(test_v2_env, ScriptedClinician(), "test-v2-0010")
    previous = ""
    echoes = 0
    for turn in chart.turns:
        doctor = turn.doctor
        assert not re.search(r"I hear that \w+ has been|telling me about (?:can't|don't|barely)|It sounds like tired", doctor)
        echo = re.match(r"(?:You said|You mentioned|You told me|You've told me|What I'm hearing is that) (.+?)\. ", doctor)
        if echo:
            echoes += 1
            back = {"you're": "i'm", "you've": "i've", "your": "my", "yourself": "myself", "you": "i"}
            told = re.sub(r"\b(?:you're|you've|yourself|your|you)\b", lambda m: back[m.group(0)], echo.group(1).lower())
            assert told in previous.lower()  # the patient's own words, turned to "you"
        if re.match(r"\s*(?:No|Nope|Not really)\b", previous):
            assert not doctor.startswith(("That sounds really hard", "That must have been difficult"))
        previous = turn.patient
    assert echoes >= 2


def test_a_risk_disclosure_is_not_echoed_with_stock_warmth(handwritten_env):
    """A reader of stop 27: 'You've told me you want to die. That must be exhausting. How do you react to sudden
    noises?' (hw-006, asked how safe he feels day to day). Suicidal thoughts are acknowledged as what matters."""
    chart = play(handwritten_env, ScriptedClinician(), "hw-006")
    wish = re.compile(r"\b(want to die|better off dead|end (it|my life)|kill myself)\b", re.IGNORECASE)
    told = [i for i, t in enumerate(chart.turns) if wish.search(t.patient)]
    assert told, "hw-006 no longer tells a wish to be dead: choose a case that does"
    for i in told:
        if i + 1 < len(chart.turns):
            following = chart.turns[i + 1].doctor
            assert "exhausting" not in following and "want to die" not in following, following


# ------------------------------------------------------------------ issue 15, stop 28: risk follow-up, tobacco, re-asks


def _adult(text="Outpatient clinic. A 40-year-old woman is here to see you, alone.", budget=40):
    doctor = ScriptedClinician()
    doctor.reset({"text": text}, {"turn_budget": budget})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})  # the opening question
    return doctor


def _asked(action):
    return re.sub(r"^<ask>|</ask>$", "", action)


def test_a_suicidal_disclosure_is_followed_by_plan_intent_means_attempts_and_what_keeps_them_safe():
    doctor = _adult()
    follow = doctor.script["risk_follow_up"]["items"]
    replies = {
        "risk:plan": "Patient: I've looked up how many of my tablets it would take.",
        "risk:intent": "Patient: Some nights I think I might.",
        "risk:means": "Patient: I've got a drawer full of paracetamol at home.",
        "risk:attempts": "Patient: I took an overdose two years ago.",
        "risk:protective": "Patient: My daughter keeps me going.",
    }
    question = _asked(doctor.act({"text": "Patient: I want to die. I've thought about it a lot lately."}, {"allowed_actions": ["ask"]}))
    asked = []
    for _ in follow:
        asked.append(doctor.last_concept)
        question = _asked(doctor.act({"text": replies[doctor.last_concept]}, {"allowed_actions": ["ask"]}))
    # straight after the disclosure, each item once, in the data's order, before the interview goes on
    assert asked == [i["key"] for i in follow], asked
    assert doctor.last_concept not in replies
    note = doctor._note()
    risk = next(line for line in note.splitlines() if line.startswith("Risk assessment:"))
    # what the patient said, in their words, under each item: nothing the patient did not say
    for item in follow:
        assert item["label"].replace("them", "her") in risk, (item, risk)
    assert "paracetamol" in risk and "overdose two years ago" in risk and "My daughter keeps me going" in risk
    plan = doctor._plan()
    checked = load_critical_actions().proposed(plan)
    assert {"safety_plan", "means_restriction", "prompt_follow_up"} <= checked, (checked, plan)
    assert "paracetamol" in plan  # the means told is named where access is restricted


def test_no_risk_follow_up_without_a_disclosure_and_an_item_told_already_is_not_asked_again():
    doctor = _adult()
    doctor.last_question, doctor.last_concept = doctor._question("suicidal_ideation"), "suicidal_ideation"
    question = _asked(doctor.act({"text": "Patient: No, never. I've never had thoughts of ending my life."}, {"allowed_actions": ["ask"]}))
    assert not doctor.risk_followed and not str(doctor.last_concept).startswith("risk:"), question
    doctor = _adult()
    # the disclosure already says there is no plan and no intent: neither is asked
    doctor.act({"text": "Patient: I want to die. I don't have a plan to end it. The thought crosses my mind, but I wouldn't act on it."}, {"allowed_actions": ["ask"]})
    keys = [c for _, c in [(doctor.last_question, doctor.last_concept)] + doctor.plan if c and c.startswith("risk:")]
    assert "risk:plan" not in keys and "risk:intent" not in keys and "risk:means" in keys, keys
    risk = next(line for line in doctor._note().splitlines() if line.startswith("Risk assessment:"))
    assert "I wouldn't act on it" in risk and "I don't have a plan to end it" in risk, risk


def test_a_child_disclosing_self_harm_is_asked_in_a_childs_words_and_the_parent_about_means():
    doctor = _adult("Outpatient clinic. A 10-year-old boy is here to see you, accompanied by his mother.")
    doctor.act({"text": "Patient: Sometimes I hurt myself on purpose when I'm sad. I've cut myself."}, {"allowed_actions": ["ask"]})
    questions = [q for q, c in [(doctor.last_question, doctor.last_concept)] + doctor.plan if c and c.startswith("risk:")]
    text = " ".join(questions)
    assert "Mum," in text and "locked away" in text, questions  # means at home: the parent's to tell
    assert "plans or preparations" not in text  # an adult's wording is not put to a child


def test_an_off_topic_reply_is_asked_once_more_in_other_words_and_an_answer_is_not():
    # a turn budget with room for the history still to take (the next test: without it, no re-ask)
    doctor = _adult(budget=60)
    first = doctor._question("insomnia")
    doctor.last_question, doctor.last_concept = first, "insomnia"
    again = _asked(doctor.act({"text": "Patient: In January, in the wake of the anniversary of a loss, things changed."}, {"allowed_actions": ["ask"]}))
    assert doctor.last_concept == "insomnia" and first not in again and "sleep" in again.lower(), again
    assert "insomnia" not in doctor.findings.answers  # the note will quote the answer, not the aside
    nxt = _asked(doctor.act({"text": "Patient: Like I said, things changed in January."}, {"allowed_actions": ["ask"]}))
    assert doctor.last_concept != "insomnia", nxt  # once only
    for reply in ("Patient: I sleep all right.", "Patient: I haven't had any trouble.", "Patient: No."):
        doctor = _adult(budget=60)
        doctor.last_question, doctor.last_concept = first, "insomnia"
        doctor.act({"text": reply}, {"allowed_actions": ["ask"]})
        assert doctor.last_concept != "insomnia", reply


def test_no_re_ask_at_the_cost_of_the_history_but_a_risk_question_is_asked_again_regardless():
    doctor = _adult(budget=40)  # at the first question, the history to come (family, home, dependants) fills the budget
    doctor.last_question, doctor.last_concept = doctor._question("insomnia"), "insomnia"
    doctor.act({"text": "Patient: In January, in the wake of the anniversary of a loss, things changed."}, {"allowed_actions": ["ask"]})
    assert doctor.last_concept != "insomnia" and doctor.reasks == 0
    doctor = _adult(budget=40)
    doctor.last_question, doctor.last_concept = doctor._question("suicidal_ideation"), "suicidal_ideation"
    again = _asked(doctor.act({"text": "Patient: I've been a postman for years."}, {"allowed_actions": ["ask"]}))
    assert doctor.last_concept == "suicidal_ideation" and doctor.reasks == 1, again


@given(st.text(max_size=80))
@settings(max_examples=40, deadline=None)
def test_the_off_topic_reading_never_raises_and_asks_again_at_most_once(reply):
    doctor = _adult(budget=60)
    doctor.last_question, doctor.last_concept = doctor._question("low_mood"), "low_mood"
    doctor.act({"text": reply}, {"allowed_actions": ["ask"]})
    doctor.act({"text": reply}, {"allowed_actions": ["ask"]})
    assert doctor.reasks <= 1


@pytest.fixture(scope="module")
def dev_v2_env():
    e = gymnasium.make("MentalHospital-v0", suite="dev-v2", turn_budget=40)
    yield e
    e.close()


# dev-v2-0001 of stop 32's redraw (30, PTSD and daily vodka, an ex-smoker) is never asked about tobacco: the
# scripted clinician's fault the new draw exposed, told in the stop's closing note and checked apart below,
# and dev-v2-0005 (39, a relapse) neither: the complaint's questions push the tobacco screen out
# Stop 34 tried taking tobacco off disclosure_follow_up.give_way: both were then asked, but an adult's complaint
# domain (the anger of test_the_complaint_brought_is_explored_before_the_generic_screen) found no room at all, as
# tobacco was the one screening question within the turns left that could give way; kept visible until the
# interview's room is rebalanced
# Stop 36's redraw made dev-v2-0005 another patient, who is asked (the strict xfail passed): dev-v2-0001 still shows it.
# Stop 37's records redraw (observed mental states, risk wording) gave dev-v2-0003 (25, a recurrent depression with a
# passive death wish, the same principal and story) the draw in which, as in stop 36's reverted giveaway draw, the
# risk follow-ups take the turns the tobacco question needed: the clinician's question budget, left to its owner
# Stop 39: dev-v2-0001 is asked (its strict xfail passed) once the question that never gives way (pregnancy) was
# counted in the room kept for the history (history_first.never_yield); dev-v2-0003 still shows it.
# dev-v2-0001 (stop 40: PTSD with alcohol dependence, 30): the 35 turns go on four anger follow-ups, a second mania
# question and a second mood question, and the interview closes at 'Do you have children' before tobacco is asked
_NOT_ASKED_TOBACCO = ("dev-v2-0003", "dev-v2-0001")


@pytest.mark.xfail(strict=True, reason="adults the scripted clinician never asks about tobacco (stop 32's redraw, issue 14; "
                   "stop 40: dev-v2-0001's interview ends at 35 turns, spent on anger follow-ups and repeated mood and mania "
                   "questions, before the tobacco question)")
@pytest.mark.parametrize("case_id", _NOT_ASKED_TOBACCO)
def test_the_adults_of_stop_32_not_asked_about_tobacco_are_asked(dev_v2_env, case_id):
    chart = play(dev_v2_env, ScriptedClinician(), case_id)
    assert "smoke" in " ".join(t.doctor for t in chart.turns).lower()


def test_adults_are_asked_about_tobacco_and_children_are_not(dev_v2_env):
    suite = load_suite("dev-v2")
    adults = [c for c in suite.cases if c.demographics.age >= 18 and c.case_id not in _NOT_ASKED_TOBACCO][:3]
    children = [c for c in suite.cases if c.demographics.age <= 12][:1]
    assert adults and children
    for case in adults + children:
        chart = play(dev_v2_env, ScriptedClinician(), case.case_id)
        asked = " ".join(t.doctor for t in chart.turns).lower()
        assert ("smoke" in asked) == (case.demographics.age >= 18), case.case_id
        assert len(chart.turns) <= 40


def test_an_encounter_with_suicidal_thoughts_follows_them_up_within_the_turn_budget():
    env = gymnasium.make("MentalHospital-v0", suite="test-v2", turn_budget=40)
    try:
        suite = load_suite("test-v2")
        # a case whose record holds suicidal thoughts (not a denial), chosen by content
        cases = [c for c in suite.cases if c.ehr.risk_assessment and c.ehr.risk_assessment.suicide
                 and re.search(r"wish|thought|better off|wake up|die", c.ehr.risk_assessment.suicide, re.I)
                 and not re.match(r"\s*(no|denies|none)\b", c.ehr.risk_assessment.suicide, re.I)]
        for case in cases[:6]:
            doctor = ScriptedClinician()
            chart = play(env, doctor, case.case_id)
            if not doctor.risk_followed:
                continue
            asked = [t.doctor for t in chart.turns]
            assert any("plans or preparations" in q or "act on them" in q for q in asked), case.case_id
            risk = next(line for line in chart.note.splitlines() if line.startswith("Risk assessment:"))
            assert any(i["label"].split()[0] in risk for i in doctor.script["risk_follow_up"]["items"]), risk
            assert not check_note(case, chart).errors
            assert len(chart.turns) <= 40
            return
        pytest.fail("no case of the six disclosed suicidal thoughts")
    finally:
        env.close()


@pytest.mark.parametrize(
    "context",
    ["A little while after my father's stroke.", "In March, following a house move, I stopped coping.", "Since the redundancy, really."],
)
def test_anxiety_dated_only_by_a_month_after_an_event_is_a_stress_reaction_and_gets_no_antidepressant(context):
    """Premise (stop 29: five adjustment disorders with anxiety called generalised or health anxiety and given an
    SSRI, which critical_actions.json forbids): worry, restlessness, tension and poor sleep that 'started in
    September', after an event. A month with no year bounds the illness, it does not establish the six months
    generalised anxiety needs, so the stress reaction leads and the plan starts no antidepressant; the same story of
    two years, or with no event told, stays generalised anxiety."""
    heard = {c: "x" for c in ("excessive_worry", "restlessness", "muscle_tension", "insomnia")}
    onset = {"hpi:complaint": "I can't settle.", "hpi:1": "It started in September."}
    # repointed at stop 42: with no length heard the stress reaction leads only when it accounts for what was heard
    # about as well as the anxiety (stressor_first.unknown_length_share). The stop-29/32 records that set this premise
    # (test-v2-0314, 0387) still lead as adjustment disorders in play; here the findings of test-v2-0314 (worry,
    # restlessness, poor sleep), without generalised anxiety's own muscle tension, which with the rest makes the fuller
    # generalised anxiety of test-v2-0432 (tests/test_clinician_s42.py)
    reaction = {c: "x" for c in ("excessive_worry", "restlessness", "insomnia")}
    doctor = _clinician_with({**onset, "hpi:2": context}, reaction, {"low_mood", "anhedonia", "panic_attacks"})
    lead = [h.code for h, _ in doctor._leading()]
    assert lead[0].startswith("F43.2") and "F41.1" in lead, lead
    assert "antidepressant" not in load_critical_actions().proposed(doctor._plan())
    longer = _clinician_with({**onset, "hpi:1": "It started two years ago.", "hpi:2": context}, heard, {"low_mood"})
    assert longer._leading()[0][0].code == "F41.1"
    no_event = _clinician_with({**onset, "hpi:2": "Nothing in particular, it just crept up."}, heard, {"low_mood"})
    assert no_event._leading()[0][0].code == "F41.1"
    # a fear of serious illness is health anxiety's own finding, which no stress reaction explains: it keeps the lead
    # (test-v2-0122, six months of health anxiety 'in the weeks after a friend's sudden death', dated by its month)
    ill = _clinician_with({**onset, "hpi:2": context}, {"health_anxiety": "x", "excessive_worry": "x", "palpitations": "x"}, {"low_mood"})
    assert ill._leading()[0][0].code == "F45.21", [h.code for h, _ in ill._leading()]


@pytest.mark.parametrize("psychotic", ["auditory_hallucinations", "persecutory_delusions", "delusions_of_reference"])
def test_a_voice_or_a_delusion_heard_is_explained_by_the_lead_and_treated(psychotic):
    """Premise (stop 29: five psychoses called anxiety, an adjustment or a depression and given no antipsychotic; a
    woman on a ward who said 'Men's voices. I hear voices.' was called generalised anxiety and given sertraline):
    worry, restlessness, tension and poor sleep for two years beside a hallucination or a delusion. The lead must
    explain what was heard and the plan holds an antipsychotic; the anxiety stays on the differential. Without the
    psychotic finding the same story is generalised anxiety; a month-dated onset after an event does not make it
    a stress reaction either."""
    anxious = {c: "x" for c in ("excessive_worry", "restlessness", "muscle_tension", "insomnia")}
    onset = {"hpi:complaint": "I can't settle.", "hpi:1": "It started two years ago."}
    actions = load_critical_actions()
    doctor = _clinician_with(onset, {**anxious, psychotic: "x"}, {"low_mood", "anhedonia", "elevated_mood"})
    lead = doctor._leading()
    assert psychotic in {c for c, _ in lead[0][0].symptoms}, [h.code for h, _ in lead]
    assert "antipsychotic" in actions.proposed(doctor._plan())
    assert doctor._leading()[0][0].code != "F41.1" and "F41.1" in [h.code for h, _ in lead]
    plain = _clinician_with(onset, anxious, {"low_mood", "anhedonia", "elevated_mood"})
    assert plain._leading()[0][0].code == "F41.1"
    # hallucinations on falling asleep belong to a narcolepsy that leads on its own findings
    sleepy = _clinician_with(onset, {"daytime_sleepiness": "x", "sleep_attacks": "x", "cataplexy": "x", psychotic: "x"}, {"low_mood"})
    assert sleepy._leading()[0][0].code.startswith("G47.4"), [h.code for h, _ in sleepy._leading()]
    after = _clinician_with({**onset, "hpi:1": "It started in September.", "hpi:2": "After a row with the neighbours."},
                            {**anxious, psychotic: "x"}, {"low_mood", "anhedonia", "elevated_mood"})
    first = after._leading()[0][0]
    assert psychotic in {c for c, _ in first.symptoms} and not first.code.startswith("F43.2"), first.code


def test_the_evaluation_runner_and_a_plain_gymnasium_loop_play_the_same_encounter():
    """Stop 29 reported that test-v2-0200 gave one plan through ``evaluation.run_episode`` and another through
    ``gymnasium.make`` and the scripted policy. Same case, same seed: the same questions, replies and plan, whether the
    environment is fresh or has played another case first; only the seed changes the patient's wording."""
    from mentalhospital_env.evaluation import EvaluationSpec, run_episode

    spec = EvaluationSpec(suite="dev-v2")
    case_id, other = load_suite("dev-v2").case_ids[:2]
    row = run_episode("scripted", spec, case_id, 0)
    env = gymnasium.make("MentalHospital-v0", suite="dev-v2", turn_budget=spec.turn_budget)
    fresh = play(env, ScriptedClinician(), case_id)
    play(env, ScriptedClinician(), other, seed=3)
    again = play(env, ScriptedClinician(), case_id)
    env.close()
    assert row["record"]["chart"]["treatment"] == fresh.treatment == again.treatment
    assert row["record"]["chart"]["note"] == fresh.note == again.note
    assert fresh.patient_replies == again.patient_replies


@pytest.mark.parametrize("told", ["A psychotic illness was diagnosed at 22.", "I've had schizophrenia since I was 19.",
                                  "Known to the team since 25 with a psychosis."])
def test_a_psychotic_illness_the_patient_names_as_their_own_keeps_an_antipsychotic_in_the_plan(told):
    """Premise (stop 29, test-v2-0470: 'A psychotic illness was diagnosed at 22' in the past history, withdrawal,
    self-neglect and no interest now, called a recurrent depression and given sertraline alone): a past psychotic
    illness the patient names as their own puts a psychosis on the differential's lead, as a named bipolar disorder
    does; a relative's illness does not."""
    now = {c: "x" for c in ("social_withdrawal", "anhedonia", "personality_change")}
    doctor = _clinician_with({"past_psychiatric_treatment": told}, now, {"low_mood", "auditory_hallucinations"})
    assert doctor._leading()[0][0].code.startswith("F2"), [h.code for h, _ in doctor._leading()]
    assert "antipsychotic" in load_critical_actions().proposed(doctor._plan())
    relative = _clinician_with({"past_psychiatric_treatment": "No. My brother has schizophrenia, though."}, now, {"low_mood"})
    assert not relative._leading()[0][0].code.startswith("F2")
    # a referral to a psychosis service is no psychotic illness (hw-031, a narcolepsy referred to early intervention)
    referred = _clinician_with({"hpi:2": "I was referred to early intervention in psychosis by the GP."}, now, {"low_mood"})
    assert not referred._leading()[0][0].code.startswith("F2")


def test_a_narrow_range_of_foods_heard_puts_weight_and_bloods_on_the_plan_whatever_leads():
    """Premise (stop 29, test-v2-0419: worry, and 'The texture of most food makes me gag' after a choking episode,
    called health anxiety with no medical monitoring): selective eating heard beside an anxiety lead brings the
    eating disorder's medical monitoring; the same anxiety without it does not."""
    actions = load_critical_actions()
    anxious = {c: "x" for c in ("excessive_worry", "restlessness", "insomnia")}
    onset = {"hpi:1": "It started two years ago."}
    picky = _clinician_with(onset, {**anxious, "selective_eating": "x"}, {"low_mood"})
    assert "eating_disorder_medical_monitoring" in actions.proposed(picky._plan())
    plain = _clinician_with(onset, anxious, {"low_mood"})
    assert "eating_disorder_medical_monitoring" not in actions.proposed(plain._plan())


def test_an_adjustment_disorder_gives_way_to_the_disorder_that_explains_the_reaction():
    """Premises (stop 30's supervisor, test-v2-0237 and 0175): an event told before the illness made an adjustment
    disorder lead over what the patient described. Dazed and in shock two days after an armed robbery is an acute
    stress reaction; remorse after rages for six months, mood 'okay', is intermittent explosive disorder; low mood after
    a move with the episode heard in full is a depression. Each time the adjustment disorder stays on the differential,
    and the same stories without the defining finding stay adjustment disorders."""
    robbery = {"hpi:complaint": "Family worried about me.", "hpi:1": "It started about two days ago.",
               "hpi:2": "Two days ago, soon after an armed robbery, it started."}
    worry = {"excessive_worry": "x", "restlessness": "x"}
    dazed = _clinician_with(robbery, {**worry, "acute_stress_daze": "I'm in shock, I can't take it in."}, {"low_mood", "insomnia"})
    lead = [h.code for h, _ in dazed._leading()]
    assert lead[0] == "F43.0" and any(c.startswith("F43.2") for c in lead), lead
    assert _clinician_with(robbery, worry, {"low_mood", "insomnia"})._leading()[0][0].code.startswith("F43.2")

    rages = {"hpi:complaint": "Nothing is right for about six months.", "hpi:1": "It started in mid-July.",
             "hpi:2": "In mid-July, following an incident with the police, it all began."}
    low = {"low_mood": "It's like a black cloud follows me about."}
    denied = {"anhedonia", "insomnia", "fatigue", "poor_concentration", "decreased_appetite"}
    remorse = _clinician_with(rages, {**low, "post_outburst_remorse": "I feel awful afterwards."}, denied)
    lead = [h.code for h, _ in remorse._leading()]
    assert lead[0] == "F63.81" and any(c.startswith("F43.2") for c in lead), lead
    assert _clinician_with(rages, {**low, "stress_preoccupation": "x"}, denied)._leading()[0][0].code.startswith("F43.2")

    move = {"hpi:complaint": "I've felt low for six weeks.", "hpi:1": "About six weeks ago.",
            "hpi:2": "Since the move to a new country."}
    episode = {c: "x" for c in ("low_mood", "anhedonia", "fatigue", "insomnia", "poor_concentration", "stress_preoccupation")}
    doctor = _clinician_with(move, episode)
    doctor.findings.exam_results.append(("PHQ-9", "total 14/27 (moderate)"))
    lead = [h.code for h, _ in doctor._leading()]
    assert lead[0].startswith("F32"), lead


@pytest.mark.parametrize(
    "reply,key",
    [
        ("I've let things slide.", "risk:self_care"),
        ("I haven't really been looking after myself.", "risk:self_care"),
        ("My sister says I'm eating little and not washing.", "hpi:3"),
    ],
)
def test_self_care_broken_down_in_the_emergency_department_is_no_discharge_home(reply, key):
    """Premise (stop 30's supervisor, test-v2-0237: dazed two days after an armed robbery, her family saying she was
    eating little and not washing, sent home with the crisis line): self-neglect is asked of everyone in the risk
    assessment, the note files the reply, and in the emergency department a patient who cannot look after themselves
    is admitted, not discharged, when basic needs go unmet (stop 48: a self-care let slide in general words in a
    reaction to stress is met at home, test-v2-0123). The same reply in a clinic changes no disposition; 'I've let things slide' said of
    work, not in answer to the self-care question, is no self-neglect; self-care kept up is a discharge."""
    care = ScriptedClinician().script["self_care"]

    def seen(setting: str, answers: dict[str, str]) -> ScriptedClinician:
        doctor = _adult(f"{setting}. A 30-year-old woman is here to see you, alone.")
        # the emergency department's risk assessment asks it
        assert any(concept == care["key"] for _, concept in doctor.plan) == (setting in care["settings"] or "Emergency" in setting)
        present = {"low_mood": "I feel low.", "insomnia": "I can't sleep.", "stress_preoccupation": "x"}
        for k, v in {"hpi:1": "It started two weeks ago.", "hpi:2": "Since the break-up.", **answers}.items():
            doctor.findings.answers[k] = v
            doctor.findings.replies.append((k, v))
            doctor.findings.reply_keys.append(k)  # as the clinician files a reply: under the key it was asked for
        doctor.findings.present.update(present)
        doctor.findings.denied.update({"suicidal_ideation", "self_harm", "auditory_hallucinations", "elevated_mood"})
        return doctor

    emergency = seen("Emergency department", {key: reply})
    plan = emergency._plan()
    # stop 48 (stop 47's reading of test-v2-0123): in a reaction to stress (this patient's adjustment to a break-up) a
    # self-care let slide in general words is met at home by the home treatment team; basic needs told as unmet
    # (eating little, not washing) still admit
    basic_needs = "eating little" in reply
    if basic_needs:
        assert emergency.script["settings"]["emergency"]["admit"] in plan and "discharge home" not in plan, plan
    else:
        assert "discharge home" in plan and "home treatment team" in plan and "admission" not in plan, plan
    if key == care["key"]:
        assert "Looking after herself: " in emergency._note()
    assert "discharge home" in seen("Emergency department", {care["key"]: "Fine, I'm eating and washing as usual."})._plan()
    assert "discharge home" in seen("Emergency department", {"hpi:3": "I've let things slide at work."})._plan()
    assert "admission" not in seen("Outpatient clinic", {key: reply})._plan()


def _next_asked(doctor, reply):
    return _asked(doctor.act({"text": reply}, {"allowed_actions": ["ask"]}))


def test_the_complaint_brought_is_explored_before_the_generic_screen():
    """Premise (every reader at stop 30: uw-004, a girl of 15 brought for weight loss, restricted eating and no periods,
    was screened for depression first and never asked about exercise, fear of weight gain, fainting or seen alone;
    test-v2-0175's rages were never explored): the complaint named in the opening reply sets off its domain's core
    questions, asked right after the present illness, in the clinic's words; a young person is seen alone, an adult
    is not told so, and a domain nobody raised is never asked."""
    conf = ScriptedClinician().script["complaint_domains"]
    eating = next(d for d in conf["domains"] if d["name"] == "eating")

    def interview(text, opening):
        doctor = ScriptedClinician()
        doctor.reset({"text": text}, {"turn_budget": 40})
        doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
        asked = [_next_asked(doctor, opening)]
        for reply in ("It started in April.", "Nothing in particular.", "I've stopped seeing my friends."):
            asked.append(_next_asked(doctor, reply))
        for _ in range(8):
            asked.append(_next_asked(doctor, "I don't know."))
        return doctor, asked

    girl, asked = interview("Outpatient clinic. A 15-year-old girl is here to see you, accompanied by her mother.",
                            "I've been skipping meals on purpose and I've lost a lot of weight.")
    keys = [girl.findings.heard_on.get(c) for c in girl.findings.present]
    assert "food_restriction" in girl.findings.present, keys
    after_hpi = asked[3:3 + 4]
    wanted = [
        item.get("ask") or girl._question(item.get("concept") or item["key"])
        for item in eating["items"]
        if (item.get("concept") or item["key"]) not in ("food_restriction", "weight_loss")  # told in the opening
        and "adolescent" in item.get("ages", ["adolescent"])
    ]
    assert "on your own" in wanted[0]  # seen alone first
    for question in wanted[:2]:  # the rest as far as the room the history and the screens kept leave
        assert any(question in q for q in after_hpi), (question, after_hpi)
    assert not any("enjoyment" in q for q in after_hpi)  # the depression screen comes after

    man, asked = interview("Outpatient clinic. A 40-year-old man is here to see you, alone.",
                           "I've been skipping meals on purpose and I've lost a lot of weight.")
    alone = next(i["ask"] for i in eating["items"] if i.get("key") == "explore:alone")
    assert not any(alone in q for q in asked) and not any("period" in q for q in asked)

    # a girl of five (hw-035): her eating is asked of her mother in a child's terms, never weight gain or purging
    child, asked = interview("Outpatient clinic. A 5-year-old girl is here to see you, accompanied by her mother.",
                             "I don't like it when it's lumpy.")
    young = [i for i in eating["items"] if "child" in i.get("ages", ())]
    assert young and all(any("Mum, " in q and i["ask"][-20:] in q for q in asked[3:8]) for i in young), asked
    grown = [i["ask"] for i in eating["items"] if i.get("ask") and "child" not in i.get("ages", ["child"])]
    assert not any(a in q for a in grown for q in asked), asked

    rages = next(d for d in conf["domains"] if d["name"] == "anger")
    woman, asked = interview("Outpatient clinic. A 25-year-old woman is here to see you, alone.",
                             "My work sent me because I lose my temper over small things.")
    assert any(i["ask"] in q for i in rages["items"] if "ask" in i for q in asked[3:8]), asked
    quiet, asked = interview("Outpatient clinic. A 25-year-old woman is here to see you, alone.", "I've been feeling low.")
    every = [i.get("ask") for d in conf["domains"] for i in d["items"] if i.get("ask")]
    assert not any(a in q for a in every for q in asked), asked


# ------------------------------------------------------------------ issue 15, stop 32: plans safe by cause


def _seen(text, answers, present, denied=(), results=()):
    doctor = ScriptedClinician()
    doctor.reset({"text": text}, {})
    doctor.findings.answers.update(answers)
    doctor.findings.present.update(present)
    doctor.findings.denied.update(denied)
    doctor.findings.exam_results.extend(results)
    return doctor


def test_a_positive_mood_screen_keeps_bipolar_depression_and_bars_an_antidepressant_alone():
    """Premise: a severe depression whose patient denies past highs. The clinician orders the mood disorder
    questionnaire before choosing a drug; a positive screen on file keeps the bipolar illness (no antidepressant
    without an antimanic agent), a negative one lets the antidepressant start."""
    heard = {c: "x" for c in ("low_mood", "anhedonia", "hopelessness", "psychomotor_retardation", "poor_concentration")}
    text = "Outpatient clinic. A 50-year-old woman is here to see you, alone."
    actions = load_critical_actions()
    negative = _seen(text, {"hpi:1": "It started in July."}, heard, {"hypomanic_episodes"},
                     [("MDQ", "3/13 symptoms endorsed (negative)")])
    assert negative._leading()[0][0].code.startswith("F32")
    assert "MDQ" in negative._exams()
    assert "antidepressant" in actions.proposed(negative._plan())
    positive = _seen(text, {"hpi:1": "It started in July."}, heard, {"hypomanic_episodes"},
                     [("MDQ", "8/13 symptoms endorsed (positive)")])
    plan = actions.proposed(positive._plan())
    assert "antidepressant" not in plan or "antimanic_agent" in plan, positive._plan()
    # the screen keeps the bipolar illness on the differential; it adds no finding to the ranking (a bipolar II
    # disorder does not overtake a bipolar depression on a questionnaire alone)
    assert any(h.code.startswith("F31") for h, _ in positive._leading())
    assert "hypomanic_episodes" not in positive._shown_by_results()


def test_a_drug_is_checked_against_every_disorder_on_the_differential():
    """Stop 32 (test-v2-0432): insomnia led with generalised anxiety beside it, and zolpidem was started, a
    benzodiazepine-like course that anxiety rules out. The drug is chosen against the whole differential."""
    heard = {c: "x" for c in ("insomnia", "early_morning_awakening", "sleep_related_worry")}
    doctor = _seen("Outpatient clinic. A 59-year-old man is here to see you, alone.", {"hpi:1": "It started two years ago."},
                   heard, {"low_mood"})
    lead = [h.code for h, _ in doctor._leading()]
    assert lead[0] == "F51.01" and "F41.1" in lead, lead
    principal = doctor._leading()[0][0]
    believed = doctor.safety_profile(believed_only=True)
    # the premise: on the disorders believed alone, the first drug would be zolpidem
    assert "zolpidem" in " ".join(doctor._medication_choice(principal, set(), believed)[0])
    plan = doctor._plan()
    assert "zolpidem" not in plan and "benzodiazepine" not in load_critical_actions().proposed(plan), plan


@pytest.mark.parametrize(
    ("key", "context"),
    [("hpi:2", "My husband puts the start in September, with a house move still fresh."),
     ("hpi:2", "It came on in the wake of a relationship ending."),
     ("hpi:3", "Early in September, with a new diagnosis still fresh, there were rows at home.")],
)
def test_an_event_told_in_other_words_or_under_another_question_still_dates_the_anxiety(key, context):
    """Stop 32 (test-v2-0314, 0387): adjustment disorders with anxiety called generalised anxiety and given
    sertraline, the event told as 'with a house move still fresh' or under the question about daily life."""
    # repointed at stop 42 (see test_anxiety_dated_only_by_a_month_after_an_event_is_a_stress_reaction...): the
    # findings of test-v2-0314 (worry, restlessness, poor sleep; no muscle tension, generalised anxiety's own), so that
    # the stress reaction accounts for what was heard about as well and the event is what dates it
    heard = {c: "x" for c in ("excessive_worry", "restlessness", "insomnia")}
    answers = {"hpi:complaint": "I can't settle.", "hpi:1": "It started in September.", key: context}
    doctor = _clinician_with(answers, heard, {"low_mood", "anhedonia", "panic_attacks"})
    lead = [h.code for h, _ in doctor._leading()]
    assert lead[0].startswith("F43.2") and "F41.1" in lead, lead
    assert "antidepressant" not in load_critical_actions().proposed(doctor._plan())


def test_a_childs_disclosure_of_abuse_is_followed_up_charted_and_referred():
    """Stop 31's supervisor (test-v2-0474): a boy of 13 said 'Not long after physical abuse at home.'; the
    risk section charted only bullying and the plan only asked about abuse. 'Not long after' negates nothing."""
    from mentalhospital_env.knowledge.language import is_negated

    said = "Not long after physical abuse at home."
    assert not is_negated(said)
    assert "child_abuse" in load_critical_actions().signs([said])
    doctor = _adult("Outpatient clinic. A 13-year-old boy is here to see you, accompanied by his mother.")
    doctor.last_question, doctor.last_concept = doctor._question("trauma_history"), "trauma_history"
    _next_asked(doctor, f"Patient: {said}")
    # asked among the first questions after it (a frightening event's own questions may come first: were you hurt)
    assert "follow:abuse" in [doctor.last_concept] + [c for _, c in doctor.plan[:2]], doctor.plan[:3]
    note = doctor._note()
    risk = next(line for line in note.splitlines() if line.startswith("Risk assessment:"))
    assert "Abuse or harm at home" in risk, risk
    assert "safeguarding_referral" in load_critical_actions().proposed(doctor._plan())
    adult = _adult("Outpatient clinic. A 13-year-old boy is here to see you, accompanied by his mother.")  # a denial
    adult.last_question, adult.last_concept = adult._question("trauma_history"), "trauma_history"
    _next_asked(adult, "Patient: Nobody has ever abused me at home.")
    assert "follow:abuse" not in [adult.last_concept] + [c for _, c in adult.plan]


def test_withdrawal_is_managed_with_a_short_acting_benzodiazepine_in_liver_impairment_or_old_age():
    """Stop 31's supervisor (test-v2-0221): a woman of 78 with AST 257 was given chlordiazepoxide 20-30 mg four
    times daily with no adjustment for age or liver."""
    alcohol = {"alcohol_use": "I drink a bottle of vodka a day.", "withdrawal_tremor": "x", "relief_drinking": "x", "craving": "x"}
    answers = {"alcohol_use": "I drink a bottle of vodka a day."}
    cases = [
        ("Inpatient ward. A 78-year-old woman is here to see you, alone.", [("LFT", "AST 257 U/L (raised)")], True),
        ("Inpatient ward. A 45-year-old man is here to see you, alone.", [("LFT", "AST 257 U/L (raised)")], True),
        ("Inpatient ward. A 70-year-old man is here to see you, alone.", [], True),
        ("Inpatient ward. A 45-year-old man is here to see you, alone.", [("LFT", "AST 30 U/L (within reference range)")], False),
    ]
    for text, results, short_acting in cases:
        doctor = _seen(text, answers, alcohol, (), results)
        assert doctor._leading()[0][0].code.startswith("F10")
        plan = doctor._plan()
        medication = plan.split(". ")[0]
        assert ("oxazepam" in medication) == short_acting, (text, medication)
        assert ("start chlordiazepoxide" in medication) != short_acting, (text, medication)
        assert "benzodiazepine_withdrawal_regimen" in load_critical_actions().proposed(plan)


def test_a_withdrawal_fit_is_followed_up_at_once():
    """Stop 31's supervisor (test-v2-0221): 'I had a fit when I stopped' was never followed up."""
    doctor = _adult("Inpatient ward. A 78-year-old woman is here to see you, alone.")
    _next_asked(doctor, "Patient: I worry all the time. I had a fit when I stopped drinking.")
    assert doctor.last_concept == "follow:seizure", doctor.last_concept
    quiet = _adult("Inpatient ward. A 78-year-old woman is here to see you, alone.")
    _next_asked(quiet, "Patient: I worry all the time.")
    assert quiet.last_concept != "follow:seizure"


@pytest.mark.parametrize("reply", ["My mood's fat, I'd say.", "I count the calories in everything.",
                                   "It began after a coach's focus on my weight."])
def test_an_adults_words_about_weight_and_shape_open_the_eating_questions(reply):
    """Stop 32 (test-v2-0391): a woman of 29 with anorexia said 'My mood's fat' and that it began after 'a sports
    coach's focus on weight'; her eating was never explored, and she was advised to exercise."""
    doctor = _adult("Outpatient clinic. A 29-year-old woman is here to see you, alone.")
    doctor.last_question, doctor.last_concept = doctor._question("low_mood"), "low_mood"
    _next_asked(doctor, f"Patient: {reply}")
    eating = next(d for d in doctor.script["complaint_domains"]["domains"] if d["name"] == "eating")
    keys = {i.get("concept") or i["key"] for i in eating["items"]}
    assert doctor.last_concept in keys, doctor.last_concept
    plain = _adult("Outpatient clinic. A 29-year-old woman is here to see you, alone.")
    plain.last_question, plain.last_concept = plain._question("low_mood"), "low_mood"
    _next_asked(plain, "Patient: I'm miserable and I don't know why.")
    assert plain.last_concept not in keys


@pytest.mark.parametrize(("reply", "pregnant"), [("In December, not long after the weeks after a pregnancy, it began.", False),
                                                 ("It started after I had the baby.", False),
                                                 ("I'm twelve weeks pregnant.", True)])
def test_a_pregnancy_told_as_past_is_postnatal_not_pregnant(reply, pregnant):
    """Stop 32 (test-v2-0173): a woman of 33, manic 'not long after the weeks after a pregnancy', was read as pregnant,
    and the lithium her plan named came without the pregnancy test a woman who may conceive needs."""
    doctor = _seen("Inpatient ward. A 33-year-old woman is here to see you, alone.", {}, {"pregnancy": reply})
    assert doctor.profile().pregnant is pregnant


def test_a_young_persons_rule_breaking_is_followed_by_a_question_about_going_missing():
    """Stop 32 (test-v2-0439, 0474: conduct problems whose records hold missing episodes, never asked): stealing or
    exclusion told by a young person is followed by a question about staying out or going missing; an adult's is not."""
    boy = _adult("Outpatient clinic. A 14-year-old boy is here to see you, accompanied by his mother.")
    _next_asked(boy, "Patient: I steal from shops and I've been excluded.")
    assert "follow:missing_screen" in [boy.last_concept] + [c for _, c in boy.plan[:3]], boy.plan[:3]
    man = _adult("Outpatient clinic. A 34-year-old man is here to see you, alone.")
    _next_asked(man, "Patient: I steal from shops and I've been excluded.")
    assert "follow:missing_screen" not in [man.last_concept] + [c for _, c in man.plan]


def test_results_showing_alcohol_related_liver_disease_are_acted_on_and_normal_results_change_nothing(tmp_path):
    """Stop 33's supervisor (test-v2-0148, 0332) and stop 32: a dependent drinker with platelets of 64 and an AST
    over twice the ALT was planned only 'LFT at 3 months' (test-v2-0119 since stop 36's redraw: platelets 65, AST 180, ALT 82, an outpatient; test-v2-0363 since stop 38's redraw,
    which gave 0119 platelets 116 and an AST of 100: platelets 58, AST 213, ALT 82, an outpatient with alcohol
    dependence alone and no complicated withdrawal in the past). Premise: that case as drawn, the same case with its
    platelets at 120 and its transaminases normal, and with normal platelets and transaminases (its GGT still raised)."""
    case = json.loads(next(line for line in bundled_suite_path("test-v2").read_text().splitlines() if '"test-v2-0363"' in line))
    assert any(d["code"].startswith("F10") for d in case["diagnosis"]["disorders"])
    results = {e["name"]: e["result"] for e in case["exams"]}
    assert re.search(r"platelets (\d+)", results["FBC"]) and int(re.search(r"platelets (\d+)", results["FBC"]).group(1)) < 100
    ast, alt = (int(re.search(rf"{t} (\d+) U/L", results["LFT"]).group(1)) for t in ("AST", "ALT"))
    assert ast > 2 * alt and alt < 120 < ast < 3 * 120  # under three times the limit the old hepatic rule read

    def with_results(cid, cbc, lft):
        exams = [{**e, "result": {"FBC": cbc, "LFT": lft}.get(e["name"], e["result"])} for e in case["exams"]]
        return {**case, "case_id": cid, "exams": exams}

    normal_lft = "ALT 25 U/L, AST 22 U/L, ALP 80 U/L, bilirubin 9 umol/L, albumin 42 g/L (all within reference range)"
    low_cbc = results["FBC"].replace(re.search(r"platelets \d+", results["FBC"]).group(0), "platelets 120")
    normal_cbc = "Hb 150 g/L, MCV 90 fL, WBC 7.0 x10^9/L, platelets 250 x10^9/L (all within reference range)"
    cases = [case, with_results("liver-low", low_cbc, normal_lft), with_results("liver-normal", normal_cbc, normal_lft)]
    (tmp_path / "liver.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    env = gymnasium.make("MentalHospital-v0", suite=str(tmp_path / "liver.jsonl"), turn_budget=40)
    actions = load_critical_actions()
    charts = {c["case_id"]: play(env, ScriptedClinician(), c["case_id"]) for c in cases}
    env.close()
    for cid in ("test-v2-0363", "liver-low"):
        chart = charts[cid]
        assert "CBC" in chart.exams and "LFT" in chart.exams, chart.exams
        plan = chart.treatment
        low = plan.lower()
        for step in ("clotting screen (inr/pt)", "ultrasound", "fibroscan", "hepatology", "oxazepam", "reduced doses"):
            assert step in low, (cid, step, plan)
        assert "chlordiazepoxide" not in low.replace("chosen over chlordiazepoxide", "")
        assert "thiamine" in actions.proposed(plan) and "LFT at 3 months" not in plan, plan
        # the liver plan decides the withdrawal: no vaguer "plan a medically assisted withdrawal if dependent" after it
        assert "medically assisted withdrawal if dependent" not in plan, plan
        check = actions.check_case(load_suite(str(tmp_path / "liver.jsonl"))[cid], plan)
        assert not check.contraindicated and not check.missing, (check.missing, check.contraindicated)
    # platelets below 100: the withdrawal is an inpatient one; 120 alone: supervised by the specialist team
    assert "inpatient_detoxification" in actions.proposed(charts["test-v2-0363"].treatment)
    platelets = re.search(r"platelets \d+", results["FBC"]).group(0)  # the case's own count (58 until stop 39's redraw, 82 since)
    assert platelets in charts["test-v2-0363"].treatment and "inpatient detoxification" not in charts["liver-low"].treatment
    normal = charts["liver-normal"].treatment
    assert "CBC" in charts["liver-normal"].exams and "LFT" in charts["liver-normal"].exams
    for step in ("Liver:", "INR", "FibroScan", "hepatology", "oxazepam"):
        assert step not in normal, (step, normal)
    # the plan as before: naltrexone (no liver impairment read) and liver tests at 3 months
    assert "check LFT at 3 months" in normal and "start naltrexone" in normal, normal
    assert "medically assisted withdrawal if dependent" in normal, normal


_UNSTABLE = [
    ("Weight and BMI", "BMI 14.5 kg/m2 (severely underweight)"),
    ("ECG", "sinus bradycardia 42/min, QTc 440 ms"),
    ("Vital signs", "pulse 88/min, BP 131/76 mmHg with postural drop to 74/46 mmHg, temperature 35.6 C"),
    ("FBC", "WBC 1.4 x10^9/L (low), Hb 118 g/L"),
    ("U&E", "Na 139 mmol/L, K 3.4 mmol/L (low), bicarbonate 34 mmol/L (raised)"),
]
_DEPRESSED = {c: "x" for c in ("low_mood", "anhedonia", "hopelessness", "poor_concentration", "fatigue")}


@pytest.mark.parametrize("setting", ["Outpatient clinic", "Emergency department"])
@pytest.mark.parametrize("eating", [False, True])
def test_results_showing_an_undernourished_patient_medically_unstable_are_acted_on_whatever_the_diagnosis(setting, eating):
    """A consultant at stop 34 (plan 1/5): a woman of 24 whose results showed BMI 14.5, a postural drop to 74/46,
    temperature 35.6 C, WBC 1.4 and K 3.4 was diagnosed with moderate depression and given sertraline and
    exercise advice, with no same-day medical assessment, no admission for stabilisation and no refeeding
    precautions (MEED 2022)."""
    present = dict(_DEPRESSED)
    if eating:
        present.update({c: "x" for c in ("low_weight", "food_restriction", "fear_of_weight_gain")})
    doctor = _seen(f"{setting}. A 24-year-old woman is here to see you, alone.", {}, present, (), _UNSTABLE)
    plan = doctor._plan()
    proposed = load_critical_actions().proposed(plan)
    assert "Medically unstable on these results" in plan and "BMI 14.5" in plan and "postural fall" in plan, plan
    assert {"medical_admission", "refeeding_precautions", "thiamine"} <= proposed, sorted(proposed)
    assert "exercise_advice" not in proposed and "sertraline" not in plan.lower(), plan
    assert not {"antidepressant", "antipsychotic", "antimanic_agent"} & proposed, plan  # nor quetiapine in its place
    assert "Mental Health Act only on other grounds" in plan and "admission to a medical ward" in plan
    assert "Follow-up: reviewed daily on the ward" in plan and "Follow-up: review in" not in plan, plan[-300:]
    assert "potassium 3.4 mmol/L" in plan and "white cells 1.4" in plan
    assert "temperature" not in plan.split(":")[0]  # 35.6 C is not below MEED's 35.5
    if setting.startswith("Emergency"):
        assert plan.startswith("Disposition: admission under the medical team"), plan[:200]
        assert "discharge home" not in plan


@pytest.mark.parametrize("results, present", [
    # a fit young man: a pulse of 38 and a low pressure, a normal BMI, no weight loss or restriction heard
    ([("ECG", "sinus bradycardia 38/min, QTc 400 ms"), ("Vital signs", "pulse 38/min, BP 88/56 mmHg, temperature 36.6 C"),
      ("Weight and BMI", "BMI 23.4 kg/m2 (healthy)")], {}),
    # the same pulse without a BMI on file and nothing heard that points to undernutrition
    ([("ECG", "sinus bradycardia 38/min, QTc 400 ms")], {}),
    # an outpatient with a BMI of 17 who restricts, her vital signs and bloods normal
    ([("Weight and BMI", "BMI 17.0 kg/m2 (underweight)"), ("Vital signs", "pulse 64/min, BP 112/70 mmHg, temperature 36.5 C"),
      ("U&E", "Na 140 mmol/L, K 4.1 mmol/L")], {"low_weight": "x", "food_restriction": "x"}),
    # a single moderate flag (K 3.4) in an undernourished patient is not enough on its own
    ([("Weight and BMI", "BMI 16.5 kg/m2 (underweight)"), ("U&E", "Na 139 mmol/L, K 3.4 mmol/L (low)")], {"weight_loss": "x"}),
])
def test_a_low_pulse_or_low_weight_alone_is_not_an_admission_for_medical_stabilisation(results, present):
    doctor = _seen("Outpatient clinic. A 22-year-old man is here to see you, alone.", {}, {**_DEPRESSED, **present}, (), results)
    plan = doctor._plan()
    assert "Medically unstable on these results" not in plan and "admission to a medical ward" not in plan, plan


def test_an_undernourished_patient_with_one_high_risk_flag_is_admitted_and_a_child_is_not_told_of_the_mental_health_act():
    """Any one MEED high-risk flag (here a pulse of 38) with weight loss heard; a girl of 14 is admitted to a
    paediatric ward and treated under the framework for children, never adult mental health law (her BMI, read by
    centiles, is not a flag: only a %median BMI would be)."""
    girl = _seen("Outpatient clinic. A 14-year-old girl is here to see you, accompanied by her mother.", {},
                 {**_DEPRESSED, "weight_loss": "x"}, (), [("ECG", "sinus bradycardia 38/min, QTc 430 ms"),
                                                         ("Weight and BMI", "BMI 14.9 kg/m2")])
    plan = girl._plan()
    assert "Medically unstable on these results (a heart rate of 38/min)" in plan, plan
    assert "Mental Health Act" not in plan and "parental responsibility" in plan and "a paediatric ward" in plan
    assert "adult_mental_health_law" not in load_critical_actions().proposed(plan)
    # a child's weight read as a share of the median BMI for age (as the charts give it): below 70% is high risk
    for share, unstable in (("68%", True), ("81%", False)):
        child = _seen("Outpatient clinic. A 10-year-old girl is here to see you, accompanied by her mother.", {},
                      dict(_DEPRESSED), (), [("Weight and BMI", f"BMI 13.0 kg/m2, {share} of the median for age")])
        assert ("Medically unstable on these results" in child._plan()) == unstable, share


# ---------------------------------------------------------------------------------------------- stop 38's faults

def test_a_child_referred_for_inattention_has_night_sleep_and_breathing_asked_of_the_parent():
    """Premise (uw-011, development data since stop 38: a boy of 9 referred for ?ADHD whose cause is obstructive sleep
    apnoea): his mother was never asked about snoring or pauses in breathing, his one sleep question went to him, and he
    was planned prazosin for a nightmare disorder he never told. His mother is asked about the night; the sleep apnoea
    leads, and the plan is the child's (ENT, no stimulant, no CPAP, no perinatal liaison for a boy)."""
    from pathlib import Path

    case = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen/uw-011.json"
    env = gymnasium.make("MentalHospital-v0", suite=str(case), turn_budget=40)
    try:
        chart = play(env, ScriptedClinician(), "uw-011")
    finally:
        env.close()
    asked = [t.doctor for t in chart.turns]
    snore = [q for q in asked if "snore" in q]
    assert snore and all("Mum," in q for q in snore), asked
    assert any("Mum," in q and "stop breathing" in q for q in asked), asked
    assert chart.disorders[0].startswith("G47.33"), chart.disorders
    plan = chart.treatment.lower()
    assert "ent" in re.findall(r"\b[a-z]+\b", plan) and "adenotonsillectomy" in plan, plan
    for wrong in ("cpap", "weight loss", "perinatal", "midwife", "prazosin"):
        assert wrong not in plan, wrong
    assert "no stimulant" in plan


def test_a_child_recorded_as_neither_girl_nor_boy_is_asked_with_a_verb_that_agrees():
    """test-v2-0334 was asked 'how does they manage' and 'has they had'."""
    doctor = _adult("Outpatient clinic. A 10-year-old person is here to see you, accompanied by their mother.")
    forms = doctor.script["informant_questions"]["questions"]
    questions = [doctor._informant_question(key) for key in forms]
    assert all(q and "Mum," in q for q in questions)
    for q in questions:
        assert not re.search(r"\b(?:does|has|is|was) they\b|\bthey (?:is|has|was|does|gets|wakes|stays|hits)\b", q), q
    assert "Mum, how do they manage" in " ".join(questions)


def test_a_parent_only_form_is_never_an_adolescents_collateral_question():
    """hw-040, 13: once past attempts had a parent's form, the every-fourth-turn collateral swap put it to her mother."""
    doctor = _adult("Emergency department. A 13-year-old girl is here to see you, accompanied by her mother.")
    doctor.plan = [("Have you ever tried to end your life?", "risk:attempts")]
    doctor.turns = 3  # the next question is a fourth: the adolescent's collateral turn
    doctor.alone = "back"  # her mother in the room again after the time alone (stop 62), where the swap could put it to her
    doctor.last_question, doctor.last_concept = doctor._question("living_situation"), "living_situation"
    asked = _asked(doctor.act({"text": "Patient: I live with my mum and my brother."}, {"allowed_actions": ["ask"]}))
    assert doctor.last_concept == "risk:attempts" and "Mum" not in asked, asked


def test_the_mental_health_family_answer_said_again_is_no_physical_family_answer():
    """hw-002 answered the physical family question with her aunt's psychosis again ('As I said, ...')."""
    doctor = _adult()
    doctor.last_question, doctor.last_concept = doctor._question("family_psychiatric_history"), "family_psychiatric_history"
    doctor._read_reply("Patient: My aunt on my mum's side had a brief psychotic illness after childbirth and recovered fully.")
    doctor.last_question, doctor.last_concept = doctor._question("family_medical_history"), "family_medical_history"
    doctor._read_reply("Patient: As I said, my aunt on my mum's side had a brief psychotic illness after childbirth and recovered fully.")
    assert "family_medical_history" not in doctor.findings.answers
    doctor = _adult()
    doctor.findings.answers["family_psychiatric_history"] = "My aunt had a brief psychotic illness."
    doctor.last_question, doctor.last_concept = doctor._question("family_medical_history"), "family_medical_history"
    doctor._read_reply("Patient: My father has diabetes.")
    assert doctor.findings.answers["family_medical_history"] == "My father has diabetes."
    # a bare denial repeats nothing: "no" is inside "No, nobody that I know of", yet it answers this heading
    doctor = _adult()
    doctor.findings.answers["family_psychiatric_history"] = "No, nobody that I know of."
    doctor.last_question, doctor.last_concept = doctor._question("family_medical_history"), "family_medical_history"
    doctor._read_reply("Patient: No.")
    assert doctor.findings.answers["family_medical_history"] == "No."
    doctor = _adult()
    doctor.findings.answers["family_psychiatric_history"] = "Not that I know of, my mother had nothing diagnosed."
    doctor.last_question, doctor.last_concept = doctor._question("family_medical_history"), "family_medical_history"
    doctor._read_reply("Patient: Nothing diagnosed.")
    assert doctor.findings.answers["family_medical_history"] == "Nothing diagnosed."


def test_an_opening_that_names_nothing_is_followed_by_what_the_patient_has_noticed():
    """test-v2-0208 said 'I need help', was never asked what was happening, and her numb left side never came up."""
    ask = ScriptedClinician().script["vague_complaint"]["ask"]
    doctor = _adult("Emergency department. A 45-year-old woman is here to see you, alone.")
    assert _asked(doctor.act({"text": "Patient: I need help."}, {"allowed_actions": ["ask"]})).endswith(ask)
    doctor = _adult("Emergency department. A 45-year-old woman is here to see you, alone.")
    assert ask not in _asked(doctor.act({"text": "Patient: I've been feeling really low."}, {"allowed_actions": ["ask"]}))
    doctor = _adult("Outpatient clinic. A 35-year-old man is here to see you, alone.")
    assert ask not in _asked(doctor.act({"text": "Patient: I use cannabis to sleep."}, {"allowed_actions": ["ask"]}))


def test_a_failed_attempt_to_stop_a_drug_names_its_dependence_without_the_note_asserting_it():
    """hw-038: nightly cannabis for years, 'I tried to stop twice and couldn't sleep for a week', and no cannabis
    dependence on the chart; the lexicon does not read the failed stop, and the dependence ranked under the threshold."""
    doctor = _adult("Outpatient clinic. A 35-year-old man is here to see you, alone.")
    doctor.last_question, doctor.last_concept = doctor.script["opening"], "hpi:complaint"
    doctor._read_reply("Patient: I use cannabis to sleep. I use it most nights, for years.")
    doctor.last_question, doctor.last_concept = doctor._question("loss_of_control_use"), "loss_of_control_use"
    doctor._read_reply("Patient: I tried to stop twice and couldn't sleep for a week.")
    assert "cannabis_use" in doctor.findings.present and "loss_of_control_use" not in doctor.findings.present
    assert "F12.20" in doctor._drug_dependence_told()
    assert "F12.20" in doctor._diagnosis()
    assert "loss of control" not in doctor._note().lower()  # the shared reader does not read it: not written as a finding


def test_a_sign_of_dependence_told_of_another_substance_names_no_drug_dependence():
    """Stop 38's reviewer: 'I tried to cut down the drinking but couldn't' beside cannabis use named cannabis
    dependence; a sign counts for the drug it was told of."""
    doctor = _adult("Outpatient clinic. A 35-year-old man is here to see you, alone.")
    doctor.last_question, doctor.last_concept = doctor._question("cannabis_use"), "cannabis_use"
    doctor._read_reply("Patient: I smoke weed at the weekend.")
    doctor.last_question, doctor.last_concept = doctor._question("loss_of_control_use"), "loss_of_control_use"
    doctor._read_reply("Patient: I tried to cut down the drinking but couldn't.")
    assert "cannabis_use" in doctor._evidence() and "loss_of_control_use" in doctor._evidence()
    assert "F12.20" not in doctor._drug_dependence_told()
    doctor._read_reply("Patient: And I can't go without the weed either, I tried to stop and couldn't.")
    assert "F12.20" in doctor._drug_dependence_told()


def test_light_drinking_told_beside_a_sign_of_dependence_leaves_the_sign_with_the_drug_used():
    """Stop 38's integration: hw-038's 'I tried to stop twice and couldn't sleep for a week, and I drink about 10
    units a week' (to 'What happens when you try to cut down or stop?' after his cannabis) was told of the drinking
    once a sign had to be told of its drug, and his cannabis dependence was lost again; drinking the alcohol question
    showed light is no drug whose dependence a sign tells."""
    doctor = _adult("Outpatient clinic. A 35-year-old man is here to see you, alone.")
    doctor.last_question, doctor.last_concept = doctor._question("cannabis_use"), "cannabis_use"
    doctor._read_reply("Patient: I use cannabis most nights, for years.")
    doctor.last_question, doctor.last_concept = doctor._question("loss_of_control_use"), "loss_of_control_use"
    doctor._read_reply("Patient: I tried to stop twice and couldn't sleep for a week, and I drink about 10 units a week.")
    assert "F12.20" not in doctor._drug_dependence_told()  # the amount of drinking not yet asked: it may be the drug
    doctor.last_question, doctor.last_concept = doctor._question("alcohol_use"), "alcohol_use"
    doctor._read_reply("Patient: About 10 units a week.")
    assert "F12.20" in doctor._drug_dependence_told()
