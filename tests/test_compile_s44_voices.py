"""Stop 44 (issue 13): one reading of who speaks each sentence of a narrative record (compile.sentence_voices).
A note's dated entries, their headings, an entry's verbless opening and a named person's label give the speaker
of what follows; another's words are kept for the chart, never the patient's first person; a pronoun for someone
else names the person it means, never a relative another person owns. Records written here for the test (no
bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _facts(text: str, sex: str = "female"):
    return compile_facts(EHR(chief_complaint="Mrs Ann Lowe: low mood.", history_of_present_illness=text), sex)


def test_an_entry_heading_gives_the_entry_to_the_relative_it_names() -> None:
    facts = _facts(
        "4/2/26 0900 NURSING NOTE (K. Lee, RN)\nSlept 5 h. Says she feels empty and cannot face breakfast.\n\n"
        "4/2/26 1400 COLLATERAL - PHONE CALL WITH SISTER (Dr P. Shah)\nTessa Lowe, 41, teacher. "
        "'She has always been the quiet one.' Thinks the tablets are 'doing nothing'. Will collect her on Friday.\n\n"
        "4/3/26 0930 PROGRESS NOTE (Dr P. Shah)\nShe walks to the shop every day now.")
    said = told_sentences(facts)
    assert "quiet one" not in said and "Friday" not in said and "doing nothing" not in said
    assert "empty" in said and "shop" in said  # the entries before and after are the patient's again
    kept = [f for f in facts if "Friday" in f.text]
    assert kept and not any(f.told for f in kept)  # kept for the chart, not dropped


def test_a_stamped_entry_opening_on_a_call_is_the_callers() -> None:
    facts = _facts(
        "12/5/26 1600 Phone call with father (Rob Lowe, 66), patient consented. Says she has not been eating. "
        "Right.\n\nShe says she eats once a day and walks the dog every morning.")
    said = told_sentences(facts)
    assert "not been eating" not in said and "Right" not in said and "I'm right" not in said
    assert "dog" in said


def test_a_named_persons_label_with_a_telling_word_is_theirs() -> None:
    facts = _facts(
        "Lives with her partner Owen (35). Argued with him weekly.\n\n"
        "Owen (phone, with consent, 5 min): 'She checks my phone, then she cries for a day.' Says he never hit her.\n\n"
        "Started sertraline 50 mg.")
    said = told_sentences(facts)
    assert "checks my phone" not in said and "I check" not in said and "never hit" not in said
    assert "sertraline" in said


def test_a_pronoun_never_becomes_a_relative_someone_else_owns() -> None:
    facts = _facts(
        "Found messages on her boyfriend Carl's phone; he left to stay at his brother's. "
        "She texted him 20 times. He blocked her.")
    said = told_sentences(facts)
    assert "My brother blocked me" not in said
    blocked = [f for f in facts if "blocked" in f.text and f.told]
    assert not blocked or blocked[0].patient_says.startswith(("Carl", "He"))


def test_a_relatives_labelled_quote_in_the_clinicians_paragraph_is_theirs() -> None:
    facts = _facts("Seen with her mother. Mother: 'She cries every night and won't leave the house.' "
                   "She says she has stopped going to work.")
    said = told_sentences(facts)
    assert "cries every night" not in said and "I cry" not in said
    assert "work" in said
