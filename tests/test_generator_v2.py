"""Generator version 2: histories told as a clinician tells them, labs drawn per patient, plans that
carry the knowledge base's critical actions, and every draft passing the clinical audit."""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.cases.audit import _band, audit_case, audit_suite, lab_values, review_facts
from mentalhospital_env.cases.generator import GenerationError, case_line, generate_case, generate_cases
from mentalhospital_env.cases.generator.labs import personalise
from mentalhospital_env.cases.reference import ClinicalReference
from mentalhospital_env.knowledge.critical import load_critical_actions

REF = ClinicalReference.bundled()
CODES = sorted(c for c in REF.disorders if c in REF.presentations)


def _case(seed: int, principal: str):
    return load_case(generate_case(random.Random(seed), f"v2-{seed}", principal=principal, version=2))


@pytest.mark.parametrize("code", CODES)
def test_every_disorder_draws_an_audited_case(code: str) -> None:
    case = _case(1, code)
    assert case.source["version"] == 2 and case.diagnosis.principal.code == code
    assert audit_case(case) == []
    hpi = case.ehr.history_of_present_illness
    assert '"' in hpi, "the patient's own words are quoted"
    assert not re.search(r"\b(Impact|Functioning|Functional impact):", hpi)
    check = load_critical_actions().check_case(case, case.treatment.plan)
    assert not check.missing and not check.contraindicated, check.to_dict()


def test_same_seed_same_bytes() -> None:
    a = [case_line(c) for c in generate_cases(6, seed=5, prefix="d", version=2)]
    b = [case_line(c) for c in generate_cases(6, seed=5, prefix="d", version=2)]
    c = [case_line(c) for c in generate_cases(6, seed=6, prefix="d", version=2)]
    assert a == b and a != c


def test_suite_rules_hold_while_drawing() -> None:
    cases = [load_case(c) for c in generate_cases(60, seed=9, prefix="s", version=2)]
    assert audit_suite(cases) == []


def test_children_come_with_an_informant_and_child_ranges() -> None:
    for code in ("F90.0", "F93.0", "F91.3"):
        case = _case(2, code)
        if case.demographics.age < 16:
            assert case.persona is not None and case.persona.informant
            assert "school" in (case.demographics.occupation or "") or "pupil" in (case.demographics.occupation or "")


@pytest.mark.parametrize("age, sex", [(8, "female"), (15, "male"), (40, "female"), (70, "male")])
def test_personalised_labs_agree_with_their_flags(age: int, sex: str) -> None:
    comps = review_facts()["labs"]["components"]
    alias = {a.lower(): n for n, c in comps.items() for a in c["aliases"]}
    rng = random.Random(age)
    band = _band(age, sex)
    reports = [
        ("CBC", "lab", "Hb 13.6 g/dL, MCV 104 fL (raised), WBC 6.9 x10^9/L, platelets 138 x10^9/L (low)"),
        ("BMP", "lab", "Na 139 mmol/L, K 4.2 mmol/L, urea 5.1 mmol/L, creatinine 78 umol/L, glucose 5.2 mmol/L (all within reference range)"),
        ("Vital signs", "physiological", "pulse 76/min, BP 122/78 mmHg, temperature 36.8 C, respiratory rate 14/min"),
    ]
    seen = set()
    for name, kind, text in reports:
        for _ in range(20):
            out = personalise(name, kind, text, age, sex, rng)
            seen.add(out)
            for comp, value, flag in lab_values(out):
                key = alias.get(comp.lower())
                if key is None:
                    continue
                low, high = comps[key][band][:2]
                flagged = bool(re.search(r"\((raised|high|low)", flag))
                assert flagged == (not low <= value <= high), (out, comp, value, band)
    assert len(seen) > 40, "values are drawn per patient, not copied"


