"""Stop 49 (s49-clin): the scripted clinician's notes and plans on a consultant's reading of ten test-v2 cases.

Each test states the premise it was written from; the expectations come from reading the transcripts, not the code.
"""

from __future__ import annotations

from mentalhospital_env.agents.scripted import ScriptedClinician

from tests.test_clinician_s48_clin import _doctor, _line, _told


def _read(doctor: ScriptedClinician, replies: list[tuple[str, str, str]]) -> ScriptedClinician:
    """Each reply taken in as in an episode (``act`` on the patient's turn), under the key and question it asked."""
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    for concept, question, reply in replies:
        doctor.last_question, doctor.last_concept = question, concept
        doctor.act({"text": f"Patient: {reply}"}, {"allowed_actions": ["ask"]})
    return doctor


def _depressed(walk_in: str, extra: dict[str, str] | None = None, denied: set[str] = frozenset()) -> ScriptedClinician:
    doctor = _doctor(walk_in)
    doctor.findings.present.update({
        "depressed_mood": "My mood is rock bottom.", "anhedonia": "I can't be bothered with any of it.",
        "fatigue": "I'm exhausted.", "poor_concentration": "I can't follow a conversation.", **(extra or {})})
    doctor.findings.denied.update({"elevated_mood", "auditory_hallucinations", "homicidal_ideation", *denied})
    return doctor


def test_a_second_answer_in_a_reply_about_work_is_not_quoted_under_occupation():
    """test-v2-0028: 'Occupation: "I'm a bus driver. No, I've never wanted to end my life, I don't hurt myself, I've
    got work to think about"': the denial of suicidal thoughts belongs to the risk assessment, the job stays."""
    doctor = _doctor("Outpatient clinic. A 52-year-old woman is here to see you, alone.")
    _told(doctor, {"occupation": "I'm a bus driver. No, I've never wanted to end my life, I don't hurt myself, "
                                 "I've got work to think about."})
    line = _line(doctor._note(), "Personal history:")
    assert "bus driver" in line, line
    assert "end my life" not in line, line


def test_a_try_made_by_the_family_is_no_past_attempt():
    """test-v2-0364: asked about past attempts, 'My family has tried to get me out walking' was written 'Past
    attempts: "My family has tried to get me out walking"'. The patient's own 'I tried to hang myself' still is one."""
    doctor = _doctor("Inpatient ward. A 68-year-old woman is here to see you, alone.")
    _told(doctor, {"risk:attempts": "My family has tried to get me out walking."})
    assert "get me out walking" not in doctor._note()

    own = _doctor("Inpatient ward. A 68-year-old woman is here to see you, alone.")
    _told(own, {"risk:attempts": "I tried to hang myself two years ago."})
    assert "hang myself" in own._note()


def test_cannabis_at_university_is_no_current_use_to_refer():
    """test-v2-0454: 'I had a bit of weed at uni' (a 38-year-old) was advised against and referred to the drug and
    alcohol service. Cannabis smoked every night is still advised against."""
    past = _read(_depressed("Outpatient clinic. A 38-year-old woman is here to see you, alone."),
                 [("drug_use", "Do you use any drugs?", "No. I've never taken cocaine. I had a bit of weed at uni.")])
    assert "drug and alcohol service" not in past._plan(), past._plan()
    now = _read(_depressed("Outpatient clinic. A 38-year-old woman is here to see you, alone."),
                [("drug_use", "Do you use any drugs?", "I smoke weed every night to get to sleep.")])
    assert "drug and alcohol service" in now._plan(), now._plan()


def test_feeling_empty_inside_is_not_written_as_the_personality_term():
    """test-v2-0364, 0022: 'I feel empty inside' was written 'chronic emptiness', a personality disorder's term."""
    doctor = _depressed("Outpatient clinic. A 26-year-old woman is here to see you, alone.",
                        {"chronic_emptiness": "I feel empty inside."})
    note = doctor._note()
    assert "chronic emptiness" not in note, note
    assert "inner emptiness" in note, note


def test_an_older_adult_on_an_ssri_gets_sodium_falls_and_vascular_checks_and_no_sleep_advice_unasked():
    """test-v2-0030: a 73-year-old with low mood and poor memory, who denied sleep problems, was started on sertraline
    with no sodium or falls check, no vascular risk management, and given sleep hygiene advice. A 40-year-old who
    told of poor sleep still gets sleep hygiene and no older adult's checks."""
    old = _depressed("Outpatient clinic. A 73-year-old man is here to see you, accompanied by his son.",
                     {"memory_loss": "I walk into a room and forget why.", "hopelessness": "There's no point.",
                      "weight_loss": "I've lost weight.", "excessive_guilt": "It's all my fault."}, denied={"insomnia"})
    plan = old._plan()
    assert old._leading()[0][0].code.startswith("F32"), old._leading()[0][0].code  # the premise: a depression leads
    assert "sertraline" in plan, plan
    assert "sodium" in plan and "falls" in plan, plan
    assert "Vascular risk factors" in plan, plan
    assert "sleep hygiene" not in plan, plan

    young = _depressed("Outpatient clinic. A 40-year-old man is here to see you, alone.", {"insomnia": "I can't sleep."})
    plan = young._plan()
    assert "sodium checked" not in plan and "Vascular risk" not in plan, plan
    if "sleep hygiene" in " ".join(h.other_treatment[0] for h in young.hyps if h.code == young._leading()[0][0].code):
        assert "sleep hygiene" in plan, plan


