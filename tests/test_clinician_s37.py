"""Stop 37 (issue 15): the scripted clinician asks about physical illness in the family, writes a family history
answered "none known" as such, asks whether a low mood came before when the past-help answer told no earlier
episode, keeps a dementia off the differential of a normal cognitive screen, and reads a relative's trait as no
finding of the patient's.

The doctor is driven through ``act``: whole interviews against a patient of canned replies, or the note, diagnosis
and plan it writes from findings set as an interview would have left them."""

from __future__ import annotations

from collections.abc import Callable

from mentalhospital_env.agents.scripted import ScriptedClinician
from scripted_encounters import codes as _codes
from scripted_encounters import interview
from scripted_encounters import with_findings as _doctor
from scripted_encounters import write as _write

WOMAN_48 = "Outpatient clinic. A 48-year-old woman is here to see you, alone."
MAN_26 = "Outpatient clinic. A 26-year-old man is here to see you, alone."
FAMILY_MENTAL = "Has anyone in your family had problems with their mental health?"


def _interview(walk_in: str, reply: Callable[[str], str], budget: int = 60) -> tuple[ScriptedClinician, list[tuple[str, str]]]:
    """An interview to its end against ``reply`` (the patient's answer to each question): the doctor and the turns."""
    return interview(walk_in, reply, budget=budget)


def _family(name: str) -> str:
    return next(ln for ln in name.splitlines() if ln.startswith("Family history:"))


def test_the_family_is_asked_about_physical_illness_as_well_as_mental_health():
    # stop 36: a family question about mental health is answered with mental health only, so hw-033's mother's
    # multiple sclerosis and hw-019's father who snored and died of a stroke were never heard
    def reply(question: str) -> str:
        if question.endswith(FAMILY_MENTAL):
            return "There's no mental illness in my family that I know of."
        if "physical illnesses that run in your family" in question:
            return "My father snored loudly and died of a stroke at 66."
        if "brought you here" in question:
            return "I've been falling asleep at my desk."
        return "I'm not sure."

    doctor, turns = _interview(WOMAN_48, reply)
    asked = [q for q, _ in turns]
    mental = next(i for i, q in enumerate(asked) if q.endswith(FAMILY_MENTAL))
    physical = next(i for i, q in enumerate(asked) if "physical illnesses that run in your family" in q)
    assert physical == mental + 1, asked[mental:physical + 1]
    family = _family(_write(doctor, "write_note"))
    assert "mental illness" in family and "died of a stroke at 66" in family, family


def test_a_family_history_answered_none_known_is_written_in_the_note():
    # stop 36: test-v2-0036, 0126, 0391, 0457 ("Not that I know of."), 0284, 0463 ("Not that anyone's told me. I don't
    # know. I'm not sure, I'd have to ask my family.") had no family history in the note
    for said in ("Not that I know of.", "Not that anyone's told me. I don't know. I'm not sure, I'd have to ask my family."):
        note = _write(_doctor(WOMAN_48, answers={"family_psychiatric_history": said}), "write_note")
        assert _family(note).startswith("Family history: No mental illness known in the family"), note
    note = _write(_doctor(WOMAN_48, answers={"family_psychiatric_history": "I'm not sure. We don't talk about that sort of thing in my family."}), "write_note")
    assert _family(note) == "Family history: Not known; she knows little of the family's mental health (\"We don't talk about that sort of thing in my family\").", note
    # a relative's illness is quoted as it was, and a question never asked leaves the heading out
    note = _write(_doctor(WOMAN_48, answers={"family_psychiatric_history": "My older sister had schizophrenia."}), "write_note")
    assert _family(note) == 'Family history: "My older sister had schizophrenia".'
    assert "Family history" not in _write(_doctor(WOMAN_48, answers={}), "write_note")
    # the physical history quoted beside it with no label of its own (hw-021 answered the physical question with an
    # uncle who heard voices), and a "don't know" as not known
    note = _write(_doctor(WOMAN_48, answers={"family_psychiatric_history": "My older sister had schizophrenia.",
                                             "family_medical_history": "My father has diabetes."}), "write_note")
    assert _family(note) == 'Family history: "My older sister had schizophrenia". "My father has diabetes".', note
    note = _write(_doctor(WOMAN_48, answers={"family_medical_history": "I don't know."}), "write_note")
    assert _family(note) == "Family history: Physical illness in the family not known to her.", note


