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


def test_noun_state_only_for_the_patients_own_states():
    from mentalhospital_env.cases.compile import first_person

    # note-form sentences whose first word is no state of the patient's stay as they were, never "My X is ..."
    for section, text in [("medical_history", "Nothing relevant."), ("personal_history", "Works part-time in a bakery."),
                          ("medical_history", "Iron deficiency anaemia, treated."),
                          ("forensic_history", "Adult caution for shoplifting")]:
        said = first_person(text, section, "female")
        assert not (said or "").startswith("My "), said
    # the patient's own states keep their rendering
    assert first_person("Sleep poor for two weeks.", "history_of_present_illness", "male") == "My sleep has been poor for two weeks."
    assert first_person("Money very tight.", "personal_history", "male") == "My money is very tight."


def test_a_quoted_wish_to_die_after_a_gated_label_is_told_as_sensitive():
    from mentalhospital_env.cases.compile import compile_facts
    from mentalhospital_env.cases.model import EHR

    hpi = ("Feels low most days.\n\nSI (told only when asked directly, and only after her partner left): 'Some days I "
           "wish I could just go to sleep and not wake up.' Sun 14/02/27, after a row with bf, sat in the car in the "
           "garage with the engine off - 'I thought about it' - went back inside after ~10 min. Denies current intent.")
    facts = compile_facts(EHR(chief_complaint="", history_of_present_illness=hpi), "female")
    wish = [f for f in facts if f.told and "suicide" in f.topics and "wake up" in (f.patient_says or "")]
    assert wish and all(f.sensitive for f in wish)
    assert not any("told only" in (f.patient_says or "") for f in facts)
