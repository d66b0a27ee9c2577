"""Stop 48 mend of the compiler's voice: a verbless chart fragment is said "I've had X" only when X is something a
person has or had. An examiner's observation line (manner, eye contact, orientation, thought form) is chart-only;
a SOAP "S:" letter is a label, never a word said; a state with no verb after the patient's name takes "I'm"; a
dated or by-nature past event in the medical history is told in the past. Records written here for the test (no
bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import clinician_only, compile_facts, voiced
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences

HPI = "history_of_present_illness"


def test_an_examiners_observation_line_is_chart_only() -> None:
    for line in ("Cheerful, engaged, labile when discussing her ex.", "Pleasant, guarded, good eye contact.", "linear",
                 "alert, orientated x3", "attention intact in interview", "Neil welcoming, made coffee, chatty about his bees.",
                 "anxious, tearful, good eye contact, appropriately dressed"):
        assert clinician_only(HPI, line), line
        assert voiced(HPI, line, "male", ("Neil",)) is None, line
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=(
        "He has felt low since the harvest failed.\nFriendly, smiling, shallow.\nCooperative, tearful about his son.")), "male")
    said = told_sentences(facts)
    assert "low since the harvest" in said, said
    for seen in ("riendly", "hallow", "ooperative"):
        assert seen not in said, (seen, said)


def test_what_a_patient_tells_is_no_observation() -> None:
    for line in ("Tearful, low, anxious.", "Pleasant walks with the dog.", "Friendly, outgoing child.", "He was friendly."):
        assert not clinician_only(HPI, line), line


def test_a_soap_s_letter_is_never_said() -> None:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=(
        "He has felt low since the harvest failed.\nS: Knee pain easing.")), "male")
    said = told_sentences(facts)
    assert "knee pain" in said.lower(), said
    assert "I ssed" not in said and "I've had s," not in said and " s, " not in said, said


def test_a_state_after_the_patients_name_takes_im() -> None:
    assert voiced(HPI, "Neil alone at the farm most weekdays.", "male", ("Neil",)) == "I'm alone at the farm most weekdays."


def test_a_dated_past_event_is_told_in_the_past() -> None:
    facts = compile_facts(EHR(chief_complaint="Low mood after the birth.", history_of_present_illness="She has felt low.",
                              medical_history="Eczema. Broken left ankle skiing at 15. Fractured right wrist 2018. "
                                              "Postpartum haemorrhage 900 ml."), "female")
    said = told_sentences(facts)
    assert "I had a broken left ankle skiing at 15" in said, said
    assert "I had a fractured right wrist in 2018" in said, said
    assert "I had a postpartum haemorrhage" in said, said
    assert "I have eczema" in said, said


def test_a_temperament_and_an_engagement_told_in_the_personal_history_stay_said() -> None:
    assert voiced("personal_history", "Friendly, plays five-a-side football.", "male")
    assert not clinician_only(HPI, "Engaged to Sam.")


def test_a_bit_better_is_no_bite() -> None:
    said = voiced(HPI, "'Bit better maybe.'", "male") or ""
    assert "I bit" not in said, said
