"""The clinical audit: each rule catches what a reviewer catches, on the old frozen suite and on
records changed one field at a time, and stays quiet on a record written to pass it."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mentalhospital_env.cases import load_suite
from mentalhospital_env.cases.audit import RULES, audit_case, audit_suite, count_by_rule, durations_in
from mentalhospital_env.cases.loader import validate_case
from mentalhospital_env.cli import main

# What issue 14 read in the old test suite, case by case, and the rule that must say so.
ISSUE_EXAMPLES = {
    "test-0402": {"labels.diagnosis", "labels.criteria"},
    "test-0308": {"diagnosis.withdrawal"},
    "test-0375": {"timeline.before_age", "household.informant", "labs.flag"},
    "test-0285": {"trauma.qualifying", "household.stressor"},
    "test-0398": {"trauma.qualifying", "timeline.diagnosis_before_onset"},
    "test-0319": {"timeline.diagnosis_before_onset"},
    "test-0216": {"duration.minimum", "education.history", "household.homeless"},
    "test-0294": {"occupation.fitness", "timeline.admissions"},
    "test-0432": {"occupation.age", "plan.acute_change"},
    "test-0281": {"plan.substance"},
}


@pytest.fixture(scope="module")
def old_test_findings():
    suite = load_suite("test")
    return suite, audit_suite(suite)


def test_old_test_suite_issue_examples_are_caught(old_test_findings) -> None:
    _, findings = old_test_findings
    by_case: dict[str, set[str]] = {}
    for f in findings:
        by_case.setdefault(f.case_id, set()).add(f.rule)
    for case_id, rules in ISSUE_EXAMPLES.items():
        assert rules <= by_case.get(case_id, set()), (case_id, rules - by_case.get(case_id, set()))


def test_old_test_suite_template_and_duplicates(old_test_findings) -> None:
    suite, findings = old_test_findings
    counts = count_by_rule(findings)
    assert counts["template.frame"][1] > 0.5 * len(suite)
    assert counts["results.duplicate"][0] > 30
    frames = {f.message for f in findings if f.rule == "template.frame"}
    assert any("partial improvement in the first weeks" in m for m in frames)
    assert set(counts) <= set(RULES)
    for f in findings:
        assert f.case_id in suite and f.field and f.message


def _clean() -> dict:
    """A record written to pass every rule."""
    return {
        "case_id": "audit-1", "language": "en",
        "demographics": {"age": 41, "sex": "female", "occupation": "bus driver", "marital_status": "married",
                         "education": "left school at 16", "living_situation": "lives with her husband and two sons"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Low and tearful since her father died in the spring, about four months ago.",
            "history_of_present_illness": (
                "Her father died in March after a long illness, and she nursed him at home in his last weeks. "
                "Since then she has struggled to get going in the mornings and has cried most days in the cab of the bus. "
                "\"I just don't look forward to anything,\" she says. Her husband noticed she stopped going to the choir in May. "
                "She sleeps badly, waking at four. She has not heard voices and has never felt unusually high."),
            "past_psychiatric_history": "Never seen by psychiatric services before.",
            "substance_use": "A glass of wine at weekends; no drugs.",
            "personal_history": "Has driven buses for the council for eleven years. Married for 18 years.",
            "mental_status_exam": {"appearance": "Tidy, tired-looking.", "mood": "'Flat'"},
        },
        "exams": [
            {"name": "CBC", "kind": "lab", "result": "Hb 12.9 g/dL, MCV 88 fL, WBC 6.1 x10^9/L, platelets 251 x10^9/L"},
            {"name": "TSH", "kind": "lab", "result": "1.7 mIU/L (within reference range 0.4-4)"},
        ],
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}]},
        "treatment": {"plan": "Start sertraline 50 mg daily; CBT referral; review in two weeks.",
                      "medications": [{"name": "sertraline", "dose": "50 mg daily"}]},
    }


def _rules(raw: dict) -> set[str]:
    from mentalhospital_env.knowledge.codes import category_of_code

    raw["diagnosis"]["categories"] = list(dict.fromkeys(category_of_code(d["code"]) for d in raw["diagnosis"]["disorders"]))
    return {f.rule for f in audit_case(validate_case(raw))}


def test_clean_record_passes() -> None:
    assert audit_case(validate_case(_clean())) == []


def _with(path: str, value, base: dict | None = None) -> dict:
    raw = copy.deepcopy(_clean() if base is None else base)
    target = raw
    keys = path.split(".")
    for k in keys[:-1]:
        target = target[k]
    target[keys[-1]] = value
    return raw


@pytest.mark.parametrize(
    "path, value, rule",
    [
        ("diagnosis.disorders", [{"name": "Generalized anxiety disorder", "code": "F41.1"}], "duration.minimum"),
        ("diagnosis.disorders", [{"name": "Post-traumatic stress disorder, unspecified", "code": "F43.10"}], "trauma.qualifying"),
        ("ehr.past_psychiatric_history", "Treated by the GP for low mood at age 52.", "timeline.age"),
        ("demographics.occupation", "retired teacher", "occupation.age"),
        ("demographics.occupation", "accountant", "education.occupation"),
        ("ehr.substance_use", "Teetotal. Tried cannabis at university.", "education.history"),
        ("exams", [{"name": "BMP", "kind": "lab", "result": "sodium 139 mmol/L, potassium 4.1 mmol/L, creatinine 130 umol/L, glucose 5 mmol/L (all within reference range)"}], "labs.flag"),
        ("exams", [{"name": "Lipid panel", "kind": "lab", "result": "total cholesterol 1.2 mmol/L, triglycerides 1.1 mmol/L"}], "labs.range"),
        ("ehr.past_psychiatric_history", "Diagnosed with major depressive disorder at 30.", "labels.diagnosis"),
        ("ehr.history_of_present_illness", "Depressed mood most of the day, nearly every day, for four months.", "labels.criteria"),
        ("exams", [{"name": "PCL-5", "kind": "scale", "result": "total 52/80 (probable PTSD)"}], "labels.scale"),
    ],
)
def test_one_change_one_rule(path: str, value, rule: str | None) -> None:
    raw = _with(path, value)
    found = _rules(raw)
    if rule is not None:
        assert rule in found, found
    assert found, f"changing {path} was not noticed"


def test_homeless_groomed_and_teetotal_plan() -> None:
    raw = _with("demographics.living_situation", "homeless, sleeping rough")
    raw["ehr"]["mental_status_exam"]["appearance"] = "Adequately groomed."
    assert "household.homeless" in _rules(raw)
    raw = _with("ehr.substance_use", "Teetotal.")
    raw["treatment"]["plan"] = "Start sertraline; reduce alcohol."
    assert "plan.substance" in _rules(raw)


@pytest.mark.parametrize(
    "changes, rule",
    [
        ({"demographics.age": 55, "demographics.sex": "male", "demographics.living_situation": "lives with partner and a young child"}, "household.young_child"),
        ({"ehr.personal_history": "Divorced; sees his children at weekends."}, "household.marital_history"),
        ({"ehr.history_of_present_illness": "Low since her children leaving home in the spring, four months ago."}, "household.empty_nest"),
        ({"ehr.history_of_present_illness": "Low for four months, in the weeks after a diagnosis of a chronic illness.", "ehr.medical_history": "No chronic physical illness."}, "history.trigger_medical"),
        ({"ehr.substance_use": "Ex-smoker; stopped 35 years ago."}, "timeline.smoking"),
        ({"setting": "emergency"}, "history.reason_today"),
        ({"ehr.history_of_present_illness": "Low for four months. " + " ".join(f'"Line {i}," she says.' for i in range(6))}, "history.quotes"),
        ({"ehr.history_of_present_illness": "Low for four months; she is neglecting self-care.", "ehr.risk_assessment": {"self_neglect": "Self-care maintained."}}, "risk.self_neglect"),
        ({"treatment.plan": "Start sertraline 50 mg daily. Follow-up: daily review as inpatient."}, "plan.setting"),
        ({"ehr.history_of_present_illness": "Low for four months, since moving away from home in May.", "demographics.living_situation": "lives with her parents"}, "household.moved_away"),
        ({"ehr.history_of_present_illness": "In May, not long after the onset of winter, she began to struggle."}, "timeline.season"),
        ({"ehr.past_psychiatric_history": "Never seen a psychiatrist; no overdoses. One previous overdose at age 32, medically treated."}, "history.self_contradiction"),
        ({"ehr.history_of_present_illness": "The health visitor asked us to see her; low for four months."}, "household.referrer"),
        ({"ehr.history_of_present_illness": "In his early sixties, in the weeks after childhood abuse, it started."}, "timeline.childhood_trigger"),
        ({"ehr.history_of_present_illness": "It began three weeks ago, soon after a relationship ending."}, "household.stressor"),
        ({"ehr.history_of_present_illness": "Low for four months. His {relative} now sorts the tablets."}, "text.placeholder"),
    ],
)
def test_record_contradictions(changes: dict, rule: str) -> None:
    """Issue 14's second reading: each contradiction a reader caught at once is one finding of its rule."""
    raw = copy.deepcopy(_clean())
    for path, value in changes.items():
        target = raw
        keys = path.split(".")
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    assert rule in _rules(raw)


