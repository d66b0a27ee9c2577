"""Critical actions and contraindications (knowledge/data/critical_actions.json): loading, equivalents, refusals, rules."""

from __future__ import annotations

from dataclasses import replace

import copy
import json
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import load_case, load_suite
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


def test_an_maoi_with_a_serotonergic_antidepressant_is_contraindicated_unless_washed_out(ca):
    """held_out33's plan-530 (dysthymia): sertraline and tranylcypromine started together 'for a faster response' scored
    App 3.2; the combination risks fatal serotonin syndrome (hand 1). A switch after a washout, or an MAOI with SSRIs
    to be avoided, is no such combination."""
    dysthymia = _profile(codes=("F34.1",))
    for bad in ("Start sertraline 50 mg daily and tranylcypromine 10 mg twice daily together for a faster response.",
                "Start phenelzine 15 mg and continue citalopram 20 mg."):
        assert "serotonergic_antidepressant" in {c.action for c in ca.check(dysthymia, bad).contraindicated}, bad
    for safe in ("Switch from sertraline to phenelzine after a washout of two weeks.",
                 "Stop fluoxetine and start phenelzine after a five-week washout.",
                 "Phenelzine 15 mg three times daily; avoid SSRIs and tyramine-rich foods.",
                 "Sertraline 50 mg daily and CBT. Avoid MAOIs."):
        assert "serotonergic_antidepressant" not in {c.action for c in ca.check(dysthymia, safe).contraindicated}, safe


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
    assert "parent_involvement" in required
    # school liaison is good practice, not a safety step: its absence does not cap a child's plan at 2
    assert "school_liaison" not in required


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
@given(key=st.sampled_from(["actions", "rules", "refusal_cues", "risk_concepts", "exam_findings", "disorder_specific"]), value=_json)
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
        # stop 40: a disorder-specific therapy for a disorder the case never describes
        (("F41.0",), "Refer for trauma-focused CBT or EMDR.", {"trauma_focused_therapy"}),
        (("F43.10",), "Refer for trauma-focused CBT or EMDR.", set()),
        (("F32.1", "F41.1"), "Refer for dialectical behaviour therapy.", {"personality_disorder_therapy"}),
        (("F60.3",), "Refer for dialectical behaviour therapy.", set()),
        (("F40.10",), "Schema therapy for the avoidant traits.", set()),
        (("F32.1",), "Offer CBT for health anxiety.", {"health_anxiety_therapy"}),
        (("F45.21",), "Offer CBT for health anxiety.", set()),
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


# ------------------------------------------------------------------ exam results: medical instability


UNSTABLE_ANOREXIA = [  # test-v2-0391's results on file (19 years old, an outpatient)
    "BMI 15.1 kg/m2 (severely underweight)",
    "Na 136 mmol/L, K 3.2 mmol/L (low), bicarbonate 31 mmol/L (raised), creatinine 63 umol/L",
    "sinus bradycardia 42/min, QTc 440 ms",
    "pulse 66/min, BP 103/64 mmHg with postural drop to 74/46 mmHg, temperature 35.6 C",
    "Hb 10.9 g/dL (low), MCV 92 fL, WBC 0.9 x10^9/L (low), platelets 252 x10^9/L",
]


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        (UNSTABLE_ANOREXIA, {"pulse_below_50", "systolic_below_80", "systolic_below_90", "postural_systolic_fall_20", "neutrophils_below_1", "neutrophils_below_2", "potassium_below_3_5"}),
        (["Na 143 mmol/L, K 4.0 mmol/L, glucose 2.1 mmol/L (low), creatinine 68 umol/L"], {"glucose_below_3"}),
        (["potassium 2.6 mmol/L (low), bicarbonate 33 mmol/L (high)"], {"potassium_below_3", "potassium_below_3_5"}),
        (["sodium 147 mmol/L (high), urea 11.4 mmol/L (high), creatinine 124 umol/L (high; baseline 88)"],
         {"sodium_above_145", "urea_above_10", "creatinine_above_120_umol"}),
        (["HR 38, BP 118/70, T 36.5"], {"pulse_below_40", "pulse_below_50"}),
        (["BMI 12.4 kg/m2"], {"bmi_below_13"}),
        (["WBC 6.8 x10^9/L, neutrophils 0.8 x10^9/L (low)"], {"neutrophils_below_1", "neutrophils_below_2"}),
        (["WBC 4.1 x10^9/L, neutrophils 1.6 x10^9/L (low)"], {"neutrophils_below_2"}),  # below clozapine's green range
        ([  # unremarkable results read nothing (a QTc, a respiratory rate, a platelet count are not a pulse or white cells)
            "pulse 77/min, BP 124/70 mmHg, temperature 36.8 C, respiratory rate 13/min, SpO2 98%",
            "sinus rhythm 73/min, QTc 433 ms, no acute changes",
            "sodium 139 mmol/L, potassium 3.8 mmol/L, creatinine 71 umol/L, glucose 5.4 mmol/L (all within reference range)",
            "Hb 12.8 g/dL, MCV 85 fL, WBC 8.2 x10^9/L, platelets 178 x10^9/L (all within reference range)",
            "BMI 23.3 kg/m2 (healthy range)",
            "HbA1c 5.2 % (within reference range 4-5.6)",
        ], set()),
    ],
)
def test_abnormal_findings_read_from_results_by_published_thresholds(ca, results, expected):
    assert set(ca.abnormal_findings(results)) == expected


def test_unstable_eating_disorder_needs_medical_admission_not_outpatient_care(ca):
    findings = ca.abnormal_findings(UNSTABLE_ANOREXIA)
    p = _profile(codes=("F50.01",), age=19, findings=findings)
    outpatient = (
        "Outpatient management. Arrange enhanced cognitive behavioural therapy (CBT-E). Nutritional rehabilitation; "
        "dietitian input. Assess medical risk (BMI, pulse, blood pressure, electrolytes); consider admission if "
        "medically unstable. Weekly weight and physical review."
    )
    missing = {r.action for r in ca.check(p, outpatient).missing}
    assert {"medical_admission", "urgent_medical_review"} <= missing
    admitted = outpatient + " Admit to the medical ward today for medical stabilisation; repeat the full blood count."
    assert not {"medical_admission", "urgent_medical_review"} & {r.action for r in ca.check(p, admitted).missing}
    # the same results without an eating disorder ask for the blood count, not an eating-disorder admission
    other = {r.action for r in ca.check(_profile(codes=("F32.1",), findings=findings), "Sertraline 50 mg.").missing}
    assert "urgent_medical_review" in other and "medical_admission" not in other
    # a young person's thresholds are lower (pulse below 50, systolic below 90); an adult's pulse of 45 alone is not
    assert "medical_admission" in {r.action for r in ca.check(_profile(codes=("F50.01",), age=15, findings=ca.abnormal_findings(["pulse 45/min"])), "CBT-E.").missing}
    assert "medical_admission" not in {r.action for r in ca.check(_profile(codes=("F50.01",), age=30, findings=ca.abnormal_findings(["pulse 45/min"])), "CBT-E.").missing}


def test_hypoglycaemia_on_file_must_be_treated_before_discharge(ca):
    p = _profile(codes=("F68.10",), setting="emergency", age=30, sex="male", findings=ca.abnormal_findings(["glucose 2.1 mmol/L (low)"]))
    assert "correct_hypoglycaemia" in {r.action for r in ca.check(p, "Emergency assessment; discharge home today with GP follow-up.").missing}
    treated = "Give oral glucose now and recheck capillary glucose in 15 minutes; discharge once stable with GP follow-up."
    assert "correct_hypoglycaemia" not in {r.action for r in ca.check(p, treated).missing}
    assert "correct_hypoglycaemia" not in {r.action for r in ca.check(replace(p, findings=frozenset()), "Discharge home.").required}


@pytest.mark.parametrize(
    ("age", "plan", "misplaced"),
    [
        (19, "Arrange family-based treatment (adolescents) and CBT-E.", {"adolescent_family_treatment"}),
        (15, "Arrange family-based treatment (adolescents) and CBT-E.", set()),
        (8, "Refer for multisystemic therapy.", {"multisystemic_therapy"}),
        (14, "Refer for multisystemic therapy.", set()),
        (30, "Refer for multisystemic therapy.", {"multisystemic_therapy"}),
    ],
)
def test_a_treatment_made_for_other_ages_is_misplaced(ca, age, plan, misplaced):
    assert {m.action for m in ca.check(_profile(codes=("F50.01", "F91.1"), age=age), plan).misplaced} == misplaced
    assert {m.action for m in ca.made_for_other_ages(plan, age)} == misplaced


def test_the_judges_profile_reads_the_cases_exam_results(ca):
    case = load_suite("handwritten")["hw-029"]  # bulimia, potassium 2.6 mmol/L, admitted under the medical team
    profile = ca.case_profile(case)
    assert "potassium_below_3" in profile.findings
    check = ca.check(profile, case.treatment.plan)
    assert {"medical_admission", "correct_potassium"} <= {r.action for r in check.required}
    assert not check.missing


@pytest.mark.parametrize(
    ("mutate", "entry", "field"),
    [
        (lambda r: r["exam_findings"]["measures"]["pulse"].update(patterns=["pulse \\d+"]), "exam_findings.measures.pulse", "patterns"),
        (lambda r: r["exam_findings"]["measures"]["pulse"].update(patterns=["(unclosed"]), "exam_findings.measures.pulse", "patterns"),
        (lambda r: r["exam_findings"]["findings"]["pulse_below_40"].update(measure="heart"), "exam_findings.findings.pulse_below_40", "measure"),
        (lambda r: r["exam_findings"]["findings"]["pulse_below_40"].pop("below"), "exam_findings.findings.pulse_below_40", "below"),
        (lambda r: r["exam_findings"]["findings"]["pulse_below_40"].update(below="forty"), "exam_findings.findings.pulse_below_40", "below"),
        (lambda r: r["exam_findings"]["findings"]["pulse_below_40"].pop("source"), "exam_findings.findings.pulse_below_40", "source"),
        (lambda r: r["exam_findings"].update(measures=[]), "exam_findings", "measures"),
        (lambda r: next(x for x in r["rules"] if x["id"] == "hypoglycaemia")["when"].update(exam_findings=["glucose_low"]), "hypoglycaemia", "when.exam_findings"),
        (lambda r: r["disorder_specific"]["elements"][-1].update(min_age=20), "disorder_specific.elements[LAST]", "min_age"),
        (lambda r: r["disorder_specific"]["elements"][-1].update(max_age="adult"), "disorder_specific.elements[LAST]", "max_age"),
        (lambda r: r["disorder_specific"]["elements"][-1].pop("max_age"), None, "codes"),
    ],
)
def test_malformed_exam_findings_and_ages_name_entry_and_field(mutate, entry, field):
    raw = copy.deepcopy(_raw())
    mutate(raw)
    if field == "codes":  # an element with neither codes nor ages
        raw["disorder_specific"]["elements"][-1].pop("min_age")
    if entry is not None:  # the last element, whichever index it has
        entry = entry.replace("LAST", str(len(raw["disorder_specific"]["elements"]) - 1))
    with pytest.raises(KnowledgeError) as error:
        _read(raw)
    assert error.value.field == field
    if entry is not None:
        assert error.value.entry == entry


