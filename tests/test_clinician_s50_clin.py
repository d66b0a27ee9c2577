"""Stop 50 (s50-clin): the scripted clinician's notes and plans on a consultant's reading of test-v2 cases.

Each test states the premise it was written from; the expectations come from the consultant's reading, not the code.
"""

from __future__ import annotations

from mentalhospital_env.agents.scripted import ScriptedClinician

from tests.test_clinician_s48_clin import _doctor, _line, _told
from tests.test_clinician_s49_clin import _depressed, _read


def _manic(walk_in: str) -> ScriptedClinician:
    doctor = _doctor(walk_in)
    doctor.findings.present.update({
        "elevated_mood": "Fantastic.", "grandiose_delusions": "I'm the messenger, it's obvious.",
        "persecutory_delusions": "People are following me.", "decreased_need_for_sleep": "Three hours and not tired.",
        "pressured_speech": "x", "increased_goal_directed_activity": "Painting, writing a book, all at night."})
    doctor.findings.denied.update({"suicidal_ideation", "low_mood"})
    assert doctor._leading()[0][0].code.startswith(("F31.2", "F30.2")), doctor._leading()[0][0].code  # the premise
    return doctor


def test_a_psychotic_mania_under_18_goes_to_camhs_not_the_adult_crisis_team():
    """A consultant: a young person's psychotic mania was sent to the adult crisis team with the adult wording 'if she
    declines admission and lacks capacity for the decision, a Mental Health Act assessment is arranged', and started
    on an adult's olanzapine 10-15 mg. Under 18 the child and adolescent service assesses, the bed is a young
    people's unit, and consent is framed by the young person's age. An adult keeps the adult sentence."""
    plan = _manic("Outpatient clinic. A 16-year-old girl is here to see you, accompanied by her mother.")._plan()
    assert "CAMHS crisis team" in plan and "young people's psychiatric unit" in plan, plan
    assert "lacks capacity for the decision, a Mental Health Act assessment is arranged" not in plan, plan
    assert "parental responsibility" in plan, plan
    assert "olanzapine 10-15 mg" not in plan, plan
    adult = _manic("Outpatient clinic. A 34-year-old woman is here to see you, accompanied by her partner.")._plan()
    assert "assessment for admission today (a mania" in adult and "CAMHS" not in adult, adult


def test_quetiapine_restarted_in_a_mania_is_not_dosed_for_bipolar_depression():
    """test-v2-0446: quetiapine that had helped was restarted in a psychotic mania 'at 50 mg at night, titrated to
    300 mg at night for bipolar depression': the indication must follow the episode."""
    doctor = _manic("Outpatient clinic. A 34-year-old woman is here to see you, accompanied by her partner.")
    _told(doctor, {"past_psychiatric_treatment": "I've been known to the mood disorders clinic since I was 30. "
                                                 "Quetiapine helped. I stopped it some weeks ago."})
    plan = doctor._plan()
    assert "quetiapine" in plan.lower(), plan  # the premise: the drug that helped is restarted
    assert "bipolar depression" not in plan, plan


def test_a_twelve_year_old_with_ocd_is_not_started_on_an_adult_ssri():
    """A consultant: a 12-year-old with OCD was started on 'sertraline 50 mg once daily'. In a child, CBT with
    exposure and response prevention comes first for a mild to moderate OCD; a medicine only if it has not helped,
    chosen and started by a CAMHS psychiatrist at a dose for age."""
    for walk_in in ["Outpatient clinic. A 12-year-old boy is here to see you, accompanied by his mother.",
                    "Outpatient clinic. A 15-year-old boy is here to see you, accompanied by his mother."]:
        doctor = _doctor(walk_in)
        doctor.findings.present.update({
            "obsessions": "I keep thinking my hands are dirty and I'll make mum ill.",
            "compulsions": "I wash my hands thirty times a day.", "checking": "I check the door again and again."})
        doctor.findings.denied.update({"suicidal_ideation", "low_mood", "auditory_hallucinations"})
        assert doctor._leading()[0][0].code.startswith("F42"), doctor._leading()[0][0].code  # the premise
        plan = doctor._plan()
        assert "sertraline 50 mg" not in plan and "start sertraline" not in plan, plan
        assert "exposure and response prevention" in plan and "CAMHS psychiatrist" in plan, plan


