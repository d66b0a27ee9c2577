"""Diagnosis and exam scorers: category P/R/F1, disorder nDCG (checked against scikit-learn), exams."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mentalhospital_env.rewards.ranking import (
    category_scores,
    exam_scores,
    ndcg,
    normalize_category,
    rank_disorders,
    reference_gains,
    resolve_disorder_code,
    set_scores,
)
from sklearn.metrics import ndcg_score

# Codes of distinct three-character families, so that exact-code nDCG has no family credit.
FAMILY_HEADS = [
    "F32.1",
    "F41.1",
    "F20.9",
    "F31.81",
    "F43.10",
    "F50.2",
    "F60.3",
    "F90.2",
    "F42.2",
    "F10.20",
    "F51.01",
    "F84.0",
    "F22",
    "F23",
    "F05",
]


def test_set_scores_formulas():
    s = set_scores(["a", "b", "c"], ["b", "c", "d", "e"])
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == pytest.approx(0.5)
    assert s.f1 == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert s.exact == 0.0
    assert set_scores(["a", "a", "b"], ["b", "a"]).exact == 1.0
    assert set_scores([], ["a"]).f1 == 0.0
    assert set_scores([], []).f1 == 1.0


def test_category_scores_accepts_names_and_counts_duplicates_once():
    s = category_scores(["Depressive", "depressive", "anxiety"], ["depressive", "anxiety"])
    assert (s.precision, s.recall, s.f1, s.exact) == (1.0, 1.0, 1.0, 1.0)
    s = category_scores(["depressive", "bipolar"], ["depressive", "anxiety"])
    assert s.precision == 0.5 and s.recall == 0.5 and s.exact == 0.0
    assert category_scores(None, ["depressive"]).f1 == 0.0
    assert category_scores(["not a category"], ["depressive"]).precision == 0.0


@pytest.mark.parametrize(
    "label, category",
    [
        ("Bipolar and related disorders", "bipolar"),
        ("Trauma- and stressor-related disorders", "trauma_stressor"),
        ("disruptive, impulse-control and conduct", "disruptive_impulse_conduct"),
        ("substance-related", "substance_related"),
        ("Schizophrenia spectrum", "schizophrenia_spectrum"),
        ("sleep-wake", "sleep_wake"),
        ("OBSESSIVE_COMPULSIVE", "obsessive_compulsive"),
    ],
)
def test_category_names_fold_to_ids(label, category):
    assert normalize_category(label) == category


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0, 10, allow_nan=False), min_size=2, max_size=12), st.randoms(use_true_random=False)
)
def test_ndcg_matches_sklearn_on_random_relevance(relevance, rnd):
    order = list(range(len(relevance)))
    rnd.shuffle(order)
    scores = np.zeros(len(relevance))
    for rank, item in enumerate(order):
        scores[item] = len(order) - rank  # distinct scores: no ties
    ours = ndcg([relevance[i] for i in order], relevance)
    if sum(relevance) == 0:
        assert ours == 0.0
        return
    theirs = ndcg_score([relevance], [scores])
    assert ours == pytest.approx(theirs, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_disorder_ndcg_matches_sklearn_on_random_rankings(data):
    reference = data.draw(st.lists(st.sampled_from(FAMILY_HEADS[:10]), min_size=1, max_size=5, unique=True))
    distractors = [c for c in FAMILY_HEADS if c not in reference]
    extra = data.draw(st.lists(st.sampled_from(distractors), max_size=4, unique=True))
    predicted = data.draw(st.permutations(reference + extra))
    ours = rank_disorders(predicted, reference).ndcg
    gains = dict(zip(reference, reference_gains(reference)))
    y_true = [gains.get(c, 0.0) for c in predicted]
    y_score = [len(predicted) - i for i in range(len(predicted))]
    if len(predicted) == 1:
        assert ours == pytest.approx(1.0)
    else:
        assert ours == pytest.approx(ndcg_score([y_true], [y_score]), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_leaving_out_reference_disorders_is_ndcg_at_k_rescaled(data):
    reference = data.draw(st.lists(st.sampled_from(FAMILY_HEADS), min_size=3, max_size=6, unique=True))
    predicted = data.draw(st.permutations(reference))[: data.draw(st.integers(2, len(reference) - 1))]
    gains = dict(zip(reference, reference_gains(reference)))
    # sklearn over the whole reference with predicted items on top gives nDCG@k with IDCG@k.
    rest = [c for c in reference if c not in predicted]
    items = predicted + rest
    y_true = [gains[c] for c in items]
    y_score = [len(items) - i for i in range(len(items))]
    k = len(predicted)
    at_k = ndcg_score([y_true], [y_score], k=k)
    ideal = sorted(gains.values(), reverse=True)
    idcg_k = sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:k]))
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    assert rank_disorders(predicted, reference).ndcg == pytest.approx(at_k * idcg_k / idcg, abs=1e-9)
    assert rank_disorders(predicted, reference).ndcg < 1.0


def test_graded_relevance_and_family_credit():
    reference = ["F32.1", "F41.1", "F10.20"]
    assert reference_gains(reference) == [3.0, 2.0, 1.0]
    perfect = rank_disorders(reference, reference)
    assert perfect.ndcg == pytest.approx(1.0)
    swapped = rank_disorders(["F41.1", "F32.1", "F10.20"], reference).ndcg
    assert 0 < swapped < 1
    # Same family (F32.2 for F32.1) earns half of the principal's gain; an unrelated code earns nothing.
    family = rank_disorders(["F32.2", "F41.1", "F10.20"], reference)
    wrong = rank_disorders(["F20.9", "F41.1", "F10.20"], reference)
    assert wrong.ndcg < family.ndcg < perfect.ndcg
    assert family.entries[0][2] == pytest.approx(1.5)
    # A reference disorder is credited once: a second code of the same family earns nothing more.
    twice = rank_disorders(["F32.1", "F32.2"], ["F32.1"])
    assert twice.ndcg == pytest.approx(1.0)
    assert twice.entries[1][2] == 0.0
    # An exact match later in the list takes precedence over a family match earlier.
    later = rank_disorders(["F31.2", "F31.81"], ["F31.81", "F31.4"])
    assert later.entries[1][3] == "F31.81" and later.entries[0][3] == "F31.4"
    assert 0 < later.ndcg <= 1.0


def test_duplicates_count_once_and_junk_keeps_its_rank():
    reference = ["F32.1", "F41.1"]
    assert rank_disorders(["F32.1", "f32.1", "F32.1", "F41.1"], reference).ndcg == pytest.approx(1.0)
    assert rank_disorders(["F321", "F41.1"], reference).ndcg == pytest.approx(1.0)
    pushed = rank_disorders(["something else", "F32.1", "F41.1"], reference).ndcg
    assert pushed < 1.0
    assert rank_disorders(None, reference).ndcg == 0.0
    assert rank_disorders([], reference).ndcg == 0.0
    assert rank_disorders(["1. F32.1 major depression", "2) F41.1"], reference).ndcg == pytest.approx(1.0)


def test_names_and_synonyms_resolve_through_the_knowledge_base():
    knowledge = pytest.importorskip("mentalhospital_env.knowledge")
    if not hasattr(knowledge, "load_knowledge"):
        pytest.fail("mentalhospital_env.knowledge.load_knowledge is missing (knowledge base not landed)")
    assert resolve_disorder_code("Generalized anxiety disorder") == "F41.1"
    assert resolve_disorder_code("generalized anxiety disorder") == "F41.1"
    assert resolve_disorder_code("Major depressive disorder, single episode, moderate") == "F32.1"
    assert resolve_disorder_code("completely unknown condition xyz") is None
    assert resolve_disorder_code("2. Generalized anxiety disorder") == "F41.1"
    assert resolve_disorder_code("- GAD") == "F41.1"
    assert resolve_disorder_code("Bipolar disorder, manic, with psychosis (F31.2)") == "F31.2"
    assert resolve_disorder_code("Schizophrenia [F20.9]") == "F20.9"
    reference = ["F32.1", "F41.1"]
    by_name = rank_disorders(
        ["Major depressive disorder, single episode, moderate", "Generalized anxiety disorder"], reference
    )
    assert by_name.ndcg == pytest.approx(1.0)


def test_exam_scores_resolve_aliases_and_count_duplicates_once():
    knowledge = pytest.importorskip("mentalhospital_env.knowledge")
    if not hasattr(knowledge, "load_knowledge"):
        pytest.fail("mentalhospital_env.knowledge.load_knowledge is missing (knowledge base not landed)")
    s = exam_scores(["PHQ9", "phq-9", "TSH", "MRI brain"], ["PHQ-9", "TSH", "CBC"])
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == pytest.approx(2 / 3)
    assert exam_scores(None, ["PHQ-9"]).f1 == 0.0
    assert exam_scores(["thyroid stimulating hormone"], ["TSH"]).f1 == 1.0