def test_parents_divorce_is_not_the_patients() -> None:
    raw = _with("ehr.personal_history", "Parents divorced when she was 10. Married for 18 years.")
    assert "household.marital_history" not in _rules(raw)


def test_known_diagnosis_may_name_itself() -> None:
    raw = _with("ehr.past_psychiatric_history", "Diagnosed with major depressive disorder at 30; relapse after stopping sertraline.")
    assert "labels.diagnosis" in _rules(raw)
    raw["extra"] = {"known_diagnosis": "relapse"}
    assert "labels.diagnosis" not in _rules(raw)


def test_child_needs_an_informant_and_child_ranges() -> None:
    raw = _with("demographics.age", 9)
    raw["demographics"].update(occupation="primary school pupil", education="attends primary school", living_situation="lives with mother")
    raw["demographics"].pop("marital_status")
    raw["ehr"]["personal_history"] = "In year four at the local primary school."
    raw["exams"] = [{"name": "Vital signs", "kind": "physiological", "result": "pulse 78/min, BP 126/76 mmHg"}]
    found = _rules(raw)
    assert "household.child_informant" in found and "labs.flag" in found
    raw["persona"] = {"informant": "foster carer"}
    assert "household.informant" in _rules(raw)


def test_template_frames_counted_across_a_suite() -> None:
    cases = []
    for i in range(20):
        raw = _with("case_id", f"t-{i}")
        raw["ehr"]["history_of_present_illness"] += f" The recent stressor was a row with neighbour number {i}."
        cases.append(validate_case(raw))
    findings = [f for f in audit_suite(cases) if f.rule == "template.frame"]
    assert {f.case_id for f in findings} == {c.case_id for c in cases}
    assert any("the recent stressor was" in f.message for f in findings)


@given(st.integers(1, 40), st.sampled_from(["day", "week", "month", "year"]))
def test_durations_parse(n: int, unit: str) -> None:
    days = {"day": 1, "week": 7, "month": 30.4, "year": 365}[unit]
    text = f"Unwell for {n} {unit}{'s' if n > 1 else ''}, worse lately."
    assert durations_in(text) == [pytest.approx(n * days)]


def test_cli_audit_counts(capsys) -> None:
    assert main(["cases", "audit", "test", "--limit", "0"]) == 1
    out = capsys.readouterr().out
    assert "template.frame" in out and "finding(s) in" in out


def _changed(changes: dict) -> dict:
    """The clean record with several fields set (dotted paths), as :func:`_with` sets one."""
    raw = _clean()
    for path, value in changes.items():
        raw = _with(path, value, raw)
    return raw


@pytest.mark.parametrize(
    "changes, rule",
    [
        ({"demographics.age": 8, "demographics.occupation": "primary school pupil", "demographics.education": "attends primary school",
          "ehr.mental_status_exam": {"appearance": "Adolescent in tracksuit, casual, appears stated age."}}, "sections.age_descriptor"),
        ({"ehr.mental_status_exam": {"appearance": "Frail elderly woman, appears her age."}}, "sections.age_descriptor"),
        ({"ehr.mental_status_exam": {"appearance": "Unkempt, unshaven, clothes stained."}}, "sections.sex_descriptor"),
        ({"demographics.living_situation": "lives with her husband", "ehr.history_of_present_illness": "Low for four months; relying on her husband for childcare."}, "sections.childcare"),
        ({"ehr.history_of_present_illness": "Low and tearful for four months, since shortly after the birth.", "demographics.living_situation": "lives with her husband"}, "sections.postpartum_baby"),
        ({"demographics.age": 8, "demographics.occupation": "primary school pupil", "demographics.education": "attends primary school",
          "treatment.plan": "Refer for multisystemic therapy; liaise with the school."}, "sections.treatment_age"),
        ({"demographics.age": 15, "demographics.occupation": "secondary school student", "demographics.education": "attends secondary school",
          "demographics.living_situation": "in a residential children's home", "treatment.plan": "Involve the parents in the plan; CBT referral."}, "sections.parents_in_care"),
        ({"exams": [{"name": "BMP", "kind": "lab", "result": "Na 139 mmol/L, K 3.0 mmol/L (low), creatinine 60 umol/L"}],
          "treatment.plan": "Start sertraline 50 mg daily. Check potassium if vomiting."}, "sections.plan_labs"),
    ],
)
def test_sections_agree(changes: dict, rule: str) -> None:
    """Stop 20's independent reading: what one section says about the person that another contradicts."""
    assert rule in _rules(_changed(changes))


@pytest.mark.parametrize(
    "changes",
    [
        {"ehr.mental_status_exam": {"appearance": "Middle-aged woman, tidy, tired-looking."}},
        {"ehr.history_of_present_illness": "Low for four months; relying on her husband for childcare."},  # two sons at home
        {"ehr.history_of_present_illness": "Low since the birth of her son four months ago.", "demographics.living_situation": "lives with her husband and baby son"},
        {"exams": [{"name": "BMP", "kind": "lab", "result": "Na 139 mmol/L, K 4.1 mmol/L, creatinine 60 umol/L"}],
         "treatment.plan": "Start sertraline 50 mg daily. Check potassium if vomiting."},
    ],
)
def test_sections_agree_leaves_consistent_records(changes: dict) -> None:
    found = {r for r in _rules(_changed(changes)) if r.startswith("sections.")}
    assert found == set()


def test_profession_before_its_training() -> None:
    raw = _changed({"demographics.age": 21, "demographics.occupation": "pharmacist", "demographics.education": "undergraduate degree"})
    assert "occupation.age" in _rules(raw)


