"""Critical actions and contraindications (knowledge/data/critical_actions.json): loading, equivalents, refusals, rules."""

from __future__ import annotations

from dataclasses import replace

import copy
import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import load_suite
from mentalhospital_env.knowledge import KnowledgeError, load_knowledge
from mentalhospital_env.knowledge.critical import Profile, load_critical_actions, read_critical_actions


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _raw():
    return json.loads(resources.files("mentalhospital_env.knowledge").joinpath("data/critical_actions.json").read_text("utf-8"))


def _read(raw):
    kb = load_knowledge()
    return read_critical_actions(raw, kb.drugs, [d.code for d in kb.disorders])


@pytest.mark.parametrize(
    "plan",
    [
        "Chlordiazepoxide 20 mg four times daily, reducing over 7 days.",
        "Diazepam loading as per protocol.",
        "Symptom-triggered lorazepam.",
        "CIWA-guided regimen on the ward.",
        "Oxazepam given the liver disease.",
        "A fixed-dose reducing course of Librium.",
    ],
)
def test_any_benzodiazepine_regimen_counts(ca, plan):
    assert "benzodiazepine_withdrawal_regimen" in ca.proposed(plan)


@pytest.mark.parametrize("plan", ["Pabrinex two pairs IV tds.", "Vitamin B1 100 mg tds.", "IV thiamine before glucose.", "Oral thiamine."])
def test_thiamine_by_any_name(ca, plan):
    assert "thiamine" in ca.proposed(plan)


@pytest.mark.parametrize(
    "plan",
    [
        "We wrote down together what she will do if the thoughts return and whom to call.",
        "Crisis card with the team's number given.",
        "Agreed a keep-safe plan with his mother.",
    ],
)
def test_a_safety_plan_in_any_words(ca, plan):
    assert "safety_plan" in ca.proposed(plan)


@pytest.mark.parametrize(
    ("plan", "absent"),
    [
        ("Avoid benzodiazepines.", "benzodiazepine"),
        ("Avoid benzodiazepines, antidepressants and stimulants.", "stimulant"),
        ("Avoid benzodiazepines, antidepressants and stimulants.", "antidepressant"),
        ("No antidepressant.", "antidepressant"),
        ("Benzodiazepines are contraindicated here.", "benzodiazepine"),
        ("Do not start valproate.", "valproate"),
        ("Limit supply (lithium is dangerous in overdose).", "lithium"),
    ],
)
def test_a_refused_action_is_not_proposed(ca, plan, absent):
    assert absent not in ca.proposed(plan)


def test_follow_up_within_days_by_pattern(ca):
    assert "prompt_follow_up" in ca.proposed("Review in 3 days at the clinic.")
    assert "prompt_follow_up" not in ca.proposed("Review in 6 weeks.")


def _profile(**kw):
    base = dict(codes=("F32.1",), setting="outpatient", age=40, sex="female")
    base.update(kw)
    return Profile(**base)


def test_alcohol_withdrawal_requires_regimen_thiamine_and_monitoring(ca):
    p = _profile(codes=("F10.230",), setting="inpatient")
    bad = ca.check(p, "Fluoxetine 20 mg daily and sleep hygiene. Review in 4 weeks.")
    assert {"benzodiazepine_withdrawal_regimen", "thiamine", "withdrawal_monitoring"} <= {m.action for m in bad.missing}
    good = ca.check(p, "Chlordiazepoxide reducing regimen, Pabrinex IV then oral thiamine, CIWA-Ar four-hourly.")
    assert not {m.action for m in good.missing} & {"benzodiazepine_withdrawal_regimen", "thiamine", "withdrawal_monitoring"}


@pytest.mark.parametrize(
    ("profile", "plan", "action"),
    [
        (dict(codes=("F05",)), "Lorazepam 1 mg at night for agitation.", "benzodiazepine"),
        (dict(codes=("F31.4",)), "Sertraline 50 mg daily.", "antidepressant"),
        (dict(codes=("F50.01",)), "Bupropion 150 mg daily.", "bupropion"),
        (dict(codes=("F31.12",), pregnant=True), "Valproate 500 mg.", "valproate"),
        (dict(codes=("F43.10",)), "Diazepam 5 mg for flashbacks.", "benzodiazepine"),
        (dict(codes=("F32.1",), age=15), "Venlafaxine 37.5 mg.", "child_unsafe_antidepressant"),
    ],
)
def test_contraindications_found(ca, profile, plan, action):
    assert action in {c.action for c in ca.check(_profile(**profile), plan).contraindicated}