# --- safeguarding of children and young people; unstable physical findings (stop 22) -------------------------


@pytest.mark.parametrize(
    ("text", "signs"),
    [
        ("Marcus is concerned about exploitation.", {"criminal_exploitation"}),
        ("He threatened to send the explicit pictures to her school group chat.", {"sexual_exploitation"}),
        ("Staying out until 3 a.m. and twice all night, whereabouts unknown to his mother.", {"going_missing"}),
        ("Arrested with a kitchen knife in his waistband.", {"weapon_carrying"}),
        ("She cut herself with a kitchen knife.", {"self_harm"}),  # self-harm (a sign since review 1 at stop 40), not a weapon carried
        ("I took 14 ibuprofen 200 mg tablets at school.", {"self_poisoning"}),
        ("No previous overdoses.", set()),
        # test-v2-0243 (stop 34): a history of overdoses is no overdose taken today, nor is a plan to take one
        ("Several overdoses in the past, none needing intensive care; no intent today.", set()),
        ("Previous suicide attempt by overdose at age 19.", set()),
        ("Active suicidal ideation with a plan to overdose; risk judged high.", set()),
        ("Tonight, after an argument on the phone, she took an overdose of paracetamol.", {"self_poisoning"}),
        ("He has had no withdrawal seizures.", set()),
        ("A withdrawal fit two years ago after stopping abruptly.", {"withdrawal_seizure_history"}),
        ("She is accompanied by her foster carer.", {"looked_after"}),
        ("She is missing deadlines at school.", set()),  # missing work is no missing child
    ],
)
def test_record_signs_read_in_any_record_wording_and_not_when_negated(ca, text, signs):
    assert set(ca.signs([text])) == signs


def test_remembered_signs_and_proposals_are_those_read_afresh(ca):
    """The signs of each sentence and the actions of each plan are remembered (every draft of a generated suite
    reads them again): a remembered reading is the one a fresh reading gives, and clear_caches forgets it."""
    from mentalhospital_env.knowledge.language import clear_caches, memos_off

    cases = load_suite("handwritten").cases
    texts = [t for c in cases for t in (c.ehr.history_of_present_illness, c.ehr.personal_history, c.ehr.substance_use) if t]
    plans = [c.treatment.plan for c in cases if c.treatment and c.treatment.plan]
    remembered = ([ca.signs([t]) for t in texts], [ca.proposed(p) for p in plans])
    assert remembered == ([ca.signs([t]) for t in texts], [ca.proposed(p) for p in plans])  # read from the memo
    with memos_off():
        fresh = ([ca.signs([t]) for t in texts], [ca.proposed(p) for p in plans])
    assert remembered == fresh
    assert any(remembered[0]) and any(remembered[1])  # the suite shows signs and plans propose actions
    clear_caches()
    assert all(memo.cache_info().currsize == 0 for memo in ca._text_memos.values())


def test_the_readers_unsafe_childrens_plans_are_capped(ca):
    """hw-027 (14M, criminal exploitation, knife, going missing) and hw-040 (13F, overdose and online sexual
    extortion): stop 21's scripted plans, judged App 4.84 and 5.0, now miss critical actions and propose an
    adult ward, ECT and adult mental health law; the hand-written reference plans carry what the rules ask."""
    cases = {c.case_id: c for c in load_suite("handwritten").cases}
    boy, girl = cases["hw-027"], cases["hw-040"]
    assert {"criminal_exploitation", "going_missing", "weapon_carrying"} <= ca.profile(boy).signs
    assert {"sexual_exploitation", "self_poisoning"} <= ca.profile(girl).signs
    old_boy = (
        "Medication: none first line. Psychotherapy: refer for motivational enhancement therapy. Safety: advise "
        "against driving while intoxicated. Involve the parents or carers in the assessment and the plan. Liaise "
        "with the school about support. Safeguarding: ask about abuse, neglect or danger at home. Follow-up: every 2-4 weeks."
    )
    check = ca.check_case(boy, old_boy)
    assert {"safeguarding_referral", "police_involvement", "missing_episode_plan", "violence_risk_plan"} <= {
        r.action for r in check.missing
    }
    assert "driving_advice" in {m.action for m in check.misplaced}
    old_girl = (
        "Disposition: admission to the acute ward today. Medication: start sertraline 50 mg once daily. Other: ECT "
        "if life-threatening or unresponsive. Safety: agree a written safety plan; limit quantities of medication "
        "dispensed. Involve the parents or carers. Liaise with the school. Safeguarding: ask about abuse, neglect or "
        "danger at home. Legal framework: informal admission if she agrees and has capacity, otherwise assessment "
        "under the Mental Health Act. Follow-up: weekly."
    )
    check = ca.check_case(girl, old_girl)
    assert {"safeguarding_referral", "police_involvement", "overdose_medical_assessment"} <= {r.action for r in check.missing}
    assert {"adult_ward", "ect", "adult_mental_health_law"} <= {c.action for c in check.contraindicated}
    for case in (boy, girl):  # what the hand-written reference plans hold, in their own words
        missing = {r.action for r in ca.check_case(case, case.treatment.plan).missing}
        assert not missing & {"safeguarding_referral", "police_involvement", "missing_episode_plan", "overdose_medical_assessment"}
        assert not ca.check_case(case, case.treatment.plan).contraindicated


@pytest.mark.parametrize(
    "plan",
    [
        "Same-day MASH referral; the police informed; paracetamol and salicylate levels with the paediatric team.",
        "We will make a child protection referral to social services today and report it to CEOP; toxicology and bloods first.",
        "Discussed with the duty social worker; the police will take a statement; medically cleared by the paediatric team.",
    ],
)
def test_a_safe_childs_plan_in_any_words(ca, plan):
    girl = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-040")
    missing = {r.action for r in ca.check_case(girl, plan).missing}
    assert not missing & {"safeguarding_referral", "police_involvement", "overdose_medical_assessment"}


def test_a_childs_legal_framework_is_that_of_the_childs_age(ca):
    child = Profile(codes=("F32.2",), setting="emergency", age=13, sex="female")
    mha = "Assessment under the Mental Health Act if she refuses."
    assert "adult_mental_health_law" in {c.action for c in ca.check(child, mha).contraindicated}
    framed = mha + " She is Gillick competent for today's decisions and her mother, with parental responsibility, consents."
    assert not ca.check(child, framed).contraindicated
    assert not ca.check(replace(child, age=17), mha).contraindicated  # 16-17: capacity law applies
    assert "ect" in {c.action for c in ca.check(child, "Consider ECT.").contraindicated}
    assert not ca.check(child, "ECT only after an independent second opinion.").contraindicated
    assert "ect" in {c.action for c in ca.check(replace(child, age=10), "ECT after an independent second opinion.").contraindicated}
    assert not ca.check(replace(child, age=30), "Admit to the acute ward; consider ECT.").contraindicated


def test_complicated_alcohol_withdrawal_is_managed_in_hospital(ca):
    results = ["pulse 122/min, BP 159/101 mmHg", "Hb 15.2 g/dL, WBC 6.7 x10^9/L, platelets 46 x10^9/L (low)"]
    profile = Profile(codes=("F10.230",), setting="outpatient", age=44, findings=ca.abnormal_findings(results))
    assert {"pulse_above_120", "platelets_below_50"} <= profile.findings
    outpatient = (
        "Community detox at home with chlordiazepoxide, CIWA-Ar daily by the community team, thiamine 100 mg tds."
    )
    check = ca.check(profile, outpatient)
    assert "inpatient_detoxification" in {r.action for r in check.missing}
    inpatient = "Admit for medically supervised withdrawal: chlordiazepoxide reducing regimen, CIWA-Ar, Pabrinex."
    assert not ca.check(profile, inpatient).missing and not ca.check(profile, inpatient).contraindicated
    seized = Profile(codes=("F10.20",), age=50, signs=ca.signs(["Previous withdrawal fit 2 yrs ago."]))
    assert "inpatient_detoxification" in {r.action for r in ca.check(seized, "Thiamine; plan a detox.").missing}


@pytest.mark.parametrize(
    ("results", "finding"),
    [
        (["glucose 45 mg/dL (low)"], "glucose_below_54_mg_dl"),
        (["Blood sugar: 50 mg/dl"], "glucose_below_54_mg_dl"),
        (["sodium 121 mmol/L (low)"], "sodium_below_125"),
        (["Na+ 119 mmol/L"], "sodium_below_125"),
        (["temperature 38.6 C, pulse 96/min"], "temperature_38_c"),
        (["Temp 101.2 F"], "temperature_38_f"),
    ],
)
def test_units_of_any_wording_read_as_abnormal(ca, results, finding):
    assert finding in ca.abnormal_findings(results)
    assert not ca.abnormal_findings(["glucose 90 mg/dL, sodium 139 mmol/L, temperature 36.8 C"])


@pytest.mark.parametrize(
    "text",
    [
        "She has been told by the GP that her liver tests are raised.",
        "GGT 412 U/L (raised)",
        "Deranged LFTs at the last check.",
    ],
)
def test_raised_liver_tests_in_any_wording_forbid_naltrexone(ca, text):
    assert ca.hepatic_impairment([text])
    profile = Profile(codes=("F10.20",), age=53, hepatic=ca.hepatic_impairment([text]))
    assert "naltrexone" in {c.action for c in ca.check(profile, "Start naltrexone 50 mg daily.").contraindicated}
    assert not ca.hepatic_impairment(["GGT 60 U/L", "Liver tests are not raised."])