# Stop 21's independent reading of test-v2 (reader-s21-records): where one section contradicts another.
@pytest.mark.parametrize(
    "changes, rule",
    [
        ({"exams": [{"name": "Urine drug screen", "kind": "lab", "result": "positive for cannabinoids, cocaine metabolite and opiates"}],
          "ehr.substance_use": "Binge drinks at weekends, about 14 units a night. Smoker, about 10 a day."}, "joins.drug_screen"),
        ({"exams": [{"name": "DAST-10", "kind": "scale", "result": "total 8/10 (substantial)"}]}, "joins.drug_screen"),
        ({"ehr.history_of_present_illness": "Low for four months. \"Eight or nine pints most nights at the pub.\"",
          "ehr.substance_use": "Drinks wine daily, roughly 15 units."}, "joins.drink_kind"),
        ({"ehr.substance_use": "Uses cocaine 5 nights a week, about 2 g per session, with alcohol. About 3 units of alcohol a week.",
          "treatment.plan": "Contingency management. Treat co-occurring alcohol use; harm reduction advice."}, "joins.alcohol_plan"),
        ({"ehr.past_psychiatric_history": "Assessed at age 20 by the GP; offered dialectical behaviour therapy.",
          "treatment.psychotherapy": ["dialectical behaviour therapy"]}, "joins.past_copies_plan"),
        ({"demographics.age": 23, "demographics.occupation": "pharmacist", "demographics.education": "postgraduate degree",
          "ehr.personal_history": "Employed as a pharmacist for 3 years."}, "joins.work_years"),
        ({"demographics.occupation": "taxi driver", "demographics.education": "postgraduate degree"}, "joins.education_occupation"),
        ({"demographics.occupation": "unemployed, looking for work", "ehr.history_of_present_illness": "Low for four months; by now he is taking time off sick."}, "joins.employment"),
        ({"ehr.mental_status_exam": {"appearance": "Neat, appears stated age."},
          "ehr.risk_assessment": {"self_neglect": "Has lost weight and stopped washing her clothes."}}, "joins.mse_appearance"),
        ({"ehr.mental_status_exam": {"appearance": "Tidy.", "judgment": "Impaired regarding surgery."}}, "joins.mse_topic"),
        ({"ehr.mental_status_exam": {"appearance": "Tidy.", "thought_content": "Preoccupied with recent rejection."}}, "joins.mse_topic"),
        ({"ehr.mental_status_exam": {"appearance": "Tidy.", "thought_content": "Hopelessness; passive death wishes without plan."},
          "ehr.risk_assessment": {"suicide": "No thoughts of suicide or self-harm."}}, "joins.mse_death_wishes"),
        ({"exams": [{"name": "C-SSRS", "kind": "scale", "result": "screen: highest item endorsed 0/6 (negative)"}],
          "ehr.history_of_present_illness": "Low for four months. She has attended the emergency department often after self-harm."}, "joins.cssrs_self_harm"),
        ({"exams": [{"name": "CBC", "kind": "lab", "result": "Hb 12.0 g/dL, MCV 102 fL (raised), WBC 7.2 x10^9/L, platelets 84 x10^9/L (low)"}]}, "joins.labs_ignored"),
        ({"exams": [{"name": "LFT", "kind": "lab", "result": "ALT 38 U/L (raised), AST 104 U/L (raised; AST:ALT above 2)"}],
          "treatment.plan": "Start naltrexone 50 mg once daily; check LFT at 3 months.", "treatment.medications": [{"name": "naltrexone", "dose": "50 mg once daily"}]}, "joins.labs_ignored"),
        ({"exams": [{"name": "CBC", "kind": "lab", "result": "Hb 14.0 g/dL, MCV 102 fL (raised), platelets 29 x10^9/L (low)"}],
          "treatment.plan": "Start sertraline 50 mg daily. Repeat the full blood count with B12 and folate; refer to haematology if platelets stay low."}, "joins.labs_ignored"),
        ({"treatment.plan": "Start sertraline 50 mg daily. Treat co-occurring depression and PTSD."}, "joins.plan_assumes"),
        ({"treatment.plan": "Start sertraline 50 mg daily; risperidone 0.5 mg once daily, only for severe irritability or aggression."}, "joins.plan_assumes"),
        ({"ehr.chief_complaint": "Stimulant withdrawal, for some three years now."}, "joins.cc_label"),
        ({"diagnosis.disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}, {"name": "Panic disorder", "code": "F41.0"}]}, "joins.comorbid_support"),
        ({"ehr.substance_use": "Teetotal. Never smoked.", "ehr.history_of_present_illness": "Low for four months. A week of not drinking ended with shakes and sweats."}, "joins.abstinent_drinking"),
        ({"ehr.history_of_present_illness": "Low for four months. \"I've had an abscess on my arm,\" she admits."}, "joins.injecting"),
        ({"ehr.history_of_present_illness": "Referred by the memory clinic nurse. Uses heroin daily for two years.",
          "diagnosis.disorders": [{"name": "Opioid dependence, uncomplicated", "code": "F11.20"}]}, "joins.referrer"),
        ({"demographics.age": 68, "ehr.history_of_present_illness": "Low for four months. She has lost custody of her children."}, "joins.age_event"),
        ({"diagnosis.disorders": [{"name": "Alcohol dependence, uncomplicated", "code": "F10.20"}],
          "ehr.substance_use": "Ex-smoker; stopped 9 years ago. Tried cannabis at university; none for many years."}, "joins.substance_code"),
        ({"ehr.substance_use": "Teetotal. Never smoked.",
          "exams": [{"name": "AUDIT", "kind": "scale", "result": "total 4/40 (low risk)"}]}, "joins.abstinent_audit"),
        ({"ehr.history_of_present_illness": "Sleeping badly for four months; these days she is napping in the car at lunch. There has been no daytime somnolence."}, "joins.nap_somnolence"),
        ({"ehr.history_of_present_illness": "Referred by the police. Low for four months; this morning she asked her family to bring her in."}, "joins.referrer"),
        # stop 27 round two: the chief complaint's source against the history's opening
        ({"ehr.chief_complaint": "Self-referral: not coping (four months).",
          "ehr.history_of_present_illness": "Referred by the out-of-hours GP. Low for four months."}, "joins.referral_source"),
        ({"ehr.chief_complaint": "Per her GP, not coping (four months).",
          "ehr.history_of_present_illness": "The district nurse asked us to see this 41-year-old woman. Low for four months."}, "joins.referral_source"),
        ({"setting": "emergency", "ehr.history_of_present_illness": "Referred by the police. Low for four months. This afternoon she walked in and asked to see someone."}, "joins.referral_source"),
    ],
)
def test_joins(changes: dict, rule: str) -> None:
    """Each contradiction the reader named is caught by its rule, which names case and field."""
    raw = _changed(changes)
    findings = [f for f in audit_case(validate_case({**raw, "diagnosis": {**raw["diagnosis"], "categories": _categories(raw)}})) if f.rule == rule]
    assert findings, _rules(raw)
    assert all(f.case_id == "audit-1" and f.field and f.message for f in findings)


def _categories(raw: dict) -> list[str]:
    from mentalhospital_env.knowledge.codes import category_of_code

    return list(dict.fromkeys(category_of_code(d["code"]) for d in raw["diagnosis"]["disorders"]))


@pytest.mark.parametrize(
    "changes",
    [
        {"exams": [{"name": "Urine drug screen", "kind": "lab", "result": "positive for cannabinoids (THC); otherwise negative"}],
         "ehr.substance_use": "Smokes about 2 g of cannabis a day; a glass of wine at weekends."},
        {"ehr.history_of_present_illness": "Low for four months. \"A bottle of wine most nights.\"", "ehr.substance_use": "Drinks wine daily, roughly 15 units."},
        {"demographics.age": 35, "demographics.occupation": "pharmacist", "demographics.education": "postgraduate degree",
         "ehr.personal_history": "Employed as a pharmacist for 10 years."},
        {"ehr.mental_status_exam": {"appearance": "Tidy.", "thought_content": "Passive death wishes without plan or intent."},
         "ehr.risk_assessment": {"suicide": "Passive death wishes without plan or intent; holds on for her sons."}},
        {"exams": [{"name": "CBC", "kind": "lab", "result": "Hb 12.0 g/dL, MCV 102 fL (raised), platelets 84 x10^9/L (low)"}],
         "treatment.plan": "Start sertraline 50 mg daily. Repeat the full blood count with B12 and folate; refer to haematology if platelets stay low."},
        {"ehr.chief_complaint": "\"I'm in withdrawal every morning,\" for four months."},
        {"ehr.substance_use": "Teetotal. Never smoked.", "exams": [{"name": "AUDIT", "kind": "scale", "result": "total 0/40 (low risk)"}]},
        {"ehr.history_of_present_illness": "Referred by the police after a neighbour's call. Low for four months; she was not sleeping."},
        {"ehr.chief_complaint": "Per her GP, not coping (four months).", "ehr.history_of_present_illness": "Referred by Dr Shah, her GP. Low for four months."},
        {"ehr.chief_complaint": "Self-referral: not coping (four months).", "ehr.history_of_present_illness": "Referred by Dr Shah, at her own request. Low for four months."},
        {"setting": "emergency", "ehr.history_of_present_illness": "Referred by the triage nurse. Low for four months. This afternoon she walked in and asked to see someone."},
    ],
)
def test_joins_leave_consistent_records(changes: dict) -> None:
    found = {r for r in _rules(_changed(changes)) if r.startswith("joins.")}
    assert found == set()


def test_self_care_called_intact_beside_neglect_in_the_mental_state() -> None:
    """The reader's test-v2-0139: 'in the clothes she slept in' in the mental state beside 'Self-care maintained'."""
    raw = _with("ehr.mental_status_exam", {"appearance": "Unkempt, in the clothes she slept in.", "mood": "'Flat'"})
    raw["ehr"]["risk_assessment"] = {"self_neglect": "Self-care maintained; manages meals and washing."}
    assert "risk.self_neglect" in _rules(raw)
    raw["ehr"]["risk_assessment"] = {"self_neglect": "Self-care has slipped; not washing."}
    assert "risk.self_neglect" not in _rules(raw)


@pytest.mark.parametrize("name, score, flagged", [("HAM-D", 49, True), ("HAM-D", 31, False), ("MADRS", 58, True), ("MADRS", 44, False)])
def test_scale_totals_beyond_the_clinic(name: str, score: int, flagged: bool) -> None:
    top = {"HAM-D": ("52", "very severe"), "MADRS": ("60", "severe")}[name]
    raw = _with("exams", [{"name": name, "kind": "scale", "result": f"total {score}/{top[0]} ({top[1]})"}])
    assert ("labs.scale_ceiling" in _rules(raw)) is flagged


def test_a_diary_copied_between_records_is_a_duplicate() -> None:
    diary = {"name": "Sleep diary", "kind": "other", "result": "sleep latency 60 minutes most nights, 3 awakenings a night, about 5 hours asleep"}
    a = _with("exams", [diary])
    b = _with("case_id", "audit-2", a)
    cases = [validate_case({**r, "diagnosis": {**r["diagnosis"], "categories": _categories(r)}}) for r in (a, b)]
    dupes = [f for f in audit_suite(cases) if f.rule == "results.duplicate"]
    assert [f.case_id for f in dupes] == ["audit-2"]


@pytest.mark.parametrize(
    "path, value, rule",
    [
        ("ehr.history_of_present_illness", "Low for four months since a bereavement. She reports no nihilistic delusions.", "labels.differential"),
        ("ehr.history_of_present_illness", "Low for four months since a bereavement. Nothing to suggest third-person voices.", "labels.differential"),
        ("ehr.history_of_present_illness", "Low for four months since a bereavement. There has been no hypomania.", "labels.differential"),
        ("ehr.history_of_present_illness", "Poor sleep for four months since a bereavement; he denies nocturnal apnoeas.", "labels.differential"),
        ("ehr.chief_complaint", "Mistrust since childhood, harder for five years; \"People always have an agenda.\"", "labels.cc_lifelong"),
        ("ehr.chief_complaint", "Failure to sustain employment, for two years.", "labels.cc_technical"),
        ("ehr.chief_complaint", "Psychogenic paralysis for two weeks.", "labels.cc_technical"),
    ],
)
def test_history_giveaways(path: str, value, rule: str) -> None:
    """The stop-22 reader named the diagnosis from these forms (issue 14): each is one finding of its rule."""
    assert rule in _rules(_with(path, value))


def test_history_giveaways_leave_plain_words_and_quotes() -> None:
    """Plain negatives and the patient's own words are what a history should hold: no finding."""
    raw = _with("ehr.history_of_present_illness", "Low for four months since a bereavement. \"I've had no euphoria, if that's what you mean,\" she says. She has not heard voices.")
    raw["ehr"]["chief_complaint"] = "\"I can't be bothered with anything.\" Feeling low for four months."
    found = _rules(raw)
    assert not {"labels.differential", "labels.cc_lifelong", "labels.cc_technical"} & found, found


def test_the_audit_reads_narrative_records_without_a_medication_list() -> None:
    """A hand-written record's treatment may name no medications (``None``): the audit reports on it, it
    does not crash (the `agree` rules read every dose of the plan)."""
    cases = load_suite("handwritten").cases
    assert any(c.treatment is not None and c.treatment.medications is None for c in cases)
    findings = audit_suite(cases)
    assert all(f.case_id in {c.case_id for c in cases} for f in findings)


def _plan_rule_findings(changes: dict) -> list[str]:
    raw = copy.deepcopy(_clean())
    for path, value in changes.items():
        raw = _with(path, value, raw)
    from mentalhospital_env.knowledge.codes import category_of_code

    raw["diagnosis"]["categories"] = list(dict.fromkeys(category_of_code(d["code"]) for d in raw["diagnosis"]["disorders"]))
    return [f"{f.rule} {f.field}" for f in audit_case(validate_case(raw)) if f.rule.startswith("plan.")]


_DRINKER = {
    "ehr.substance_use": "Drinks about 16 units a day, mostly cider; drinking on waking.",
    "diagnosis.disorders": [{"name": "Alcohol dependence, uncomplicated", "code": "F10.20"}],
}


@pytest.mark.parametrize(
    "changes, found",
    [
        # a relapse-prevention drug for someone still drinking, and moderation for dependence
        (_DRINKER | {"treatment.plan": "Start acamprosate 666 mg three times daily. Plan a medically assisted withdrawal; oral thiamine."}, "plan.substance treatment.plan"),
        (_DRINKER | {"treatment.plan": "Plan a medically assisted withdrawal; regular sleep and limited alcohol; oral thiamine 100 mg."}, "plan.substance treatment.plan"),
        # parenteral thiamine for an outpatient
        (_DRINKER | {"treatment.plan": "Plan a medically assisted withdrawal. Thiamine before any glucose: Pabrinex IV for 3-5 days."}, "plan.setting treatment.plan"),
        # a pregnancy test for a man, and 'before the first dose' of a drug already taken
        ({"demographics.sex": "male", "treatment.plan": "Start lithium 400 mg at night. Pregnancy test before starting it."}, "plan.pregnancy treatment.plan"),
        ({"treatment.plan": "Continue lithium 400 mg at night; level in a week.", "treatment.safety": ["A pregnancy test before the first dose, and discuss contraception"]}, "plan.pregnancy treatment.safety"),
        # psychotic depression on an antidepressant alone
        ({"diagnosis.disorders": [{"name": "Major depressive disorder, single episode, severe with psychotic features", "code": "F32.3"}]}, "plan.psychosis treatment.medications"),
        # a community detox and weekly dispensing in an inpatient's plan
        ({"setting": "inpatient", "treatment.plan": "Start sertraline 50 mg daily. Weekly dispensing by the pharmacy, as she lives alone."}, "plan.setting treatment.plan"),
    ],
)
def test_plan_follows_the_record(changes: dict, found: str) -> None:
    assert found in _plan_rule_findings(changes)


@pytest.mark.parametrize(
    "changes",
    [
        _DRINKER | {"treatment.plan": "Start acamprosate 666 mg three times daily once withdrawal is complete. Plan a medically assisted withdrawal. Oral thiamine 100 mg three times daily."},
        # stop 52, held_out51 plan-5143 (rated 5, held to App 3 as a relapse drug started while still drinking)
        _DRINKER | {"treatment.plan": "Plan a medically assisted withdrawal. Relapse prevention: acamprosate 666 mg three times daily once detox is complete (renal function first). Oral thiamine 100 mg three times daily."},
        _DRINKER | {"treatment.plan": "Plan a medically assisted withdrawal. Naltrexone 50 mg daily when the detoxification has finished. Oral thiamine 100 mg."},
        _DRINKER | {"treatment.plan": "Plan a medically assisted withdrawal. Thiamine before any glucose: Pabrinex IV for 3-5 days during the inpatient detoxification."},
        {"treatment.plan": "Start lithium 400 mg at night. Pregnancy test before starting it, and discuss contraception."},
        {"diagnosis.disorders": [{"name": "Major depressive disorder, single episode, severe with psychotic features", "code": "F32.3"}],
         "treatment.medications": [{"name": "sertraline", "dose": "50 mg daily"}, {"name": "olanzapine", "dose": "5 mg at night"}]},
    ],
)
def test_plan_rules_leave_a_plan_that_follows_the_record(changes: dict) -> None:
    assert not [f for f in _plan_rule_findings(changes) if f.split()[0] in ("plan.substance", "plan.setting", "plan.pregnancy", "plan.psychosis")]


_NO_RISK_PLAN = "Start sertraline 50 mg daily; agree a written safety plan with her husband present; review in two weeks."


@pytest.mark.parametrize(
    "changes, rule",
    [
        # stop 26's reading: plan clauses the record does not call for, and a smoker's plan silent on smoking
        ({"treatment.plan": _NO_RISK_PLAN}, "plan.no_suicide_risk"),
        ({"treatment.plan": "Start sertraline 50 mg daily. As she lives alone, weekly prescriptions only."}, "plan.no_suicide_risk"),
        ({"treatment.plan": "Start sertraline 50 mg daily. Reduce caffeine and alcohol intake; regular exercise."}, "plan.light_drinker"),
        ({"ehr.substance_use": "Teetotal. Uses cocaine most weekends.", "treatment.plan": "Start sertraline 50 mg daily; warn about combined use with alcohol (cocaethylene)."}, "plan.teetotal"),
        ({"ehr.substance_use": "A glass of wine at weekends. Smokes 15 cigarettes daily."}, "plan.smoking"),
    ],
)
def test_plan_says_only_what_the_record_calls_for(changes: dict, rule: str) -> None:
    assert f"{rule} treatment.plan" in _plan_rule_findings(changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"treatment.plan": _NO_RISK_PLAN, "ehr.risk_assessment": {"suicide": "Thoughts of ending her life most days; has thought about an overdose."}},
        {"treatment.plan": "Start sertraline 50 mg daily. Reduce caffeine and alcohol intake.", "ehr.substance_use": "Drinks about 30 units a week, heavily at weekends."},
        {"ehr.substance_use": "A glass of wine at weekends. Smokes 15 cigarettes daily.", "treatment.plan": "Start sertraline 50 mg daily; nicotine replacement offered."},
        {"ehr.substance_use": "A glass of wine at weekends. Stopped smoking 10 a day two years ago."},
    ],
)
def test_plan_overreach_rules_leave_a_plan_the_record_calls_for(changes: dict) -> None:
    found = [f for f in _plan_rule_findings(changes) if f.split()[0] in ("plan.no_suicide_risk", "plan.light_drinker", "plan.smoking", "plan.teetotal")]
    assert not found, found