def test_a_severe_depression_living_alone_is_referred_to_the_crisis_team():
    """test-v2-0147: a 63-year-old with a severe depression (PHQ-9 24), living alone and thinking it would be easier
    not to wake up, had only 'consider admission if risk is high'. She is referred to the crisis team today."""
    doctor = _depressed("Outpatient clinic. A 63-year-old woman is here to see you, alone.", {
        "insomnia": "Nights, I'm lucky if I get three hours.", "hopelessness": "There's no point.",
        "excessive_guilt": "It's all my fault.", "weight_loss": "I've lost a stone.",
        "suicidal_ideation": "Sometimes I think it'd be easier not to wake up."})
    _told(doctor, {"living_situation": "I rent a studio flat and live alone there."})
    principal = doctor._leading()[0][0]
    plan = doctor._plan()
    if principal.code.startswith(("F32.2", "F32.3", "F33.2", "F33.3")):
        assert "Crisis resolution and home treatment team" in plan, plan
        assert "consider admission if risk is high" not in plan, plan
    else:  # the premise: the lead must be a severe episode for this test to speak
        raise AssertionError(f"lead {principal.code}: the test's patient is not read as a severe depression")


def test_a_plan_with_no_drug_says_so_in_words_about_this_patient():
    """test-v2-0191, 0022: 'Medication: none first line; avoid drugs that are unsafe for this presentation.'"""
    doctor = _doctor("Outpatient clinic. A 26-year-old woman is here to see you, alone.")
    doctor.findings.present.update({"stress_preoccupation": "It's all I think about.", "low_mood": "I feel down."})
    doctor.findings.denied.update({"suicidal_ideation", "anhedonia", "elevated_mood"})
    _told(doctor, {"hpi:1": "It started in October, after I lost my job."})
    plan = doctor._plan()
    assert "avoid drugs that are unsafe for this presentation" not in plan, plan


def test_a_child_with_separation_anxiety_is_offered_no_ssri_first_line():
    """test-v2-0214 (earlier stops): a 10-year-old with separation anxiety and school refusal was offered 'sertraline
    25 mg once daily (adolescents)'. A 30-year-old with the same picture is still offered a drug."""
    child = _doctor("Outpatient clinic. A 10-year-old girl is here to see you, accompanied by her father.")
    child.findings.present.update({"separation_anxiety": "I just want to stay at home with my mum.",
                                   "school_refusal": "She is missing school several days a week."})
    child.findings.denied.update({"suicidal_ideation", "low_mood"})
    assert child._leading()[0][0].code.startswith("F93"), child._leading()[0][0].code  # the premise
    plan = child._plan()
    assert "sertraline" not in plan.lower() and "none first line at this age" in plan, plan


def test_a_psychotic_mania_in_the_clinic_is_assessed_for_admission_today():
    """test-v2-0446 (earlier stops): a mania with grandiose and persecutory delusions, seen in the clinic, was planned
    with 'consider admission' and quetiapine as an outpatient. It is assessed for admission today."""
    doctor = _doctor("Outpatient clinic. A 34-year-old woman is here to see you, accompanied by her partner.")
    doctor.findings.present.update({
        "elevated_mood": "Fantastic.", "grandiose_delusions": "I'm the messenger, it's obvious.",
        "persecutory_delusions": "People are following me.", "decreased_need_for_sleep": "Three hours and not tired.",
        "pressured_speech": "x", "increased_goal_directed_activity": "Painting, writing a book, all at night."})
    doctor.findings.denied.update({"suicidal_ideation", "low_mood"})
    principal = doctor._leading()[0][0]
    assert principal.code.startswith(("F31.2", "F30.2")), principal.code  # the premise: a psychotic mania leads
    plan = doctor._plan()
    assert "assessment for admission today" in plan and "consider admission" not in plan, plan


