"""Summary statistics for result files: mean, standard error and a 95% interval.

The interval is mean ± t(0.975, n-1) · SE (Student's t, two-sided), which is what a reader of a
leaderboard expects for a handful to a few hundred episodes; the quantiles are tabulated here so the
core package does not need SciPy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

# two-sided 95% quantiles of Student's t for 1..30 degrees of freedom
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (normal beyond 120)."""
    if df < 1:
        return math.nan
    if df <= 30:
        return _T975[df - 1]
    if df <= 40:
        return 2.042 + (2.021 - 2.042) * (df - 30) / 10
    if df <= 60:
        return 2.021 + (2.000 - 2.021) * (df - 40) / 20
    if df <= 120:
        return 2.000 + (1.980 - 2.000) * (df - 60) / 60
    return 1.960


@dataclass(frozen=True)
class Summary:
    """Mean, standard error and 95% interval of one metric over ``n`` episodes (``n`` excludes masked values)."""

    mean: float | None
    se: float | None
    ci_low: float | None
    ci_high: float | None
    n: int

    def to_dict(self) -> dict[str, float | int | None]:
        return {"mean": self.mean, "se": self.se, "ci95": [self.ci_low, self.ci_high], "n": self.n}

    @classmethod
    def from_dict(cls, raw: dict) -> "Summary":
        low, high = raw.get("ci95", [None, None])
        return cls(raw.get("mean"), raw.get("se"), low, high, int(raw.get("n", 0)))


def summarize(values: Iterable[float | None]) -> Summary:
    """Summarise the non-missing values (``None`` marks a masked score, e.g. a failed judge)."""
    xs = [float(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    n = len(xs)
    if n == 0:
        return Summary(None, None, None, None, 0)
    mean = sum(xs) / n
    if n == 1:
        return Summary(mean, None, None, None, 1)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    se = math.sqrt(var / n)
    half = t_quantile_975(n - 1) * se
    return Summary(mean, se, mean - half, mean + half, n)
