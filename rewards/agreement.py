"""Agreement of a judge's scores with reference (expert) scores: QWK, exact accuracy and MAE.

The study's Table 5 reports each MentalEval dimension's quadratic weighted kappa (QWK), exact
accuracy and mean absolute error against expert scores. Each metric here takes two equal-length
sequences (reference first, then the judge's), drops pairs where either side is ``None`` (a masked
judge failure is not a disagreement), and :func:`agreement` adds seeded percentile-bootstrap
confidence intervals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

RATING_LABELS: tuple[int, ...] = (1, 2, 3, 4, 5)
"""The rubric scale of MentalEval; pass as ``labels`` so that kappa weights follow the 1..5 scale."""


def _paired(reference: Sequence[Any], predicted: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    if len(reference) != len(predicted):
        raise ValueError(
            f"agreement needs equal-length score lists: {len(reference)} reference vs {len(predicted)} predicted"
        )
    ref, pred = [], []
    for a, b in zip(reference, predicted):
        if a is None or b is None:
            continue
        if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
            continue
        ref.append(a)
        pred.append(b)
    return ref, pred


def quadratic_weighted_kappa(
    reference: Sequence[Any], predicted: Sequence[Any], labels: Sequence[Any] | None = None
) -> float:
    """Cohen's kappa with quadratic weights, as ``sklearn.metrics.cohen_kappa_score(weights="quadratic")``.

    With the ordered label list ``L`` (``labels``, or the sorted union of both sides), ``O`` the
    confusion matrix of counts, ``E = outer(row sums, column sums) / n`` and
    ``w_ij = (i - j)^2`` over label positions: ``kappa = 1 - sum(w * O) / sum(w * E)``. Returns
    ``nan`` when it is undefined (no pairs, or ``sum(w * E) == 0``, e.g. one label only), as
    scikit-learn does. Pairs with a label outside ``labels`` are ignored, as scikit-learn does.
    """
    ref, pred = _paired(reference, predicted)
    if labels is None:
        label_list = sorted(set(ref) | set(pred))
    else:
        label_list = list(labels)
    index = {label: i for i, label in enumerate(label_list)}
    k = len(label_list)
    observed = np.zeros((k, k), dtype=float)
    for a, b in zip(ref, pred):
        if a in index and b in index:
            observed[index[a], index[b]] += 1
    total = observed.sum()
    if total == 0 or k < 2:
        return float("nan")
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / total
    positions = np.arange(k, dtype=float)
    weights = (positions[:, None] - positions[None, :]) ** 2
    denominator = float((weights * expected).sum())
    if denominator == 0:
        return float("nan")
    return float(1.0 - (weights * observed).sum() / denominator)


def exact_accuracy(reference: Sequence[Any], predicted: Sequence[Any]) -> float:
    """Share of pairs where the judge gave exactly the reference score; ``nan`` with no pairs."""
    ref, pred = _paired(reference, predicted)
    if not ref:
        return float("nan")
    return sum(1 for a, b in zip(ref, pred) if a == b) / len(ref)


def mean_absolute_error(reference: Sequence[float], predicted: Sequence[float]) -> float:
    """``mean(|reference - predicted|)`` over the paired scores; ``nan`` with no pairs."""
    ref, pred = _paired(reference, predicted)
    if not ref:
        return float("nan")
    return float(np.mean(np.abs(np.asarray(ref, dtype=float) - np.asarray(pred, dtype=float))))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a percentile-bootstrap confidence interval ``[low, high]``."""

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def bootstrap(
    metric: Callable[[Sequence[Any], Sequence[Any]], float],
    reference: Sequence[Any],
    predicted: Sequence[Any],
    *,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Estimate:
    """``metric`` on the paired scores with a seeded percentile-bootstrap interval.

    Pairs (masked ones dropped) are resampled with replacement ``resamples`` times with
    ``numpy.random.default_rng(seed)``; resamples where the metric is undefined (``nan``) are left
    out; the interval is the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` percentiles of the
    rest. The same seed gives the same interval.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples!r}")
    ref, pred = _paired(reference, predicted)
    value = metric(ref, pred)
    n = len(ref)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(resamples, n))
    stats = []
    for idx in draws:
        s = metric([ref[i] for i in idx], [pred[i] for i in idx])
        if not math.isnan(s):
            stats.append(s)
    if not stats:
        return Estimate(value, float("nan"), float("nan"), n)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(np.asarray(stats), [alpha, 1 - alpha])
    return Estimate(float(value), float(low), float(high), n)


@dataclass(frozen=True)
class Agreement:
    """QWK, exact accuracy and MAE of one judge against reference scores, each with its interval."""

    qwk: Estimate
    accuracy: Estimate
    mae: Estimate

    def to_dict(self) -> dict[str, dict[str, float | int]]:
        return {"qwk": self.qwk.to_dict(), "accuracy": self.accuracy.to_dict(), "mae": self.mae.to_dict()}


def agreement(
    reference: Sequence[Any],
    predicted: Sequence[Any],
    *,
    labels: Sequence[Any] | None = RATING_LABELS,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Agreement:
    """Table 5's three numbers for one judge and one dimension, with bootstrap intervals.

    Scores that are not whole numbers (an averaging jury, the offline judge) are rounded to the
    nearest label for QWK and accuracy, not for MAE.
    """

    def rounded(values: Sequence[Any]) -> list[Any]:
        return [None if v is None else math.floor(float(v) + 0.5) for v in values]

    def qwk(a: Sequence[Any], b: Sequence[Any]) -> float:
        return quadratic_weighted_kappa(a, b, labels)

    r_ref, r_pred = rounded(reference), rounded(predicted)
    kw = {"resamples": resamples, "confidence": confidence, "seed": seed}
    return Agreement(
        qwk=bootstrap(qwk, r_ref, r_pred, **kw),
        accuracy=bootstrap(exact_accuracy, r_ref, r_pred, **kw),
        mae=bootstrap(mean_absolute_error, reference, predicted, **kw),
    )


def agreement_by_dimension(
    reference: Sequence[Mapping[str, Any]],
    judged: Sequence[Mapping[str, Any]],
    dimensions: Sequence[str] | None = None,
    **kwargs: Any,
) -> dict[str, Agreement]:
    """Table 5 for a judge: :func:`agreement` per dimension over paired verdicts.

    ``reference[i]`` and ``judged[i]`` are the ``{dimension: score}`` verdicts on the same sample (the
    form every MentalEval judge returns); ``dimensions`` defaults to those of the first reference
    verdict. A dimension missing from a verdict counts as masked. Keyword arguments go to
    :func:`agreement` (``labels``, ``resamples``, ``confidence``, ``seed``).
    """
    if len(reference) != len(judged):
        raise ValueError(
            f"agreement_by_dimension: {len(reference)} reference verdicts vs {len(judged)} judged"
        )
    names = list(dimensions) if dimensions is not None else list(reference[0]) if reference else []
    return {d: agreement([r.get(d) for r in reference], [j.get(d) for j in judged], **kwargs) for d in names}