def test_version_1_is_still_there() -> None:
    raw = generate_case(random.Random(3), "v1", principal="F32.1", version=1)
    assert raw["source"]["version"] == 1
    with pytest.raises(ValueError):
        generate_case(random.Random(3), "v3", principal="F32.1", version=3)
    with pytest.raises(GenerationError):
        generate_case(random.Random(3), "x", principal="F99", version=2)


# ------------------------------------------------------------------ one person's voice (stop 21)


def test_common_complaints_are_told_in_each_persons_words() -> None:
    """Thirty depressed patients do not share one quote between more than four of them (the
    independent reader found one low-mood line in 41 of 480 records)."""
    from collections import Counter

    quotes: Counter[str] = Counter()
    for seed in range(30):
        case = _case(7000 + seed, "F32.1")
        quotes.update({f.patient_says for f in case.facts if f.section == "history_of_present_illness" and f.patient_says})
    assert quotes
    assert max(quotes.values()) <= 4, quotes.most_common(3)


@pytest.mark.parametrize("code", ["F20.0", "F42.2", "F43.10", "F50.81", "F10.20"])
def test_the_history_leaves_the_illness_to_the_interview(code: str) -> None:
    """Stop 26's consultant named the diagnosis from ten of ten histories that quoted its defining
    features: the history quotes only complaints anyone brings, and the patient's other lines stay the
    case's facts and checkpoints (the patient tells them, the note is scored on them) unwritten.
    Stop 40 (issue 14): a referral always tells the problem that brings the patient (stop 39's blind reading
    found OCD histories with no obsession or compulsion), so each disorder's one core complaint is quoted
    (generator core.json); every other defining line is still left to the interview."""
    from mentalhospital_env.cases.generator.composer import load_material

    voices, story = load_material("voices"), load_material("story")
    plain = set(voices["presenting_complaints"])
    own = set(story["record_story"]["own_words"])
    left = 0
    for seed in range(6):
        case = _case(2600 + seed, code)
        hpi = case.ehr.history_of_present_illness
        says = [f for f in case.facts if f.section == "history_of_present_illness" and f.patient_says]
        assert says
        defining = 0
        for f in says:
            if f.text in hpi:  # told in the record: a plain complaint, the patient's word on it all, or the one core complaint
                concepts = REF.readings(f.patient_says)[0]
                defining += not (f.patient_says in own or concepts & plain)
            else:
                left += 1
                assert f.text in {c.text for c in case.checkpoints.interview}, f.text
        assert defining <= len(case.diagnosis.disorders), (case.case_id, [f.patient_says for f in says if f.text in hpi])
    assert left  # the illness's own lines were there to leave


@pytest.mark.parametrize("code", ["F50.01", "F11.20", "F10.20", "F44.4", "F20.0", "F42.2"])
def test_the_referral_states_the_presenting_problem(code: str) -> None:
    """Stop 26's consultant found six of ten histories silent on the problem any GP letter states (an
    anorexia history without her weight, a heroin admission without heroin): the history says what the
    trouble is in plain words (voices.json ``problem_words``), one or two of the principal illness's
    drawn complaints, next to the opening line, and still names no diagnosis."""
    from mentalhospital_env.cases.generator.composer import load_material
    from mentalhospital_env.cases.generator.v2 import clean_text

    voices = load_material("voices")
    own = {x["concept"] for x in REF.presentations[code]["symptoms"]}
    phrases = [re.sub(r"\\\{(?:subj|obj|poss|drug)\\\}", r"[\\w ]+", re.escape(w)) for c, ws in voices["problem_words"].items() if c in own for w in ws]
    stated = re.compile("|".join(sorted(phrases, key=len, reverse=True)), re.I)
    told = 0
    for seed in range(6):
        case = _case(2700 + seed, code)
        sentences = re.split(r"(?<=[.!?])\s+", case.ehr.history_of_present_illness)
        hit = [s for s in sentences[1:3] if stated.search(s)]
        told += bool(hit)
        for s in hit:
            assert clean_text(s) and '"' not in s, (case.case_id, s)
        assert case.diagnosis.principal.name.lower() not in case.ehr.history_of_present_illness.lower()
    assert told >= 5, (code, told)


