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
