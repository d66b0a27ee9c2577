"""Lab and physiological results sampled per patient (generator version 2).

The knowledge base gives each exam a report text (a normal one, and named abnormal findings such as
"raised MCV" with a fixed example report). Version 1 copied those texts, so dozens of patients shared
one blood count. Here every value a report holds is drawn again for the patient: inside the reference
range of the patient's age band and sex when the report leaves it unflagged, beyond the limit on the
flagged side when it is flagged (``raised``, ``high``, ``low``), never outside what a living patient
has. Quoted reference ranges are rewritten to the patient's band. The ranges are the reviewer's
(``knowledge/data/review.json``), so the audit and the generator read the same facts.
"""

from __future__ import annotations

import random
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from functools import lru_cache
from typing import Mapping

from ..audit import _band, band_spec, review_facts

_ABNORMAL_WORDS = re.compile(r"\b(raised|high|low|elevated|reduced|arousal|tachycardi\w*|bradycardi\w*|hypotensi\w*|hypertensi\w*|fever|pyrexi\w*|obese|overweight|underweight|abnormal)\b", re.I)


@lru_cache(maxsize=None)
def _aliases() -> tuple[Mapping[str, str], re.Pattern[str]]:
    comps = review_facts()["labs"]["components"]
    alias = {a.lower(): name for name, c in comps.items() for a in c["aliases"]}
    names = sorted(alias, key=len, reverse=True)
    pattern = re.compile(r"(?<![A-Za-z])(" + "|".join(re.escape(a) for a in names) + r")(?::)?\s+(\d+(?:\.\d+)?)(?![\d.])(?!/\d)", re.I)
    return alias, pattern


def _places(number: str, low: float, high: float) -> int:
    given = len(number.split(".")[1]) if "." in number else 0
    return max(given, 1 if high - low < 3 else 0)


def _fmt(value: float, places: int) -> str:
    return f"{value:.{places}f}" if places else str(int(round(value)))


def _draw(side: str, spec: list[float], rng: random.Random, places: int) -> float:
    ref_low, ref_high, plaus_low, plaus_high = spec
    span = ref_high - ref_low
    for _ in range(20):
        if side == "high":
            top = min(plaus_high * 0.8, ref_high + 2.5 * span if ref_low > 0 else ref_high * 3)
            if top < ref_high + 0.3 * span:  # a narrow plausible range: 80% of its top is inside the reference range,
                # and every raised MCV of a suite read 102 fL, every high sodium 146 (stop 31; the audit's labs.same_value)
                top = ref_high + min(0.3 * (plaus_high - ref_high), 0.6 * span)
            value = rng.uniform(ref_high + 0.08 * span, max(top, ref_high + 0.1 * span))
        elif side == "low":
            bottom = max(plaus_low * 1.2, ref_low - 0.4 * span)  # mildly low is the commoner: platelets 12 in a record with no physical illness (stop 28) is not
            value = rng.uniform(min(bottom, ref_low - 0.1 * span), ref_low - 0.05 * span)
        else:
            value = rng.uniform(ref_low + 0.1 * span, ref_high - 0.1 * span)
        value = round(value, places)
        inside = ref_low <= value <= ref_high
        if (side == "inside") == inside and plaus_low <= value <= plaus_high:
            return value
    return round((ref_low + ref_high) / 2, places)