def test_referral_concerns_name_no_diagnosis() -> None:
    from mentalhospital_env.cases.generator.composer import load_material
    from mentalhospital_env.cases.generator.v2 import _ALTERNATIVES, clean_text

    rng = random.Random(5)
    voices = load_material("voices")
    for category, options in voices["referral_concern"].items():
        for template in options:
            for _ in range(10):
                text = _ALTERNATIVES.sub(lambda m: rng.choice(m.group(1).split("|")), template)
                assert "[[" not in text and "]]" not in text, (category, template)
                assert clean_text(text.format(subj="she", obj="her", poss="her", work_or_school="work", concern="poor sleep and tiredness")), (category, text)


def test_a_birth_before_the_illness_puts_the_baby_in_the_record() -> None:
    found = 0
    for seed in range(200):  # 5 births in seeds 8000-8119 before stop 48's mend moved the stream, 1 after (25 and 27 of 400 seeds)
        case = _case(8000 + seed, "F23")
        story = f"{case.ehr.chief_complaint} {case.ehr.history_of_present_illness}"
        if "birth" not in story:
            continue
        found += 1
        assert re.search(r"\bbaby\b", f"{case.demographics.living_situation} {case.ehr.personal_history}"), case.case_id
        assert not [f for f in audit_case(case) if f.rule.startswith("sections.")]
    assert found >= 3


@pytest.mark.xfail(strict=True, reason="stop 40: with the core complaint now drawn first, a draft of 32 opens its history with the GP's letter beside a self-referral chief complaint (joins.referral_source) and is redrawn, not written agreeing; the referral-source join is not yet answered at the source (stop 41 round two: seed 14's draw no longer holds such a draft, seed 15's does: j-0001, 'Self-referral' beside 'Dr Singh asked for this assessment'; stop 42: stop 42's generator changes moved the random stream, seeds 14-21 hold no such draft, seed 22's does: j-0010, 'Self-referral' beside 'Dr Ellis referred a 49-year-old university student'; stop 44: stop 44's generator changes moved the stream again, seeds 22-36 hold no such draft, seed 37's does: j-0020, 'Self-referral' beside 'Dr Quinn referred her: 25, lives with parents, a dental nurse.'; stop 48: the chief complaints of complaints.json moved the stream and leave cc_plain's 'Self-referral' rarer, seeds 37-53 hold no such draft, seed 54's does: j-0028, cc_plain's 'says the GP' beside 'The crisis line asked us to see this 21-year-old woman'; stop 48's mend (a told chief complaint drawn once a record, event lines without a time) moved it again: seeds 54-83 hold no such draft, seed 84's does: j-0020, 'Self-referral' beside 'Dr Grant wrote about this 38-year-old woman')")
def test_joins_are_written_agreeing_not_redrawn(monkeypatch) -> None:
    """The sections a reader joins (stop 21's reading) are written to agree: the audit rules the
    generator answers at the source refuse no draft, so agreement is not bought by redrawing."""
    import mentalhospital_env.cases.audit as audit

    refused: list[str] = []
    real = audit.audit_case

    def counting(case, **kw):
        found = real(case, **kw)
        refused.extend(f"{f.rule}: {f}" for f in found)
        return found

    monkeypatch.setattr(audit, "audit_case", counting)
    principals = ["F44.81", "F10.20", "F14.20", "F60.3", "F60.2", "F06.70", "F32.1", "F84.0"] * 4
    generate_cases(len(principals), seed=84, prefix="j", version=2, principals=principals)
    at_source = ("joins.labs_ignored", "joins.mse_appearance", "joins.plan_assumes", "joins.work_years",
                 "joins.past_copies_plan", "joins.education_occupation", "joins.mse_topic", "joins.cc_label", "joins.employment",
                 "joins.referral_source", "text.either_or")
    assert [r for r in refused if r.startswith(at_source) or (r.startswith("joins.alcohol_plan") and "the plan says" in r)] == []