_REGIMEN = " Chlordiazepoxide on a reducing regimen over 7-10 days, with the CIWA-Ar at daily visits."


@pytest.mark.parametrize(
    "changes, rule",
    [
        # stop 26 round two, a consultant's reading of the reference plans
        (_DRINKER | {"treatment.plan": "Oral thiamine 100 mg. Do not stop drinking suddenly: plan a medically assisted withdrawal (community or inpatient detoxification)."}, "plan.withdrawal_regimen"),
        (_DRINKER | {"treatment.plan": "Commence fluoxetine 20 mg once daily. Oral thiamine." + _REGIMEN}, "plan.abstinence_first"),
        (_DRINKER | {"treatment.plan": "Oral thiamine; hepatology referral and a FibroScan." + _REGIMEN, "treatment.follow_up": "weekly at first, then monthly; check LFT at 3 months"}, "plan.liver_twice"),
        ({"ehr.substance_use": "A glass of wine at weekends. Never smoked.", "treatment.plan": "Start sertraline 50 mg daily; treat co-occurring alcohol use."}, "plan.light_drinker"),
        ({"ehr.past_psychiatric_history": "Depression at 30; sertraline from her GP, stopped a year ago.", "treatment.plan": "Commence sertraline 50 mg daily."}, "plan.restart"),
        ({"treatment.plan": "Start sertraline 50 mg daily. Review in 2 weeks, then every 2-4 weeks until remission. See again within a week."}, "plan.review_twice"),
        ({"treatment.plan": "Start sertraline 50 mg daily. Refer for trauma-focused cognitive behavioural therapy and eye movement desensitisation and reprocessing (EMDR)."}, "plan.one_trauma_therapy"),
        ({"treatment.plan": "Commence zolpidem 5 mg at bedtime for no more than 2-4 weeks. Offer cognitive behavioural therapy for insomnia (CBT-I)."}, "plan.hypnotic_first"),
        ({"diagnosis.disorders": [{"name": "Moderate depressive episode", "code": "F32.1"}, {"name": "Insomnia", "code": "F51.01"}]}, "plan.insomnia"),
        ({"demographics.living_situation": "lives with partner and a young child", "ehr.substance_use": "Smokes crack cocaine in binges. Never smoked tobacco."}, "plan.safeguarding"),
        ({"demographics.sex": "other", "treatment.plan": "Start sertraline 50 mg daily; ask about suicidal thoughts, as they has said they would be better off dead."}, "plan.they_agreement"),
        ({"ehr.substance_use": "About 3 g of skunk a day. Never smoked tobacco.", "treatment.plan": "Start methylphenidate 5 mg twice daily."}, "plan.stimulant_cannabis"),
        # a smoker's 'first one on waking' does not make a light drinker heavy
        ({"ehr.substance_use": "Drinks rarely, a few times a month. Smokes 10 a day, first one on waking.", "treatment.plan": "Start sertraline 50 mg daily; reduce caffeine and alcohol; nicotine replacement offered."}, "plan.light_drinker"),
    ],
)
def test_reference_plans_a_consultant_would_send_back(changes: dict, rule: str) -> None:
    assert f"{rule} treatment.plan" in _plan_rule_findings(changes)


