"""Judge agreement metrics checked against scikit-learn on random inputs, and the seeded bootstrap."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mentalhospital_env.rewards.agreement import (
    RATING_LABELS,
    agreement,
    bootstrap,
    exact_accuracy,
    mean_absolute_error,
    quadratic_weighted_kappa,
)
from sklearn.metrics import accuracy_score, cohen_kappa_score
from sklearn.metrics import mean_absolute_error as sk_mae

ratings = st.integers(1, 5)
pairs = st.lists(st.tuples(ratings, ratings), min_size=1, max_size=60)


def _sk_qwk(a, b, labels=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cohen_kappa_score(a, b, labels=labels, weights="quadratic")


@settings(max_examples=150, deadline=None)
@given(pairs)
def test_qwk_matches_sklearn(rows):
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    ours, theirs = quadratic_weighted_kappa(a, b), _sk_qwk(a, b)
    if math.isnan(theirs):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(theirs, abs=1e-9)
    ours, theirs = quadratic_weighted_kappa(a, b, RATING_LABELS), _sk_qwk(a, b, list(RATING_LABELS))
    if math.isnan(theirs):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(theirs, abs=1e-9)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.sampled_from(["a", "b", "c", "d"])),
        min_size=2,
        max_size=30,
    )
)
def test_qwk_matches_sklearn_on_string_labels(rows):
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    ours, theirs = quadratic_weighted_kappa(a, b), _sk_qwk(a, b)
    assert (math.isnan(ours) and math.isnan(theirs)) or ours == pytest.approx(theirs, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(pairs)
def test_accuracy_matches_sklearn(rows):
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    assert exact_accuracy(a, b) == pytest.approx(accuracy_score(a, b))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.floats(1, 5), st.floats(1, 5)), min_size=1, max_size=60))
def test_mae_matches_sklearn(rows):
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    assert mean_absolute_error(a, b) == pytest.approx(sk_mae(a, b), abs=1e-9)


def test_masked_scores_are_left_out_not_counted_as_disagreement():
    ref = [1, 2, 3, 4, 5]
    pred = [1, None, 3, None, 5]
    assert exact_accuracy(ref, pred) == 1.0
    assert mean_absolute_error(ref, pred) == 0.0
    assert quadratic_weighted_kappa(ref, pred) == pytest.approx(1.0)
    assert math.isnan(exact_accuracy([1], [None]))
    with pytest.raises(ValueError, match="equal-length"):
        exact_accuracy([1, 2], [1])


def test_perfect_and_reversed_agreement():
    assert quadratic_weighted_kappa([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]) == pytest.approx(1.0)
    assert quadratic_weighted_kappa([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]) == pytest.approx(-1.0)


def test_bootstrap_is_seeded_and_brackets_the_estimate():
    ref = [1, 2, 3, 4, 5, 3, 2, 4, 5, 1, 2, 3] * 3
    pred = [1, 2, 4, 4, 5, 3, 1, 4, 4, 2, 2, 3] * 3
    one = bootstrap(exact_accuracy, ref, pred, resamples=300, seed=7)
    two = bootstrap(exact_accuracy, ref, pred, resamples=300, seed=7)
    other = bootstrap(exact_accuracy, ref, pred, resamples=300, seed=8)
    assert one == two
    assert one != other
    assert one.low <= one.value <= one.high
    assert 0 < one.high - one.low < 0.5
    assert one.n == len(ref)
    narrow = bootstrap(exact_accuracy, ref, pred, resamples=300, seed=7, confidence=0.5)
    assert one.low <= narrow.low <= narrow.high <= one.high


def test_agreement_report_rounds_fractional_scores_for_kappa_and_accuracy():
    ref = [1, 2, 3, 4, 5, 2, 3, 4]
    judge = [1.2, 2.4, 2.6, 4.0, 4.9, None, 3.1, 3.4]
    report = agreement(ref, judge, resamples=200, seed=1)
    assert report.accuracy.value == pytest.approx(6 / 7)
    assert report.mae.value == pytest.approx(sum(abs(a - b) for a, b in zip(ref, judge) if b is not None) / 7)
    assert report.qwk.value == pytest.approx(
        _sk_qwk([1, 2, 3, 4, 5, 3, 4], [1, 2, 3, 4, 5, 3, 3], [1, 2, 3, 4, 5])
    )
    assert set(report.to_dict()) == {"qwk", "accuracy", "mae"}


def test_agreement_by_dimension_pairs_verdicts():
    from mentalhospital_env.rewards.agreement import agreement_by_dimension

    reference = [
        {"empathy": 4, "professionalism": 3},
        {"empathy": 2, "professionalism": 5},
        {"empathy": 5, "professionalism": 1},
    ]
    judged = [
        {"empathy": 4.0, "professionalism": None},
        {"empathy": 3.0, "professionalism": 5.0},
        {"empathy": 5.0},
    ]
    table = agreement_by_dimension(reference, judged, resamples=50)
    assert set(table) == {"empathy", "professionalism"}
    assert table["empathy"].accuracy.value == pytest.approx(2 / 3)
    assert table["professionalism"].accuracy.n == 1
    with pytest.raises(ValueError, match="reference verdicts"):
        agreement_by_dimension(reference, judged[:2])