LOW = {"low_mood": "I've been sad almost every day and I can't shake it.",
       "anhedonia": "I don't enjoy anything.", "insomnia": "I wake at four.", "fatigue": "I'm exhausted.",
       "poor_concentration": "I can't concentrate."}
EARLIER = "I've had depression since 24, bupropion from Dr Kaur's practice was stopped several months ago."


def _depressed(past_help: str, earlier: str) -> Callable[[str], str]:
    def reply(question: str) -> str:
        if "brought you here" in question:
            return "I've been sad almost every day and I can't shake it. I don't enjoy anything."
        if "help for your mental health before" in question:
            return past_help
        if "felt like this before" in question:
            return earlier
        return "I'm not sure."
    return reply


def test_a_low_mood_whose_past_help_told_no_earlier_episode_is_asked_whether_it_came_before():
    # stop 36, test-v2-0082: "No, no health problems, I'm fit and well physically" to the past help; a single episode
    doctor, turns = _interview(MAN_26, _depressed("No, no health problems, I'm fit and well physically.", EARLIER))
    asked = [q for q, _ in turns]
    past = next(i for i, q in enumerate(asked) if "help for your mental health before" in q)
    assert asked[past + 1].endswith("Have you ever felt like this before?"), asked[past:past + 2]
    for concept, said in LOW.items():
        doctor.findings.present.setdefault(concept, said)
    assert _codes(_write(doctor, "diagnose"))[0].startswith("F33"), _write(doctor, "diagnose")
    # the same man who says "no" to it stays a single episode
    doctor, _ = _interview(MAN_26, _depressed("No, no health problems, I'm fit and well physically.", "No, never."))
    for concept, said in LOW.items():
        doctor.findings.present.setdefault(concept, said)
    assert _codes(_write(doctor, "diagnose"))[0].startswith("F32")
    # a past-help answer that tells the earlier episode is not asked again
    _, turns = _interview(MAN_26, _depressed("First treated for depression at 21, with sertraline.", EARLIER))
    assert not any("felt like this before" in q for q, _ in turns)


def test_a_normal_cognitive_screen_puts_no_dementia_on_the_differential():
    # hw-037: a woman of 63 who hoards, MoCA 28/30 with no memory complaint, was given "Unspecified dementia" on her
    # differential and cognitive stimulation therapy
    walk_in = "Outpatient clinic. A 63-year-old woman is here to see you, alone."
    present = {"difficulty_discarding": "I keep things because you never know when you'll need it.",
               "clutter": "The house is full of stuff."}
    codes = _codes(_write(_doctor(walk_in, present=dict(present), results=[("MoCA", "28/30 (normal)")]), "diagnose"))
    assert codes[0].startswith("F42") and not any(c.startswith(("F03", "F01", "F02", "F00")) for c in codes), codes
    plan = _write(_doctor(walk_in, present=dict(present), results=[("MoCA", "28/30 (normal)")]), "treat")
    assert "cognitive stimulation" not in plan
    # a screen in the mild range still keeps a dementia in view beside a failing memory
    memory = dict(present, memory_loss="I have to write everything down now or it goes.")
    codes = _codes(_write(_doctor(walk_in, present=memory, results=[("MoCA", "23/30 (mild impairment)")]), "diagnose"))
    assert any(c.startswith(("F03", "F01", "F02", "F00")) for c in codes), codes


def test_a_relatives_trait_told_in_lay_words_is_no_finding_of_the_patient():
    # stop 36 named hw-038's "my younger brother was hyperactive" and hw-037's "my mother kept everything" as adding a
    # category; read again at stop 37, neither reply moves the diagnosis (the categories came from the worry answer and
    # a normal MoCA). Kept so that it stays so.
    for said, codes in (("My younger brother was hyperactive and excluded from school, you know.", ("F90",)),
                        ("To be honest, my mother kept everything after the war.", ("F42",))):
        def reply(question: str, said: str = said) -> str:
            if question.endswith(FAMILY_MENTAL):
                return said
            if "brought you here" in question:
                return "I've been sad almost every day and I can't shake it."
            return "I'm not sure."
        doctor, turns = _interview(WOMAN_48, reply)
        assert any(q.endswith(FAMILY_MENTAL) for q, _ in turns)
        assert not any(c.startswith(codes) for c in _codes(_write(doctor, "diagnose"))), said