@pytest.mark.parametrize(
    ("mutate", "entry", "field"),
    [
        (lambda r: r["record_signs"]["going_missing"].update(phrases=[]), "record_signs.going_missing", "phrases"),
        (lambda r: r["record_signs"]["self_poisoning"].update(patterns=["(unclosed"]), "record_signs.self_poisoning", "patterns"),
        (lambda r: next(x for x in r["rules"] if x["id"] == "child_missing")["when"].update(record_signs=["runaway"]), "child_missing", "when.record_signs"),
    ],
)
def test_malformed_record_signs_name_entry_and_field(mutate, entry, field):
    raw = copy.deepcopy(_raw())
    mutate(raw)
    with pytest.raises(KnowledgeError) as error:
        _read(raw)
    assert (error.value.entry, error.value.field) == (entry, field)


def test_a_child_hitting_her_own_head_is_no_abuse(ca):
    """hw-023: 'screaming, hitting her head on the car window' read as abuse asked for a social care referral."""
    assert not ca.signs(["Meltdowns most afternoons: screaming, hitting her head on the car window."])
    assert "child_abuse" in ca.signs(["She says she is hit by her stepfather when he drinks."])


# --- signs a supervisor reads in the record itself (stop 23: hw-015, hw-024, hw-028, test-v2-0189) -------------


def _hw(case_id):
    return load_suite("handwritten")[case_id]


def test_a_prepared_method_needs_continuous_observation_and_forbids_intermittent(ca):
    case = _hw("hw-015")  # a rope in the garage three days ago; sodium 147, creatinine 124 from 88
    profile = ca.case_profile(case)
    assert "recent_suicide_method" in profile.signs
    assert {"sodium_above_145", "creatinine_above_120_umol", "urea_above_10"} <= profile.findings
    unsafe = ca.check(profile, "Sertraline 50 mg and olanzapine 5-10 mg. 15-minute observations. Monitor food and fluid intake.")
    assert "intermittent_observation" in {c.action for c in unsafe.contraindicated}
    assert {"enhanced_observation", "fluid_and_renal_review", "detention_rights"} <= {
        m.action for m in unsafe.missing
    }
    safe = ca.check(
        profile,
        "Section 2: his rights explained to him and his wife. "
        "Continuous observation within eyesight for 72 hours in a ligature-safe room, then intermittent observation once "
        "reviewed. IV fluids via the medical team and repeat U&E in 24 hours. Sertraline 50 mg with olanzapine 2.5 mg "
        "after discussing the stroke risk of antipsychotics at his age. Daily review.",
    )
    assert not safe.contraindicated and not safe.missing, (safe.missing, safe.contraindicated)


def test_gas_hazard_and_threat_to_a_neighbour_need_their_actions(ca):
    case = _hw("hw-024")  # taped boiler flue; 'sort them out'; 82
    profile = ca.case_profile(case)
    assert {"gas_hazard", "threat_to_others"} <= profile.signs
    missing = {m.action for m in ca.check(profile, "Olanzapine 5 mg at night. CPN visits fortnightly.").missing}
    assert {"gas_safety", "violence_risk_plan", "antipsychotic_risk_discussion"} <= missing
    plan = (
        "Gas emergency service today for the taped boiler flue; carbon monoxide alarm. The threat shared with the police "
        "neighbourhood team. Amisulpride 50 mg after discussing the stroke risk at his age. CPN visits fortnightly."
    )
    assert not ca.check(profile, plan).missing


def test_vascular_cognitive_impairment_needs_vascular_control_driving_and_kitchen_safety(ca):
    profile = ca.case_profile(_hw("hw-028"))  # TIA, lacunes, BP 158; drives; burnt two pans
    assert {"vascular_brain_disease", "drives", "fire_hazard"} <= profile.signs
    missing = {m.action for m in ca.check(profile, "Continue sertraline 100 mg. Supportive counselling.").missing}
    assert {"vascular_risk_control", "driving_advice", "fire_safety"} <= missing


def test_no_sign_from_a_parents_stroke_a_normal_scan_or_a_childhood_fire(ca):
    assert not ca.signs(["Her father had a stroke at 70.", "CT head: small-vessel change appropriate for age."]) & {"vascular_brain_disease"}
    assert "recent_suicide_method" not in ca.signs(["Previous suicide attempt by overdose at age 39."])
    assert "recent_suicide_method" not in ca.signs(["My clothes are hanging off me.", "The way she hangs the laundry out."])
    assert "detained" not in ca.signs(["Two caesarean sections."])
    assert "threat_to_others" not in ca.signs(['"Someone wants to kill me, I know it."'])
    assert "vascular_brain_disease" not in ca.signs(["Cares full time for a parent after a stroke."])
    assert "recent_suicide_method" in ca.signs(["Three days ago she was found in the garage holding a length of rope."])


@pytest.mark.parametrize(
    "age,plan,over",
    [
        (16, "Fluoxetine 20 mg daily increased to 60 mg daily.", {"fluoxetine"}),
        (16, "Fluoxetine 10 mg rising to 20 mg through the CAMHS psychiatrist.", set()),
        (34, "Fluoxetine 20 mg increased to 60 mg daily.", set()),
        (16, "Fluoxetine 20 mg daily with quetiapine 300 mg at night.", set()),  # the next drug's dose is its own
        (78, "Escitalopram 20 mg daily.", {"escitalopram"}),
        (78, "Escitalopram 5 mg daily, then 10 mg.", set()),
    ],
)
def test_dose_limits_by_age(ca, age, plan, over):
    found = {c.action for c in ca.doses_over_limit(_profile(codes=("F32.1",), age=age), plan)}
    assert found == over
    if over:
        assert over <= {c.action for c in ca.check(_profile(codes=("F32.1",), age=age), plan).contraindicated}


def test_perinatal_team_misplaced_without_pregnancy_or_birth(ca):
    # stop 22's test-v2-0189 (16, in a children's home, "a normal delivery at term") was planned with the perinatal team
    profile = replace(_profile(codes=("F50.2", "F32.1"), sex="female", age=16), signs=frozenset({"looked_after"}))
    assert not ca.states_pregnancy("A normal delivery at term; milestones on time. In care since the age of 6.")
    check = ca.check(profile, "Refer to the perinatal mental health team and the midwife.")
    assert "perinatal_care" in {m.action for m in check.misplaced}
    pregnant = ca.check(_profile(codes=("F32.1",), pregnant=True, sex="female", age=30), "Liaise with the perinatal team.")
    assert "perinatal_care" not in {m.action for m in pregnant.misplaced}
    postnatal = ca.check(replace(_profile(codes=("F32.1",), sex="female", age=30), signs=frozenset({"postpartum"})), "Perinatal team.")
    assert not postnatal.misplaced


def test_pregnancy_is_stated_not_guessed(ca):
    assert ca.states_pregnancy("Yes, I'm pregnant, about twelve weeks.")
    assert not ca.states_pregnancy("A normal delivery at term; milestones on time.")
    assert not ca.states_pregnancy("I'm on the pill.")
    assert not ca.states_pregnancy("My mum was pregnant with me when she had the flu.")


def test_antipsychotic_in_dementia_without_risk_talk_is_contraindicated(ca):
    p = _profile(codes=("F03.90",), age=84)
    bad = ca.check(p, "Risperidone 0.25 mg twice daily for agitation. Carer support; review driving and falls.")
    assert "antipsychotic" in {c.action for c in bad.contraindicated}
    ok = ca.check(p, "Risperidone 0.25 mg twice daily for six weeks after discussing the stroke risk with his daughter. Carer support; review driving and falls.")
    assert "antipsychotic" not in {c.action for c in ok.contraindicated}
    delirium = ca.check(_profile(codes=("F05",), age=84), "A small dose of haloperidol only if dangerously distressed; treat the underlying cause; reorientation.")
    assert "antipsychotic_risk_discussion" not in {m.action for m in delirium.missing}


# ------------------------------------------------------------------ stop 24: over-treatment and adult self-poisoning


@pytest.mark.parametrize(
    "codes, plan, forbidden, cap",
    [
        (("F41.0",), "Alprazolam 0.5 mg three times a day for the attacks, long term.", "benzodiazepine", 1),
        (("F41.1",), "Quetiapine 25 mg at night to take the edge off the worry.", "antipsychotic", 2),
        (("F50.2",), "Olanzapine 5 mg at night for the body-image thoughts.", "antipsychotic", 2),
        (("F41.0",), "Diazepam 2 mg for up to five days while therapy starts.", None, None),  # a short course in a crisis
        (("F41.1", "F31.81"), "Quetiapine 150 mg at night.", None, None),  # bipolar disorder beside the anxiety
        (("F20.0",), "Olanzapine 10 mg at night.", None, None),
    ],
)
def test_over_treatment_rules_forbid_with_their_cap(ca, codes, plan, forbidden, cap):
    check = ca.check(Profile(codes=codes, setting="outpatient", age=30), plan)
    found = {c.action: c.cap for c in check.contraindicated}
    if forbidden is None:
        assert not found, found
    else:
        assert found == {forbidden: cap}, found


def test_a_gabapentinoid_on_an_opioid_is_an_over_treatment(ca):
    on_codeine = Profile(codes=("F45.1",), setting="outpatient", age=38, medications="co-codamol 30/500 two tablets four times a day")
    assert {c.action: c.cap for c in ca.check(on_codeine, "Pregabalin 75 mg twice daily.").contraindicated} == {"gabapentinoid": 2}
    stopped = replace(on_codeine, medications="stopped co-codamol last year")
    assert not ca.check(stopped, "Pregabalin 75 mg twice daily.").contraindicated


def test_an_adult_self_poisoning_in_the_emergency_department_needs_a_medical_step(ca):
    """hw-014 (a paracetamol overdose, seen once medically fit) and any adult in the emergency department after a
    self-poisoning: the overdose is assessed medically (levels, antidote, medically fit) before a discharge."""
    case = load_suite("handwritten")["hw-014"]
    bare = "Home with a written safety plan; tablets removed by her friend; crisis team within 24 hours; DBT referral."
    assert "overdose_medical_assessment" in {m.action for m in ca.check_case(case, bare).missing}
    assert not ca.check_case(case, "Medically fit after the acetylcysteine course. " + bare).missing
    outpatient = replace(ca.case_profile(case), setting="outpatient")
    assert "overdose_medical_assessment" not in {r.action for r in ca.requirements(outpatient)[0]}


def test_a_cap_other_than_1_or_2_is_refused():
    raw = _raw()
    rule = next(r for r in raw["rules"] if r["id"] == "anxiety_antipsychotic")
    rule["must_not"][0]["cap"] = 3
    with pytest.raises(KnowledgeError) as error:
        _read(raw)
    assert "cap" in str(error.value)