def personalise(name: str, kind: str, result: str, age: int, sex: str, rng: random.Random) -> str:
    """``result`` with its values drawn for this patient, flags kept true (see the module text)."""
    if kind not in ("lab", "physiological"):
        return result
    comps = review_facts()["labs"]["components"]
    band = _band(age, sex)
    flagged_text = bool(_ABNORMAL_WORDS.search(result))
    if name in comps:  # a single-value exam: the first number, side from the report's flag
        spec = list(band_spec(comps[name], band, age))
        quoted = re.search(r"reference(?: range)? ([\d.]+)-([\d.]+)", result)
        if quoted:  # stay on the right side of both the patient's range and the report's quoted one
            q_low, q_high = float(quoted.group(1)), float(quoted.group(2))
            spec = [max(spec[0], q_low), min(spec[1], q_high), spec[2], spec[3]] if not re.search(r"\((?:high|raised|elevated|low|reduced)", result, re.I) else [min(spec[0], q_low), max(spec[1], q_high), spec[2], spec[3]]
        m = re.search(r"\d+(?:\.\d+)?", result)
        if not m:
            return result
        low = re.search(r"\((?:low|reduced)", result, re.I)
        high = re.search(r"\((?:high|raised|elevated)", result, re.I)
        side = "low" if low else "high" if high else "inside"
        value = _draw(side, spec, rng, _places(m.group(0), spec[0], spec[1]))
        out = result[: m.start()] + _fmt(value, _places(m.group(0), spec[0], spec[1])) + result[m.end():]
        return re.sub(r"(reference(?: range)? )[\d.]+-[\d.]+", lambda r: f"{r.group(1)}{spec[0]:g}-{spec[1]:g}", out)
    alias, pattern = _aliases()
    for _ in range(_LIPID_TRIES):
        out = _personalise_values(kind, result, band, sex, flagged_text, comps, alias, pattern, rng, age)
        if _lipids_add_up(out):
            return out
    return out


_LIPID_TRIES = 40
_LIPID = re.compile(r"(total cholesterol|LDL|HDL|triglycerides) (\d+(?:\.\d+)?)")


def _lipids_add_up(text: str) -> bool:
    """Whether a lipid profile's parts can make its total: LDL + HDL + triglycerides/2.2 (the Friedewald
    relation) within 0.6 mmol/L of the total cholesterol (stop 28: 'total cholesterol 7.0, LDL 6.8, HDL 0.6'
    in 14 records of 480, LDL and HDL alone above the total). A report without all four is left as it is."""
    found = dict(_LIPID.findall(text))
    if len(found) < 4:
        return True
    total = float(found["total cholesterol"])
    parts = float(found["LDL"]) + float(found["HDL"]) + float(found["triglycerides"]) / 2.2
    return abs(total - parts) <= 0.6


def _personalise_values(kind, result, band, sex, flagged_text, comps, alias, pattern, rng, age=30):
    """One draw of every value a multi-value report holds (see :func:`personalise`)."""
    drawn: dict[str, float] = {}

    def swap(m: re.Match[str]) -> str:
        comp = alias[m.group(1).lower()]
        spec = band_spec(comps[comp], band, age)
        after = result[m.end(): m.end() + 30]
        places = _places(m.group(2), spec[0], spec[1])
        if comp == "BMI":
            if flagged_text or re.match(r"\s*kg/m2 \((?!healthy)", after):
                value = round(float(m.group(2)) * rng.uniform(0.97, 1.03), 1)
            else:
                value = round(rng.uniform(19.0, 24.6), 1)
            drawn[comp] = value
            return f"{m.group(1)} {_fmt(value, 1)}"
        if re.match(r"\s*\S*\s*\((?:raised|high|elevated)", after, re.I):
            side = "high"
        elif re.match(r"\s*\S*\s*\((?:low|reduced)", after, re.I):
            side = "low"
        elif kind == "physiological" and flagged_text:
            original = float(m.group(2))
            adult = comps[comp]["adult_male" if sex == "male" else "adult_female"]
            side = "high" if original > adult[1] else "low" if original < adult[0] else "inside"
        else:
            side = "inside"
        value = _draw(side, spec, rng, places)
        drawn[comp] = value
        return f"{m.group(1)} {_fmt(value, places)}"

    out = pattern.sub(swap, result)
    bp = re.search(r"BP (\d+)/(\d+)", out)
    if bp:
        sys_spec, dia_spec = comps["systolic"][band], comps["diastolic"][band]
        if flagged_text:
            adult_s = comps["systolic"]["adult_male"]
            side = "high" if int(bp.group(1)) > adult_s[1] else "low" if int(bp.group(1)) < adult_s[0] else "inside"
        else:
            side = "inside"
        s = _draw(side, sys_spec, rng, 0)
        d = _draw(side if side != "inside" else "inside", dia_spec, rng, 0)
        if d >= s - 15:
            d = s - rng.randint(25, 45)
        out = out[: bp.start()] + f"BP {int(s)}/{int(d)}" + out[bp.end():]
    out = _own_posture_and_temperature(out)
    if "AST:ALT above 2" in out and "ALT" in drawn:
        alt = drawn["ALT"]
        ast = int(round(alt * rng.uniform(2.1, 2.8)))
        out = re.sub(r"AST \d+(?:\.\d+)?", f"AST {ast}", out)
    return out