@pytest.mark.parametrize(
    "changes",
    [
        _DRINKER | {"treatment.plan": "If the low mood persists after 3-4 weeks of abstinence, commence fluoxetine 20 mg once daily. Oral thiamine." + _REGIMEN},
        _DRINKER | {"treatment.plan": "Oral thiamine; hepatology referral and a FibroScan." + _REGIMEN, "treatment.follow_up": "weekly at first, then monthly"},
        {"ehr.past_psychiatric_history": "Sertraline from her GP was stopped because of side effects.", "treatment.plan": "Commence sertraline 50 mg daily."},
        {"treatment.plan": "Start sertraline 50 mg daily. Review within a week, then every 2-4 weeks until remission."},
        {"diagnosis.disorders": [{"name": "Moderate depressive episode", "code": "F32.1"}, {"name": "Nightmare disorder", "code": "F51.5"}]},
        {"demographics.living_situation": "lives with adult son", "ehr.substance_use": "Smokes crack cocaine in binges."},
        {"demographics.living_situation": "lives with partner and a young child", "ehr.substance_use": "Tried cocaine at university; nothing since."},
        {"ehr.substance_use": "Stopped cannabis two years ago.", "treatment.plan": "Start methylphenidate 5 mg twice daily."},
    ],
)
def test_reference_plan_rules_leave_a_plan_that_follows_the_record(changes: dict) -> None:
    rules = ("plan.abstinence_first", "plan.liver_twice", "plan.restart", "plan.review_twice", "plan.insomnia", "plan.safeguarding", "plan.stimulant_cannabis", "plan.they_agreement")
    found = [f for f in _plan_rule_findings(changes) if f.split()[0] in rules]
    assert not found, found


