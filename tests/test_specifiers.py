"""The specifiers of mood-episode codes (psychotic features, severity) as knowledge data (issue 15)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.knowledge.specifiers import load_specifiers, psychotic_conflict, severity_conflict


def test_codes_carry_their_specifiers():
    spec = load_specifiers()
    assert spec.psychotic("F32.3") is True and spec.psychotic("F32.2") is False and spec.psychotic("F31.12") is False
    assert spec.psychotic("F20.0") is None
    assert spec.grade("F31.12") == ("manic", "moderate") and spec.grade("F33.1") == ("depressed", "moderate")


def test_conflicts():
    assert psychotic_conflict("F31.12", {"grandiose_delusions"})  # mania "without psychotic features" beside a delusion
    assert psychotic_conflict("F31.2", {"grandiose_delusions"}) is None
    assert psychotic_conflict("F32.3", set())
    assert psychotic_conflict("F23", set()) is None
    assert psychotic_conflict("F32.2", set(), "severe depressive episode with psychotic (nihilistic) features")
    assert severity_conflict("F32.2", [("PHQ-9", "total 13/27 (moderate)")])
    assert severity_conflict("F32.2", [("PHQ-9", "total 13/27 (moderate)"), ("HAM-D", "31/52 (very severe)")]) is None
    assert severity_conflict("F32.2", [("YMRS", "30 (severe)")]) is None  # a mania scale says nothing of depression
    assert severity_conflict("F32.2", []) is None


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80), st.sampled_from(["F32.1", "F32.3", "F31.12", "F20.0", "", "F33"]))
def test_any_result_or_diagnosis_text_reads_without_error(text, code):
    spec = load_specifiers()
    psychotic, graded = spec.stated(code, text)
    assert psychotic in (True, False, None)
    assert graded is None or graded[1] in ("mild", "moderate", "severe")
    assert spec.scale_grades("depressed", [("PHQ-9", text)]) <= {"mild", "moderate", "severe"}