def test_antidepressant_with_an_antimanic_agent_is_not_monotherapy(ca):
    check = ca.check(_profile(codes=("F31.4",)), "Quetiapine 50 mg at night, with sertraline added later if needed.")
    assert "antidepressant" not in {c.action for c in check.contraindicated}


def test_benzodiazepines_allowed_in_withdrawal_delirium(ca):
    check = ca.check(_profile(codes=("F05", "F10.230")), "Chlordiazepoxide regimen, thiamine, CIWA.")
    assert "benzodiazepine" not in {c.action for c in check.contraindicated}


def test_case_rules_read_from_the_record(ca):
    suite = load_suite("test")
    case = suite["test-0308"]
    required = {r.action for r in ca.requirements(ca.case_profile(case))[0]}
    assert {"benzodiazepine_withdrawal_regimen", "thiamine", "withdrawal_monitoring"} <= required
    child = next(c for c in suite.cases if c.demographics.age < 12)
    required = {r.action for r in ca.requirements(ca.case_profile(child))[0]}
    assert {"parent_involvement", "school_liaison"} <= required


def test_lithium_proposed_requires_monitoring(ca):
    p = _profile(codes=("F31.12",), sex="male")
    assert "lithium_monitoring" in {m.action for m in ca.check(p, "Lithium 400 mg at night.").missing}
    lithium = {"lithium_monitoring", "lithium_renal_function", "lithium_thyroid_function"}
    checked = ca.check(p, "Lithium 400 mg at night; level 12 hours post-dose at 1 week, U&E and TFTs.")
    assert not lithium & {m.action for m in checked.missing}


@pytest.mark.parametrize("drug", ["Lithium 400 mg at night", "Lamotrigine 25 mg daily", "Sodium valproate 500 mg"])
def test_a_teratogen_for_a_woman_of_childbearing_age_needs_a_pregnancy_test(ca, drug):
    woman = _profile(codes=("F31.81",), age=27)
    assert "pregnancy_test" in {m.action for m in ca.check(woman, f"{drug}.").missing}
    assert "pregnancy_test" not in {m.action for m in ca.check(woman, f"{drug}. Pregnancy test before starting.").missing}
    for other in (_profile(codes=("F31.81",), age=27, sex="male"), _profile(codes=("F31.81",), age=62)):
        assert "pregnancy_test" not in {m.action for m in ca.check(other, f"{drug}.").missing}


def test_hepatic_impairment_contraindicates_naltrexone(ca):
    assert ca.hepatic_impairment(["ALT 58 U/L (raised), AST 121 U/L (raised), albumin 38 g/L"])
    assert ca.hepatic_impairment(["Alcohol-related cirrhosis diagnosed 2019."])
    assert not ca.hepatic_impairment(["ALT 30 U/L, AST 28 U/L (within reference range)", "No liver disease."])
    liver = _profile(codes=("F10.20",), sex="male", hepatic=True)
    assert {c.action for c in ca.check(liver, "Start naltrexone 50 mg daily.").contraindicated} == {"naltrexone"}
    assert not ca.check(replace(liver, hepatic=False), "Start naltrexone 50 mg daily.").contraindicated
    assert not ca.check(liver, "Start acamprosate 666 mg three times daily.").contraindicated


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("actions", "thiamine", "drugs"), ["no-such-drug"], "drugs"),
        (("actions", "stimulant", "classes"), ["no-such-class"], "classes"),
        (("actions", "prompt_follow_up", "patterns"), ["(unclosed"], "patterns"),
        (("rules", 0, "must"), ["no_such_action"], "must"),
        (("rules", 0, "when", "settings"), ["space station"], "when.settings"),
        (("rules", 0, "when", "codes"), ["not a code"], "when.codes"),
    ],
)
def test_malformed_file_names_entry_and_field(path, value, field):
    raw = copy.deepcopy(_raw())
    target = raw
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(KnowledgeError) as error:
        _read(raw)
    assert error.value.field == field
    assert error.value.file == "critical_actions.json"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(["actions", "rules", "refusal_cues", "risk_concepts"]), value=_json)
def test_any_malformed_section_raises_knowledge_error_or_loads(key, value):
    raw = copy.deepcopy(_raw())
    raw[key] = value
    try:
        _read(raw)
    except KnowledgeError:
        pass