def test_self_harm_told_at_an_age_long_past_is_history_not_current():
    """test-v2-0061: a man of 23 said 'There was one time, when I was 13, I took a load of tablets', and the note wrote
    'Reports self-harm' in the present illness and risk assessment. Self-harm last week, or going on since, is current."""
    past = _read(_depressed("Emergency department. A 23-year-old man is here to see you, alone."),
                 [("risk:attempts", "Have you ever tried to end your life?",
                   "There was one time, when I was 13, I took a load of tablets.")])
    assert "self_harm" not in past.findings.present, past.findings.present.keys()
    assert "Reports self-harm" not in past._note(), past._note()
    assert "when I was 13" in _line(past._note(), "Risk assessment:")  # still told, as the past attempt it was
    for reply in ["I cut my arms last week.", "I've been cutting myself since I was 15.",
                  "When I was 15 I cut myself and I still do sometimes."]:
        now = _read(_depressed("Emergency department. A 23-year-old man is here to see you, alone."),
                    [("risk:attempts", "Have you ever tried to end your life?", reply)])
        assert "self_harm" in now.findings.present, reply


def test_a_personality_disorder_left_on_the_differential_is_offered_no_treatment():
    """test-v2-0061: 'For the borderline personality disorder as well: dialectical behaviour therapy' was planned
    for a disorder the note left on the differential of a severe depression. A treatment follows a diagnosis."""
    doctor = _depressed("Emergency department. A 23-year-old man is here to see you, alone.", {
        "hopelessness": "There's no point.", "insomnia": "I can't sleep.", "excessive_guilt": "It's all my fault.",
        "suicidal_ideation": "Sometimes I think they'd be better off without me.",
        "self_harm": "I cut myself when it gets too much.", "mood_lability": "My moods flip by the hour.",
        "unstable_relationships": "My relationships always blow up.",
        "fear_of_abandonment": "I panic that people will leave me."})
    lead = [h.code for h, _ in doctor._leading()]
    assert any(c.startswith("F60") for c in lead[1:]), lead  # the premise: a personality disorder on the differential
    note, plan = doctor._note(), doctor._plan()
    assert "Differential diagnosis includes" in note and "Borderline personality disorder" in note, note
    assert "dialectical behaviour therapy" not in plan, plan


def test_the_drug_use_line_quotes_no_denial_said_of_another_question():
    """test-v2-0268: 'Only in the spliffs, I've never been a cigarette smoker, and No, I can't say I have, and I've
    never taken cocaine' under Illicit drug use: the cigarette answer and a bare 'no, I can't say I have' after the
    use told belong to other questions. A reply that opens 'No.' is still the denial it is."""
    doctor = _doctor("Emergency department. A 21-year-old man is here to see you, accompanied by his sister.")
    _told(doctor, {"drug_use": "I smoke weed all day, from when I wake up, and only in the spliffs, I've never been a "
                               "cigarette smoker, and no, I can't say I have, and I've never taken cocaine."})
    line = _line(doctor._note(), "Substance use:")
    assert "can't say I have" not in line and "cigarette smoker" not in line, line
    assert "weed all day" in line, line
    denial = _doctor()
    _told(denial, {"drug_use": "No. I've never taken cocaine. I had a bit of weed at uni."})
    assert '"No. I\'ve never taken cocaine' in _line(denial._note(), "Substance use:"), denial._note()


def test_a_sentence_with_a_person_as_subject_gets_no_onset_lead():
    """test-v2-0454: 'My husband puts the start late in July, a little while after the anniversary of a previous loss.'
    was written 'She relates that it started her husband puts the start late in July'."""
    doctor = _depressed("Outpatient clinic. A 38-year-old woman is here to see you, alone.")
    _told(doctor, {"hpi:2": "My husband puts the start late in July, a little while after the anniversary of a "
                            "previous loss."})
    line = _line(doctor._note(), "History of present illness:")
    assert "it started her husband" not in line, line
    assert "her husband puts the start late in July" in line, line


def test_alcohol_dependence_with_a_withdrawal_fit_is_not_written_uncomplicated():
    """test-v2-0233: a man who said 'I had a fit when I stopped' was written 'most consistent with Alcohol dependence,
    uncomplicated'. Without a fit told, the title stays."""
    def drinker(fit: bool) -> ScriptedClinician:
        doctor = _doctor("Outpatient clinic. A 39-year-old man is here to see you, alone.")
        doctor.findings.present.update({
            "relief_drinking": "I have a drink first thing now, just to get going.",
            "alcohol_tolerance": "A couple of pints does nothing to me now.",
            "continued_use_despite_harm": "My liver tests were bad, and I still drink.",
            "alcohol_use": "Probably eight or nine pints most nights.",
            **({"withdrawal_seizure_risk": "I had a fit when I stopped."} if fit else {})})
        _told(doctor, {"alcohol_use": "Probably eight or nine pints most nights."})
        doctor.findings.denied.update({"suicidal_ideation"})
        return doctor

    fit = drinker(True)
    assert fit._leading()[0][0].code.startswith("F10.2"), fit._leading()[0][0].code  # the premise
    assessment = _line(fit._note(), "Assessment:")
    assert "uncomplicated" not in assessment, assessment
    assert "Alcohol dependence" in assessment and "seizure" in assessment, assessment
    plain = _line(drinker(False)._note(), "Assessment:")  # no fit told: the title of the code, no complication
    assert "seizure" not in plain and "complicated withdrawal" not in plain, plain


