"""Stop 41 (issue 15): the scripted clinician ranks disorders on results written as the suites write them, keeps a
bipolar disorder off the list when no high was heard, lets confusion beside a marked derangement lead as a delirium,
and starts no drug that a result on file makes unsafe.

The doctor is driven through ``act`` (the diagnosis and the plan it writes when the environment allows them), from
findings set as an interview would have left them; the results are written in the suites' own format, with the
reference range inside the flag's brackets ("K 3.1 mmol/L (low; reference 3.5-5)")."""

from __future__ import annotations

import json
import re

import pytest
from scripted_encounters import codes as _codes
from scripted_encounters import with_findings as _doctor
from scripted_encounters import write as _write

from mentalhospital_env.cases.loader import bundled_suite_path
from mentalhospital_env.knowledge import load_knowledge
from mentalhospital_env.knowledge.critical import load_critical_actions


def _suite_results(suite: str, exam: str, pattern: str) -> list[str]:
    """Results of ``exam`` in a bundled suite matching ``pattern``: the format the clinician reads in play."""
    out = []
    for line in bundled_suite_path(suite).read_text("utf-8").splitlines():
        if line.strip():
            for e in json.loads(line).get("exams", []):
                if e.get("name") == exam and re.search(pattern, e.get("result", "")):
                    out.append(e["result"])
    return out


WOMAN_24 = "Emergency department. A 24-year-old woman is here to see you, alone."
NOTHING = {"food_restriction", "decreased_appetite", "fatigue", "suicidal_ideation", "self_harm", "hypomanic_episodes",
           "persecutory_delusions", "auditory_hallucinations", "drug_use", "panic_attacks"}


def test_the_suites_hypokalaemic_alkalosis_is_read_with_its_reference_range():
    """Premise (stop 41, test-v2-0391): a woman of 24 who said little, with K 3.1 (low; reference 3.5-5), bicarbonate 34
    (raised; reference 22-29), a pulse of 41 and a postural drop on file, was called delirious and started on
    haloperidol: the results rule for an eating disorder was written for "(low)" and never matched the suites'
    "(low; reference ...)". Every such result in the v2 suites is now read."""
    alkaloses = _suite_results("test-v2", "U&E", r"\(low; reference") + _suite_results("dev-v2", "U&E", r"\(low; reference")
    alkaloses = [r for r in alkaloses if "bicarbonate" in r and "(raised" in r]
    assert len(alkaloses) >= 10  # the premise: the suites write their flags with the reference range
    results = [
        ("U&E", alkaloses[0]),
        ("FBC", "Hb 103 g/L (low; reference 115-155), MCV 95 fL, WBC 1.6 x10^9/L (low; reference 4-11), platelets 203 x10^9/L"),
        ("Vital signs", "pulse 41/min, BP 104/77 mmHg with postural drop to 80/60 mmHg, temperature 35.1 C"),
    ]
    codes = _codes(_write(_doctor(WOMAN_24, answers={"relationships": "Fine."}, denied=set(NOTHING), results=results), "diagnose"))
    assert codes and codes[0].startswith("F50"), codes
    assert "F05" not in codes
    plan = _write(_doctor(WOMAN_24, answers={"relationships": "Fine."}, denied=set(NOTHING), results=results), "treat")
    assert "haloperidol" not in plan.lower()
    assert "metabolic alkalosis" in plan and "purging" in plan
    doctor = _doctor(WOMAN_24)
    for result in alkaloses:
        doctor.findings.exam_results[:] = [("U&E", result)]
        rule = next(r for r in doctor.script["plan"]["results_acted_on"]["rules"] if "bicarbonate" in r["pattern"])
        assert doctor._result_on_file(rule), result


MAN_36 = "Emergency department. A 36-year-old man is here to see you, alone."
WITHDRAWAL = {"alcohol_use": "I drink a litre of vodka a day.", "withdrawal_tremor": "I get the shakes in the morning.",
              "relief_drinking": "I have a drink first thing to stop the shakes."}


def test_a_hypokalaemic_alkalosis_in_alcohol_withdrawal_adds_no_eating_disorder():
    """With the results rule reading the suites' format, three men in alcohol withdrawal with a low potassium and a raised
    bicarbonate (test-v2-0075, 0213, dev-v2-0037) had a restricting anorexia added and CBT-E planned: the vomiting of
    withdrawal explains the result. Their potassium is still acted on."""
    alkalosis = ("U&E", "Na 137 mmol/L, K 3.0 mmol/L (low; reference 3.5-5), bicarbonate 31 mmol/L (raised; reference 22-29), creatinine 74 umol/L")
    codes = _codes(_write(_doctor(MAN_36, present=dict(WITHDRAWAL), answers={"alcohol_use": WITHDRAWAL["alcohol_use"]},
                                  results=[alkalosis]), "diagnose"))
    assert codes[0].startswith("F10"), codes
    assert not any(c.startswith("F50") for c in codes), codes
    plan = _write(_doctor(MAN_36, present=dict(WITHDRAWAL), answers={"alcohol_use": WITHDRAWAL["alcohol_use"]},
                          results=[alkalosis]), "treat")
    assert "anorexia" not in plan.lower() and "CBT-E" not in plan
    assert "potassium" in plan.lower() or "electrolyte" in plan.lower()


DELIRIUM = [
    ("U&E", "Na 142 mmol/L, K 3.1 mmol/L (low; reference 3.5-5), creatinine 83 umol/L"),
    ("Vital signs", "pulse 44/min, BP 120/70 mmHg, temperature 36.8 C"),
]
OLD_WOMAN = "Emergency department. A 80-year-old woman is here to see you, accompanied by her daughter."
CONFUSED = {"disorientation": "She didn't know where she was last night.",
            "fluctuating_attention": "She drifts in and out, worse in the evening."}