def test_psychotic_depression_needs_an_antipsychotic_or_ect_and_prompt_review(ca):
    p = _profile(codes=("F32.3",))
    alone = ca.check(p, "Sertraline 50 mg daily. Review in four weeks.")
    assert {"psychotic_depression_treatment", "prompt_follow_up"} <= {m.action for m in alone.missing}
    for plan in (
        "Sertraline 50 mg daily with olanzapine 5 mg at night. Review in one week.",
        "Sertraline 50 mg daily; refer for electroconvulsive therapy as she is refusing fluids. Review within days.",
        "Venlafaxine with an antipsychotic; seen again this week.",
    ):
        assert not {"psychotic_depression_treatment", "prompt_follow_up"} & {m.action for m in ca.check(p, plan).missing}, plan


def test_lithium_needs_its_level_renal_and_thyroid_function(ca):
    p = _profile(codes=("F31.12",), sex="male")
    missing = {m.action for m in ca.check(p, "Lithium 400 mg at night; level 12 hours post-dose at one week.").missing}
    assert {"lithium_renal_function", "lithium_thyroid_function"} <= missing and "lithium_monitoring" not in missing
    said = " ".join(ca.sentences(["lithium_monitoring", "lithium_renal_function", "lithium_thyroid_function"]))
    assert len(ca.sentences(["lithium_monitoring", "lithium_renal_function", "lithium_thyroid_function"])) == 1
    assert not {"lithium_monitoring", "lithium_renal_function", "lithium_thyroid_function"} & {
        m.action for m in ca.check(p, f"Lithium 400 mg at night. {said}").missing
    }


def test_psychosis_with_violence_needs_a_decision_and_a_risk_plan(ca):
    p = _profile(codes=("F20.0",), sex="male", risks=frozenset({"violence"}))
    assessed = ca.check(p, "Risperidone 2 mg daily. Assess risk to named others; ask about weapons. Early intervention team.")
    assert "violence_risk_plan" in {m.action for m in assessed.missing}
    managed = "Risperidone 2 mg daily. Home treatment team daily; remove access to weapons and inform the police if the risk rises."
    assert not {"violence_risk_plan", "disposition"} & {m.action for m in ca.check(p, managed).missing}
    assert "violence_risk_plan" not in {r.action for r in ca.check(_profile(codes=("F20.0",)), managed).required}


def test_mania_is_reviewed_within_days_and_bipolar_depression_gets_psychoeducation(ca):
    terse = {m.action for m in ca.check(_profile(codes=("F31.12",)), "Start olanzapine. Review in four weeks.").missing}
    assert "prompt_follow_up" in terse
    terse = {m.action for m in ca.check(_profile(codes=("F34.0",)), "Start quetiapine. Review in four weeks.").missing}
    assert "bipolar_psychoeducation" in terse


@pytest.mark.parametrize(
    ("codes", "plan", "misplaced"),
    [
        (("F32.3",), "Refer to the specialist eating disorder service.", {"eating_disorder_service"}),
        (("F50.01",), "Refer to the specialist eating disorder service.", set()),
        (("F32.1",), "Quetiapine 50 mg at night (a treatment with evidence in bipolar depression).", {"bipolar_specific_treatment"}),
        (("F31.4",), "Quetiapine 50 mg at night (a treatment with evidence in bipolar depression).", set()),
        (("F41.0",), "Plan a medically assisted withdrawal with CIWA-Ar monitoring.", {"alcohol_detoxification"}),
        (("F10.20",), "Plan a medically assisted withdrawal with CIWA-Ar monitoring.", set()),
        (("F32.1",), "Avoid refeeding; no eating disorder service needed.", set()),
    ],
)
def test_an_element_for_a_disorder_the_case_does_not_have_is_misplaced(ca, codes, plan, misplaced):
    assert {m.action for m in ca.check(_profile(codes=codes), plan).misplaced} == misplaced


@pytest.mark.parametrize(
    ("value", "field"),
    [({"elements": [{"action": "no_such", "codes": ["F50"], "reason": "x"}]}, "action"),
     ({"elements": [{"action": "eating_disorder_service", "codes": ["not a code"], "reason": "x"}]}, "codes"),
     ({"elements": [{"action": "eating_disorder_service", "codes": ["F50"]}]}, "reason"),
     ({"elements": "x"}, "elements")],
)
def test_malformed_disorder_specific_names_the_field(value, field):
    raw = copy.deepcopy(_raw())
    raw["disorder_specific"] = value
    with pytest.raises(KnowledgeError) as error:
        _read(raw)
    assert error.value.field == field