@given(st.integers(min_value=60, max_value=200), st.sampled_from(["Hb", "haemoglobin"]))
def test_charted_haemoglobin_reads_back(tenths: int, label: str) -> None:
    from mentalhospital_env.cases.audit import charted, lab_values

    value = tenths / 10
    result = f"{label} {value:g} g/dL, MCV 90 fL, platelets 250 x10^9/L"
    shown = charted("CBC", result)
    assert f"{label} {int(round(value * 10))} g/L" in shown and "g/dL" not in shown
    assert lab_values(shown)[0][1] == pytest.approx(value)


@given(st.integers(min_value=35, max_value=140))
def test_charted_hba1c_in_mmol_per_mol_reads_back(tenths: int) -> None:
    from mentalhospital_env.cases.audit import charted

    result = f"{tenths / 10:g} % (within reference range 4-5.6)"
    shown = charted("HbA1c", result)
    assert shown.split()[1] == "mmol/mol" and "reference range 20-38" in shown
    back = float(charted("HbA1c", shown, back=True).split()[0])
    assert abs(back - tenths / 10) <= 0.05  # one mmol/mol is 0.09 %


def test_lab_names_as_a_uk_chart_writes_them_resolve_to_the_same_exams() -> None:
    from mentalhospital_env.cases.audit import chart_name
    from mentalhospital_env.knowledge import resolve_exam

    for name in ("CBC", "BMP", "Lipid panel", "RPR"):
        assert chart_name(name) != name
        assert resolve_exam(chart_name(name)).name == resolve_exam(name).name


def test_weekly_dispensing_is_said_once() -> None:
    plan = "Start sertraline 50 mg daily; weekly prescriptions for now, given the suicidal thoughts. Weekly dispensing by the pharmacy, as she lives alone."
    assert "plan.means_twice treatment.plan" in _plan_rule_findings({"treatment.plan": plan})
    assert "plan.means_twice treatment.plan" not in _plan_rule_findings({"treatment.plan": plan.split(";")[0] + ". Weekly dispensing by the pharmacy, as she lives alone."})


@pytest.mark.parametrize("setting, extra, said", [
    ("outpatient", [], "community alcohol team|community detoxification"),
    ("inpatient", [], "four-hourly"),
    ("outpatient", [{"name": "Opioid dependence, uncomplicated", "code": "F11.20"}], "inpatient"),
])
def test_the_plan_builder_writes_the_withdrawal_regimen_the_record_calls_for(setting: str, extra: list, said: str) -> None:
    """A dependent drinker's plan that names a detoxification is given its regimen, as the setting and the other
    dependences call for, and the audit then finds nothing of the kind (the builder and the audit read one rule)."""
    import random
    import re

    from mentalhospital_env.cases.audit import plan_follows_record
    from mentalhospital_env.cases.generator.plans import follow_record
    from mentalhospital_env.knowledge.codes import category_of_code

    raw = copy.deepcopy(_clean())
    for path, value in (_DRINKER | {"setting": setting}).items():
        raw = _with(path, value, raw)
    raw["diagnosis"]["disorders"] += extra
    raw["diagnosis"]["categories"] = list(dict.fromkeys(category_of_code(d["code"]) for d in raw["diagnosis"]["disorders"]))
    case = validate_case(raw)
    treatment = {"plan": "Oral thiamine 100 mg three times daily. Plan a medically assisted withdrawal.", "follow_up": "weekly at first, then monthly; check LFT at 3 months"}
    plan = follow_record(treatment["plan"], treatment, case, random.Random(3))
    assert re.search(said, plan, re.I), plan
    assert re.search(r"chlordiazepoxide", plan, re.I) and not [f for f in plan_follows_record(case, plan, follow_up=treatment["follow_up"]) if f.rule == "plan.withdrawal_regimen"]


def test_an_open_either_or_choice_is_found() -> None:
    """Stop 27 round two: 'a pandemic or illness scare' left in a history; the record says which it was."""
    open_choice = _with("ehr.history_of_present_illness", "Low for four months, since a pandemic or illness scare.")
    said = _with("ehr.history_of_present_illness", "Low for four months, since a health scare in the family.")
    assert "text.either_or" in _rules(open_choice)
    assert "text.either_or" not in _rules(said)


# What a consultant caught reading test-v2 records at stop 28, one field changed at a time: the rule that
# must say so, and the same record with the fault mended, which must not.
STOP28 = [
    ("treatment.plan", "Outpatient care. Start sertraline 50 mg daily. Offer CBT, once she is ready, once she is ready. Review in two weeks.",
     "Outpatient care. Start sertraline 50 mg daily. Offer CBT, once she is ready. Review in two weeks.", "text.repeated_clause"),
    ("exams", [{"name": "Lipids", "kind": "lab", "result": "total cholesterol 7.0 mmol/L (raised), LDL 6.8 mmol/L (raised), HDL 0.6 mmol/L (low), triglycerides 3.4 mmol/L (raised)"}],
     [{"name": "Lipids", "kind": "lab", "result": "total cholesterol 7.0 mmol/L (raised), LDL 4.8 mmol/L (raised), HDL 0.8 mmol/L (low), triglycerides 3.4 mmol/L (raised)"}], "labs.lipid_sum"),
    ("treatment.plan", "Outpatient follow-up. Start sertraline 50 mg daily. Admission today, informally if she agrees. Seen weekly.",
     "Outpatient follow-up. Start sertraline 50 mg daily. Crisis team asked to see her today; admission if the risk cannot be managed at home. Seen weekly.", "plan.outpatient_admission"),
    ("ehr.personal_history", "Witnessed violence between her parents until her father left when she was about twelve. Drives buses.",
     "Witnessed violence between her parents through much of her childhood. Drives buses.", "household.parents_apart"),
    ("ehr.history_of_present_illness", "Her father died in March. Low and tearful since, waking at four. Then she had gone quiet at mealtimes.",
     "Her father died in March. Low and tearful since, waking at four. Then she stopped going to the choir.", "household.alone_seen"),
]


@pytest.mark.parametrize("path, faulty, mended, rule", STOP28)
def test_stop28_contradictions(path: str, faulty, mended, rule: str) -> None:
    base = _clean()
    if rule == "household.parents_apart":
        base["demographics"].update(age=22, marital_status="single", living_situation="lives with her parents")
        base["ehr"]["personal_history"] = "Drives buses."
    if rule == "household.alone_seen":
        base["demographics"].update(marital_status="widowed", living_situation="lives alone in a rented flat")
        base["ehr"]["personal_history"] = "Has driven buses for the council for eleven years."
    assert rule in _rules(_with(path, faulty, base))
    assert rule not in _rules(_with(path, mended, base))
    assert rule in RULES