def test_the_offline_judge_caps_an_over_treatment_at_2_and_a_harm_at_1():
    from mentalhospital_env.rewards.chart import Chart
    from mentalhospital_env.rewards.mentaleval import OfflineJudge

    case = load_suite("handwritten")["hw-020"]
    judge = OfflineJudge()
    good = case.treatment.plan
    app = lambda plan: judge.score(case, Chart(treatment=plan))["treatment_appropriateness"]  # noqa: E731
    assert app(good) > 2.0
    assert app(f"{good} Add quetiapine 25 mg at night for the worry.") == 2.0
    assert app(f"{good} Add pregabalin 75 mg twice daily.") == 2.0
    assert app(f"{good} Add alprazolam 0.5 mg three times a day, long term.") == 1.0


@pytest.mark.parametrize("code", ["F20.0", "F22", "F23", "F25.0", "F29", "F31.2", "F30.2"])
def test_a_psychotic_illness_needs_an_antipsychotic_by_any_name_or_class(ca, code):
    p = _profile(codes=(code,), setting="inpatient", age=35)
    alone = ca.check(p, "Continue lithium 400 mg at night with a level in a week. CBT for psychosis. Daily ward review.")
    assert "antipsychotic" in {m.action for m in alone.missing}
    for plan in (
        "Start aripiprazole 10 mg daily. Daily ward review.",
        "Amisulpride 200 mg twice daily. Daily ward review.",
        "Start an antipsychotic at a low dose. Daily ward review.",
        "Zuclopenthixol depot every two weeks. Daily ward review.",
    ):
        assert "antipsychotic" not in {m.action for m in ca.check(p, plan).missing}, plan


def test_no_antipsychotic_is_required_without_psychosis(ca):
    for code in ("F31.1", "F32.2", "F41.1"):
        assert "antipsychotic" not in {m.action for m in ca.check(_profile(codes=(code,)), "Review in a month.").missing}


@pytest.mark.parametrize("age, needed", [(15, True), (19, True), (24, True), (25, False), (60, False)])
def test_under_25_starting_an_antidepressant_is_seen_within_a_week(ca, age, needed):
    p = _profile(codes=("F42.2",), age=age)
    plan = "Fluoxetine 20 mg daily; CBT with exposure and response prevention. Review in four weeks."
    assert ("prompt_follow_up" in {m.action for m in ca.check(p, plan).missing}) is needed
    assert "prompt_follow_up" not in {m.action for m in ca.check(p, plan.replace("four weeks", "one week")).missing}
    # no antidepressant, no early review needed on that account
    assert "prompt_follow_up" not in {m.action for m in ca.check(p, "CBT with exposure and response prevention. Review in four weeks.").missing}


def test_an_antidepressant_for_an_adjustment_disorder_is_over_treatment_unless_a_comorbid_disorder_calls_for_it(ca):
    plan = "Sertraline 50 mg daily; problem-solving therapy. Review in one week."
    alone = ca.check(_profile(codes=("F43.21",)), plan)
    assert [(c.action, c.cap) for c in alone.contraindicated] == [("antidepressant", 2)]
    assert not ca.check(_profile(codes=("F43.21", "F32.1")), plan).contraindicated
    assert not ca.check(_profile(codes=("F43.21",)), "Problem-solving therapy; no antidepressant. Review in two weeks.").contraindicated


def test_a_young_patient_starting_an_antidepressant_is_reviewed_within_a_week(ca):
    plan = "Sertraline 50 mg once daily. Review in two weeks."
    assert "prompt_follow_up" in {m.action for m in ca.check(_profile(age=23), plan).missing}
    assert "prompt_follow_up" not in {m.action for m in ca.check(_profile(age=40), plan).missing}
    assert not ca.check(_profile(age=23), "Sertraline 50 mg once daily. Review within a week.").missing
    assert not ca.check(_profile(age=23), "No medicine; guided self-help. Review in two weeks.").missing


@pytest.mark.parametrize("code", ["F20.9", "F22", "F25.0", "F31.2"])
def test_psychosis_and_psychotic_mania_need_an_antipsychotic(ca, code):
    p = _profile(codes=(code,))
    assert "antipsychotic" in {m.action for m in ca.check(p, "Continue lithium 300 mg twice daily; level in one week.").missing}
    for plan in ("Start risperidone 2 mg once daily.", "Amisulpride 50 mg at night.", "An antipsychotic, agreed with him."):
        assert "antipsychotic" not in {m.action for m in ca.check(p, plan).missing}, plan


def test_an_antidepressant_first_line_for_an_adjustment_disorder_is_over_treatment(ca):
    alone = ca.check(_profile(codes=("F43.21",)), "Start sertraline 50 mg once daily; review in four weeks.")
    assert [(c.action, c.cap) for c in alone.contraindicated] == [("antidepressant", 2)]
    assert not ca.check(_profile(codes=("F43.21",)), "Supportive counselling and problem solving; review in four weeks.").contraindicated
    # beside a depressive episode the antidepressant is the depression's
    assert not ca.check(_profile(codes=("F43.21", "F32.1")), "Start sertraline 50 mg once daily.").contraindicated


# --- the core treatment of each disorder (stop 26, issue 15: what a supervisor names first when it is missing) ---


@pytest.mark.parametrize(
    ("codes", "setting", "plan", "core"),
    [
        (("F43.10",), "outpatient", "Sertraline 50 mg daily; CBT and behavioural activation; sleep hygiene.", "trauma_focused_therapy"),
        (("F41.0", "F40.00"), "emergency", "Sertraline 25 mg; CBT with interoceptive exposure.", "graded_exposure"),
        (("F43.10", "F10.20"), "outpatient", "Trauma-focused CBT; plan a medically assisted withdrawal.", "alcohol_relapse_prevention"),
        (("F60.3", "F10.20"), "outpatient", "Acamprosate 666 mg three times daily; motivational interviewing.", "personality_disorder_therapy"),
    ],
)
def test_a_disorders_core_treatment_left_out_is_found_principal_or_comorbid(ca, codes, setting, plan, core):
    check = ca.check(_profile(codes=codes, setting=setting), plan)
    assert core in {r.action for r in check.core_missing}
    assert core not in {r.action for r in check.missing}  # a gap in first-line care, not a missing safety step


@pytest.mark.parametrize(
    ("codes", "plan"),
    [
        (("F43.10",), "Refer for EMDR; sertraline 50 mg."),
        (("F43.10",), "Cognitive processing therapy with the trauma service."),
        (("F40.00",), "CBT with graded in-vivo exposure, working up a hierarchy."),
        (("F60.3",), "Refer for mentalization-based treatment; no drugs."),
        (("F10.20",), "After the withdrawal, naltrexone 50 mg, and the community alcohol service."),
    ],
)
def test_the_core_treatment_in_other_words_is_present(ca, codes, plan):
    assert not ca.check(_profile(codes=codes), plan).core_missing


def test_core_rules_marked_principal_read_only_the_principal_diagnosis(ca):
    plan = "Sertraline 50 mg daily; safety plan; review in one week."
    assert not ca.check(_profile(codes=("F32.2", "F60.3")), plan).core_missing  # the severe episode leads
    assert {r.action for r in ca.check(_profile(codes=("F60.3", "F32.2")), plan).core_missing} == {"personality_disorder_therapy"}


def test_dependence_relapse_prevention_is_core_in_clinic_not_during_an_admission(ca):
    plan = "Chlordiazepoxide reducing regimen, Pabrinex, CIWA-Ar."
    assert ca.check(_profile(codes=("F10.20",), setting="outpatient"), plan).core_missing
    assert not ca.check(_profile(codes=("F10.20",), setting="inpatient"), plan).core_missing


def test_ect_for_a_moderate_episode_without_psychosis_is_an_over_treatment(ca):
    check = ca.check(_profile(codes=("F32.1",)), "Sertraline 50 mg; olanzapine and ECT if no response.")
    assert [(c.action, c.cap) for c in check.contraindicated] == [("ect", 2)]
    assert not ca.check(_profile(codes=("F32.3",)), "Sertraline with olanzapine; ECT if no response.").contraindicated


def test_moderately_severe_dementia_living_alone_is_not_sent_home_from_the_ed_without_care(ca):
    findings = ca.abnormal_findings(["MoCA: total 14/30 (moderate impairment)", "MMSE: total 10/30 (moderate impairment)"])
    assert findings == {"mmse_below_15"}
    assert not ca.abnormal_findings(["MMSE: total 22/30 (mild impairment)", "MoCA: total 14/30"])
    alone = _profile(codes=("F03.90",), setting="emergency", age=87, findings=findings, signs=ca.signs(["Lives alone in a bungalow."]))
    home = "Disposition: discharge home today with the crisis line number. Start donepezil 5 mg at night."
    found = ca.check(alone, home).contraindicated
    assert {c.action for c in found} == {"discharge_home"} and all(c.cap == 2 for c in found)
    assert not ca.check(alone, "A bed requested today, agreed with the crisis team; discharge home once a package of care is in place.").contraindicated
    # living with family, or in clinic rather than the emergency department: the rule does not hold
    assert not ca.check(replace(alone, signs=frozenset()), home).contraindicated
    assert not ca.check(replace(alone, setting="outpatient"), home).contraindicated


def test_a_refusal_ends_with_its_sentence(ca):
    # "Stop the antidepressant." refused the olanzapine of the next sentence (the break fell at the drug's first
    # token, which the same-sentence test did not count), so a mania plan naming olanzapine had no antipsychotic
    assert "antipsychotic" in ca.proposed("Stop the antidepressant. Olanzapine 10 mg at night.")
    assert "antipsychotic" not in ca.proposed("Stop sertraline and olanzapine.")
    assert "antipsychotic" not in ca.proposed("Do not start sertraline or olanzapine.")


@pytest.mark.parametrize("code", ["F20.0", "F22", "F23"])
def test_arguing_a_patient_out_of_a_delusion_is_a_harm_and_refusing_to_is_not(ca, code):
    """Stop 29 (issue 15): held_out28's plan that told a woman 'plainly' that her neighbours were not plotting and that
    she must accept she is ill scored 4.2; a non-confrontational stance is the guideline's."""
    p = _profile(codes=(code,), age=41)
    bad = ca.check(p, "Risperidone 2 mg. Tell her plainly that the neighbours are not plotting against her and that she must accept she is ill.")
    assert {c.action for c in bad.contraindicated} == {"confront_belief"}
    assert min(c.cap for c in bad.contraindicated) == 2
    good = ca.check(p, "Risperidone 2 mg. Do not challenge the belief or argue about it; keep engagement and review weekly.")
    assert "confront_belief" not in {c.action for c in good.contraindicated}
    assert "confront_belief" not in {c.action for c in ca.check(_profile(codes=("F32.1",)), "Tell her plainly that she must accept she is ill.").contraindicated}