def test_a_reply_that_does_not_describe_the_fit_is_not_quoted_as_the_fit():
    """test-v2-0233: asked to describe his withdrawal fit, a man said 'I have a drink first thing now, just to get
    going. Most days it's lager.' and the note wrote 'The fit, described: "I have a drink first thing now..."'."""
    doctor = _doctor("Outpatient clinic. A 39-year-old man is here to see you, alone.")
    _told(doctor, {"follow:seizure": "I have a drink first thing now, just to get going. Most days it's lager."})
    assert 'The fit, described: "I have a drink' not in doctor._note(), doctor._note()
    told = _doctor("Outpatient clinic. A 39-year-old man is here to see you, alone.")
    _told(told, {"follow:seizure": "It came about a day after my last drink and I ended up in hospital."})
    assert "ended up in hospital" in told._note(), told._note()


def test_a_dependent_drinker_is_not_given_a_goal_to_cut_down():
    """test-v2-0233: alcohol dependence with a withdrawal fit and possible cirrhosis was planned with the hazardous
    drinker's 'a goal agreed to cut down', his 'drink first thing' matching no dependence cue."""
    doctor = _doctor("Outpatient clinic. A 39-year-old man is here to see you, alone.")
    doctor.findings.present.update({
        "relief_drinking": "I have a drink first thing now, just to get going.", "alcohol_tolerance": "A couple of pints does nothing to me now.",
        "withdrawal_seizures": "I had a fit when I stopped.", "continued_use_despite_harm": "My liver tests were bad, and I still drink.",
        "alcohol_use": "Probably eight or nine pints most nights."})
    _told(doctor, {"alcohol_use": "Probably eight or nine pints most nights. Everyone at the pub does."})
    doctor.findings.denied.update({"suicidal_ideation"})
    lead = [h.code for h, _ in doctor._leading()]
    assert any(c.startswith("F10.2") for c in lead), lead  # the premise: a dependence is named
    plan = doctor._plan()
    assert "cut down" not in plan, plan


def test_cannabis_still_used_since_university_is_current_use_to_refer():
    """Review of s49-clin: the 'at uni' reading of a past use silenced use that goes on: 'I started smoking weed at
    uni and I still smoke it most nights.' lost the drug service referral. A continuing cue in the sentence wins."""
    for reply in ["I started smoking weed at uni and I still smoke it most nights.",
                  "I've smoked weed every day since I was at uni.",
                  "I smoke weed at college with my mates, most days."]:
        doctor = _read(_depressed("Outpatient clinic. A 19-year-old man is here to see you, alone."),
                       [("drug_use", "Do you use any drugs?", reply)])
        assert "drug and alcohol service" in doctor._plan(), (reply, doctor._plan())
    past = _read(_depressed("Outpatient clinic. A 38-year-old woman is here to see you, alone."),
                 [("drug_use", "Do you use any drugs?", "I smoked weed every day at uni, none now.")])
    assert "drug and alcohol service" not in past._plan(), past._plan()


def test_a_fit_told_in_a_witness_words_is_quoted_as_the_fit():
    """Review of s49-clin: 'My wife said I went rigid and jerked about for a couple of minutes.' lost its quote once
    follow:seizure needed a subject cue: the words witnesses use for a fit are cues."""
    for reply, words in [("My wife said I went rigid and jerked about for a couple of minutes.", "went rigid"),
                         ("I went stiff and was twitching, foaming at the mouth, she said.", "foaming")]:
        doctor = _doctor("Outpatient clinic. A 39-year-old man is here to see you, alone.")
        _told(doctor, {"follow:seizure": reply})
        assert words in doctor._note(), doctor._note()


def test_a_relative_living_alone_is_not_the_patient_living_alone():
    """Review of s49-clin: 'I live with my husband. My mum lives alone round the corner.' was read as the patient
    living alone, and a severe depression was planned as '(a severe depression, living alone)'."""
    for home in ["I live with my husband. My mum lives alone round the corner.",
                 "My dad lives alone since mum died; I'm with my partner."]:
        doctor = _doctor("Outpatient clinic. A 40-year-old woman is here to see you, alone.")
        _told(doctor, {"living_situation": home})
        assert not doctor._lives_alone(), home
    for home in ["I rent a studio flat and lives alone there.", "Since the divorce I live alone.",
                 "I'm on my own in a flat."]:
        doctor = _doctor("Outpatient clinic. A 40-year-old woman is here to see you, alone.")
        _told(doctor, {"living_situation": home})
        assert doctor._lives_alone(), home


def test_a_severe_depression_in_a_fifteen_year_old_goes_to_the_camhs_crisis_team():
    """Review of s49-clin: a 15-year-old with a severe depression and a passive death wish was referred to the adult
    'Crisis resolution and home treatment team'; under 18 it is the CAMHS crisis team."""
    doctor = _depressed("Outpatient clinic. A 15-year-old girl is here to see you, accompanied by her mother.", {
        "suicidal_ideation": "Sometimes I wish I wouldn't wake up.", "hopelessness": "There's no point.",
        "weight_loss": "I've lost weight.", "excessive_guilt": "It's all my fault.", "insomnia": "I can't sleep."})
    principal = doctor._leading()[0][0]
    assert principal.code.startswith(("F32.2", "F32.3")), principal.code  # the premise
    plan = doctor._plan()
    assert "CAMHS crisis" in plan and "Crisis resolution and home treatment team" not in plan, plan


