"""Stop 58 (s58-clin): hw-027's assessment said 'The IQ testing is abnormal (WISC-V full scale IQ and verbal
comprehension): to be explained and acted on before treatment starts' beside 'full scale IQ 87 (low average); verbal
comprehension 81 (low average)'. Low and high average are bands of the normal range, no flag; a panel with values
flagged low or raised is still read in the assessment."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write

_WALK_IN = "Outpatient clinic. A 14-year-old boy is here to see you, accompanied by his mother."
_CONDUCT = {"rule_violations": "I've been excluded for fighting.", "aggression": "I threatened a teacher."}


def test_a_low_average_iq_is_not_read_as_abnormal():
    doctor = with_findings(_WALK_IN, present=_CONDUCT, results=[
        ("IQ testing", "WISC-V full scale IQ 87 (low average); verbal comprehension 81 (low average), weaker expressive language")])
    note = write(doctor, "write_note")
    assert "IQ testing is abnormal" not in note, note


def test_a_panel_with_low_values_is_still_read():
    doctor = with_findings(_WALK_IN, present=_CONDUCT, results=[
        ("CBC", "haemoglobin 95 g/L (low), MCV 70 fL (low), platelets 250 x10^9/L")])
    note = write(doctor, "write_note")
    assert "is abnormal (haemoglobin and MCV)" in note, note
