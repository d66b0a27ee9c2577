"""score_chart: the study's ten columns, the breakdown, the details, and the Scores round trip."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.mentaleval import Judge, LLMJudge
from mentalhospital_env.rewards.mentaleval.ladders import calibration_case, exemplary_chart
from mentalhospital_env.rewards.scoring import STUDY_COLUMNS, Scorer, Scores, ScoringConfig, score_chart

from mentalhospital_env.llm import ScriptedClient


@pytest.fixture(scope="module")
def case():
    return calibration_case()


@pytest.fixture(scope="module")
def good(case):
    return exemplary_chart(case)


def test_a_good_chart_scores_high_on_every_column(case, good):
    scores = score_chart(case, good)
    cols = scores.columns()
    assert tuple(cols) == STUDY_COLUMNS
    assert cols["cate"] == 1.0 and cols["diso"] == pytest.approx(1.0) and cols["exam"] == 1.0
    assert 0.0 < cols["inter"] <= 1.0 and 0.5 < cols["note"] <= 1.0
    assert all(cols[c] >= 4.0 for c in ("emp", "prof", "qual", "rigor", "app"))
    assert {"chief_complaint", "mental_status"} <= set(scores.breakdown["interview"])
    assert {"chief_complaint", "mental_status"} <= set(scores.breakdown["note"])
    assert scores.details["category"]["f1"] == 1.0
    assert scores.details["exam"]["recall"] == 1.0 and scores.details["exam"]["precision"] == 1.0


def test_an_empty_chart_scores_zero_and_one(case):
    scores = score_chart(case, Chart())
    cols = scores.columns()
    assert all(cols[c] == 0.0 for c in ("inter", "exam", "note", "cate", "diso"))
    assert all(cols[c] == 1.0 for c in ("emp", "prof", "qual", "rigor", "app"))


def test_wrong_diagnosis_and_extra_exams_lower_their_columns(case, good):
    worse = replace(
        good,
        categories=("depressive",),
        disorders=("F32.1", "F31.2"),
        exams=good.exams + ("MRI brain", "EEG"),
    )
    scores = score_chart(case, worse)
    assert scores.cate == 0.0
    assert 0.0 < scores.diso < 1.0
    assert scores.exam == 1.0  # coverage of the indicated exams is unchanged
    assert scores.details["exam"]["precision"] < 1.0


def test_no_judge_leaves_the_rubric_columns_empty(case, good):
    scores = score_chart(case, good, ScoringConfig(judge="none"))
    assert all(getattr(scores, c) is None for c in ("emp", "prof", "qual", "rigor", "app"))
    assert scores.cate == 1.0


class _BrokenJudge(Judge):
    name = "broken"

    def _score_dimensions(self, case, chart, dimensions):
        raise RuntimeError("judge backend down")


def test_a_failing_judge_masks_its_columns_and_says_why(case, good):
    scores = score_chart(case, good, ScoringConfig(judge=_BrokenJudge()))
    assert scores.emp is None and scores.app is None
    assert "judge backend down" in scores.details["judge_error"]
    assert scores.diso == pytest.approx(1.0)
    unreadable = score_chart(case, good, ScoringConfig(judge=LLMJudge(ScriptedClient(lambda c: "hmm"))))
    assert unreadable.qual is None


def test_an_llm_judge_sees_many_charts_in_one_batch(case, good):
    client = ScriptedClient(lambda conversation: "Score: 3")
    scorer = Scorer(ScoringConfig(judge=LLMJudge(client)))
    results = scorer.score_many([(case, good), (case, good), (case, Chart())])
    assert len(client.calls) == 1
    assert results[0].emp == 3.0 and results[2].emp == 1.0


def test_scores_round_trip_through_json(case, good):
    scores = score_chart(case, good)
    again = Scores.from_dict(json.loads(json.dumps(scores.to_dict())))
    assert again.columns() == scores.columns()
    assert again.breakdown == scores.breakdown
    masked = Scores.from_dict({**scores.to_dict(), "emp": None})
    assert masked.emp is None
    with pytest.raises(ValueError, match="'inter' is missing"):
        Scores.from_dict({"exam": 1.0})
    with pytest.raises(ValueError, match="'diso' must be a number"):
        Scores.from_dict({**scores.to_dict(), "diso": "high"})


def test_config_checks_its_fields():
    with pytest.raises(ValueError, match="family_credit"):
        ScoringConfig(family_credit=2.0)
    with pytest.raises(TypeError, match="matcher"):
        Scorer(ScoringConfig(matcher="hashing"))


_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80)
_WORDS = st.sampled_from(
    ["F32.1", "F31.2", "bipolar", "MDD", "lithium 400 mg", "Plan:", "MSE:", "suicide?", "", "  ", "PHQ9"]
)
_PIECE = st.one_of(_TEXT, _WORDS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(_PIECE, _PIECE), max_size=4),
    st.one_of(st.none(), st.lists(_PIECE, max_size=4)),
    st.one_of(st.none(), _PIECE),
    st.one_of(st.none(), st.lists(_PIECE, max_size=3)),
    st.one_of(st.none(), st.lists(_PIECE, max_size=4)),
    st.one_of(st.none(), _PIECE),
)
def test_any_chart_scores_inside_the_scales_without_raising(
    case, turns, exams, note, categories, disorders, plan
):
    chart = Chart(
        turns=tuple(Turn(d, p) for d, p in turns),
        exams=tuple(exams) if exams is not None else None,
        note=note,
        categories=tuple(categories) if categories is not None else None,
        disorders=tuple(disorders) if disorders is not None else None,
        treatment=plan,
    )
    scores = score_chart(case, chart)
    for column in ("inter", "exam", "note", "cate", "diso"):
        assert 0.0 <= getattr(scores, column) <= 1.0
    for column in ("emp", "prof", "qual", "rigor", "app"):
        assert 1.0 <= getattr(scores, column) <= 5.0
    assert scores.details["judge_error"] is None


def test_a_chart_read_twice_gives_the_first_reading_and_an_equal_new_chart_the_same(case, good):
    """The note's claim check, its faults and the plan's critical-action check are remembered per encounter (the
    judge and the scorer's details both read them): the same objects give the very reading, a copy of the chart
    (a new object) is read afresh and agrees, and a changed note is not served the old reading."""
    from mentalhospital_env.rewards.mentaleval.note_faults import note_faults
    from mentalhospital_env.rewards.mentaleval.precision import check_note, encounter_evidence

    from mentalhospital_env.knowledge.critical import load_critical_actions

    for read in (check_note, note_faults, encounter_evidence):
        first = read(case, good)
        assert read(case, good) is first
        copy = replace(good)
        assert copy is not good and read(case, copy) == first
        assert read.__wrapped__(case, good) == first
    changed = replace(good, note=(good.note or "") + "\nRisk: denies suicidal ideation; hears voices.")
    assert check_note(case, changed) == check_note.__wrapped__(case, changed) != check_note(case, good)
    actions = load_critical_actions()
    profile = actions.case_profile(case)
    plan = good.treatment or ""
    assert actions.check(profile, plan) is actions.check(actions.profile(case), plan)
    assert actions.check(profile, plan) == actions._check(profile, plan)
    assert actions.check(profile, "Lithium 400 mg at night.") == actions._check(profile, "Lithium 400 mg at night.")
