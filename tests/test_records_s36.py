"""Stop 36: what stop 35's consultant found in generated records (each fault a rule of the audit, which the
generator then redraws), and the audit read right on narrative records (a user's chart, uw-009)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from mentalhospital_env.cases.audit import audit_case
from mentalhospital_env.cases.loader import validate_case
from mentalhospital_env.knowledge.codes import category_of_code

ROOT = Path(__file__).resolve().parents[1]


def _clean() -> dict:
    return {
        "case_id": "s36-1", "language": "en",
        "demographics": {"age": 32, "sex": "female", "occupation": "shop assistant", "marital_status": "cohabiting",
                         "education": "left school at 16", "living_situation": "lives with her partner"},
        "setting": "emergency",
        "ehr": {
            "chief_complaint": "Brought in by her partner after a row; upset and frightened of what she might do.",
            "history_of_present_illness": "Her partner said he was leaving last night. She spent the evening in tears, rang him forty times and then her sister. "
                                          "\"I can't be on my own,\" she says. She has felt like this after every break-up since she was 17.",
            "past_psychiatric_history": "Seen by the crisis team twice in her twenties.",
            "substance_use": "A few drinks at weekends; no drugs.",
            "mental_status_exam": {"appearance": "Casually dressed, old healed linear scars on forearms.", "mood": "'Empty'"},
            "risk_assessment": {"suicide": "Denies thoughts of suicide or self-harm today.", "violence": "No threats, past or present."},
        },
        "exams": [{"name": "C-SSRS", "kind": "scale", "result": "screen: highest item endorsed 0/6 (negative)"}],
        "diagnosis": {"categories": ["personality"], "disorders": [{"name": "Emotionally unstable personality disorder, borderline type", "code": "F60.3"}]},
        "treatment": {"plan": "Home today with the crisis team visiting tomorrow; refer for dialectical behaviour therapy.", "safety": ["crisis line number given"]},
    }


def _rules(raw: dict) -> set[str]:
    raw["diagnosis"]["categories"] = list(dict.fromkeys(category_of_code(d["code"]) for d in raw["diagnosis"]["disorders"]))
    return {f.rule for f in audit_case(validate_case(raw))}


def test_fresh_wounds_beside_a_denial_or_without_wound_care() -> None:
    """Stop 35's R4 (test-v2-0480): fresh forearm cuts on examination, 'Denies thoughts of suicide or self-harm', C-SSRS 0."""
    raw = _clean()
    assert "risk.fresh_wounds" not in _rules(copy.deepcopy(raw))  # old healed scars
    raw["ehr"]["mental_status_exam"]["appearance"] = "Casually dressed, healed and fresh linear scars on forearms."
    assert "risk.fresh_wounds" in _rules(copy.deepcopy(raw))
    told = copy.deepcopy(raw)
    told["ehr"]["risk_assessment"]["suicide"] = "Cut her forearms last night to cope; no thoughts of ending her life."
    told["exams"] = []
    told["treatment"]["plan"] += " Wounds cleaned and dressed in the department; tetanus up to date."
    assert "risk.fresh_wounds" not in _rules(told)


def test_benzodiazepine_given_beside_a_safety_line_against_it() -> None:
    """Stop 35's R6 (test-v2-0323): lorazepam for the alcohol withdrawal beside 'avoid combining with benzodiazepines or alcohol'."""
    raw = _clean()
    raw["diagnosis"]["disorders"] = [{"name": "Opioid dependence syndrome", "code": "F11.20"}, {"name": "Alcohol dependence syndrome", "code": "F10.20"}]
    raw["treatment"]["plan"] = "An inpatient assisted withdrawal (lorazepam on the CIWA-Ar, beside the opioid substitute, under observation)."
    raw["treatment"]["safety"] = ["supply take-home naloxone", "avoid combining with benzodiazepines or alcohol"]
    assert "plan.benzodiazepine_contradiction" in _rules(copy.deepcopy(raw))
    raw["treatment"]["safety"] = ["supply take-home naloxone", "avoid long-term benzodiazepines"]  # a short course is not long-term use
    assert "plan.benzodiazepine_contradiction" not in _rules(copy.deepcopy(raw))
    raw["treatment"]["plan"] = "Buprenorphine induction in clinic, with no lorazepam or any other benzodiazepine."
    raw["treatment"]["safety"] = ["avoid combining with benzodiazepines or alcohol"]
    assert "plan.benzodiazepine_contradiction" not in _rules(raw)