def test_a_bare_denial_after_a_filler_is_still_the_answer_about_drugs():
    """Review of the fix above: only a clause said after another clause of substance is another question's; a denial
    after a filler ('Let me think.') is the answer."""
    doctor = _doctor()
    _told(doctor, {"drug_use": "Let me think. No, I don't, never have."})
    assert "No, I don't" in _line(doctor._note(), "Substance use:"), doctor._note()


def test_an_onset_dated_in_the_past_is_still_a_present_finding():
    """Review of the past-event rule: 'I've felt low for years, it started about three years ago' dates a low mood that
    goes on; only a closed event at a past age or time ('when I was 13, I took a load of tablets') is history."""
    doctor = _doctor("Outpatient clinic. A 40-year-old woman is here to see you, alone.")
    assert not doctor._told_as_past("depressed_mood", "I've felt low for years, it started about three years ago.")
    assert not doctor._told_as_past("self_harm", "When I was 13 I started cutting myself.")
    assert doctor._told_as_past("self_harm", "There was one time, when I was 13, I took a load of tablets.")


def _traumatised_and_low() -> ScriptedClinician:
    """A PTSD with a moderate and a severe single depressive episode both on its differential (as hw-039)."""
    doctor = _doctor("Outpatient clinic. A 35-year-old woman is here to see you, alone.")
    doctor.findings.present.update({
        "intrusive_memories": "It replays in my head.", "flashbacks": "I keep seeing the crash.",
        "nightmares": "Nightmares every night.", "trauma_avoidance": "I won't drive.", "hypervigilance": "I jump at everything.",
        "exaggerated_startle": "Any bang and I'm off.", "insomnia": "I can't sleep.", "low_mood": "I'm low.",
        "anhedonia": "Nothing's fun.", "hopelessness": "There's no point.", "fatigue": "I'm tired.", "guilt": "It's my fault."})
    doctor.findings.denied.update({"elevated_mood", "auditory_hallucinations", "homicidal_ideation"})
    lead = [h.code for h, _ in doctor._leading()]
    assert lead[0] == "F43.10" and {"F32.1", "F32.2"} <= set(lead[1:]), lead  # the premise
    return doctor


def test_a_disorder_on_the_differential_keeps_its_plain_plan_sentence():
    """Review of s50-clin: its fix for test-v2-0061 gave every disorder left on the differential 'If the X on the
    differential is confirmed: ...', rewording a quarter of the handwritten plans ('If the major depressive disorder,
    single episode, severe without psychotic features on the differential is confirmed: ...'). Only a personality
    disorder loses its treatment; any other keeps 'For the X as well: ...' as before."""
    plan = _traumatised_and_low()._plan()
    assert "on the differential is confirmed" not in plan, plan
    assert "For the major depressive disorder, single episode, severe without psychotic features as well: " \
           "cognitive behavioural therapy combined with medication." in plan, plan


def test_two_severities_of_one_disorder_get_one_plan_sentence_the_more_severe():
    """hw-036: 'For the major depressive disorder, single episode, severe without psychotic features as well: ...
    For the major depressive disorder, single episode, moderate as well: behavioural activation.' One disorder is
    treated once: the more severe episode's sentence is kept (ranked below the moderate one here)."""
    doctor = _traumatised_and_low()
    lead = [h.code for h, _ in doctor._leading()]
    assert lead.index("F32.1") < lead.index("F32.2"), lead  # the premise: the moderate episode ranks first
    plan = doctor._plan()
    said = [s for s in plan.split(". ") if "major depressive disorder" in s.lower()]
    assert len(said) == 1 and "severe without psychotic features" in said[0], said


