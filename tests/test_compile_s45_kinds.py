"""Stop 45 (issues 13, 14): the kind of writing each sentence of a narrative record is, read from the chart's
structure (compile.sentence_voices with compile.json's sentence_kinds): only the patient's own told history becomes
first-person speech. A clinician's impression, numbered recommendations, plan, examination, capacity finding, a
nursing entry, an order and relatives' histories under a family label inside another section stay chart knowledge.
Records written here for the test (no bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _facts(text: str, sex: str = "female", **sections):
    return compile_facts(EHR(chief_complaint="Mrs Ann Lowe: low mood.", history_of_present_illness=text, **sections), sex)


def test_impression_and_numbered_recommendations_are_the_writers() -> None:
    facts = _facts(
        "Low since the spring, sleeping four hours, stopped swimming.\n"
        "Impression (3 May):\n1. Depressive episode, moderate, with guilt and thoughts of death.\n2. Harmful alcohol use.\n"
        "Recommendations to the ward (numbered):\n1. Start mirtazapine 15 mg at night.\n"
        "2. Consider transfer to the inpatient unit if she expresses intent.\n\nShe walks the dog every morning.")
    said = told_sentences(facts)
    assert "swimming" in said and "dog" in said  # her told history, before and after, stays hers
    for chart in ("moderate", "Harmful", "mirtazapine", "transfer"):
        assert chart not in said, chart
    kept = [f for f in facts if "transfer" in f.text]
    assert kept and not any(f.told for f in kept)  # kept for the chart, not dropped


def test_a_nursing_entry_and_a_family_label_are_not_her_first_person() -> None:
    facts = _facts(
        "4/2/26 NURSING - NIGHT SHIFT (K. Lee, RN)\nD: Settled after her sister visited; the sister walks with a stick.\n"
        "R: Slept 3 h.\n\nFamily history: Father: died 2015 of a stroke, drank heavily. Aunt: depression.\n"
        "She cycles to work.")
    said = told_sentences(facts)
    assert "stick" not in said and "died 2015" not in said and "depression" not in said
    assert "cycle" in said


def test_an_order_by_its_shape_is_the_writers_and_a_label_inside_a_paragraph_kinds_only_its_sentence() -> None:
    facts = _facts(
        "Collapsed at the gym. ECG per paramedics: QTc 470. On gentle questioning she disclosed making herself sick "
        "after meals for two years. Exogenous causes must be excluded. Please check potassium daily.")
    said = told_sentences(facts)
    assert "sick" in said  # her disclosure after the inner ECG label is still hers
    assert "QTc" not in said and "excluded" not in said and "potassium" not in said


def test_a_relation_owning_a_noun_names_no_one() -> None:
    facts = _facts(
        "Coping: calls Gavin, her mother's neighbour, when low. Owes money on a card shared with Gavin.")
    said = told_sentences(facts)
    assert "my mum" not in said.lower() and "my mother" not in said.lower().replace("my mother's", "")