def _own_posture_and_temperature(out: str) -> str:
    """A standing blood pressure and a low temperature drawn for this patient (issue 14, stop 38: a blind consultant
    found same-disorder vital signs copied; every anorexia's 'postural drop to 74/46 mmHg, temperature 35.6 C' was
    the knowledge base's figures word for word). The standing pressure falls 20-40 mmHg systolic from the sitting
    one this patient was given (an orthostatic fall, as the finding means), and a temperature below 36 C stays
    below it; a normal or a withdrawal's warm temperature is drawn too (stop 39's consultant: 37.7 C in every
    withdrawal record). Drawn on a stream seeded by the result itself, so the case's own draws are left as they were."""
    fall = re.search(r"postural drop to (\d+)/(\d+)", out)
    low = re.search(r"temperature (3[45]\.\d) C", out)
    usual = re.search(r"temperature (3[67]\.\d) C", out)
    if not fall and not low and not usual:
        return out
    local = random.Random(out)
    bp = re.search(r"BP (\d+)/(\d+)", out)
    if fall and bp:
        s, d = int(bp.group(1)), int(bp.group(2))
        standing_s = max(60, s - local.randint(20, 40))
        standing_d = max(35, min(standing_s - 20, d - local.randint(5, 15)))
        out = out[: fall.start()] + f"postural drop to {standing_s}/{standing_d}" + out[fall.end():]
    if low:
        out = re.sub(r"temperature 3[45]\.\d C", f"temperature {local.uniform(35.0, 35.9):.1f} C", out, count=1)
    if usual:  # stop 39: 36.8 C in 117 records, 37.7 C in every withdrawal; a normal reading stays 36.1-37.2, a warm one 37.3-37.9
        warm = float(usual.group(1)) >= 37.3
        value = local.uniform(37.3, 37.9) if warm else local.uniform(36.1, 37.2)
        out = out[: usual.start()] + f"temperature {value:.1f} C" + out[usual.end():]
    return out


_FLAG = re.compile(r"\(\s*(raised|high|low|elevated|reduced)\b([^)]*)\)", re.I)


def report_flags(exam: str, result: str, age: int, sex: str, form: str) -> str:
    """A multi-value lab report's flags as a laboratory prints them: the flag and the patient's reference range
    (``form``, wording.json ``lab_flag``: 'AST 240 U/L (raised; reference 0-40)'), never the reader's interpretation
    (stop 36's blind consultant: '(raised; AST:ALT above 2)', '(raised, neutrophilia)' point to the answer). A flag
    that already quotes its range, or follows no value the reference ranges know, is left as it is."""
    comps = review_facts()["labs"]["components"]
    alias, pattern = _aliases()
    band = _band(age, sex)
    out, at = [], 0
    for m in pattern.finditer(result):
        after = result[m.end():]
        unit = re.match(r"\s*[^\s(,;]*\s*", after)
        flag = _FLAG.match(after, unit.end()) if unit else None
        if not flag or "reference" in flag.group(2):
            continue
        low, high = (_charted_bound(exam, m.group(1), v, unit.group(0)) for v in band_spec(comps[alias[m.group(1).lower()]], band, age)[:2])
        start, end = m.end() + flag.start(), m.end() + flag.end()
        out.append(result[at:start] + form.format(flag=flag.group(1), low=low, high=high))
        at = end
    return "".join(out) + result[at:]


def _charted_bound(exam: str, label: str, value: float, unit: str) -> str:
    """A reference limit in the units the chart prints the value in (audit.charted: Hb in g/L, not g/dL)."""
    from ..audit import charted

    shown = charted(exam, f"{label} {value:g} {unit.strip()}".strip())
    found = re.search(r"\d+(?:\.\d+)?", shown[len(label):])
    return found.group(0) if found else f"{value:g}"
