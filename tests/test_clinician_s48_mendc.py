"""Stop 48 (s48-mendc): the review of the scripted clinician's stop-48 fixes (review_clin.md, M1-M5 and S2).

Each test states the premise it was written from (the reviewer's probes); each failed on the merged s48-integr.
"""

from __future__ import annotations

from mentalhospital_env.agents.scripted import ScriptedClinician
from test_clinician_s48_clin import (  # the fixer's helpers: one way to seat a told answer
    _doctor,
    _line,
    _told,
)


def test_a_plain_answer_to_the_self_harm_question_is_quoted_not_erased():
    """test-v2-0255 (73 M, delirium): 'No. I've got things I want to do.' was written 'no direct answer'; so was a past
    self-harm told in words with no cue ('Once, years ago, but not now.'). hw-039's rescue is still no answer."""
    for reply in ("No. I've got things I want to do.", "No, never.", "Not really, no.", "Once, years ago, but not now."):
        doctor = _doctor()
        _told(doctor, {"self_harm": reply})
        risk = _line(doctor._note(), "Risk assessment:")
        assert reply.rstrip(".") in risk and "no direct answer" not in risk, (reply, risk)

    # the real episode's reply: its 'no' said again after the SI answer (test-v2-0255, turns 12-13)
    again = _doctor()
    _told(again, {"suicidal_ideation": "I've never had thoughts of ending my life. No. I've got things I want to do.",
                  "self_harm": "Like I said, no. I've got things I want to do."})
    again.findings.reply_keys = ["suicidal_ideation", "self_harm"]
    risk = _line(again._note(), "Risk assessment:")
    assert "no direct answer" not in risk and "Like I said, no" in risk, risk

    rescue = _doctor()
    _told(rescue, {"self_harm": "My car went under a lorry and I was trapped while firefighters cut me out."})
    risk = _line(rescue._note(), "Risk assessment:")
    assert "cut me out" not in risk and "no direct answer" in risk, risk


def test_a_past_attempt_by_a_means_does_not_overwrite_a_denial_of_suicidal_thoughts():
    """Review M2: SI denied, then 'When I was 19 I cut my wrists with a knife. Nothing since.' was written 'a method
    named ...: read as an active risk' (the plan sent her home), and 'Past attempts: asked, no direct answer' beside
    the told attempt. A means named in reply to the plan question still answers it (uw-020)."""
    past = _doctor()
    _told(past, {"suicidal_ideation": "No, I've never had thoughts of ending my life.",
                 "risk:attempts": "When I was 19 I cut my wrists with a knife. Nothing since."})
    past.findings.denied.add("suicidal_ideation")
    risk = _line(past._note(), "Risk assessment:")
    assert "Denies suicidal ideation" in risk and "active risk" not in risk, risk
    assert 'Past attempts: "When I was 19 I cut my wrists with a knife' in risk, risk

    plan = _doctor()
    _told(plan, {"suicidal_ideation": "No.", "risk:plan": "I confirm the handgun episode of 26 November."})
    plan.findings.denied.add("suicidal_ideation")
    risk = _line(plan._note(), "Risk assessment:")
    assert "a method named" in risk and "Denies suicidal ideation" not in risk, risk


def test_an_illness_of_days_in_old_age_keeps_the_risk_scale_beside_the_delirium_screen():
    """Review M3: a man of 70, ten days ill, low, with suicidal thoughts and a rope in the garage was ordered CAM and
    MMSE and no C-SSRS (the exam cap); the same man at 50 was ordered the C-SSRS."""
    for age in (70, 50):
        doctor = _doctor(f"Emergency department. A {age}-year-old man is here to see you, alone.")
        _told(doctor, {"hpi:1": "It started about ten days ago.", "risk:plan": "I've got a rope in the garage."})
        doctor.findings.present.update({
            "depressed_mood": "I feel terrible.", "suicidal_ideation": "I want to die.",
            "suicide_plan": "I've got a rope in the garage.", "anhedonia": "Nothing.", "insomnia": "I can't sleep.",
            "weight_loss": "I've lost weight."})
        exams = doctor._exams()
        assert "C-SSRS" in exams, (age, exams)
        assert ("CAM" in exams) == (age >= 65), (age, exams)