def test_core_complaint_of_insomnia_must_be_told() -> None:
    """Primary insomnia whose record tells no sleep complaint (stop 27's reading) is sent back; the same
    record with the complaint is not."""
    raw = _with("diagnosis.disorders", [{"name": "Primary insomnia", "code": "F51.01"}])
    raw["ehr"]["chief_complaint"] = "Low and tearful for about four months."
    raw["ehr"]["history_of_present_illness"] = "Her father died in March; since then she has cried most days and stopped going to the choir."
    assert "history.core_complaint" in _rules(copy.deepcopy(raw))
    raw["ehr"]["history_of_present_illness"] += " She lies awake until three most nights."
    assert "history.core_complaint" not in _rules(raw)


def test_police_referral_of_an_eating_disorder() -> None:
    raw = _with("diagnosis.disorders", [{"name": "Anorexia nervosa, restricting type", "code": "F50.01"}])
    raw["ehr"]["history_of_present_illness"] = "Brought in by the police after she fainted at the bus depot; she has been eating very little and her weight has fallen."
    assert "household.police_referral" in _rules(copy.deepcopy(raw))
    raw["ehr"]["history_of_present_illness"] = "Referred by her GP after she fainted at the bus depot; she has been eating very little and her weight has fallen."
    assert "household.police_referral" not in _rules(raw)


def test_remote_trigger_for_an_adult_illness() -> None:
    raw = _with("ehr.history_of_present_illness", "At 40, with acne in adolescence still fresh, she stopped going to the choir; low and tearful since, waking at four.")
    assert "timeline.remote_trigger" in _rules(copy.deepcopy(raw))
    raw["ehr"]["history_of_present_illness"] = "At 40, soon after her father died, she stopped going to the choir; low and tearful since, waking at four."
    assert "timeline.remote_trigger" not in _rules(raw)


def test_child_brought_by_the_parent_who_lives_apart() -> None:
    """A boy living with his mother whose father is the informant, with no word why (stop 27's and 28's
    readings); the same record saying he stays with his father at weekends is not sent back."""
    raw = _with("demographics", {"age": 12, "sex": "male", "occupation": "secondary school pupil in year 7", "education": "attends secondary school", "living_situation": "lives with mother and a younger brother"})
    raw["diagnosis"]["disorders"] = [{"name": "Attention deficit hyperactivity disorder, combined presentation", "code": "F90.2"}]
    raw["persona"] = {"verbosity": "average", "guardedness": 0.3, "insight": "partial", "speech_style": "fidgety", "informant": "father"}
    assert "household.informant_apart" in _rules(copy.deepcopy(raw))
    raw["ehr"]["personal_history"] = "Stays with his father at weekends; the father brought him today."
    assert "household.informant_apart" not in _rules(copy.deepcopy(raw))
    raw["ehr"]["personal_history"] = "Bullied at secondary school."
    raw["demographics"].update(occupation="primary school pupil in year 6", education="attends primary school")
    assert "sections.school_stage" in _rules(raw)


def _drinker(hpi: str) -> dict:
    """The clean record with an alcohol dependence beside the depression, told in the substance history."""
    raw = _changed({"ehr.substance_use": "Drinks about 15 units a day, mostly lager, for six years. No drugs.",
                    "ehr.history_of_present_illness": hpi})
    raw["diagnosis"]["disorders"].append({"name": "Alcohol dependence, uncomplicated", "code": "F10.20"})
    return raw


def test_a_substance_diagnosis_the_history_never_mentions() -> None:
    """Stop 30 (issue 14): a comorbid dependence told only in the substance history, the story written
    without reading it ('18 units a day never in the history')."""
    story = _clean()["ehr"]["history_of_present_illness"]
    assert "history.substance_untold" in _rules(_drinker(story))
    told = story + " The drinking has crept up over the same months; she says it is the only thing that lets her switch off."
    assert "history.substance_untold" not in _rules(_drinker(told))
    gambler = _changed({})
    gambler["diagnosis"]["disorders"].append({"name": "Pathological gambling", "code": "F63.0"})
    assert "history.substance_untold" in _rules(gambler)  # any code family the reviewer names a substance for
    assert "history.substance_untold" not in _rules(_changed({}))


@pytest.mark.parametrize(
    "personal, family, flagged",
    [
        ("Grew up with a father who drank heavily; frequent arguments at home.", "No family psychiatric history.", True),
        ("Dad drank a lot and there was always shouting.", "Mother has type 2 diabetes.", True),
        ("Her mother drank heavily through her childhood.", "Father drank heavily for years; never had help for it.", True),
        ("Grew up with a father who drank heavily; frequent arguments at home.", "Father drank heavily for years; never had help for it.", False),
        ("Dad drank a lot and there was always shouting.", "Alcohol problems in her father, never treated.", False),
        ("Both parents at home throughout; a quiet, safe home.", "No family psychiatric history.", False),
    ],
)
def test_a_parents_drinking_told_in_the_upbringing_is_in_the_family_history(personal: str, family: str, flagged: bool) -> None:
    """Stop 30 (issue 14): 'his father drank heavily through his childhood' beside 'nobody in the family
    has had mental health problems'."""
    raw = _changed({"ehr.personal_history": personal, "ehr.family_history": family})
    assert ("family.upbringing_untold" in _rules(raw)) is flagged


def test_a_relapse_referred_as_if_new() -> None:
    """Stop 30 (issue 14): a relapse of a known illness whose history never refers back to it (stop 29's
    0220: schizophrenia 'since 18' referred as if new); the same history with the earlier illness told
    back, or a case not marked as a relapse, passes."""
    raw = _changed({"ehr.past_psychiatric_history": "Known to the community team since 30 with depression; sertraline helped until she stopped it in the spring."})
    raw["extra"] = {"known_diagnosis": "relapse"}
    assert "history.relapse_as_new" in _rules(raw)
    told = _clean()["ehr"]["history_of_present_illness"] + " Her husband recognises this from before."
    assert "history.relapse_as_new" not in _rules(_with("ehr.history_of_present_illness", told, raw))
    stopped = _clean()["ehr"]["history_of_present_illness"] + " She stopped taking the sertraline in April."
    assert "history.relapse_as_new" not in _rules(_with("ehr.history_of_present_illness", stopped, raw))
    del raw["extra"]
    assert "history.relapse_as_new" not in _rules(raw)


@pytest.mark.parametrize(
    "plan, insight, flagged",
    [
        ("Start sertraline 50 mg daily; CBT referral, once she is ready; review in two weeks.", "Good; recognises being unwell.", True),
        ("Start sertraline 50 mg daily; CBT referral, once she is ready; she is willing to try it. Review in two weeks.", "Partial.", True),
        ("Start sertraline 50 mg daily; CBT referral, once she is ready; review in two weeks.", "Partial; sees the lows as illness.", False),
        ("Start sertraline 50 mg daily; CBT referral; she is willing to try it. Review in two weeks.", "Good.", False),
    ],
)
def test_therapy_put_off_until_ready_against_the_record(plan: str, insight: str, flagged: bool) -> None:
    """Stop 30 (issue 14): 'once she is ready' in 67 of test-v2's plans, a detail drawn without reading the
    record: unfounded beside good insight in the mental state, or beside 'she is willing to try it'."""
    raw = _changed({"treatment.plan": plan, "ehr.mental_status_exam": {"appearance": "Tidy, tired-looking.", "mood": "'Flat'", "insight": insight}})
    assert ("plan.readiness_unfounded" in _rules(raw)) is flagged