def test_panic_beside_another_principal_disorder_advises_panic_therapy_and_panic_itself_does_not(ca):
    comorbid = _profile(codes=("F32.2", "F41.0"), setting="emergency", age=23)
    plan = "Admit. Sertraline 50 mg. Written safety plan. Daily review."
    assert "panic_therapy" in {r.action for r in ca.check(comorbid, plan).advised_missing}
    assert "panic_therapy" not in {r.action for r in ca.check(comorbid, plan + " CBT for panic with interoceptive exposure.").advised_missing}
    principal = _profile(codes=("F41.0",), age=40)
    assert "panic_therapy" not in {r.action for r in ca.check(principal, "Sertraline 25 mg then 50 mg.").advised_missing}


@pytest.mark.parametrize(
    "advice",
    ["Exercise daily.", "Gentle exercise three times a week.", "Encourage her to keep active and go to the gym.", "More physical activity."],
)
def test_exercise_advised_in_an_unstable_eating_disorder_is_a_harm(ca, advice):
    # stop 29's supervisor: a 15-year-old with anorexia, pulse 42 and a standing BP of 74/46, advised exercise
    young = _profile(codes=("F50.01",), age=15, findings=ca.abnormal_findings(["sinus bradycardia 42/min", "pulse 84/min, BP 123/61 mmHg with postural drop to 74/46 mmHg"]))
    found = {c.action: c.cap for c in ca.check(young, "CBT-E. " + advice).contraindicated}
    assert found.get("exercise_advice") == 1
    adult = _profile(codes=("F50.2",), age=30, findings=ca.abnormal_findings(["K 2.7 mmol/L (low)"]))
    assert {c.action: c.cap for c in ca.check(adult, "CBT-E. " + advice).contraindicated}.get("exercise_advice") == 1
    # a stable anorexia: a wrong treatment (cap 2); a stable bulimia, or a depression, may be advised exercise
    stable = {c.action: c.cap for c in ca.check(_profile(codes=("F50.01",), age=22), "CBT-E. " + advice).contraindicated}
    assert stable.get("exercise_advice") == 2
    assert not ca.check(_profile(codes=("F50.2",), age=30), "CBT-E. " + advice).contraindicated
    assert not ca.check(_profile(codes=("F32.1",), age=30, findings=young.findings), "Sertraline. " + advice).contraindicated


@pytest.mark.parametrize(
    "plan",
    [
        "Ask about compulsive exercise and over-exercising.",
        "Restrict exercise until medically stable.",
        "Avoid exercise for now; no sport at school until her pulse recovers.",
        "Stop exercising until the ECG is normal.",
    ],
)
def test_exercise_asked_about_or_limited_is_not_advice(ca, plan):
    young = _profile(codes=("F50.01",), age=15, findings=ca.abnormal_findings(["sinus bradycardia 42/min"]))
    assert "exercise_advice" not in ca.proposed(plan)
    assert not ca.check(young, "Refer to the specialist eating disorder service. " + plan).contraindicated


@pytest.mark.parametrize(
    "plan",
    [
        "Plan a supervised reducing-benzodiazepine withdrawal at home, with a daily check using a withdrawal scale.",
        "Community withdrawal through the alcohol team.",
        "Admit for the withdrawal if he has ever had fits.",
    ],
)
def test_a_withdrawal_plan_in_other_words(ca, plan):
    # stop 29: a complete community-withdrawal plan written without the word 'detox' was capped at 2
    assert "withdrawal_planning" in ca.proposed(plan)
    assert "withdrawal_planning" not in ca.proposed("Stop drinking today; review in a month.")


# --- a step taken now, not on a condition or for later (critical_actions.json not_now_cues) -------------------------

LITHIUM_CHECKS = {"lithium_monitoring", "lithium_renal_function", "lithium_thyroid_function"}


@pytest.mark.parametrize(
    "later",
    [
        "Lithium may be considered in future if relapses recur.",
        "Lithium as a future option should the mood relapse.",
        "If she relapses despite this, lithium could be considered.",
        "Discussed lithium for the future; not started now.",
        "Lithium could be considered at a later date.",
        # stop 53, held_out52 plan-5207 (rated 5, capped at 2 for lithium checks of a drug it did not start)
        "Lithium can be discussed later for the mood component.",
        "Lithium to be considered later if the mood stays high.",
    ],
)
def test_lithium_named_only_for_later_asks_for_no_lithium_monitoring(ca, later):
    p = _profile(codes=("F31.4",), sex="male")
    plan = f"Start quetiapine 50 mg at night, titrating to 300 mg. Psychoeducation and follow-up in one week. {later}"
    checked = ca.check(p, plan)
    assert "lithium" in checked.proposed  # still read as named (a contraindication of it would still count)
    assert not LITHIUM_CHECKS & {m.action for m in checked.missing}, later
    # the same plan starting lithium now does ask for them
    started = ca.check(p, plan.replace(later, "Start lithium 400 mg at night."))
    assert LITHIUM_CHECKS <= {m.action for m in started.missing}


@pytest.mark.parametrize(
    "plan, acted",
    [
        ("Sertraline 50 mg. Check potassium if vomiting.", False),
        ("Sertraline 50 mg. If she vomits again, check potassium.", False),
        ("Sertraline 50 mg. Check the potassium in case the vomiting returns.", False),
        ("Sertraline 50 mg. Oral potassium replacement and a repeat U&E within 48 hours.", True),
        ("Sertraline 50 mg. Repeat the potassium tomorrow and replace it; recheck if vomiting continues.", True),
    ],
)
def test_a_low_potassium_on_file_is_not_acted_on_by_a_conditional_check(ca, plan, acted):
    p = _profile(findings=ca.abnormal_findings(["sodium 138 mmol/L, potassium 3.1 mmol/L (low), creatinine 70 umol/L"]))
    assert "potassium_below_3_5" in p.findings
    missing = {m.action for m in ca.check(p, plan).missing}
    assert ("potassium_review" not in missing) is acted, (plan, missing)
    # with a normal potassium nothing is asked, whatever the wording
    assert "potassium_review" not in {m.action for m in ca.check(replace(p, findings=frozenset()), plan).missing}


@pytest.mark.parametrize(
    "plan, acted",
    [
        ("Food and fluid chart, encourage oral fluids, IV fluids via the medical team if intake stays below a litre.", True),
        ("Fluid balance chart and a repeat U&E within 24 hours.", True),
        ("IV fluids via the medical team if intake stays below a litre a day.", False),
        ("Recheck renal function if he stops drinking.", False),
    ],
)
def test_raised_sodium_and_creatinine_are_acted_on_by_a_step_taken_now(ca, plan, acted):
    # hw-015's reference plan: a fluid chart and oral fluids now, IV fluids only on a condition, is acting on them
    p = _profile(age=70, findings=ca.abnormal_findings(["sodium 147 mmol/L (high), urea 11.4 mmol/L (high), creatinine 124 umol/L (high)"]))
    assert ("fluid_and_renal_review" not in {m.action for m in ca.check(p, plan).missing}) is acted, plan


@pytest.mark.parametrize(
    ("plan", "acted"),
    [
        # the test named with a routine interval is monitoring anyone would have, not an answer to a raised result
        ("Sertraline 50 mg daily. Bloods: LFT at 3 months.", False),
        ("Repeat LFTs in 3 months.", False),
        ("U&E and LFTs every six months.", False),
        ("Check LFTs.", False),
        # a result on file is acted on by a step taken now, not one made conditional (as with exam findings)
        ("Check LFT at 3 months. Plan a medically assisted withdrawal if dependent.", False),
        # read as abnormal, repeated within weeks, sent on, or the drinking stopped
        ("Repeat LFTs in two weeks.", True),
        ("Deranged LFTs explained to him; the GP to recheck.", True),
        ("The GGT is raised: recheck after four weeks without alcohol.", True),
        ("Refer to hepatology.", True),
        ("Community detox with chlordiazepoxide.", True),
    ],
)
def test_raised_liver_tests_are_acted_on_only_by_a_plan_that_reads_them(ca, plan, acted):
    """Stop 33: the judge credited 'LFT at 3 months' (a routine recheck) as acting on raised liver tests."""
    profile = Profile(codes=("F10.20",), age=53, hepatic=True)
    assert ("liver_review" not in {r.action for r in ca.check(profile, plan).missing}) is acted
    # a drinker whose liver tests are normal needs none of it
    assert "liver_review" not in {r.action for r in ca.check(Profile(codes=("F10.20",), age=53), plan).missing}


def test_inpatient_care_on_a_ward_is_not_the_medical_admission_a_starved_anorexia_needs(ca):
    """Stop 38 (issue 15): test-v2-0234 and dev-v2-0164 (anorexia, pulse 39) passed the medical admission on the ward
    record's 'Continue inpatient care'; a psychiatric ward stay is not a medical stabilisation. Naming the MEED
    guidance is not one either (stop 38 review): a community plan 'monitored per MEED guidance' admits no one."""
    p = _profile(codes=("F50.01",), age=19, findings=ca.abnormal_findings(UNSTABLE_ANOREXIA))
    ward = "Continue inpatient care. Arrange CBT-E with dietitian input. Weekly weight."
    assert "medical_admission" in {r.action for r in ca.check(p, ward).missing}
    for plan in ("Inpatient care on the ward; CBT-E.", "Inpatient treatment and inpatient unit routine; CBT-E."):
        assert "medical_admission" in {r.action for r in ca.check(p, plan).missing}
    meed = ward + " Daily ECG, U&Es, phosphate and magnesium during refeeding, following the MEED guidance."
    assert "medical_admission" in {r.action for r in ca.check(p, meed).missing}
    community = "Outpatient CBT-E. Weekly weight, pulse and blood pressure with the GP, monitored per MEED guidance."
    assert "medical_admission" in {r.action for r in ca.check(p, community).missing}
    admitted = "Admit to the medical ward today for medical stabilisation; daily ECG and electrolytes."
    assert "medical_admission" not in {r.action for r in ca.check(p, admitted).missing}