def _break_up(answers: dict[str, str]) -> ScriptedClinician:
    """The self-care test's patient (tests/test_scripted_clinician.py): 30, emergency department, a break-up, low and
    not sleeping, who let her self-care slide; no risk, no psychosis."""
    doctor = ScriptedClinician()
    doctor.reset({"text": "Emergency department. A 30-year-old woman is here to see you, alone."}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    answers = {"hpi:1": "It started two weeks ago.", "hpi:2": "Since the break-up.",
               "risk:self_care": "I haven't really been looking after myself.", **answers}
    _told(doctor, answers)
    doctor.findings.present.update({"low_mood": "I feel low.", "insomnia": "I can't sleep.", "stress_preoccupation": "x"})
    doctor.findings.denied.update({"suicidal_ideation", "self_harm", "auditory_hallucinations", "elevated_mood"})
    return doctor


def test_an_alcohol_denial_or_a_sons_not_eating_is_no_unmet_basic_need():
    """Review M4: 'I'm not drinking at all.' to the alcohol question admitted the break-up patient (without it she is
    sent home); 'My son isn't eating' would too. Her own 'not eating or drinking' told of the illness still admits."""
    admit = _break_up({}).script["settings"]["emergency"]["admit"]
    for extra in ({}, {"alcohol": "I'm not drinking at all."}, {"hpi:3": "My son isn't eating, he's so upset."}):
        plan = _break_up(extra)._plan()
        assert "discharge home" in plan and admit not in plan, (extra, plan)
    plan = _break_up({"hpi:3": "I'm not eating or drinking, I just lie there."})._plan()
    assert admit in plan and "discharge home" not in plan, plan


def test_an_unmet_basic_need_is_read_from_a_reply_filed_as_in_an_episode():
    """The clinician files each reply as (the question asked, the reply) with its key apart (reply_keys); the unmet
    basic needs were read with the question text taken for the key, so in a played episode no place matched and her
    own 'not eating or drinking' never admitted (re-reading stop 48: the helpers above seat the key in both)."""
    doctor = _break_up({})
    admit = doctor.script["settings"]["emergency"]["admit"]
    doctor.last_question, doctor.last_concept = "And how have things been at home since it started?", "hpi:3"
    doctor._read_reply("I'm not eating or drinking, I just lie there.")
    plan = doctor._plan()
    assert admit in plan and "discharge home" not in plan, plan


def test_a_drug_reaction_is_the_patients_own_and_of_its_own_clause():
    """Review M5: 'I'm allergic to penicillin, but codeine is fine.' wrote a codeine allergy too (an analgesic off the
    chart); 'My mum is allergic to penicillin, I'm not.' wrote a penicillin allergy the patient denied."""
    fine = _doctor()
    _told(fine, {"allergies": "I'm allergic to penicillin, but codeine is fine."})
    line = _line(fine._note(), "Allergies:")
    assert "Penicillin allergy" in line and "Codeine allergy" not in line, line

    mum = _doctor()
    _told(mum, {"allergies": "My mum is allergic to penicillin, I'm not."})
    line = _line(mum._note(), "Allergies:")
    assert "Penicillin allergy" not in line, line

    tolerated = _doctor()
    _told(tolerated, {"allergies": "Not that I know of, I've had penicillin and codeine without trouble."})
    line = _line(tolerated._note(), "Allergies:")
    assert "allergy (" not in line and "intolerance" not in line, line

    both = _doctor()
    _told(both, {"allergies": "I'm not allergic to penicillin, but codeine makes me sick."})
    line = _line(both._note(), "Allergies:")
    assert "Codeine intolerance (sickness)" in line and "Penicillin allergy" not in line, line


def test_children_told_as_grown_up_in_any_words_are_no_dependants():
    """Review S2: the 'grown-up' lookbehinds were keyed to one wording; 'My children are grown up and live nearby'
    and 'our children are grown' still asked who cares for the children. Young children at home still are dependants."""
    for said in ("I live with my husband. My children are grown up and live nearby.", "My husband; our children are grown.",
                 "My kids are adults now, they've moved out."):
        doctor = _doctor("Outpatient clinic. A 78-year-old woman is here to see you, alone.")
        doctor.findings.answers["dependants"] = said
        assert not doctor._dependants_named(), said
    young = _doctor("Outpatient clinic. A 34-year-old woman is here to see you, alone.")
    young.findings.answers["dependants"] = "I live with my two children, they're 4 and 6."
    assert young._dependants_named()


def test_a_denial_of_earlier_episodes_does_not_make_the_mood_told_inconsistent():
    """Review S6: uw-005 told his low mood, then said 'I've never had help for my mental health before, no previous
    episodes of depression and no self-harm' to the self-harm question, and the note wrote 'His answers about depressed
    mood were inconsistent (affirmed, then denied)'. A denial of the mood now still contradicts it."""
    def read(replies: list[tuple[str, str, str]]) -> ScriptedClinician:
        doctor = _doctor("Outpatient clinic. A 44-year-old man is here to see you, alone.")
        for concept, question, reply in replies:
            doctor.last_question, doctor.last_concept = question, concept
            doctor._read_reply(reply)
        return doctor

    mood = ("mse:mood", "How would you describe your mood?", "My mood has been low and I feel depressed since around February.")
    said = "I've never had help for my mental health before, no previous episodes of depression and no self-harm."
    past = read([mood, ("self_harm", "Have you ever hurt yourself on purpose?", said)])
    assert "low_mood" in past.findings.present, past.findings.present
    assert "low_mood" not in past.findings.contradicted
    now = read([mood, ("low_mood", "Have you been feeling low or depressed?", "No, I have not been feeling depressed.")])
    assert "low_mood" in now.findings.contradicted, now.findings
