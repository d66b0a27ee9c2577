"""Exam results for synthetic cases, written from the exam catalog of the knowledge base.

A disorder's work-up (``disorders.json`` ``exams``) says which exams it calls for and what they
should show: ``reading`` normal or abnormal, a scale ``band`` or a named ``finding``. These
functions turn one such expectation into the result text the hospital has on file: a score inside
the band for a scale, a value inside or outside the reference range for a lab, a report for imaging
and physiological tests.
"""

from __future__ import annotations

import random
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from typing import Any, Mapping

Entry = Mapping[str, Any]


@dataclass(frozen=True)
class Expectation:
    """What an exam should show in a case: a reading and, optionally, a band, a finding or a direction."""

    exam: str
    reading: str = "normal"  # "normal" | "abnormal"
    band: str | None = None
    finding: str | None = None
    direction: str | None = None  # "high" | "low", for labs with a reference range

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any]) -> "Expectation":
        return cls(
            exam=spec["exam"],
            reading=spec.get("reading", "normal"),
            band=spec.get("band"),
            finding=spec.get("finding"),
            direction=spec.get("direction"),
        )

    @property
    def abnormal(self) -> bool:
        return self.reading == "abnormal"


class _Fields(dict):
    """Template fields; an unknown placeholder is left as written rather than raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(template: str, **fields: Any) -> str:
    return template.format_map(_Fields(fields))


def is_normal_band(entry: Entry, band: Mapping[str, Any]) -> bool:
    """Whether a scale band is the unremarkable one (``"normal": true``, or the first band when unmarked)."""
    if "normal" in band:
        return bool(band["normal"])
    return band is entry["bands"][0]


def band_of(entry: Entry, score: float) -> Mapping[str, Any] | None:
    """The band of a scale that a score falls in."""
    for band in entry.get("bands", ()):
        if band["min"] <= score <= band["max"]:
            return band
    return None


def _score_in(rng: random.Random, low: float, high: float, step: float) -> float:
    steps = int(round((high - low) / step))
    value = low + step * rng.randint(0, max(steps, 0))
    return round(value, 3)


def _format_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def scale_result(entry: Entry, expectation: Expectation, rng: random.Random) -> str:
    """A score inside the expected band (or any abnormal band / the normal band) and its report text."""
    bands = list(entry.get("bands", ()))
    low, high = entry.get("score_range", (0, 0))
    step = entry.get("score_step", 1) or 1
    chosen = None
    if expectation.band is not None:
        chosen = next((b for b in bands if b["label"].lower() == expectation.band.lower()), None)
    if chosen is None and bands:
        wanted = [b for b in bands if is_normal_band(entry, b) != expectation.abnormal]
        chosen = rng.choice(wanted or bands)
    if chosen is not None:
        b_low, b_high = max(low, chosen["min"]), min(high, chosen["max"])
        typical = entry.get("typical_max")
        if typical is not None and b_low < typical < b_high:
            # an open top band: scores thin out above its floor and beyond the typical maximum are rare
            score = round(b_low + step * round((rng.triangular(b_low, typical, b_low) - b_low) / step), 3)
        else:
            score = _score_in(rng, b_low, b_high, step)
        if score >= high >= 20 and b_high > b_low and not is_normal_band(entry, chosen):  # every item at its ceiling is not a total a reader believes (SI-R 92/92)
            score = max(b_low, high - step * rng.randint(1, max(1, int(round((b_high - b_low) / step / 3)))))
        label = chosen["label"]
    else:
        score, label = _score_in(rng, low, high, step), ""
    template = entry.get("abnormal_result" if expectation.abnormal else "normal_result") or "total {score}/{max} ({band})"
    return _fill(template, score=_format_number(score), band=label, max=_format_number(high), min=_format_number(low))


def _decimals(low: float, high: float) -> int:
    def places(x: float) -> int:
        text = f"{x:g}"
        return len(text.split(".")[1]) if "." in text else 0

    d = max(places(low), places(high))
    if high - low < 1.5:
        d += 1
    return d


def lab_value(entry: Entry, expectation: Expectation, rng: random.Random) -> tuple[float, str | None]:
    """A value for a lab with a reference range, and its flag (``"high"``/``"low"``, ``None`` when normal)."""
    low, high = entry["reference_range"]
    places = _decimals(low, high)
    if not expectation.abnormal:
        value = rng.uniform(low + 0.1 * (high - low), high - 0.1 * (high - low)) if high > low else low
        return round(value, places), None
    direction = expectation.direction or entry.get("abnormal_direction", "high")
    if direction == "either":
        direction = rng.choice(["high", "low"]) if low > 0 else "high"
    narrow = high > 0 and (high - low) / high < 0.5  # a tight therapeutic or physiological range
    if direction == "low" and low > 0:
        value = low * (rng.uniform(0.55, 0.92) if narrow else rng.uniform(0.4, 0.85))
        result = round(value, places)
        if result >= low:  # rounding must not put it back inside the range
            result = round(low - 10 ** -places, places)
        return result, "low"
    if narrow:
        value = high * rng.uniform(1.1, 1.5)
    elif low == 0:
        value = high * rng.uniform(3.0, 15.0)
    else:
        value = high * rng.uniform(1.3, 3.0)
    result = round(value, places)
    if result <= high:
        result = round(high + 10 ** -places, places)
    return result, "high"


def lab_result(entry: Entry, expectation: Expectation, rng: random.Random) -> str:
    """The report of a single-value lab (``"6.8 mIU/L (high; reference 0.4-4.0)"``)."""
    value, flag = lab_value(entry, expectation, rng)
    low, high = entry["reference_range"]
    template = entry.get("abnormal_result" if flag else "normal_result") or "{value} {unit}"
    return _fill(
        template,
        value=_format_number(value),
        unit=entry.get("unit", ""),
        flag=flag or "normal",
        low=_format_number(low),
        high=_format_number(high),
    ).strip()


def _components_result(entry: Entry, rng: random.Random) -> str:
    """A normal multi-component panel with values varied inside each component's range."""
    parts = []
    for c in entry["components"]:
        low, high = c["reference_range"]
        places = _decimals(low, high)
        inner_low = low + 0.15 * (high - low) if low > 0 else high * 0.3
        value = round(rng.uniform(inner_low, high - 0.15 * (high - low)), places)
        parts.append(f"{c['name']} {_format_number(value)} {c['unit']}")
    return ", ".join(parts) + " (all within reference range)"