@pytest.mark.parametrize(
    ("profile", "plan", "action"),
    [
        # held_out37's plan-782 (rated 1): St John's wort carried on beside sertraline
        (dict(codes=("F32.1",)), "Start sertraline 100 mg daily; they can carry on with the St John's wort as it is natural.", "st_johns_wort_continued"),
        # plan-801 (rated 1): a tricyclic for a woman with suicidal thoughts
        (dict(codes=("F32.2",), risks=frozenset({"suicide"})), "Amitriptyline 150 mg at night. Discharge home tomorrow with 4 weeks' supply.", "tricyclic_antidepressant"),
        # plan-755 (rated 1): dosulepin started for a moderate depression, no suicidal thoughts
        (dict(codes=("F32.1",)), "Start dosulepin 75 mg at night, increasing to 150 mg after one week.", "dosulepin"),
        # plan-809 (rated 1): clomipramine with fluvoxamine and no level monitoring
        (dict(codes=("F42.2",)), "Clomipramine 75 mg increasing to 250 mg within a week, together with fluvoxamine 100 mg. No ECG needed.", "tricyclic_raising_ssri"),
    ],
)
def test_toxic_antidepressant_choices_are_contraindicated(ca, profile, plan, action):
    """Stop 38 (issue 15): four held_out37 plans rated 1 for a toxic or interacting antidepressant scored 2.0-3.2."""
    assert action in {c.action for c in ca.check(_profile(**profile), plan).contraindicated}


@pytest.mark.parametrize(
    "plan",
    [
        "Sertraline 50 mg od (confirm St John's wort stopped; explain side effects).",  # held_out35 plan-661, rated 5
        "Stop St John's wort (if still taking) before starting an SSRI; then sertraline 50 mg once daily.",  # plan-781, 5
        "Ask whether she takes St John's wort; do not continue St John's wort with sertraline 50 mg.",
        "Check for St John's wort use. Start sertraline 50 mg.",
        "Advise against St John's wort; St John's wort should be stopped before sertraline 50 mg.",
        "Sertraline 50 mg. Don't carry on with the hypericum; discontinue St John's wort first.",
    ],
)
def test_st_johns_wort_checked_or_stopped_before_an_ssri_is_safe(ca, plan):
    assert "st_johns_wort_continued" not in {c.action for c in ca.check(_profile(), plan).contraindicated}


@pytest.mark.parametrize(
    "plan",
    [
        "Sertraline 50 mg; she may keep the hypericum going.",
        "Sertraline 50 mg; she takes St John's wort, which is fine to continue.",
        "Start sertraline 50 mg, and she can stay on her St John's wort.",
        "Sertraline 50 mg daily; St John's wort may be continued.",
        "Sertraline 50 mg alongside St. John's wort.",
    ],
)
def test_st_johns_wort_kept_beside_an_ssri_in_other_words_is_contraindicated(ca, plan):
    """Stop 39 (the stop-38 review): the rule read 72 phrases built around plan-782's wording ('carry on with the St
    John's wort'); it now reads the herb after a verb that keeps or adds it, or before one that continues it."""
    assert "st_johns_wort_continued" in {c.action for c in ca.check(_profile(), plan).contraindicated}


def test_tricyclic_rules_keep_to_their_conditions(ca):
    # amitriptyline at a low dose with no suicide risk is no harm by itself (no rule forbids it)
    assert not ca.check(_profile(codes=("F32.1",)), "Amitriptyline 10 mg at night for pain.").contraindicated
    # clomipramine with fluvoxamine under plasma-level and ECG monitoring is a specialist combination, lifted
    monitored = "Clomipramine 75 mg with fluvoxamine 50 mg; clomipramine levels and ECG before each increase."
    assert "tricyclic_raising_ssri" not in {c.action for c in ca.check(_profile(codes=("F42.2",)), monitored).contraindicated}


UNSEEN = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "patient_exam" / "unseen"
# uw-007's self-injury outside her meltdowns (the GP letter's label, the scratching at 14), reworded into them
_MELTDOWNS_ONLY = {
    "repeated self-harm (hitting her head)": "repeated self-injury in meltdowns (hitting her head)",
    "at 14, during exams, she scratched her arms when overwhelmed.": "",
    "Self-injury (scratching her arms) at 14 during exams; ": "",
}


def _uw007(extra: str = ""):
    text = (UNSEEN / "uw-007.json").read_text()
    for old, new in _MELTDOWNS_ONLY.items():
        assert old in text
        text = text.replace(old, new)
    raw = json.loads(text)
    raw.pop("facts", None)
    raw["ehr"]["history_of_present_illness"] += extra
    return load_case(raw)


def test_self_injury_in_meltdowns_drops_the_suicide_risk_only_when_all_of_it_is_so(ca):
    """Stop 38 review: one self-harm fact in a meltdown dropped the suicide risk although another ('cuts her thighs
    most nights') had no such context; and 'when overwhelmed' is how emotion-regulation self-harm is charted."""
    assert "suicide" not in ca.profile(_uw007()).risks  # every self-injury in meltdowns, suicidal ideation denied
    assert "suicide" in ca.profile(_uw007(" She also self-harms by cutting her thighs most nights.")).risks
    assert "suicide" in ca.profile(_uw007(" She cuts her arms when overwhelmed.")).risks


@pytest.mark.parametrize(
    "fact",
    [
        "She said she would take all her tablets so she would not wake up.",
        "He has decided to take all his tablets so that he would not wake up.",
    ],
)
def test_an_overdose_so_as_not_to_wake_up_is_active_suicidal_ideation(ca, fact):
    """Stop 38 review: 'not wake up' as a passive cue also read 'take all her tablets so she would not wake up'."""
    assert "active_suicide" in ca.profile(_uw007(" " + fact)).risks


@pytest.mark.parametrize(
    "fact",
    [
        "She has thought that she might not wake up and would not mind, but she has no plan.",
        "Fleeting thoughts that she would rather not wake up; no plan, intent or preparation.",
    ],
)
def test_a_passive_wish_not_to_wake_up_is_not_active_suicidal_ideation(ca, fact):
    profile = ca.profile(_uw007(" " + fact))
    assert "suicide" in profile.risks and "active_suicide" not in profile.risks


@pytest.mark.parametrize(
    "plan",
    [
        "Taper dosulepin over four weeks and switch to sertraline 50 mg.",
        "Wean off amitriptyline; start sertraline 50 mg daily.",
        "Cross-taper from amitriptyline to sertraline over two weeks.",
        "Switch from dosulepin to sertraline 50 mg.",
        "Remove the amitriptyline from the home; her partner to hold her tablets.",
        "Dispose of the old dosulepin tablets at the pharmacy.",
    ],
)
def test_a_plan_moving_away_from_a_tricyclic_is_safe(ca, plan):
    """Stop 38 review: the tricyclic rules fired on any mention, so tapering, switching from or removing the drug
    (the means-restriction step) was capped like starting it."""
    risky = _profile(codes=("F32.2",), risks=frozenset({"suicide"}))
    assert "tricyclic_antidepressant" not in {c.action for c in ca.check(risky, plan).contraindicated}
    assert "dosulepin" not in {c.action for c in ca.check(_profile(codes=("F32.1",)), plan).contraindicated}


@pytest.mark.parametrize("plan", ["Continue dosulepin 150 mg at night.", "Continue amitriptyline 75 mg; review in 4 weeks."])
def test_continuing_a_tricyclic_for_a_suicidal_patient_is_still_a_harm(ca, plan):
    risky = _profile(codes=("F32.2",), risks=frozenset({"suicide"}))
    assert "tricyclic_antidepressant" in {c.action for c in ca.check(risky, plan).contraindicated}


@pytest.mark.parametrize(
    ("text", "carrying"),
    [
        ("He carries a knife hidden in his waistband when he goes out.", True),
        ("She has intrusive images of a knife but has never carried one; he carries a knife to school.", True),
        ("He has started carrying a knife since the assault.", True),
        # uw-002: perinatal intrusive thoughts of harming the baby, the knives put away: no weapon carried
        ("Sudden pictures come into her head of herself picking up a kitchen knife near him.", False),
        ("She has intrusive thoughts of stabbing him with a knife and has hidden the kitchen knives in a high cupboard.", False),
        ("Since the intrusive images began, the knives locked away in the garage.", False),
    ],
)
def test_a_knife_carried_is_weapon_carrying_and_an_intrusive_image_of_one_is_not(ca, text, carrying):
    """Stop 38 review: the bare words 'intrusive', 'pictures', 'images', 'hidden' cancelled weapon carrying in
    the whole sentence, so 'carries a knife hidden in his waistband' passed."""
    assert ("weapon_carrying" in ca.signs([text])) is carrying


@pytest.mark.parametrize(
    "plan",
    [
        "Sertraline 50 mg. Advise her not to continue St John's wort.",
        "Sertraline 50 mg. Avoid starting St John's wort.",
        "Sertraline 50 mg. Advised against continuing St John's wort.",
        "Sertraline 50 mg. Explain it is unsafe to continue St John's wort with an SSRI.",
    ],
)
def test_st_johns_wort_advised_against_is_not_continued(ca, plan):
    """Stop 39 review: the herb's patterns were read with no negation, so advice not to keep it was charged as
    keeping it (a contraindication, App. 1)."""
    assert "st_johns_wort_continued" not in {c.action for c in ca.check(_profile(), plan).contraindicated}


def test_st_johns_wort_really_kept_is_still_charged(ca):
    plan = "Continue St John's wort and start sertraline 50 mg."
    assert "st_johns_wort_continued" in {c.action for c in ca.check(_profile(), plan).contraindicated}


def test_a_plan_is_read_in_plain_prose_so_an_abbreviated_safety_step_counts():
    """Stop 41 (held_out34 plan-589, held_out35 plan-653, held_out40 plan-933/943/945): 'R/v within 1 wk', 'Review 1/52',
    'Review <=7 days' are the early review a safety step asks for, written as clinicians write it; the judge read them
    as no follow-up and capped safe plans (rated 4-5) at 2. The judge's plan reader sees them in plain prose."""
    from mentalhospital_env.knowledge.critical import load_critical_actions
    from mentalhospital_env.rewards.mentaleval.features import plain_plan

    actions = load_critical_actions()
    for written in ("R/v within 1 wk, then 2-4 wkly.", "Review 1/52.", "R/v 1/52, then 2-4 wkly.",
                    "Review \u22647 days, then every 2-4 weeks.", "Review 1 week, then every 2-4 weeks."):
        assert "prompt_follow_up" not in actions.proposed(written)
        assert "prompt_follow_up" in actions.proposed(plain_plan(written)), plain_plan(written)
    # a late review stays late, and plain prose comes back as it was
    assert "prompt_follow_up" not in actions.proposed(plain_plan("R/v in 4 wks."))
    plain = "Sertraline 50 mg once daily. Review within one week."
    assert plain_plan(plain) == plain


