"""A reply's "she" or "he" read as the one relative the checkpoint is about (the topic the question asked about),
only when the patient speaks and names nobody else; a note's "she" stays the patient."""

from mentalhospital_env.rewards.adjudication import ClinicalAdjudicator, statement_conflict, topic_reading


def test_a_reply_pronoun_is_the_checkpoint_relative():
    checkpoint = "His wife manages his medication."
    reply = "She puts my tablets out in one of those boxes each morning."
    assert topic_reading(checkpoint, reply).startswith("my wife puts")
    assert ClinicalAdjudicator().entailed(checkpoint, reply)


def test_a_note_pronoun_stays_the_patient():
    # no first-person word: a note, whose "he" is the patient, not the father
    assert topic_reading("Father has hypertension.", "He has high blood pressure.") == "He has high blood pressure."
    assert not ClinicalAdjudicator().entailed("Father has hypertension.", "He has high blood pressure.")


def test_no_reading_when_the_reply_names_someone_or_the_gender_differs():
    assert topic_reading("His wife left.", "My sister says she left me.") == "My sister says she left me."
    assert topic_reading("His wife left.", "He left me, I mean I left.") == "He left me, I mean I left."
    # the relative's own statement is still checked: a denial is no report
    assert statement_conflict("His father drank heavily.", "I know he never drank.") is not None