def test_liver_swap_names_the_new_drug_and_its_dose() -> None:
    """Naltrexone is swapped for acamprosate when the liver enzymes are raised: the plan names
    acamprosate with its own dose, never naltrexone's ('acamprosate at 50 mg once daily')."""
    seen = 0
    for c in generate_cases(24, seed=3, prefix="l", version=2, principals=["F10.20"] * 24):
        meds = {m["name"]: m["dose"] for m in c["treatment"]["medications"]}
        if "acamprosate" in meds:
            seen += 1
            assert "naltrexone" not in c["treatment"]["plan"].lower()
            plan = c["treatment"]["plan"]
            assert re.search(rf"acamprosate (?:at )?{re.escape(meds['acamprosate'])}", plan) or "acamprosate" not in plan
            assert "acamprosate at 50 mg" not in c["treatment"]["plan"]
    assert seen


def test_each_insomnia_keeps_its_own_diary_and_it_follows_the_isi() -> None:
    """The reader saw one sleep diary in 20 records; each patient's diary is now drawn, worse with a worse ISI."""
    diaries, pairs = set(), []
    for seed in range(12):
        case = _case(seed, "F51.01")
        diary = case.exam("Sleep diary")
        isi = case.exam("ISI")
        assert diary is not None  # stop 40: no ISI on a first assessment's exam list (it names the disorder, core.json)
        assert "{" not in diary.result
        diaries.add(diary.result)
        latency = int(re.search(r"(\d+) minutes", diary.result).group(1))
        if isi is not None:
            pairs.append((int(re.match(r"total (\d+)", isi.result).group(1)), latency))
    assert len(diaries) >= 10
    from mentalhospital_env.cases.generator.results import measured_values

    entry = REF.exam("Sleep diary")
    mild = [int(measured_values(entry, random.Random(i), 0.0)["latency"]) for i in range(50)]
    severe = [int(measured_values(entry, random.Random(i), 1.0)["latency"]) for i in range(50)]
    assert max(mild) < min(severe)


def test_open_top_bands_stay_below_the_typical_maximum() -> None:
    from mentalhospital_env.cases.generator.results import Expectation, scale_result

    for name in ("HAM-D", "MADRS", "YMRS"):
        entry = REF.exam(name)
        top = entry["bands"][-1]["label"]
        scores = [int(re.match(r"total (\d+)", scale_result(entry, Expectation(name, "abnormal", band=top), random.Random(i))).group(1)) for i in range(300)]
        assert max(scores) <= entry["typical_max"] and min(scores) >= entry["bands"][-1]["min"]
        assert sum(scores) / len(scores) < (entry["bands"][-1]["min"] + entry["typical_max"]) / 2  # they thin out upwards


def test_plans_follow_the_record_on_a_fresh_draw() -> None:
    """Generated plans pass the audit's plan rules for substance status, setting, pregnancy and psychosis:
    acamprosate waits for the withdrawal, an outpatient takes thiamine by mouth, psychotic features get an antipsychotic."""
    import re

    from mentalhospital_env.cases.audit import audit_case
    from mentalhospital_env.cases.generator import generate_cases
    from mentalhospital_env.cases.loader import validate_case

    cases = [validate_case(raw) for raw in generate_cases(40, seed=11, prefix="plans")]
    assert not [f for c in cases for f in audit_case(c) if f.rule in ("plan.substance", "plan.setting", "plan.pregnancy", "plan.psychosis")]
    for c in cases:
        if c.setting == "outpatient" and re.search(r"\bthiamine\b", c.treatment.plan, re.I):
            assert re.search(r"\boral(?:ly)?\b|by mouth", c.treatment.plan, re.I)