def test_a_finding_told_now_beside_a_past_age_stays_current():
    """Review of the past-event rule, which judged by whole sentence and dropped what was said now: 'I keep thinking
    about killing myself, I took an overdose when I was 19' lost the suicidal thoughts (no crisis referral); 'I cut
    myself when I was 13. I did it again last week.' was filed as history. A clause told in the present, or anything
    in the reply that goes on to now, keeps the finding current; a finding without a history item is never dropped
    (a past assault, a dated withdrawal fit); a closed event at a past age is still history."""
    walk_in = "Outpatient clinic. A 30-year-old man is here to see you, alone."
    for key, reply, concept in [
        ("risk:suicidal_ideation", "I keep thinking about killing myself, I took an overdose when I was 19.",
         "suicidal_ideation"),
        ("risk:suicidal_ideation", "I want to die, I felt like this when I was 16 too.", "suicidal_ideation"),
        ("risk:suicidal_ideation", "Yes, every day I think about killing myself, the way I did in my twenties.",
         "suicidal_ideation"),
        ("hpi", "I get panic attacks, I had them when I was at school too.", "panic_attacks"),
        ("risk:self_harm", "I cut myself when I was 13. I did it again last week.", "self_harm"),
        ("risk:self_harm", "I cut myself when I was at school, and I'm doing it now, most nights.", "self_harm"),
        ("legal_problems", "I was convicted of assault three years ago, I got a community order.", "aggression"),
        ("alcohol:withdrawal", "I had a fit when I stopped drinking, two years ago.", "withdrawal_seizure_risk"),
        ("alcohol:withdrawal", "When I was 35 I had a fit when I stopped drinking.", "withdrawal_seizure_risk"),
    ]:
        doctor = _read(_depressed(walk_in), [(key, "Can you tell me more?", reply)])
        assert concept in doctor.findings.present, (reply, sorted(doctor.findings.present))
    doctor = _read(_depressed(walk_in), [("risk:suicidal_ideation", "Have you had thoughts of ending your life?",
                                          "I keep thinking about killing myself, I took an overdose when I was 19.")])
    assert "Reports suicidal ideation" in _line(doctor._note(), "Risk assessment:"), doctor._note()
    past = _read(_depressed(walk_in), [("risk:attempts", "Have you ever tried to end your life?",
                                         "There was one time, when I was 13, I took a load of tablets.")])
    assert "self_harm" not in past.findings.present and "self_harm_history" in past.findings.present


def test_an_onset_dated_in_the_past_is_still_a_present_finding_when_heard():
    """The onset review above through the interview: 'When I was 13 I started cutting myself' dates self-harm that
    may go on; it stays a present finding."""
    doctor = _read(_depressed("Outpatient clinic. A 40-year-old woman is here to see you, alone."),
                   [("risk:self_harm", "Have you ever harmed yourself?", "When I was 13 I started cutting myself.")])
    assert "self_harm" in doctor.findings.present, sorted(doctor.findings.present)


def test_delirium_tremens_told_is_not_written_a_seizure():
    """Review of the withdrawal-fit name: the lexicon reads delirium tremens as withdrawal_seizure_risk, and 'I ended
    up in hospital with delirium tremens last time I stopped' was written 'a past withdrawal complicated by a
    seizure'. The name says the complication told."""
    doctor = _doctor("Outpatient clinic. A 39-year-old man is here to see you, alone.")
    doctor.findings.present.update({
        "relief_drinking": "I have a drink first thing now, just to get going.",
        "alcohol_tolerance": "A couple of pints does nothing to me now.",
        "continued_use_despite_harm": "My liver tests were bad, and I still drink.",
        "alcohol_use": "Probably eight or nine pints most nights."})
    _told(doctor, {"alcohol_use": "Probably eight or nine pints most nights."})
    doctor.findings.denied.update({"suicidal_ideation"})
    doctor = _read(doctor, [("alcohol_withdrawal", "What happened when you stopped drinking?",
                             "I ended up in hospital with delirium tremens last time I stopped.")])
    assert "withdrawal_seizure_risk" in doctor.findings.present  # the premise: the lexicon's reading
    assessment = _line(doctor._note(), "Assessment:")
    assert "seizure" not in assessment and "delirium tremens" in assessment, assessment


def test_a_psychotic_mania_at_twelve_gets_no_adult_antipsychotic_dose():
    """Review of the young person's mania plan: at 12 the plan still said 'start olanzapine 10-15 mg once daily' (the
    young person's sentence was the adolescent band's only). Under 13 the medicine is the CAMHS psychiatrist's."""
    plan = _manic("Outpatient clinic. A 12-year-old girl is here to see you, accompanied by her mother.")._plan()
    assert "olanzapine 10-15 mg" not in plan and "olanzapine 5-10 mg" not in plan, plan
    assert "aripiprazole 10 mg daily" not in plan, plan
    assert "CAMHS psychiatrist" in _line(plan, "Medication:"), plan