# ------------------------------------------------------------------ stop 31: near-clones and the three left items


def _suite_of(raws: list[dict]) -> list:
    return [validate_case({**r, "diagnosis": {**r["diagnosis"], "categories": _categories(r)}}) for r in raws]


def _pmdd(case_id: str, mood: str, diary: str, plan: str, hpi: str) -> dict:
    raw = _with("case_id", case_id)
    raw["ehr"]["history_of_present_illness"] = hpi
    raw["ehr"]["mental_status_exam"] = {"appearance": "Tidy.", "mood": mood}
    raw["exams"] = [{"name": "Daily symptom record", "kind": "other", "result": diary}]
    raw["treatment"]["plan"] = plan
    return raw


def test_two_records_that_share_their_quotes_reports_and_plan_are_near_clones() -> None:
    """Stop 30's 0250/0192: a mood quote, a symptom diary and plan sentences word for word in two patients."""
    mood = "'fine at the moment, but you should see me the week before my period'"
    diary = "symptoms cluster in the week before menses and clear within a few days of onset, over two cycles"
    plan = "Begin fluoxetine 20 mg daily, continuously or in the luteal phase. Ask about suicidal thoughts in the premenstrual week. Review after two to three cycles, with the diary in hand."
    a = _pmdd("clone-a", mood, diary, plan, "Irritable and low before her periods for two years, since stopping the pill.")
    b = _pmdd("clone-b", mood, diary, plan.replace("Begin", "Start"), "Arguments every month with her partner, worst in the days before a period.")
    others = [_with("case_id", f"other-{i}") for i in range(3)]
    for i, o in enumerate(others):
        o["ehr"]["history_of_present_illness"] = f"A different story number {i}, about a move of house and a lost job."
        o["treatment"]["plan"] = f"Review in {i + 2} weeks."
    findings = [f for f in audit_suite(_suite_of([a, b] + others)) if f.rule == "template.clone"]
    assert [(f.case_id, f.field) for f in findings] == [("clone-a", "record")]
    assert "clone-b" in findings[0].message and "quote" in findings[0].message


def test_records_of_one_disorder_told_in_their_own_words_are_not_clones() -> None:
    a = _pmdd("own-a", "'fine at the moment, but you should see me the week before my period'",
              "low mood and tension on days 20 to 28 of three cycles, none after day 3",
              "Begin fluoxetine 20 mg daily in the luteal phase. Ask about suicidal thoughts in the premenstrual week.",
              "Irritable and low before her periods for two years.")
    b = _pmdd("own-b", "'okay today, ask me next week'",
              "irritability and bloating in the week before each of two periods, gone by the second day of bleeding",
              "Start sertraline 50 mg daily from mid-cycle. Ask about suicidal thoughts in the premenstrual week.",
              "Her partner says the rows come every month.")
    assert not [f for f in audit_suite(_suite_of([a, b])) if f.rule == "template.clone"]


def _drinker_on_file(exams: list[dict]) -> dict:
    raw = _with("diagnosis.disorders", [{"name": "Alcohol dependence, uncomplicated", "code": "F10.20"}])
    raw["ehr"]["history_of_present_illness"] = "Drinking a bottle of wine a day for six years; shakes in the mornings."
    raw["ehr"]["substance_use"] = "A bottle of wine (about 10 units) a day for six years."
    raw["exams"] = exams
    return raw


def test_vital_signs_marked_not_indicated_in_an_alcohol_dependence() -> None:
    vitals = {"name": "Vital signs", "kind": "physiological", "result": "pulse 76/min, BP 122/78 mmHg, temperature 36.8 C, respiratory rate 14/min, SpO2 98%"}
    assert "exams.indicated" in _rules(_drinker_on_file([{**vitals, "indicated": False}]))
    assert "exams.indicated" not in _rules(_drinker_on_file([vitals]))
    assert "exams.indicated" not in _rules(_with("exams", [{**vitals, "indicated": False}]))  # not indicated in a depression


@pytest.mark.parametrize(
    "living, plan, flagged",
    [
        ("lives in a hostel", "A small supply at a time, as she lives alone. Review in two weeks.", True),
        ("lives in a shared house", "Ask about contact with children, as she lives alone.", True),
        ("lives alone in a rented flat", "A small supply at a time, as she lives alone.", False),
        ("lives in a hostel", "A small supply at a time; hostel staff to hold the rest.", False),
    ],
)
def test_a_plan_that_says_alone_of_a_hostel_resident(living: str, plan: str, flagged: bool) -> None:
    raw = _with("demographics.living_situation", living)
    raw["treatment"]["plan"] = plan
    assert ("household.alone_untrue" in _rules(raw)) is flagged


@pytest.mark.parametrize(
    "insight, persona, flagged",
    [("Poor; believes nothing is wrong.", "full", True), ("Good.", "partial", True), ("Partial; accepts the low mood, not the drinking.", "partial", False),
     ("Good; has tracked symptoms on a calendar.", "full", False), ("Limited.", "none", True)],
)
def test_the_persona_plays_the_insight_the_mental_state_records(insight: str, persona: str, flagged: bool) -> None:
    raw = _with("ehr.mental_status_exam", {"appearance": "Tidy.", "mood": "'Flat'", "insight": insight})
    raw["persona"] = {"insight": persona}
    assert ("agree.persona_insight" in _rules(raw)) is flagged


# --- stop 34's consultant on test-v2 (review.json stop35) ----------------------------------------------


@pytest.mark.parametrize(
    ("substance", "flagged"),
    [
        ("Smokes crack cocaine in binges lasting two to three days. Never smoked.", True),  # test-v2-0132
        ("Uses about 3 bags of heroin a day, smoked. Never smoked.", True),
        ("Smokes crack cocaine in binges lasting two to three days. Does not smoke tobacco.", False),
        ("A glass of wine at weekends. Never smoked. Denies illicit drugs.", False),
    ],
)
def test_never_smoked_beside_a_smoked_drug_is_a_contradiction(substance: str, flagged: bool) -> None:
    assert ("agree.never_smoked" in _rules(_with("ehr.substance_use", substance))) is flagged


@pytest.mark.parametrize(("pulse", "ecg", "flagged"), [(88, 72, True), (95, 70, True), (88, 85, False), (112, 108, False)])
def test_the_ecg_rate_and_the_pulse_of_one_encounter_agree(pulse: int, ecg: int, flagged: bool) -> None:
    raw = _clean()
    raw["exams"] += [
        {"name": "Vital signs", "kind": "physiological", "result": f"pulse {pulse}/min, BP 122/78 mmHg, temperature 36.8 C"},
        {"name": "ECG", "kind": "physiological", "result": f"sinus rhythm {ecg}/min, QTc 418 ms, no acute changes"},
    ]
    assert ("agree.ecg_pulse" in _rules(raw)) is flagged


def test_a_plan_does_not_assess_an_overdose_the_record_never_describes() -> None:
    """test-v2-0243: 'Several overdoses in the past ... no intent today' drew 'Medical assessment of the overdose
    first' into an emergency plan; an overdose taken tonight keeps it."""
    step = "Medical assessment of the overdose first: paracetamol and salicylate levels, bloods and treatment with the medical team before the psychiatric plan."
    raw = _with("setting", "emergency")
    raw["ehr"]["risk_assessment"] = {"suicide": "Several overdoses in the past, none needing intensive care; no intent today."}
    raw["treatment"]["plan"] = "Home today with crisis team follow-up within 24 hours. " + step
    assert "plan.overdose_untold" in _rules(raw)
    raw["ehr"]["history_of_present_illness"] += " Tonight, after an argument, she took an overdose of paracetamol and rang an ambulance."
    assert "plan.overdose_untold" not in _rules(raw)
