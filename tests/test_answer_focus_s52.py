"""The reply answers what is asked (stop 52): the focus check's cues (``data/focus.json``).

"can't" is no can of drink: the rate cue ``cans?\\b`` matched "can" before the apostrophe, so "Shakes, sweats, can't
keep anything down, last drink about 30 hours ago." stood as the answer to "How much do you usually drink?"."""

from mentalhospital_env.patient.decide import says_focus


def test_a_contraction_is_no_amount():
    assert not says_focus("Shakes, sweats, can't keep anything down.", "rate")
    assert not says_focus("I won't go out.", "rate")
    assert says_focus("I drink four cans a day.", "rate")
    assert says_focus("A can of cider, that's all.", "rate")

