"""Stop 58 (s58-clin): hw-020's note wrote 'Previous psychiatric admission: "I have two caesarean sections"': the
lexicon read the operation as being sectioned ('sectioned' stems to 'section'). A caesarean section is no psychiatric
admission; being sectioned still is."""

from __future__ import annotations

from mentalhospital_env.knowledge.answers import patient_findings


def test_a_caesarean_section_is_no_psychiatric_admission():
    for said in ("I have two caesarean sections.", "I had a c-section with my first."):
        assert "prior_hospitalisation" not in {c for c, _ in patient_findings(said)}, said


def test_being_sectioned_is_still_an_admission():
    assert ("prior_hospitalisation", False) in patient_findings("I got sectioned twice in my twenties.")