def test_a_qt_prolonging_drug_is_not_started_beside_a_low_potassium_or_a_slow_pulse():
    """A delirium's first drug is haloperidol (for severe distress or danger). Beside a potassium of 3.1 and a pulse of 44
    it is not started, and the plan says why; with normal results it is."""
    normal = [("U&E", "Na 140 mmol/L, K 4.2 mmol/L, creatinine 70 umol/L"), ("Vital signs", "pulse 76/min, BP 130/70 mmHg")]
    plain = _write(_doctor(OLD_WOMAN, present=dict(CONFUSED), results=normal), "treat")
    assert "start haloperidol" in plain  # the premise: haloperidol is the delirium plan's drug
    plan = _write(_doctor(OLD_WOMAN, present=dict(CONFUSED), results=list(DELIRIUM)), "treat")
    assert "start haloperidol" not in plan, plan
    assert "Not started on these results: haloperidol" in plan and "QT" in plan


def test_every_results_contraindication_names_findings_the_knowledge_base_reads():
    known = set(load_critical_actions().exam_findings)
    drugs = [d for d in load_knowledge().drugs if d.unsafe_with_results]
    assert {"haloperidol", "citalopram", "lithium"} <= {d.name for d in drugs}
    for d in drugs:
        assert set(d.unsafe_with_results) <= known, d.name
        assert d.results_reason, d.name


HYPONATRAEMIA = [("U&E", "Na 118 mmol/L, K 3.6 mmol/L, urea 3.1 mmol/L, creatinine 72 micromol/L, eGFR 84")]
OLD_MAN = "Emergency department. A 78-year-old man is here to see you, accompanied by his daughter."
GRIEF = {"low_mood": "I've been low since my wife died.", "bereavement": "My wife died last year.",
         "tearfulness": "I cry a lot.", "insomnia": "I can't sleep."}


def test_confusion_beside_an_unflagged_low_sodium_leads_as_a_delirium():
    """Premise (stop 40, uw-006): a man of 78, low since his wife died, who got lost, with Na 118 on file written without
    a flag, was called an adjustment disorder; his delirium was missed. The sodium is read by the knowledge base's own
    measure, and with confusion heard the delirium leads; without confusion heard the sodium alone names no delirium."""
    present = dict(GRIEF, disorientation="I didn't know where I was, driving home.")
    codes = _codes(_write(_doctor(OLD_MAN, present=present, results=list(HYPONATRAEMIA)), "diagnose"))
    assert codes[0] == "F05", codes
    plan = _write(_doctor(OLD_MAN, present=present, results=list(HYPONATRAEMIA)), "treat")
    assert "cause" in plan.lower()
    without = _codes(_write(_doctor(OLD_MAN, present=dict(GRIEF), results=list(HYPONATRAEMIA)), "diagnose"))
    assert "F05" not in without, without
    normal = _codes(_write(_doctor(OLD_MAN, present=present, results=[("U&E", "Na 139 mmol/L, K 4.0 mmol/L")]), "diagnose"))
    assert normal[0] != "F05" or len(normal) == 1  # nothing on file: the ranking's own reading


MAN_29 = "Emergency department. A 29-year-old man is here to see you, alone."
LABILE = {"low_mood": "I just feel flat.", "anhedonia": "There's no joy in anything.", "fatigue": "I'm tired.",
          "risky_spending": "I'm in debt from impulsive spending.", "fear_of_abandonment": "Being alone terrifies me."}


@pytest.mark.parametrize("told", [None, "hypomanic_episodes", "mdq"])
def test_a_bipolar_disorder_needs_a_high_heard_or_a_positive_screen(told):
    """Premise (stop 41, test-v2-0469): a man who said he had never felt high, with impulsive spending and moods that
    change by the hour, was called bipolar II and given quetiapine 300 mg. No bipolar disorder stands on the list
    without a high heard, a positive MDQ on file or the patient naming it."""
    present = dict(LABILE)
    results = []
    if told == "hypomanic_episodes":
        present["hypomanic_episodes"] = "There was a week last spring I barely slept and started three businesses."
    if told == "mdq":
        results = [("MDQ", "positive (9/13 items, same period, moderate problems)")]
    codes = _codes(_write(_doctor(MAN_29, present=present, denied={"elevated_mood"}, results=results), "diagnose"))
    bipolar = [c for c in codes if c.startswith(("F31", "F34.0"))]
    if told is None:
        assert not bipolar, codes
        plan = _write(_doctor(MAN_29, present=present, denied={"elevated_mood"}), "treat")
        assert "quetiapine" not in plan.lower()
    else:
        assert bipolar, codes


WOMAN_29 = "Outpatient clinic. A 29-year-old woman is here to see you, alone."


def test_hopelessness_counts_towards_a_depressive_episode_that_an_adjustment_disorder_cannot_explain():
    """Premise (uw-002): low mood, anhedonia, insomnia, hopelessness and suicidal thoughts after a birth were called an
    adjustment disorder: hopelessness (ICD-10's bleak and pessimistic views of the future) was counted in no symptom
    group, so the episode fell one short and the stress reaction led."""
    present = {"low_mood": "I'm low all the time.", "anhedonia": "Nothing interests me.", "insomnia": "I can't sleep.",
               "hopelessness": "I can't see it ever getting better.", "suicidal_ideation": "I think they'd be better off without me.",
               "stress_preoccupation": "I can't stop thinking about the split.", "recent_stressors": "My partner left in March."}
    codes = _codes(_write(_doctor(WOMAN_29, present=present), "diagnose"))
    assert codes[0].startswith(("F32", "F33")), codes
    assert codes[0] not in ("F32.3", "F33.3")  # no psychotic finding heard: not the psychotic form