def test_substance_and_parents_drinking_are_written_where_the_reader_looks(monkeypatch) -> None:
    """Stop 30 (issue 14): a substance diagnosis is told in the history, a parent's drinking in the
    upbringing is in the family history, a relapse's history refers back to the known illness, and therapy
    waits 'until ready' only where the mental state's insight is not good; all written at the source, so no
    draft is refused for them."""
    import mentalhospital_env.cases.audit as audit

    refused: list[str] = []
    real = audit.audit_case

    def counting(case, **kw):
        found = real(case, **kw)
        refused.extend(str(f) for f in found if f.rule in ("history.substance_untold", "family.upbringing_untold", "history.relapse_as_new", "plan.readiness_unfounded"))
        return found

    monkeypatch.setattr(audit, "audit_case", counting)
    principals = ["F32.1", "F31.81", "F20.9", "F43.10", "F41.1", "F60.3", "F33.1", "F11.20"] * 3
    cases = [load_case(c) for c in generate_cases(len(principals), seed=30, prefix="u", version=2, principals=principals)]
    assert refused == []
    comorbid = [c for c in cases if any(audit.substance_family(d.code) for d in c.diagnosis.disorders[1:])]
    assert comorbid, "the draw holds a comorbid substance diagnosis to test"
    assert any((c.extra or {}).get("known_diagnosis") == "relapse" for c in cases), "the draw holds a relapse to test"
    assert all(audit.substance_untold(c) == [] and audit.upbringing_untold(c) == [] and not audit.relapse_as_new(c)
               and audit.readiness_unfounded(c) is None for c in cases)


# ------------------------------------------------------------------ stop 31: one patient per record


@pytest.mark.parametrize("code", ["F32.3", "F32.81"])
def test_records_of_one_disorder_drawn_for_a_suite_are_not_near_clones(code: str) -> None:
    """Psychotic depression and the premenstrual disorder: few descriptors, a fixed diary line and a long
    protocol made stop 30's twins. Drawn one by one (no suite to compare with) psychotic depressions are near-clones;
    drawn as a suite they are not (the guard refuses the near-copy, the mental state takes the descriptors the
    suite holds least, the diary is this patient's)."""
    from mentalhospital_env.cases.audit import clone_pairs

    n = 4
    # the premise drawn from twice as many: with the mental states as seen (stop 38) four lone draws need not hold a pair
    premise = [load_case(generate_case(random.Random(f"alone:{i}"), f"p-{i}", principal="F32.3", version=2)) for i in range(2 * n)]
    assert clone_pairs(premise), "the premise: records drawn without the suite are near-clones"
    suite = [load_case(c) for c in generate_cases(n, seed=31, prefix="c", principals=[code] * n, version=2)]
    assert clone_pairs(suite) == [], clone_pairs(suite)


def test_raised_values_of_a_narrow_range_are_drawn_per_patient() -> None:
    """Every raised MCV of stop 30's test-v2 read 102 fL: the top of the draw fell inside the reference range."""
    rng = random.Random(3)
    def value(name: str, result: str) -> float:
        return {c: v for c, v, _ in lab_values(result)}[name]

    mcv = {value("MCV", personalise("CBC", "lab", "Hb 13.5 g/dL, MCV 102 fL (raised), WBC 5.6 x10^9/L, platelets 129 x10^9/L (low)", 45, "male", rng)) for _ in range(40)}
    sodium = {value("Na", personalise("BMP", "lab", "Na 146 mmol/L (high), K 4.1 mmol/L", 70, "female", rng)) for _ in range(40)}
    assert len(mcv) >= 4 and all(100 < v <= 115 for v in mcv), mcv
    assert len(sodium) >= 4 and all(145 < v <= 155 for v in sodium), sodium


@pytest.mark.parametrize("code", ["F32.3", "F20.0", "F10.20", "F32.81"])
def test_the_persona_plays_the_mental_states_insight(code: str) -> None:
    from mentalhospital_env.cases.audit import insight_read

    S = review_facts()["stop31"]
    for seed in range(3):
        case = _case(seed, code)
        level = insight_read(case.ehr.section("mental_status_exam.insight") or "", S)
        if level is not None:
            assert case.persona.insight == level, (case.ehr.section("mental_status_exam.insight"), case.persona.insight)