def test_the_sedative_sentence_agrees_with_they():
    insomnia = {"insomnia": "I can't get to sleep.", "sleep_onset_difficulty": "I lie awake for hours."}
    walk_in = "Outpatient clinic. A 44-year-old is here to see you, alone."
    doctor = _doctor(walk_in, present=dict(insomnia, alcohol_use="x"),
                     answers={"alcohol_use": "A couple of glasses of wine most nights, to help me sleep."})
    doctor.findings.denied.update({"low_mood", "excessive_worry", "anhedonia"})
    plan = _write(doctor, "treat")
    assert "No hypnotic or benzodiazepine while they drink most nights" in plan, plan


def test_bingeing_without_purging_is_a_binge_eating_disorder_not_bulimia():
    # stop 37 reading, test-v2-0377: a man of 31, BMI 34.8, who binges and told of no purging, was called bulimic and
    # given fluoxetine 60 mg
    walk_in = "Outpatient clinic. A 31-year-old man is here to see you, accompanied by his mother."
    present = {"binge_eating": "I eat huge amounts, way more than I need, and I can't stop.",
               "body_image_disturbance": "I'm unhappy with my body.", "eating_shame": "I've been feeling ashamed."}
    results = [("Weight and BMI", "BMI 34.8 kg/m2 (obese)")]
    codes = _codes(_write(_doctor(walk_in, present=dict(present), results=results), "diagnose"))
    assert codes[0].startswith("F50.81") and "F50.2" not in codes, codes
    purging = dict(present, purging="I make myself sick after.")
    assert _codes(_write(_doctor(walk_in, present=purging, results=results), "diagnose"))[0].startswith("F50.2")


def test_the_drug_history_and_an_unread_suicide_answer_are_written():
    # stop 37 reading: test-v2-0179's "I started on painkillers for my back and now I buy them" (the opioid dependence
    # itself) was left out of the note because the answer about medicines had spent it; test-v2-0054's "The thought
    # crosses my mind, but I wouldn't act on it" left no line on suicidal thoughts at all
    walk_in = "Outpatient clinic. A 31-year-old man is here to see you, alone."
    answers = {"medications_current": "No, I don't take tablets, nothing regular. I started on painkillers for my back and now I buy them.",
               "drug_use": "Like I mentioned, I started on painkillers for my back and now I buy them.",
               "suicidal_ideation": "The thought crosses my mind, but I wouldn't act on it."}
    note = _write(_doctor(walk_in, answers=answers), "write_note")
    assert 'Illicit drug use: "I started on painkillers for my back and now I buy them"' in note, note
    risk = next(ln for ln in note.splitlines() if ln.startswith("Risk assessment:"))
    assert "The thought crosses my mind, but I wouldn't act on it" in risk, risk
    assert "Denies suicidal ideation" not in risk


def test_the_earlier_episode_is_written_under_the_past_history():
    # test-v2-0082: the earlier episode told in answer to "Have you ever felt like this before?" was in no heading
    answers = {"past_psychiatric_treatment": "No, no health problems, I'm fit and well physically.", "previous_episodes": EARLIER}
    note = _write(_doctor(MAN_26, present={"low_mood": LOW["low_mood"]}, answers=answers), "write_note")
    past = next(ln for ln in note.splitlines() if ln.startswith("Past psychiatric history:"))
    assert "depression since 24" in past, past


def test_a_diet_controlled_diabetes_is_no_restriction_of_eating():
    # stop 37 reading, hw-037: "I have type 2 diabetes, diet-controlled" sent a hoarding woman of 63 to the eating
    # disorder service with refeeding monitoring
    walk_in = "Outpatient clinic. A 63-year-old woman is here to see you, alone."
    said = "I have type 2 diabetes, diet-controlled. I also have osteoarthritis of the right knee."
    for question, concept in (("Do you have any physical health problems?", "medical_conditions"), ("How has your eating been?", "hpi:3")):
        doctor = _doctor(walk_in, present={"difficulty_discarding": "I keep things.", "clutter": "The house is full of stuff."})
        doctor.last_question, doctor.last_concept = question, concept
        doctor.act({"text": f"Patient: {said}"}, {"allowed_actions": ["diagnose"]})
        assert ("food_restriction" in doctor.findings.present) == (concept != "medical_conditions"), concept
        plan = _write(doctor, "treat")  # heard as a restriction of eating, it sends her to the eating disorder service
        assert ("eating disorder" in plan) == (concept != "medical_conditions"), plan
