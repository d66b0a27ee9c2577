"""The patient answers what is asked (stop 51, second fixer): a time question gets a sentence that gives a time."""

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient.patient import make_patient


def test_an_onset_question_after_the_complaint_gets_the_onset_not_a_word_in_common():
    # dev-0190: "When did you first notice this?" was answered "This is the first time I've seen a psychiatrist."
    # (close by "first") while the history's "It started about twenty-four hours ago." went unsaid
    patient = make_patient(load_suite("dev")["dev-0190"], seed=0)
    patient.respond("Hello, what brings you here today?")
    reply = patient.respond("When did you first notice this?").text
    assert "psychiatrist" not in reply, reply
    assert "twenty-four hours" in reply, reply