def test_vital_signs_are_indicated_in_an_alcohol_dependence() -> None:
    for seed in range(4):
        case = _case(seed, "F10.20")
        assert all(e.indicated for e in case.exams if e.name == "Vital signs"), [(e.name, e.indicated) for e in case.exams]


@pytest.mark.parametrize("living, alone", [("lives in a hostel", False), ("lives in a shared house", False), ("homeless, sleeping rough", False), ("lives alone in a rented flat", True)])
def test_only_living_alone_is_read_as_alone(living: str, alone: bool) -> None:
    from dataclasses import replace

    from mentalhospital_env.cases.generator.plans import case_facts

    case = _case(0, "F32.1")
    case = replace(case, demographics=replace(case.demographics, living_situation=living))
    assert case_facts(case)["alone"] is alone


# stop 37's consultant: reference plans for anorexia nervosa, 'admission ... given the risk found' and under-18 antidepressants

_ANTIDEPRESSANTS = ("sertraline", "fluoxetine", "citalopram", "escitalopram", "paroxetine", "venlafaxine", "duloxetine", "mirtazapine")
_STARTED = re.compile(r"\b(?:start|begin|commence|offer)\w* (?:" + "|".join(_ANTIDEPRESSANTS) + r")\b", re.I)


def _unstable(case) -> bool:
    """The record's vital signs or potassium meet the eating-disorder admission thresholds (pulse below 40, or 50 under 18; a
    postural fall; potassium below 3.0), read from the results as a reader of the record reads them."""
    results = " ".join(e.result or "" for e in case.exams)
    pulse = re.search(r"pulse (\d+)/min", results)
    potassium = re.search(r"\bK (\d+(?:\.\d+)?) mmol", results)
    return bool(
        (pulse and int(pulse.group(1)) < (50 if case.demographics.age < 18 else 40))
        or "postural drop" in results
        or (potassium and float(potassium.group(1)) < 3.0)
    )


def test_an_unstable_anorexia_starts_no_antidepressant_and_has_one_setting() -> None:
    # test-v2-0391: 'Commence sertraline 50 mg' at BMI 15.2, K 3.0, pulse 44, with weekly clinic review and
    # 'consider admission if medically unstable' beside 'arrange a same-day medical assessment and admission'
    cases = [load_case(c) for c in generate_cases(24, seed=37, prefix="an", version=2, principals=["F50.01"] * 24)]
    unstable = [c for c in cases if _unstable(c)]
    assert len(unstable) >= 12
    assert any(len(c.diagnosis.codes) > 1 for c in unstable), "some carry a comorbid depression or anxiety"
    for c in unstable:
        plan = c.treatment.plan
        meds = {m.name.lower() for m in c.treatment.medications}
        assert not meds & set(_ANTIDEPRESSANTS) and not _STARTED.search(plan), (c.case_id, plan)
        everything = " ".join([plan, *(c.treatment.safety or ()), c.treatment.follow_up or ""])
        if c.setting != "inpatient":
            assert re.search(r"\badmission (?:arranged |offered )?today|same-day (?:medical assessment and )?admission\b|\bbed (?:has been )?requested today", plan), (c.case_id, c.setting, plan)
            assert "consider admission if medically unstable" not in everything.lower(), (c.case_id, everything)
            assert not re.search(r"\bdischarged home|\bhome today|safe to go home", plan), (c.case_id, plan)
            assert not re.search(r"weekly weight and physical review(?! once| after discharge)", everything), (c.case_id, everything)
        assert audit_case(c) == []


