"""A reply answers the kind of thing asked (stop 50): a time, a rate, an effect (``data/focus.json``).

Recall gives the sentences of the subject asked and the one nearest in words; a sentence can share a word or the
topic with the question and say none of what is asked ("How much of the co-codamol are you getting through?" -
"I take co-codamol, mebeverine and vitamin D."). The next sentence of the subject that gives the kind is said
instead, or the patient is not sure. The sentence cap keeps the sentence that gives the kind, and a sentence
opening "It ..." is no longer dropped first as if it went on from the one before. A question that names the onset
and asks no time is not answered with the illness's timeline."""

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient.patient import make_patient
from mentalhospital_env.patient.question import read_question


def _patient(case_id: str, seed: int = 0):
    return make_patient(load_suite("handwritten")[case_id], seed=seed)


def _speaker(patient):
    found = [v for v in vars(patient).values() if hasattr(v, "speaker")]
    return found[0].speaker if found else patient.speaker


def _kinds(text: str, patient) -> frozenset[str]:
    from mentalhospital_env.patient.decide import focus_asked

    return focus_asked(read_question(text, patient.index.lexicon, patient.topic_reader))


def test_question_forms_are_read_as_the_kind_they_ask():
    p = _patient("hw-038")
    assert _kinds("How often does that happen?", p) == {"rate"}
    assert "rate" not in _kinds("How much does it affect your work?", p)
    assert "effect" in _kinds("What happens if you try not to do it?", p)
    assert "time" in _kinds("When did you leave school?", p)
    assert "time" not in _kinds("When did this start?", p)  # the illness's own time is the timeline's
    assert _kinds("Do you drink?", p) == frozenset()  # a yes/no question is answered by its stance


def test_a_time_ago_is_no_rate():
    from mentalhospital_env.patient.decide import says_focus

    assert not says_focus("Shakes, sweats, last drink about 30 hours ago.", "rate")
    assert says_focus("I drink about 110 units a week.", "rate")


def test_a_rate_question_is_answered_by_the_sentence_that_gives_the_rate():
    reply = _patient("hw-038").respond("How many jobs have you had?").text
    assert "five jobs" in reply, reply


def test_with_no_sentence_giving_the_amount_a_reply_on_another_subject_gives_way_to_not_sure():
    patient = make_patient(load_suite("dev")["dev-0003"], seed=6)
    patient.respond("What's been troubling you?")
    reply = patient.respond("How much are you eating in a day?").text
    # was "Everything feels grey and heavy, like there's a weight on me.": the mood said again for an amount eaten
    assert "grey and heavy" not in reply, reply


def test_a_reply_with_no_subject_to_check_it_by_stands():
    # "How often does that happen?" after the complaint: "After a weekend I'm a wreck till Wednesday" says when
    patient = make_patient(load_suite("dev")["dev-0073"], seed=0)
    patient.respond("What's been troubling you?")
    reply = patient.respond("How often does that happen?").text
    assert "not sure" not in reply.lower() and "know" not in reply.lower(), reply


def test_a_reply_on_the_subject_asked_stands_when_nothing_gives_the_amount():
    # "I take co-codamol, mebeverine and vitamin D." is on the medicines asked: not turned into "I really don't know"
    reply = _patient("hw-020").respond("How much of the co-codamol are you getting through?").text
    assert "co-codamol" in reply, reply


def test_the_sentence_cap_keeps_the_sentence_that_gives_the_kind_asked():
    speaker = _speaker(_patient("hw-028", seed=13))
    told = ["I have sales jobs. I worked in a shop for years. I liked the people. I've had five jobs in eight years."]
    said = speaker._few(told, "How many jobs have you had?", 2, frozenset({"rate"}))[0]
    assert "five jobs" in said, said


def test_a_sentence_opening_with_it_is_weighed_like_any_other():
    speaker = _speaker(_patient("hw-028", seed=13))
    told = ["I've been low. I sleep badly. It started in April."]
    said = speaker._few(told, "When did it start?", 2)[0]
    assert said == "I've been low. It started in April.", said


def test_a_question_naming_the_onset_that_asks_no_time_is_not_given_the_timeline():
    reply = _patient("hw-020").respond("Before the pains started, were you a worrier?").text
    assert "ago" not in reply.split(".")[0], reply


def _unseen(record: str):
    return make_patient(load_suite(f"benchmarks/data/patient_exam/unseen/{record}.json").cases[0], seed=0)


def test_a_risk_disclosure_is_never_swapped_for_not_sure():
    # a self-harm question answered with a suicide attempt is on the same subject (related topics), and a risk
    # reply stands as it is said: "How many times ...?" - "I really don't know." lost the footbridge
    reply = _patient("hw-036").respond("How many times have you tried to hurt yourself?").text
    assert "footbridge" in reply and "don't know" not in reply
    reply = _unseen("uw-014").respond("How often do you have thoughts of ending your life?").text
    assert "don't know" not in reply


def test_a_swap_says_no_clinician_note_nor_a_passing_mention_of_the_subject():
    # uw-014: "And, asked whether I take anything prescribed to someone else, admitted ..." (an examiner's note);
    # uw-009: a hypomanic episode "with no medication" for a medication's start
    reply = _unseen("uw-014").respond("Since when have you been on the medication?").text
    assert "asked whether" not in reply and "admitted" not in reply
    reply = _unseen("uw-009").respond("Since when have you been on the medication?").text
    assert "spring 2022" not in reply and "venlafaxine" in reply