def test_dementia_bed_without_acute_risk() -> None:
    """Stop 35's R5 (test-v2-0312): a bed requested for a three-year dementia, a wife at home, no acute risk."""
    raw = _clean()
    raw["demographics"].update(age=72, sex="male", living_situation="lives with spouse in their own house")
    raw["diagnosis"]["disorders"] = [{"name": "Unspecified dementia", "code": "F03.90"}]
    raw["treatment"]["plan"] = "Assess in the emergency department; a bed requested today, agreed with the crisis team."
    assert "plan.dementia_admission" in _rules(copy.deepcopy(raw))
    raw["demographics"]["living_situation"] = "lives alone in a flat"
    assert "plan.dementia_admission" not in _rules(copy.deepcopy(raw))


def test_complaint_that_does_not_fit_the_illness() -> None:
    """'Wants someone to talk to' as the complaint of a delirium (test-v2-0255), not of a depression."""
    raw = _clean()
    raw["ehr"]["chief_complaint"] = "Wants someone to talk to for about five days."
    assert "records.complaint_fit" not in _rules(copy.deepcopy(raw))  # a personality disorder may ask
    raw["diagnosis"]["disorders"] = [{"name": "Delirium due to known physiological condition", "code": "F05"}]
    assert "records.complaint_fit" in _rules(copy.deepcopy(raw))
    raw["ehr"]["chief_complaint"] = "Asked to be seen about her memory."
    raw["diagnosis"]["disorders"] = [{"name": "Mild neurocognitive disorder", "code": "F06.70"}]
    assert "records.complaint_fit" not in _rules(raw)


def test_illicit_drug_dependence_begun_in_old_age() -> None:
    """Stop 35's R6: a 71-year-old starting heroin five years ago; the same years of use from 25 are believable."""
    raw = _clean()
    raw["demographics"].update(age=71, sex="male")
    raw["diagnosis"]["disorders"] = [{"name": "Opioid dependence syndrome", "code": "F11.20"}]
    raw["ehr"]["chief_complaint"] = "Using heroin every day for five years."
    assert "records.substance_late_onset" in _rules(copy.deepcopy(raw))
    raw["demographics"]["age"] = 30
    assert "records.substance_late_onset" not in _rules(raw)


def test_narrative_record_uw_009_reads_right() -> None:
    """uw-009 (bipolar II referred as recurrent depression): the uncle 'died by suicide aged 44', 'the odd one' missed,
    the GP's 'Recurrent depression' and a co-diagnosis the knowledge base has no presentation for are no findings;
    the lipids called normal at 5.6 and 3.7 mmol/L still are."""
    raw = json.loads((ROOT / "benchmarks/data/patient_exam/unseen/uw-009.json").read_text("utf-8"))
    found = audit_case(validate_case(raw))
    said = {(f.rule, f.field) for f in found}
    assert ("timeline.age", "family_history") not in said
    assert not any(f.rule == "labels.diagnosis" for f in found), [str(f) for f in found if f.rule == "labels.diagnosis"]
    assert not any(f.rule == "joins.comorbid_support" for f in found)
    flags = [f.message for f in found if f.rule == "labs.flag"]
    assert any("total cholesterol 5.6" in m for m in flags) and any("LDL 3.7" in m for m in flags)


def test_labels_still_found_where_they_give_the_diagnosis_away() -> None:
    """The narrowing keeps the rule: the case's own diagnosis named, or an abbreviation in capitals, is found."""
    raw = _clean()
    raw["ehr"]["history_of_present_illness"] += " Her GP wonders about borderline personality disorder."
    assert "labels.diagnosis" in _rules(copy.deepcopy(raw))
    raw = _clean()
    raw["diagnosis"]["disorders"] = [{"name": "Oppositional defiant disorder", "code": "F91.3"}]
    raw["demographics"].update(age=12, living_situation="lives with her mother")
    raw["ehr"]["history_of_present_illness"] += " School asked whether it could be ODD."
    assert "labels.diagnosis" in _rules(copy.deepcopy(raw))
    raw["ehr"]["history_of_present_illness"] = raw["ehr"]["history_of_present_illness"].replace("whether it could be ODD", "about the odd outburst")
    assert "labels.diagnosis" not in _rules(raw)