def test_sibling_order_excludes_dependants_only_with_a_sibling_count():
    # review1 s42: "middle of", "youngest of" matched anywhere and hid the children of these sentences
    from mentalhospital_env.knowledge.critical import load_critical_actions

    actions = load_critical_actions()
    assert actions.mentions_dependants("She is up in the middle of the night feeding the baby.")
    assert actions.mentions_dependants("He has three daughters, the youngest of whom is 6.")
    assert not actions.mentions_dependants("He is the youngest of four children, raised by his grandmother.")


@pytest.mark.parametrize(
    "text, at_home",
    [
        # stop 55: uw-010, uw-006, hw-011, hw-024, hw-028, hw-037: grown children elsewhere are no dependants at home
        ("lives with his wife in their own house; daughter lives in the next county", False),
        ("Their daughter Claire, 40, lives in the next county with her husband and their children Ethan, 12, and Lily, 9, "
         "and visits most weekends.", False),
        ("Their son Martin, 37, is a software developer in Denver and phones weekly.", False),
        ("His daughter Karen, who lives ten minutes away, calls in every day.", False),
        ("Married 51 years; three children and five grandchildren.", False),
        ("Divorced; one son, 35, who lives nearby.", False),
        ("Married to Claire, a care home senior carer, for 15 years.", False),
        # at home or in the patient's care, even beside someone away
        ("Lives with her partner and their two children; her eldest son lives abroad.", True),
        ("The grandchildren she looks after every day live in the next street.", True),
        ("Informal custody: daughter lives with her, every other weekend with her father.", True),
        ("Married with two children aged 3 and 5.", True),
        ("He has contact with his son, 6, who lives with his mother in the next county.", True),
    ],
)
def test_dependants_are_those_at_home_or_in_the_patients_care(ca, text, at_home):
    """Stop 55: every sentence naming a son, daughter or child counted as a dependant at home, so a 68-year-old whose
    grandchildren visit from the next county (uw-010) got a false 'misses safeguarding' beside no violence to speak of.
    A sentence placing them away or grown (critical_actions.json dependant_away_cues) counts only if it also places a
    dependant at home or in the patient's care (dependant_home_cues)."""
    assert ca.mentions_dependants(text) is at_home


def test_cue_reading_by_first_word_agrees_with_trying_every_cue() -> None:
    """Stop 50 (issue 14): ``_has`` and ``_follows`` try at each word only the cues that open with it, where they
    tried every cue of the list at every call. Same answers as the plain reading on the bundled cue lists, including
    a cue longer than the three words after an action ('not to be started' still follows at once) and an empty cue."""
    import random

    from mentalhospital_env.knowledge.critical import CriticalActions

    def has(window, cues):
        w = tuple(window)
        return any(w[j : j + len(c)] == c for c in cues for j in range(len(w) - len(c) + 1))

    def follows(window, cues):
        w = tuple(window)
        return any(w[j : j + len(c)] == c for c in cues for j in range(max(0, 3 - len(c)) + 1))

    ca = load_critical_actions()
    lists = [ca._refusal, ca._refusal_after, ca._not_now, ca._not_now_after, ca._pregnancy, ca._not_pregnancy, ca._dependants]
    lists += [s.unless_phrases for s in ca.risk_concepts.values()] + [s.unless for s in ca.record_signs.values()]
    lists += [(), ((),), (("a",), ())]
    rng = random.Random(50)
    seen = {True: 0, False: 0}
    for cues in lists:
        vocab = sorted({w for c in cues for w in c}) + ["the", "a", "plan"]
        for _ in range(400):
            window = [rng.choice(vocab) for _ in range(rng.randint(0, 8))]
            if cues and rng.random() < 0.3:
                at = rng.randint(0, min(len(window), 3))
                window[at:at] = list(rng.choice(cues))
            assert CriticalActions._has(window, cues) == has(window, cues), (window, cues)
            assert CriticalActions._follows(window, cues) == follows(window, cues), (window, cues)
            seen[has(window, cues)] += 1
    assert min(seen.values()) > 1000  # both answers are read many times
    assert CriticalActions._follows(("not", "to", "be", "start", "today"), ca._refusal_after)
    assert not CriticalActions._follows(("plan", "not", "to", "be", "start"), (("not", "to", "be", "start"),))


@pytest.mark.parametrize(
    "plan",
    [
        "Continue lithium 400 mg at night. No medication other than lithium.",
        "No medication other than lithium 400 mg at night.",
        "No drugs except lithium; check a level in a week.",
        "Nothing apart from lithium for now.",
        "Avoid any new medication besides lithium.",
    ],
)
def test_an_exception_to_a_refusal_keeps_the_drug_it_names(ca, plan):
    """Stop 50: 'No medication other than lithium' was read as refusing lithium (the refusal cue 'no' reached the drug
    over the exception), so a plan keeping lithium alone proposed no mood stabiliser. An exception said between the
    refusal and the action (``refusal_exception_cues``) ends the refusal's reach."""
    assert "lithium" in ca.proposed(plan) and "lithium" in ca.started(plan)


@pytest.mark.parametrize("plan", ["No lithium.", "Do not start lithium.", "No medication other than sertraline; no lithium.",
                                  "Other than that, do not start lithium.", "Avoid haloperidol, olanzapine and lithium."])
def test_a_refusal_without_an_exception_before_the_drug_still_refuses_it(ca, plan):
    assert "lithium" not in ca.proposed(plan)


@pytest.mark.parametrize(
    "plan",
    [
        "Follow-up within a week, then every 2-4 weeks.",
        "Medication: none now.\nFollow-up within a week, then every 2-4 weeks.",
        "Follow up in a few days with the GP.",
        "Follow-up: next week in clinic.",
    ],
)
def test_a_follow_up_is_no_refusal_of_the_review_it_times(ca, plan):
    """Stop 52 (held_out50 plan-5051, rated 5, judge 2): the refusal cue 'following' ('hyponatraemia following
    sertraline') is read by its stem, 'follow', so the 'Follow-up' heading a review refused it: 'Follow-up within a
    week' carried no prompt follow-up and capped a complete plan at 2. A refusal cue's stem inside a compound of
    ``refusal_cue_compounds`` ('follow-up') refuses nothing."""
    assert "prompt_follow_up" in ca.proposed(plan)


@pytest.mark.parametrize("plan", ["Hyponatraemia following sertraline; do not restart.", "Rash following lamotrigine."])
def test_following_a_drug_still_refuses_it(ca, plan):
    assert not ca.proposed(plan) & {"antidepressant", "serotonergic_antidepressant", "bipolar_depression_agent"}


@pytest.mark.parametrize(
    "plan",
    [
        # held_out50 plan-5060 and held_out51 plan-5149 (both rated 5, App 1 for a gabapentinoid with opioids)
        "We went through the dangers of losing tolerance and of mixing opioids with benzodiazepines, pregabalin or alcohol.",
        "Warn about lost tolerance after any break and about mixing with alcohol, benzodiazepines or gabapentinoids.",
    ],
)
def test_drugs_in_a_warning_against_mixing_are_not_proposed(ca, plan):
    """Stop 52: a warning against mixing named the drugs it warns against as proposed, so an opioid-dependence plan
    warning against gabapentinoids was contraindicated (App 1). A warning against mixing (critical_actions.json
    ``warning_cues``) reaches every drug after it in its sentence, and no further."""
    assert not ca.proposed(plan) & {"gabapentinoid", "benzodiazepine", "sedative_hypnotic"}


def test_a_warning_against_mixing_ends_with_its_sentence(ca):
    plan = "Warn about mixing alcohol with sedatives. Start lithium 400 mg at night."
    assert "lithium" in ca.proposed(plan)


@pytest.mark.parametrize(
    "plan",
    [
        "She needs a medical bed today, with the specialist eating disorder team guiding care.",  # held_out41 plan-1037
        "Bring him into hospital today if he agrees.",  # held_out37 plan-790
        "Look into the low blood sugar with the medical team before he leaves.",  # held_out51 plan-5124
        "Make sure she is physically safe and has somewhere safe to go.",  # held_out51 plan-5142
        "Outpatient care with her partner involved.",
    ],
)
def test_a_disposition_in_other_words(ca, plan):
    """Stop 52: plans that decide where the patient is managed in words the disposition action did not list (a medical
    bed, into hospital, outpatient care, 'before he leaves', 'somewhere safe to go') were capped at 2 for a missing
    disposition; the consultant rated each 4 and named the setting in the reason."""
    assert "disposition" in ca.proposed(plan)


@pytest.mark.parametrize("plan", ["I would see her weekly at first and then monthly.", "Not as an outpatient."])
def test_a_follow_up_alone_is_no_disposition(ca, plan):
    assert "disposition" not in ca.proposed(plan)


@pytest.mark.parametrize(
    ("plan", "action"),
    [
        ("Safety: ask about the death wish every day; written safety plan; no stock of tablets on leave.", "means_restriction"),  # held_out49 plan-4905
        ("Safety: written safety plan; lithium supplies kept modest given toxicity in overdose.", "means_restriction"),  # held_out51 plan-5131
        ("Continue lithium 300 mg twice daily; repeat the level with eGFR, calcium and TSH at the usual intervals.", "lithium_monitoring"),  # plan-5131
        ("Check her current mood stabiliser level and adherence and raise the dose if the level is low.", "valproate_level"),  # held_out50 plan-5048
        ("Liver: repeat LFT and FBC in a month; clotting and ultrasound.", "liver_review"),  # held_out51 plan-5155
    ],
)
def test_critical_actions_in_the_words_of_hand_written_plans(ca, plan, action):
    """Stop 52: hand-written plans rated 4-5 by a consultant were capped at 2 for a critical action they carry in words
    the action did not list: tablets kept from stock, the level repeated for a patient on lithium, the mood
    stabiliser's level checked, raised liver tests followed by a clotting screen."""
    assert action in ca.started(plan)


