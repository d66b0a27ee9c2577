"""Clinical consistency checks for a case, beyond the file contract that the loader enforces.

``check_case(case)`` returns the problems a psychiatrist would notice on reading the record against
the knowledge base, each as ``"<where>: <what>"``:

* every disorder is known to the knowledge base, and the patient's age and sex fit it;
* categories and codes agree both ways (each code's category is listed; each listed category has a
  disorder);
* scale scores lie inside the scale's range, the band the result names is the band of the score,
  and an indicated scale reads in a band that one of the case's disorders expects; labs with a
  reference range read normal or abnormal as the case's disorders expect;
* a drug level is on file only for a drug the patient takes; no drug that the knowledge base marks
  unsafe for one of the case's disorders is in the plan without a stated reason;
* no concept is both asserted and denied about the patient (``hears voices`` and ``denies
  auditory hallucinations``); statements about relatives do not count;
* sex-specific exams fit the patient's sex.

The generator runs these checks on every case it writes and redraws what fails.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from typing import Any, Mapping

from mentalhospital_env.knowledge.codes import category_of_code

from .loader import load_case
from .derive import derive_facts
from .model import Case
from .reference import ClinicalReference, Entry

# Words that, in the plan sentence naming a drug, state why it is used despite a caution.
REASON_CUES = ("because", "despite", "reason", "rationale", "after discussion", "specialist advice", "no safer alternative")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
_SCORE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*/\s*(\d+)")
OTHER_PEOPLE_SECTIONS = frozenset({"family_history"})


def check_case(case: Case | Mapping[str, Any], reference: ClinicalReference | None = None) -> list[str]:
    """Every clinical inconsistency found in ``case`` (a loaded case or a mapping), empty when none."""
    if not isinstance(case, Case):
        case = load_case(case)
    ref = reference if reference is not None else ClinicalReference.bundled()
    problems: list[str] = []
    entries = _disorders(case, ref, problems)
    _categories(case, problems)
    readings = _patient_readings(case, ref)
    _exams(case, ref, entries, readings, problems)
    _drugs(case, ref, entries, problems)
    _contradictions(readings, problems)
    return problems


def _disorders(case: Case, ref: ClinicalReference, problems: list[str]) -> list[Entry]:
    age, sex = case.demographics.age, case.demographics.sex
    found = []
    for i, d in enumerate(case.diagnosis.disorders):
        where = f"diagnosis.disorders[{i}]"
        entry = ref.disorder(d.code)
        if entry is None:
            problems.append(f"{where}: {d.code} is not a disorder of the knowledge base, so nothing about it can be checked")
            continue
        found.append(entry)
        low, high = entry.get("age_range", (3, 110))
        if not low <= age <= high:
            problems.append(f"{where}: age {age} is outside the plausible range {low}-{high} of {d.code} {entry['name']}")
        weights = entry.get("sex_weights") or {}
        if weights.get(sex, 1.0) <= 0:
            problems.append(f"{where}: {d.code} {entry['name']} does not occur in a {sex} patient")
    return found


def _categories(case: Case, problems: list[str]) -> None:
    listed = set(case.diagnosis.categories)
    seen = set()
    for i, d in enumerate(case.diagnosis.disorders):
        cat = category_of_code(d.code)
        if cat is None:
            problems.append(f"diagnosis.disorders[{i}].code: {d.code} maps to none of the 15 categories")
            continue
        seen.add(cat)
        if cat not in listed:
            problems.append(f"diagnosis.disorders[{i}].code: {d.code} is {cat}, which diagnosis.categories does not list")
    for j, cat in enumerate(case.diagnosis.categories):
        if cat not in seen:
            problems.append(f"diagnosis.categories[{j}]: {cat} is listed but no disorder of the case belongs to it")


def scale_score(result: str, entry: Entry) -> float | None:
    """The total score a scale result states: ``"19/27"`` style first, else the first number in range."""
    low, high = entry.get("score_range", (0, 0))
    for m in _SCORE.finditer(result):
        if float(m.group(2)) == float(high):
            return float(m.group(1))
    for m in _NUMBER.finditer(result):
        value = float(m.group(0))
        if value != float(high) or value == 0:
            return value
    return None


def _bands_named(result: str, entry: Entry) -> list[str]:
    low = result.lower()
    labels = sorted((b["label"] for b in entry.get("bands", ())), key=len, reverse=True)
    named = []
    for label in labels:
        if re.search(rf"\b{re.escape(label.lower())}\b", low) and not any(label.lower() in n.lower() for n in named):
            named.append(label)
    return named


def _exams(case: Case, ref: ClinicalReference, disorders: list[Entry], readings: list[tuple[str, frozenset[str], frozenset[str]]], problems: list[str]) -> None:
    from .generator.composer import load_material  # the risk scales list is generator material
    from .audit import charted
    from .generator.results import band_of, is_normal_band

    risk_scales = {k for k in load_material("frames").get("risk_scales", {}) if not k.startswith("_")}
    med_text = " ".join(filter(None, [case.ehr.medications or "", " ".join(m.name for m in case.treatment.medications or ())])).lower()
    suicidal = any(pos & {"suicidal_ideation", "suicide_plan"} for _, pos, _ in readings)
    disorder_exams = [(s, ref.exam(s["exam"])) for d in disorders for s in d.get("exams", ())]  # looked up once per case
    for i, exam in enumerate(case.exams):
        where = f"exams[{i}] {exam.name}"
        entry = ref.exam(exam.name)
        if entry is None:
            continue
        if entry.get("kind") and entry["kind"] != exam.kind:
            problems.append(f"{where}: kind {exam.kind!r}, but the exam catalog has it as {entry['kind']!r}")
        name = entry["name"]
        if name.lower().startswith("pregnancy") and case.demographics.sex == "male":
            problems.append(f"{where}: a pregnancy test for a male patient")
        drug = ref.level_exam_drug(name)
        if drug is not None:
            names = [drug["name"], *drug.get("synonyms", ())]
            if not any(re.search(rf"\b{re.escape(n.lower())}\b", med_text) for n in names):
                problems.append(f"{where}: a {drug['name']} level, but the patient is not on {drug['name']}")
            continue
        specs = [s for s, e in disorder_exams if e is entry]
        if entry.get("kind") == "scale" and entry.get("bands"):
            score = scale_score(exam.result, entry)
            if score is None:
                problems.append(f"{where}: the result states no score")
                continue
            low, high = entry.get("score_range", (0, 0))
            if not low <= score <= high:
                problems.append(f"{where}: score {score:g} is outside the scale's range {low}-{high}")
                continue
            band = band_of(entry, score)
            named = _bands_named(exam.result, entry)
            if band is not None and named and band["label"] not in named:
                problems.append(f"{where}: score {score:g} is in band {band['label']!r}, but the result says {named[0]!r}")
            if band is None:
                continue
            if name in risk_scales:
                if is_normal_band(entry, band) and suicidal:
                    problems.append(f"{where}: {band['label']!r}, but the record describes suicidal thoughts")
                elif not is_normal_band(entry, band) and not suicidal:
                    problems.append(f"{where}: {band['label']!r}, but the record describes no suicidal thoughts")
                continue
            if exam.indicated and specs and not _band_expected(entry, band, specs):
                wanted = ", ".join(sorted({s.get("band") or s.get("reading", "") for s in specs}))
                problems.append(f"{where}: band {band['label']!r} fits none of the case's disorders (they expect {wanted})")
            if not exam.indicated and not is_normal_band(entry, band) and not specs:
                problems.append(f"{where}: not indicated, yet reads {band['label']!r}")
        elif entry.get("reference_range") is not None and entry.get("unit") and specs:
            value = _lab_value(charted(name, exam.result, back=True), entry)  # a UK-charted unit read back (audit.charted)
            if value is None:
                continue
            low, high = entry["reference_range"]
            outside = not low <= value <= high
            readings = {s.get("reading", "normal") for s in specs}
            if outside and readings == {"normal"}:
                problems.append(f"{where}: {value:g} is outside {low}-{high}, but the case's disorders expect it normal")
            if not outside and readings == {"abnormal"}:
                problems.append(f"{where}: {value:g} is within {low}-{high}, but the case's disorders expect it abnormal")


def _lab_value(result: str, entry: Entry) -> float | None:
    if "none detected" in result.lower():
        return 0.0
    m = _NUMBER.search(result)
    return float(m.group(0)) if m else None


def _band_expected(entry: Entry, band: Mapping[str, Any], specs: list[Mapping[str, Any]]) -> bool:
    from .generator.results import is_normal_band

    for s in specs:
        if s.get("band"):
            if s["band"].lower() == band["label"].lower():
                return True
            continue
        if (s.get("reading") == "abnormal") != is_normal_band(entry, band):
            return True
    return False


def _drugs(case: Case, ref: ClinicalReference, disorders: list[Entry], problems: list[str]) -> None:
    codes = set(case.diagnosis.codes)
    plan_sentences = re.split(r"(?<=[.;])\s+", case.treatment.plan)
    for i, med in enumerate(case.treatment.medications or ()):
        drug = ref.drug(med.name)
        if drug is None:
            continue
        unsafe = sorted(set(drug.get("unsafe_with", ())) & codes)
        reasons = [c.get("reason", "") for d in disorders for c in d.get("contraindicated_drugs", ()) if ref.drug(c["drug"]) is drug]
        if not unsafe and not reasons:
            continue
        stated = " ".join([med.dose or ""] + [s for s in plan_sentences if drug["name"].lower() in s.lower()]).lower()
        if any(cue in stated for cue in REASON_CUES):
            continue
        why = f"unsafe with {', '.join(unsafe)}" if unsafe else f"contraindicated: {reasons[0]}"
        problems.append(f"treatment.medications[{i}] {med.name}: {why}, and the plan states no reason")


def _patient_readings(case: Case, ref: ClinicalReference) -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """For each fact about the patient (not about relatives): its id, the concepts it asserts and those it denies."""
    out = []
    # a narrative record is checked sentence by sentence, as written (its compiled facts split
    # sentences at semicolons, which would set "no children" apart from what qualifies it)
    facts = derive_facts(case.ehr) if case.facts_derived else case.facts
    for fact in facts:
        if fact.section in OTHER_PEOPLE_SECTIONS or ref.about_other_person(fact.text):
            continue
        pos, neg = ref.readings(fact.text)  # the same sets, remembered per text
        out.append((fact.id, pos, neg))
    return out


def _contradictions(readings: list[tuple[str, frozenset[str], frozenset[str]]], problems: list[str]) -> None:
    asserted: dict[str, str] = {}
    denied: dict[str, str] = {}
    for fact_id, pos, neg in readings:
        for c in pos - neg:
            asserted.setdefault(c, fact_id)
        for c in neg - pos:
            denied.setdefault(c, fact_id)
    for concept in sorted(set(asserted) & set(denied)):
        problems.append(f"facts {asserted[concept]} and {denied[concept]}: {concept} is both present and denied")