def test_admission_given_the_risk_found_only_with_a_risk_on_file() -> None:
    # test-v2-0151: a factitious disorder, 'Denies suicidal thoughts', 'No self-neglect reported.', admitted from the
    # emergency department 'given the risk found'; dev-v2-0106: a moderate recurrent depression, no suicidal thoughts,
    # not washing: 'a bed requested today: the risk found is too high for home'
    principals = ["F68.10", "F33.1", "F32.1", "F51.5", "F41.1", "F43.21", "F43.0", "F41.0", "F40.10", "F60.3", "F11.20", "F10.20"] * 6
    cases = [load_case(c) for c in generate_cases(len(principals), seed=371, prefix="rk", version=2, principals=principals)]
    denied = re.compile(r"^\s*(?:no|denies|none|nothing|never)\b", re.I)
    emergency = [c for c in cases if c.setting == "emergency"]
    assert emergency
    for c in emergency:
        risk = dict(c.ehr.risk_assessment.items()) if c.ehr.risk_assessment is not None else {}
        suicidal = not re.match(r"^\s*(?:no|not|denies|none|nothing|never)\b", risk.get("suicide") or "", re.I)
        neglect = not denied.match(risk.get("self_neglect") or "")
        admits = re.search(r"given the risk found|the risk found is too high|a bed (?:has been )?requested today|admission (?:arranged |offered )?today", c.treatment.plan)
        if admits:
            assert suicidal, (c.case_id, risk, c.treatment.plan)  # no bed for self-neglect alone in these illnesses
        if not suicidal and not neglect:
            assert not re.search(r"given the risk found|the risk found", c.treatment.plan), (c.case_id, c.treatment.plan)


def test_no_sertraline_first_for_a_depression_under_18() -> None:
    # test-v2-0200: sertraline 50 mg for the comorbid depression of a 15-year-old with anorexia (under 18: fluoxetine,
    # after psychological therapy). The only under-18 depressions the generator draws are comorbid ones like this (no
    # depressive principal is drawn under 18), and here the starved-anorexia rule takes the antidepressant away first,
    # so this pins the outcome, not records.json young_depression_drug, which no drawn case reaches yet
    # stop 41: the case is chosen by content, the first seed from 372 whose draw holds one (a change to the wording's
    # draws moved seed 372's 24 anorexias to none under 18 with a depression)
    for seed in range(372, 380):
        cases = [load_case(c) for c in generate_cases(24, seed=seed, prefix="yd", version=2, principals=["F50.01"] * 24)]
        young = [c for c in cases if c.demographics.age < 18 and any(x.startswith(("F32", "F33")) for x in c.diagnosis.codes)]
        if young:
            break
    assert young
    for c in young:
        meds = {m.name.lower() for m in c.treatment.medications}
        assert "sertraline" not in meds and not re.search(r"\b(?:start|begin|commence|offer)\w* sertraline\b", c.treatment.plan, re.I), (c.case_id, c.treatment.plan)


def test_a_plan_that_gives_lorazepam_for_the_liver_or_age_starts_no_chlordiazepoxide_regimen():
    """Stop 38's integration: the audit's exit for a plan that 'weighed the liver' (hw-013 keeps chlordiazepoxide and
    says when it switches to oxazepam) first read the generator's own 'lorazepam rather than chlordiazepoxide', so the
    builder stopped turning the regimen into lorazepam: 'Chlordiazepoxide on a fixed reducing regimen ... With AST at
    199 U/L ... lorazepam rather than chlordiazepoxide' (test-v2-0009 and 89 more). A drawn plan that says why it
    gives lorazepam never starts chlordiazepoxide."""
    from mentalhospital_env.cases import load_suite

    why = re.compile(r"lorazepam (?:rather than|in place of) chlordiazepoxide", re.I)
    chlordiazepoxide = re.compile(r"(?<!rather than )(?<!in place of )\bchlordiazepoxide\b", re.I)
    weighed = [c for name in ("test-v2", "dev-v2") for c in load_suite(name) if why.search(c.treatment.plan)]
    assert len(weighed) >= 20  # the premise: drinkers with raised enzymes or of 65 and over are drawn
    assert not [c.case_id for c in weighed if chlordiazepoxide.search(c.treatment.plan)]
