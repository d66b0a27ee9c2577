"""Issue 14, stop 41: generated records a psychiatrist believes. A blind reader rated drawn test-v2 records
2.5 of 5 and listed the same mental state pasted across records of one diagnosis, an adult's life (marital
status, a neighbour threatened, calls not returned, an adolescent dose) in children's records, and closing
words that contradict the patient's insight. These tests draw fresh records through the public API."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.cases.audit import audit_case
from mentalhospital_env.cases.generator import generate_case

DATA = Path(__file__).resolve().parents[1] / "mentalhospital_env" / "cases" / "generator" / "data"
FIELDS = ("appearance", "behavior", "speech", "mood", "affect", "thought_process", "thought_content", "perception", "cognition")
ADULT_LIFE = re.compile(r"threatened a neighbou?r|returning (?:her |his |their )?calls|\((?:adults?|adolescents?)\)|only if psychotherapy|making tea", re.I)


def _draw(code: str, seeds) -> list:
    return [load_case(generate_case(random.Random(s), f"s41-{code}-{s}", principal=code, version=2)) for s in seeds]


def _text(case) -> str:
    parts = [v for v in vars(case.ehr).values() if isinstance(v, str)]
    parts += [v for v in vars(case.ehr.mental_status_exam).values() if isinstance(v, str)]
    if case.ehr.risk_assessment is not None:
        parts += [v for v in vars(case.ehr.risk_assessment).values() if isinstance(v, str)]
    return " ".join(parts + [case.treatment.plan])


@pytest.mark.parametrize("code", ["F93.0", "F91.3", "F90.0", "F84.0"])
def test_a_childs_record_holds_no_adults_life(code: str) -> None:
    own = json.loads((DATA / "story.json").read_text(encoding="utf-8"))["record_story"]["own_words"]
    children = [c for c in _draw(code, range(1, 13)) if c.demographics.age < 16]
    assert children, "the draw holds children"
    for case in children:
        assert case.demographics.marital_status is None, (case.case_id, case.demographics.marital_status)
        if case.demographics.age < 13:
            text = _text(case)
            assert not ADULT_LIFE.search(text), (case.case_id, ADULT_LIFE.search(text).group(0))
            assert not any(q in case.ehr.history_of_present_illness for q in own), case.case_id
        assert audit_case(case) == []


def test_a_step_condition_follows_the_dose_and_no_age_label_is_left() -> None:
    plans = [c.treatment.plan for c in _draw("F93.0", range(1, 13))]
    assert any("sertraline" in p for p in plans)
    for plan in plans:
        assert "(adolescents)" not in plan and "insufficient" not in plan, plan
        if "has not been enough" in plan:
            assert re.search(r"sertraline \d+ mg once daily if psychotherapy alone has not been enough\.", plan), plan


@pytest.mark.parametrize("code", ["F31.2", "F20.0"])
def test_closing_words_never_claim_an_illness_the_patient_does_not_see(code: str) -> None:
    story = json.loads((DATA / "story.json").read_text(encoding="utf-8"))["record_story"]["own_words"]
    allowed = set(json.loads((DATA / "records.json").read_text(encoding="utf-8"))["own_words_fit"]["without_insight"])
    for case in _draw(code, range(1, 9)):
        said = [q for q in story if q in case.ehr.history_of_present_illness and q not in allowed]
        assert not said, (case.case_id, said)


@pytest.mark.parametrize("code", ["F20.0", "F32.1", "F41.1"])
def test_mental_states_of_one_diagnosis_are_not_pasted(code: str) -> None:
    """Of 12 records of one diagnosis, few pairs repeat four or more descriptive headings word for word."""
    cases = _draw(code, range(1, 13))
    pasted = 0
    for a, b in itertools.combinations(cases, 2):
        ma, mb = vars(a.ehr.mental_status_exam), vars(b.ehr.mental_status_exam)
        same = [k for k in FIELDS if ma.get(k) and ma.get(k) == mb.get(k) and len(ma[k].split()) >= 3]
        pasted += len(same) >= 4
    assert pasted <= 3, pasted