def test_living_alone_without_a_risk_finding_is_no_crisis_referral():
    """Review of s49-clin: a severe depression living alone, suicidal thoughts denied and no self-neglect, was sent to
    the crisis team today. Living alone raises the risk a finding tells; alone, it is no same-day referral."""
    doctor = _depressed("Outpatient clinic. A 30-year-old man is here to see you, alone.", {
        "hopelessness": "There's no point.", "weight_loss": "I've lost weight.", "excessive_guilt": "It's all my fault.",
        "insomnia": "I can't sleep.", "psychomotor_retardation": "I move like I'm in treacle.",
        "decreased_appetite": "I've no appetite."}, denied={"suicidal_ideation", "self_harm", "suicide_plan"})
    _told(doctor, {"living_situation": "I live alone in a flat."})
    assert doctor._leading()[0][0].code.startswith(("F32.2", "F32.3")), doctor._leading()[0][0].code  # the premise
    plan = doctor._plan()
    assert "Crisis resolution" not in plan, plan


def test_an_older_adult_continuing_an_ssri_is_not_said_to_be_starting_it():
    """Review of s49-clin: 'Older adult starting sertraline' was written for a 78-year-old who already takes it."""
    doctor = _depressed("Outpatient clinic. A 78-year-old woman is here to see you, accompanied by her daughter.", {
        "hopelessness": "There's no point.", "weight_loss": "I've lost weight.", "insomnia": "I can't sleep at all."})
    doctor.findings.present["medications_current"] = "I take sertraline 50 mg."
    _told(doctor, {"medications_current": "I take sertraline 50 mg every morning."})
    plan = doctor._plan()
    if "sertraline" in plan.lower():
        assert "starting sertraline" not in plan.lower(), plan
        assert "sodium" in plan, plan


def test_a_use_told_over_beside_a_continuing_cue_is_over():
    """Late review of stop 49: 'since I was' beside 'clean', and a prescribed drug taken now beside a past street drug,
    read an ended use as current (and so a drug service referral)."""
    doctor = _doctor("Outpatient clinic. A 30-year-old man is here to see you, alone.")
    assert doctor._use_ended("I smoked weed every day at uni, I've been clean since I was 23.")
    assert doctor._use_ended("I smoked a lot of weed when I was younger, I take sertraline now.")
    # and what the first review asked stays current
    assert not doctor._use_ended("I started smoking weed at uni and I still smoke it most nights.")
    assert not doctor._use_ended("I've smoked weed every day since I was at uni.")


def test_the_fit_cues_are_not_words_of_drinking_or_falling_out():
    """Late review of stop 49: 'stiff', 'jerk', 'fell', 'went down' and 'dropped' as fit cues quoted 'I need a stiff drink
    first thing', 'I went down the pub most nights' or 'I fell out with my wife' as the fit described."""
    for reply in ["I need a stiff drink first thing, just to get going.", "I went down the pub most nights.",
                  "I dropped to four cans a day.", "I fell out with my wife over the drinking.",
                  "My boss is a jerk, that's why I drink."]:
        doctor = _doctor("Outpatient clinic. A 39-year-old man is here to see you, alone.")
        _told(doctor, {"follow:seizure": reply})
        assert "The fit, described" not in doctor._note(), reply


def test_living_alone_with_a_past_attempt_or_self_neglect_is_a_crisis_referral():
    """Late review of stop 49: the living-alone rule named findings the reader never produces (passive_death_wish,
    suicide_attempt, self_neglect); a severe depression living alone with a past attempt lost the crisis team."""
    for extra in [{"prior_suicide_attempt": "I took an overdose two years ago."},
                  {"avolition": "I've stopped washing and the flat is a mess."}]:
        doctor = _depressed("Outpatient clinic. A 30-year-old man is here to see you, alone.", {
            "hopelessness": "There's no point.", "weight_loss": "I've lost weight.", "excessive_guilt": "It's all my fault.",
            "insomnia": "I can't sleep.", "psychomotor_retardation": "I move like I'm in treacle.",
            "decreased_appetite": "I've no appetite.", **extra}, denied={"suicidal_ideation", "self_harm", "suicide_plan"})
        _told(doctor, {"living_situation": "I live alone in a flat."})
        assert doctor._leading()[0][0].code.startswith(("F32.2", "F32.3")), doctor._leading()[0][0].code  # the premise
        assert "Crisis resolution" in doctor._plan(), extra
