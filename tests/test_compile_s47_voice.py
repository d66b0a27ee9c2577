"""Stop 47 (issues 13, 14): what a narrative record's structure says about whose words a line is and what a list
means. A document's title line naming its author after its recipient makes the lines under it the author's; a
list's heading gives its items their polarity; a reduced clause ("when asked about ...") is the interviewer's frame;
a medication list's bracketed history (dates, semicolons) is one entry, and its label's date is no medicine; "mg on
<date>" is a date, never "at night"; an acronym label names a topic. Records written here for the test (no bundled
record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts, voiced
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _facts(text: str, sex: str = "female", **sections):
    return compile_facts(EHR(chief_complaint="Panic at work.", history_of_present_illness=text, **sections), sex)


def test_a_title_line_with_its_author_after_the_recipient_makes_the_document_theirs() -> None:
    facts = _facts(
        "She says the panic started at the warehouse in spring and she now avoids the night shift.\n\n"
        "LETTER to the clinic reception, Tue 3/4/27 10:05 AM - from Rosa Ruiz (grandmother) - re 'my granddaughter'\n"
        "'Dear doctor. I have diabetes and my legs are bad. I am on insulin now. She stopped eating in May.'\n\n"
        "She swims twice a week with a friend.")
    said = told_sentences(facts)
    assert "warehouse" in said and "swim" in said, said  # her own account, before and after the letter
    for theirs in ("diabetes", "legs are bad", "insulin", "Dear doctor"):
        assert theirs not in said, (theirs, said)


def test_a_patients_own_message_under_a_plain_title_stays_hers() -> None:
    facts = _facts(
        "Portal message from the patient 3/5/27:\n"
        "'i cant sleep and the panic came back at work today.'\n\n"
        "She swims twice a week.")
    said = told_sentences(facts).lower()
    assert "swim" in said


def test_a_lists_negative_heading_denies_every_item() -> None:
    said = voiced("history_of_present_illness", "Not endorsed: gambling, self-harm, eating concerns, trauma.", "female")
    assert said is not None and said.startswith("I haven't had any"), said
    assert "gambling" in said and "trauma" in said, said
    facts = _facts("Checklist items endorsed: sleep, low mood.\nNot endorsed: gambling, eating concerns, trauma.")
    denial = [f for f in facts if "gambling" in f.text]
    assert denial and all(f.polarity == "absent" for f in denial), denial
    assert all(not (f.patient_says or "").startswith(("Gambling", "I've been gambling")) for f in denial)


def test_a_reduced_when_asked_clause_is_the_interviewers_frame() -> None:
    said = voiced("history_of_present_illness", "Denied other weapons when asked about knives in the flat.", "female")
    assert said is not None and "asked" not in said and "weapons" in said, said
    said = voiced("history_of_present_illness", "She admits to it if pressed and keeps a diary.", "female")
    assert said is None or "pressed" not in said, said


def test_a_dated_medication_label_keeps_its_first_medicine_and_its_bracketed_history_whole() -> None:
    said = voiced("medications", "Current (4/2/27): escitalopram 10 mg each morning (started 5 mg on 1/10/27; increased "
                  "to 10 mg on 2/1/27; missed 3 doses in January); levothyroxine 50 mcg daily (since 2019).", "female")
    assert said is not None and "escitalopram" in said and "levothyroxine" in said, said
    facts = compile_facts(EHR(chief_complaint="Panic at work.", history_of_present_illness="She has had panic at work since May.", medications=(
        "Current (4/2/27): escitalopram 10 mg each morning (started 5 mg on 1/10/27; increased to 10 mg on 2/1/27; "
        "missed 3 doses in January); levothyroxine 50 mcg daily (since 2019).")), "female")
    told = told_sentences(facts)
    assert "escitalopram" in told and "levothyroxine" in told, told
    assert "at night" not in " ".join(f.text for f in facts), [f.text for f in facts]  # "5 mg on 1/10/27" is a date


def test_an_acronym_label_names_a_topic_not_a_condition_she_has() -> None:
    said = voiced("history_of_present_illness", "ADHD: no childhood inattention by report.", "female") or ""
    assert "I had ADHD" not in said and "I have ADHD" not in said, said
