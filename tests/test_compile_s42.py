"""Stop 42 (issue 13): how a narrative record's structure decides what the patient can say. A writer's
disclosure note is a gate on its fact, never words; a sentence about the patient's own things that names no
one is said as it stands. Records written here for the test, in the shape of a US consult note and a UK letter."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts, disclosure_gates
from mentalhospital_env.cases.model import EHR


def _facts(sex: str = "female", **sections: str):
    cc = sections.pop("chief_complaint", "")
    hpi = sections.pop("history_of_present_illness", "")
    return compile_facts(EHR(chief_complaint=cc, history_of_present_illness=hpi, **sections), sex)


def test_a_disclosure_note_is_taken_out_and_gates_its_sentence_or_paragraph() -> None:
    text, gated = disclosure_gates(
        "Took her son to school at 8 (how he got there: told only when asked about driving). Home by nine.\n\n"
        "Guns (told only when asked directly about guns or weapons in the home; not raised by pt): her boyfriend "
        "owns a handgun, kept loaded in his nightstand. A rifle is locked in the basement.\n\nSleeps badly.")
    assert "told only" not in text and "not raised" not in text
    assert "Guns: her boyfriend owns a handgun" in text
    words = [" ".join(sorted(g)) for g in gated]
    assert any("school" in w for w in words) and any("handgun" in w for w in words) and any("rifle" in w for w in words)
    assert not any("nine" in w or "sleeps" in w for w in words)  # the sentences no note is about stay open


def test_a_text_without_notes_comes_back_as_it_is() -> None:
    plain = "She says she was told off at school (aged 9). Asked about sleep, she said it is fine."
    assert disclosure_gates(plain) == (plain, [])


def test_a_gated_fact_is_sensitive_and_the_note_is_never_said() -> None:
    facts = _facts(history_of_present_illness=(
        "She feels low most days. She drives her son to school every weekday in her own car "
        "(told only when asked directly about driving)."))
    driving = [f for f in facts if "drives" in f.text]
    assert driving and all(f.sensitive for f in driving)
    said = " ".join(f.patient_says or "" for f in facts)
    assert "told only" not in said and "asked directly" not in said
    assert not any(f.sensitive for f in facts if "low" in f.text)


def test_a_sentence_about_the_patients_own_things_is_said_as_it_stands() -> None:
    facts = _facts(history_of_present_illness=(
        "The panic settled but the unreality never fully went. Sertraline was started a year ago and increased in "
        "the spring with no change at all."))
    said = [f.patient_says for f in facts if f.told]
    assert "The panic settled but the unreality never fully went." in said
    assert any(s and s.startswith("Sertraline was started a year ago") for s in said)


def test_what_someone_else_did_or_a_fragment_is_not_said_impersonally() -> None:
    facts = _facts(sex="male", history_of_present_illness=(
        "The school nurse wondered about fainting. Karen describes two different stories. "
        "Since the summer has eaten no breakfast."), personal_history="History degree, graduated at 22.")
    said = " ".join(f.patient_says or "" for f in facts if f.told)
    for words in ("nurse wondered", "Karen describes", "Since the summer has eaten", "History degree, graduated"):
        assert words not in said
