"""Stop 42 mend: regressions found by the review of the merged build (review1). Sentences written for
these tests; each test fails on ee47625."""

from mentalhospital_env.cases.compile import voiced


def test_a_female_patients_possessive_her_is_hers():
    # "her" is both object and possessive for a woman: a possessive is hers, never another person's
    assert voiced("history_of_present_illness", "She sits with her back to the door at work.", "female") == (
        "I sit with my back to the door at work.")
    assert voiced("history_of_present_illness", "She left work and called her GP.", "female") == "I left work and called my GP."
    # an object pronoun in her own clause is still someone else, and one done to her is "me"
    assert voiced("history_of_present_illness", "He pushed her against the wall.", "female") == "He pushed me against the wall."
    assert "her" not in (voiced("history_of_present_illness", "She had her first panic attack on the bus.", "female") or "her")
