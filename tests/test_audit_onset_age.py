"""The audit reads an onset dated by the patient's age (stop 49): "When he was 42 he stopped being his usual self" is
an illness of eight years at 50, as "since 42" was. Version 2's composer writes these frames for every illness of a
year or more (StoryV2._timeframe), and the audit read none of them: a draft whose only statement of duration was such
a frame was refused as stating no duration and redrawn (147 of 299 reviews of a 150-case draw, a third of the
generator's time), and a narrative record dated that way read as having no history at all."""

from hypothesis import given
from hypothesis import strategies as st

from mentalhospital_env.cases.audit import since_days


@given(age=st.integers(min_value=14, max_value=95), data=st.data())
def test_an_onset_dated_by_age_in_a_sentence_of_beginning_is_read_as_since_that_age(age, data):
    onset = data.draw(st.integers(min_value=3, max_value=age))
    pron = data.draw(st.sampled_from(["he", "she", "they"]))
    was = "were" if pron == "they" else "was"
    frame = data.draw(st.sampled_from([
        f"When {pron} {was} {onset} {pron} stopped being the usual self, after a loss.",
        f"It was at {onset} that {pron} first felt it.",
        f"The year {pron} turned {onset} things changed.",
        f"{pron.capitalize()} dates it to the age of {onset}.",
    ]))
    assert since_days(frame, age) == [(age - onset) * 365.0]


def test_an_age_with_no_word_of_a_beginning_is_a_life_event_not_an_onset():
    assert since_days("When he was 12 his father died.", 50) == []
    assert since_days("It was at 18 that she left home.", 50) == []
    # an age older than the patient is someone else's
    assert since_days("When he was 60 he first felt it.", 50) == []
    # the sentence that dates the beginning is the one read, not its neighbour
    assert since_days("When he was 12 his father died. It started last month.", 50) == []