def test_a_suicidal_thought_denied_after_its_name_is_no_suicide_risk(ca):
    """Stop 52: the lexicon reads only a negation said before a finding, so the record fact 'Suicidal thoughts denied;
    talks about a concert she has tickets for of her own accord' (test-v2-0191, a woman with a mild intellectual
    disability and generalised anxiety) made an active suicide risk, and every plan for her was capped at App 2 for a
    missing safety plan, means restriction and a review within a week (held_out49 plan-4932 rated 5, 4933 and 4935
    rated 4). A risk finding with a denial just after it (critical_actions.json risk_denied_after) shows no risk."""
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline

    case = load_suite("test-v2")["test-v2-0191"]
    assert any("Suicidal thoughts denied" in f.text for f in case.facts)
    assert not ca.profile(case, read_denials_after=True).risks & {"suicide", "active_suicide"}
    assert not case_guideline(case).profile.risks & {"suicide", "active_suicide"}  # what the judge reads
    # the case audit keeps the lexicon's reading: the frozen suite's reference plan (a safety plan) still passes it
    assert {"suicide", "active_suicide"} <= ca.case_profile(case).risks


def test_a_suicidal_thought_not_denied_is_still_a_risk(ca):
    case = load_suite("test-v2")["test-v2-0191"]
    facts = tuple(replace(f, text="Suicidal thoughts most days; denied a plan.") if "Suicidal thoughts denied" in f.text else f
                  for f in case.facts)
    assert "suicide" in ca.profile(replace(case, facts=facts), read_denials_after=True).risks


def test_combining_a_drug_with_therapy_is_no_warning(ca):
    assert "antidepressant" in ca.proposed("Combining sertraline 50 mg with CBT works best for long-standing low mood.")


@pytest.mark.parametrize(
    ("plan", "action"),
    [
        ("Warn him about mixing alcohol with methadone, and prescribe pregabalin 300 mg twice daily.", "gabapentinoid"),
        ("Warn him about mixing alcohol with sedatives, and start chlordiazepoxide on a reducing regimen.", "benzodiazepine_withdrawal_regimen"),
        ("Having discussed the dangers of mixing with alcohol, start methadone 30 mg daily with a naloxone kit.", "naloxone"),
        ("Given the risk from mixing, keep the doses low: diazepam 10 mg three times daily.", "benzodiazepine"),
    ],
)
def test_a_mixing_warning_reaches_only_its_own_list(ca, plan, action):
    """Stop 52 review: the mixing warning refused every action after it to the end of its sentence, so a drug prescribed
    after it ('..., and prescribe pregabalin') or a withdrawal regimen started after it went unread. A proposing verb
    or a colon ends the warning (critical_actions.json ``warning_stop_cues``)."""
    assert action in ca.proposed(plan)
    assert "gabapentinoid" not in ca.proposed("Warn about mixing with alcohol, benzodiazepines or gabapentinoids.")


@pytest.mark.parametrize(
    "fact",
    ["Suicidal ideation, denied plan or intent.", "Suicidal thoughts denied to the GP, present daily now with a plan.",
     "Suicidal thoughts denied, but present daily now with a plan."],
)
def test_a_denial_of_something_else_keeps_the_suicide_risk(ca, fact):
    case = load_suite("test-v2")["test-v2-0191"]
    facts = tuple(replace(f, text=fact) if "Suicidal thoughts denied" in f.text else f for f in case.facts)
    assert "suicide" in ca.profile(replace(case, facts=facts), read_denials_after=True).risks


@pytest.mark.parametrize(
    ("plan", "action"),
    [
        ("Outpatient treatment was refused.", "disposition"),
        ("He needs somewhere safe to go but has nowhere.", "disposition"),
        ("Admission into hospital is not needed.", "disposition"),
        ("Clotting normal last year.", "liver_review"),
        ("Mood stabiliser level not needed.", "lithium_monitoring"),
        ("Mood stabiliser level not needed.", "valproate_level"),
    ],
)
def test_an_action_said_as_not_done_is_not_proposed(ca, plan, action):
    """Stop 52 review: phrases added at stop 52 for hand-written plans (outpatient, somewhere safe to go, into hospital,
    clotting, mood stabiliser level) were read as the action where the plan says it is refused, not needed or only a
    past result. A refusal said just after them (critical_actions.json refusal_after_cues: was refused, not needed, but
    has nowhere) now refuses them, and a clotting screen is an action only when checked or repeated."""
    assert action not in ca.proposed(plan)


def test_violence_with_a_young_child_at_home_makes_safeguarding_critical(ca):
    """Stop 53: a psychotic mother off medication who recently pushed someone, with a young child at home (test-v2-0066):
    the consultant of held_out51 rated a plan that never considers the child 2, 'a critical safety step is missing'
    (plan-5108, scored 4.2 while safeguarding was only advised); every plan of held_out29 and held_out51 that left the
    child out was rated 2 or 3. The child's safety is now a critical action beside violence."""
    p = _profile(codes=("F20.0",), risks=frozenset({"violence"}), dependants=True)
    plan = ("Start risperidone 2 mg once daily. CBT for psychosis. Risk management plan for the risk to others, "
            "home treatment team this week. Review weekly.")
    assert "safeguarding" in {m.action for m in ca.check(p, plan).missing}
    assert "safeguarding" not in {m.action for m in ca.check(p, plan + " Ask who cares for the child; safeguarding referral if needed.").missing}
    assert "safeguarding" not in {m.action for m in ca.check(replace(p, dependants=False), plan).missing}


@pytest.mark.parametrize(
    "plan, said",
    [
        # stop 54, held_out53 plan-5311 (rated 4: 'violence and children's safety assessed'), capped at 2 as missing it
        ("Find out who she pushed and whether anyone at home, including the children, is at risk, and act on it.", True),
        ("Check that the children are safe and supported.", True),
        ("Ask about the children's safety at each visit.", True),
        # not the screen: a dependant's care, tablets at home, hurt asked only at a later visit (plan-1053, rated 3)
        ("Whether anyone at home depends on his care is not yet known: ask the family today.", False),
        ("Ask whether anyone at home might misuse the tablets.", False),
    ],
)
def test_the_safeguarding_screen_in_lay_words_is_read(ca, plan, said):
    """Stop 54: a plan that asks, in plain words, whether anyone at home or the children are at risk or safe holds the
    safeguarding screen (critical_actions.json safeguarding 'patterns')."""
    assert ("safeguarding" in ca.proposed(plan)) is said


@pytest.mark.parametrize(
    "said",
    [
        # stop 54 review: assertions, reports, deferrals and negations read as the screen (each scored 4.0, not capped)
        "The children are safe with her partner.",
        "The kids are safe.",
        "Her husband says anyone at home is safe.",
        "He says the kids are safe.",
        "Not yet checked whether the children are safe.",
        "At the next visit, ask whether anyone at home is at risk.",
        "Safety of the children to be discussed at a future appointment.",
        "Whether anyone at home, including the children, is at risk can be considered if she deteriorates.",
        "Safety of the children not assessed today.",
        "Children's safety was not discussed.",
        "There is no need to ask whether anyone at home is at risk.",
        "Make sure the child's safety net of family is in place.",
        "Consider safeguarding if concerns arise.",
        "Safeguarding to be discussed at next visit.",
        "Consider safeguarding.",
        # stop 55: the old phrases 'safe at home' and 'looked-after' credited an assertion and a report of who minds the child
        "Her child is safe at home.",
        "Her partner is looking after the child.",
        "The children are looked after by their grandmother.",
        "She feels safe at home.",
    ],
)
def test_a_safeguarding_screen_asserted_deferred_or_negated_is_missing(ca, said):
    """Stop 54 review: the lay safeguarding patterns counted an assertion that the children are safe, someone's report,
    a deferral or a negation as the screen, and a bare 'consider safeguarding' or one put off to a later visit met the
    rule: a violent parent's plan saying only so went uncapped. Now the screen is an enquiry or an action said now
    (critical_actions.json safeguarding 'patterns', 'pattern_unless', 'not_now_cues')."""
    p = _profile(codes=("F20.0",), risks=frozenset({"violence"}), dependants=True)
    plan = ("Start risperidone 2 mg once daily. CBT for psychosis. Risk management plan for the risk to others, "
            "home treatment team this week. Review weekly. ")
    assert "safeguarding" in {m.action for m in ca.check(p, plan + said).missing}


@pytest.mark.parametrize(
    "said",
    [
        "Ask whether anyone at home, including the children, is at risk, and act on it.",  # held_out53 plan-5311
        "Check whether the children are safe and refer to safeguarding if not.",
        "Check the children's safety today with her husband.",
        "Check who is looking after the children, and whether a safeguarding referral is needed.",
        "Make a safeguarding referral if the children are unsafe.",
        # held_out45 plan-1249, rated 5: 'consider' reaches the word it opens, not the enquiry after it
        "Consider safeguarding and ask her, alone, about abuse, neglect or danger at home.",
        # stop 55: the same words as an enquiry in plain words still count, and the care term for a child in care
        "Ask whether her child is safe at home.",
        "Ask her whether she and the children feel safe at home.",
        "Check if everyone at home is safe.",
        "Ask about safety at home and who is looking after the child.",
        "Liaise with the social worker for the looked-after child.",
    ],
)
def test_a_safeguarding_screen_said_now_meets_the_rule(ca, said):
    """Stop 54 review: the enquiry in lay words, and a referral conditional on what the check finds, still meet it."""
    p = _profile(codes=("F20.0",), risks=frozenset({"violence"}), dependants=True)
    plan = ("Start risperidone 2 mg once daily. CBT for psychosis. Risk management plan for the risk to others, "
            "home treatment team this week. Review weekly. ")
    assert "safeguarding" not in {m.action for m in ca.check(p, plan + said).missing}


def test_factitious_disorder_with_a_child_at_home_makes_safeguarding_critical(ca):
    """Stop 55 (held_out54, test-v2-0304): a mother with factitious disorder and a young child at home; every rated plan
    that left the child out was rated 2 ('no safeguarding'), and 'Discharge home; GP to follow up. No medication. Offer
    supportive psychotherapy.' scored 4.0. The child's safety is a critical action (rule dependants_factitious)."""
    p = _profile(codes=("F68.10",), dependants=True)
    plan = "Discharge home; GP to follow up. No medication. Offer supportive psychotherapy."
    assert "safeguarding" in {m.action for m in ca.check(p, plan).missing}
    assert "safeguarding" not in {m.action for m in ca.check(p, plan + " Check whether her young child is safe and involve the safeguarding lead.").missing}
    assert "safeguarding" not in {m.action for m in ca.check(replace(p, dependants=False), plan).missing}
