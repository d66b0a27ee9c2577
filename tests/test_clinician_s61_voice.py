"""Stop 61 (s61-clin): uw-034 hears his dead brother's voice calling his name at night; he was asked what the voice
says and whether it tells him to do things, and the insight question asked only whether what has happened could be an
illness, never whether he knows the voice is not real. Where a voice was heard, the mental state's insight question
asks about the voice itself (mental_state 'when_heard'): the same turn, no screening question lost."""

from __future__ import annotations

from tests.scripted_encounters import opening_reply, questions

REAL = "of the voice you hear: does it seem real"


def test_a_voice_heard_is_followed_by_its_content_then_insight_into_it():
    asked = questions("Outpatient clinic. A 36-year-old man is here to see you, alone.",
                      opening_reply("At night I hear my brother's voice calling my name from the street."))
    content = next(i for i, q in enumerate(asked) if "What do the voices say" in q)
    real = next(i for i, q in enumerate(asked) if REAL in q)
    assert content < real, asked
    assert not any("Do you think it could be an illness?" in q for q in asked), asked


def test_without_a_voice_the_insight_question_is_the_usual_one():
    asked = questions("Outpatient clinic. A 40-year-old man is here to see you, alone.",
                      opening_reply("I've been feeling low and I can't sleep."))
    assert not any(REAL in q for q in asked), asked
    assert any("Do you think it could be an illness?" in q for q in asked), asked
