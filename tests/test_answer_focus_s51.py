"""The reply answers what is asked (stop 51): the focus check's cues and the sentences a record gives the patient.

Stop 50's rate cues (``data/focus.json``) took ordinary words for an amount: bare "few" ("I have few friends outside
work"), any size word ("a small flat") and a negation anywhere in a sentence ("..., and have not been to the club")
let a sentence on another subject stand as the answer to "How many children do you have?"."""

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient.decide import says_focus
from mentalhospital_env.patient.patient import make_patient


def _unseen(record: str):
    return make_patient(load_suite(f"benchmarks/data/patient_exam/unseen/{record}.json").cases[0], seed=0)


def test_ordinary_words_are_no_amount():
    assert not says_focus("I have few friends outside work and the club.", "rate")
    assert not says_focus("I live in a small flat.", "rate")
    assert not says_focus("But I have few friends, and have not been to the club since November.", "rate")
    # what does give an amount still does
    assert says_focus("I don't smoke.", "rate")
    assert says_focus("Honestly, I don't drink much.", "rate")
    assert says_focus("I have a few friends.", "rate")
    assert says_focus("I just have something small for dinner.", "rate")
    assert says_focus("I eat well.", "rate")
    assert says_focus("I haven't slept for days.", "rate")


def test_a_number_question_is_not_answered_by_a_sentence_on_another_subject():
    reply = _unseen("uw-003").respond("How many children do you have?").text
    # was "I'm close to my wife and children. But I have few friends outside work ..."
    assert "few friends" not in reply, reply


def test_a_relative_s_illness_written_in_shorthand_is_told():
    # hw-025's "Mother had 'bad PMT' and postnatal depression.": PMT, a shorthand the compiler did not know, left the
    # sentence untold and the family question was answered by the denial alone ("There's no bipolar disorder ...")
    reply = make_patient(load_suite("handwritten")["hw-025"], seed=0).respond(
        "Anyone in the family with anything similar?").text
    assert "postnatal" in reply and "mother" in reply.lower(), reply
