"""Stop 42, how a chart sentence is voiced (issue 13). Records written for these tests; each test
fails on the base d1846b4."""

from mentalhospital_env.cases.compile import voiced


def test_a_medication_entry_is_its_medicine_not_each_comma_piece():
    # dose, route, frequency and status after a comma belong to the entry, never named as medicines
    says = voiced("medications", "Clopidogrel 75 mg od, two weeks, on repeat from the surgery.", "male")
    assert says == "I take clopidogrel."
    says = voiced("medications", "Inhaled budesonide 200 micrograms, one puff twice daily.", "female")
    assert "puff" not in says and "budesonide" in says


def test_a_stopped_medicine_is_one_the_patient_used_to_take():
    says = voiced("medications", "Quetiapine 50 mg at night (stopped by her in the summer).", "female")
    assert says == "I used to take quetiapine."
    says = voiced("medications", "Past: citalopram 20 mg 2018 to 2020, no benefit.", "female")
    assert says == "I used to take citalopram."
    assert "I take" not in (voiced("medications", "Omeprazole 20 mg, not taken since the spring.", "male") or "I take")


def test_a_medicine_given_but_never_taken_is_not_said_as_taken():
    says = voiced("medications", "Mirtazapine 15 mg prescribed last week and collected, but none taken.", "male")
    assert says is not None and "haven't taken" in says and "mirtazapine" in says


def test_a_device_after_its_dose_keeps_its_form():
    assert voiced("medications", "Salbutamol 100 micrograms inhaler, two puffs when needed.", "male") == "I take a salbutamol inhaler."


def test_an_object_pronoun_in_the_patients_own_clause_is_someone_else():
    # "he screamed at him": the patient would be "himself", so "him" is the other person, never "me"
    says = voiced("history_of_present_illness", "He argued with Tom on Friday and pushed him.", "male")
    assert says is None or "pushed me" not in says
    says = voiced("history_of_present_illness", "He told Tom he was leaving his job.", "male")
    assert says == "I told Tom I was leaving my job."


def test_a_shorthand_noun_and_state_is_said_with_its_verb():
    # never "I've had mood low" / "I have takings down"
    assert voiced("history_of_present_illness", "Mood low since the summer.", "female") == "My mood has been low since the summer."
    assert voiced("social_history", "Orders down by about half.", "male") == "My orders are down by about half."