_REPORT_NUMBER = re.compile(r"(?<![\w^.-])(\d+(?:\.\d+)?)(?![\d.^])(?!\s*(?:C\b|%))")


def varied_report(text: str, rng: random.Random) -> str:
    """A normal report with its readings varied a little (pulse 72 -> 70, QTc 418 -> 427), so that
    not every patient on file has the same numbers. Small numbers, temperatures, percentages and
    exponents (``x10^9``) are left as written."""

    def vary(m: re.Match[str]) -> str:
        number = m.group(1)
        value = float(number)
        if value < 10:
            return number
        varied = value * rng.uniform(0.96, 1.04)
        return f"{varied:.1f}" if "." in number else str(int(round(varied)))

    return _REPORT_NUMBER.sub(vary, text)


def measured_values(entry: Entry, rng: random.Random, severity: float | None = None) -> dict[str, str]:
    """This patient's values for the exam's ``measures`` (a diary's latency, wakings, hours asleep):
    each drawn around the line from its ``mild`` to its ``severe`` value at ``severity`` (0-1; drawn
    when not given), a ``jitter`` either side, in ``step``s; a ``choices`` measure picks one text."""
    s = rng.random() if severity is None else min(1.0, max(0.0, severity))
    out: dict[str, str] = {}
    for mid, spec in (entry.get("measures") or {}).items():
        if mid.startswith("_") or not isinstance(spec, Mapping):
            continue
        if "choices" in spec:
            out[mid] = rng.choice(list(spec["choices"]))
            continue
        step = float(spec["step"])
        centre = spec["mild"] + s * (spec["severe"] - spec["mild"])
        jitter = float(spec.get("jitter", 0))
        value = centre + rng.uniform(-jitter, jitter)
        value = round(value / step) * step
        lo = spec.get("min", step)
        value = max(value, lo)
        out[mid] = _format_number(round(value, 3))
    return out


def report_result(entry: Entry, expectation: Expectation, rng: random.Random, severity: float | None = None) -> str:
    """A report for panels, imaging, physiological and other exams: a named finding, the catalog text,
    or the catalog template filled with this patient's ``measures``."""
    findings: Mapping[str, str] = entry.get("findings") or {}
    if not expectation.abnormal:
        if entry.get("components") and rng.random() < 0.7:
            return _components_result(entry, rng)
        return varied_report(entry.get("normal_result", "unremarkable"), rng)
    if expectation.finding and expectation.finding in findings:
        if entry.get("measures"):  # a named finding with this patient's values (a DEXA's Z-score)
            return _fill(findings[expectation.finding], **measured_values(entry, rng, severity))
        return findings[expectation.finding]
    if entry.get("measures"):
        return _fill(entry.get("abnormal_result", "abnormal"), **measured_values(entry, rng, severity))
    text = entry.get("abnormal_result", "abnormal")
    if "see finding" in text and findings:
        return findings[sorted(findings)[0]]
    return text


def exam_result(entry: Entry, expectation: Expectation, rng: random.Random, severity: float | None = None) -> str:
    """The result text of one exam of the catalog for one expectation (``severity``, 0-1, places a
    report's ``measures`` between the mild and the severe case)."""
    if entry.get("kind") == "scale" and entry.get("bands"):
        return scale_result(entry, expectation, rng)
    if entry.get("reference_range") is not None and entry.get("unit") is not None and not expectation.finding:
        return lab_result(entry, expectation, rng)
    return report_result(entry, expectation, rng, severity)
