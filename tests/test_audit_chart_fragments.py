"""Narrative chart fragments, written as a user's chart says them, that the record audit must pass and must
flag (stop 38, issue 14). Each edits one of the development user records (uw-004, uw-007) and audits it
through the public CLI: pertinent negatives are not a differential given away, self-injury in meltdowns with
suicidal intent denied is not suicide risk, a passive death wish is not active ideation, 'Stop running,
netball and exercise' stops exercise; the asserted, the checklist and the suicidal forms are still flagged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mentalhospital_env.cli import main

UNSEEN = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "patient_exam" / "unseen"


def _audit(tmp_path: Path, capsys, case: str, edit) -> str:
    raw = json.loads((UNSEEN / f"{case}.json").read_text())
    raw.pop("facts", None)
    edit(raw)
    path = tmp_path / f"{case}.json"
    path.write_text(json.dumps(raw))
    capsys.readouterr()
    main(["cases", "audit", str(path), "--limit", "-1"])
    return capsys.readouterr().out


def _hpi_add(sentence: str):
    def edit(raw: dict) -> None:
        raw["ehr"]["history_of_present_illness"] += " " + sentence
    return edit


def _plan_swap(old: str, new: str):
    def edit(raw: dict) -> None:
        assert old in raw["treatment"]["plan"]
        raw["treatment"]["plan"] = raw["treatment"]["plan"].replace(old, new)
    return edit


def _risk(text: str):
    def edit(raw: dict) -> None:
        raw["ehr"]["risk_assessment"]["suicide"] = text
    return edit


def _uw004_stops_exercise(raw: dict) -> None:
    assert EXERCISE in raw["treatment"]["plan"]  # the premise: uw-004's plan stops exercise


# uw-007's self-injury outside her meltdowns (the GP letter's 'repeated self-harm', the arm-scratching at 14)
_MELTDOWNS_ONLY = {
    "repeated self-harm (hitting her head)": "repeated self-injury in meltdowns (hitting her head)",
    "at 14, during exams, she scratched her arms when overwhelmed.": "",
    "Self-injury (scratching her arms) at 14 during exams; ": "",
}


def _uw007_meltdowns_only(extra: str = ""):
    """uw-007 with every self-injury charted in her meltdowns and suicidal ideation denied (the premise, asserted)."""
    def edit(raw: dict) -> None:
        text = json.dumps(raw)
        for old, new in _MELTDOWNS_ONLY.items():
            assert old in text
            text = text.replace(old, new)
        raw.clear()
        raw.update(json.loads(text))
        assert "self-injury during meltdowns" in raw["ehr"]["risk_assessment"]["self_neglect"]
        assert "no current or past suicidal ideation" in raw["ehr"]["risk_assessment"]["suicide"]
        raw["ehr"]["history_of_present_illness"] += extra
    return edit


EXERCISE = "Stop running, netball and exercise in her room until she is medically stable"
MEANS = "misses restricting access to means"
ADVISED_EXERCISE = "proposes advice to exercise"

PASS = [
    ("uw-007", _hpi_add("No psychotic symptoms and no elevated mood at any time."), "labels.differential"),
    ("uw-007", _hpi_add("She has had no episodes of bingeing or purging."), "labels.differential"),
    # three routine screening denials are an ordinary clerking line, not a checklist (stop 38 review)
    ("uw-007", _hpi_add("No psychotic symptoms, no elevated mood and no suicidal ideation."), "labels.differential"),
    ("uw-007", _uw007_meltdowns_only(), MEANS),  # head-hitting in meltdowns, no suicidal ideation with intent
    ("uw-007", _uw007_meltdowns_only(" She has thought that she might not wake up and would not mind, but she has no plan."), MEANS),
    ("uw-004", _uw004_stops_exercise, ADVISED_EXERCISE),  # 'Stop running, netball and exercise in her room ...'
]

FLAG = [
    ("uw-007", _hpi_add("Over the last week she has had elevated mood and grandiosity."), "labels.differential"),
    ("uw-007", _hpi_add("No nihilistic delusions, no thought insertion and no cataplexy."), "labels.differential"),
    # three textbook denials beside a routine one: a checklist, the routine one flagged with them
    ("uw-007", _hpi_add("No psychotic symptoms, no hypomania, no thought broadcasting and no catatonia."), "'psychotic symptoms'"),
    # self-harm outside the meltdowns keeps the suicide risk (stop 38 review: all, not any, of it in meltdowns)
    ("uw-007", _uw007_meltdowns_only(" She also self-harms by cutting her thighs most nights."), MEANS),
    ("uw-007", _risk("Moderate: hits her head in meltdowns, and since June has thought of ending her life with her tablets."), MEANS),
    ("uw-007", _hpi_add("Last week she thought of taking all her tablets to end her life and has been saving them."), MEANS),
    ("uw-004", _plan_swap(EXERCISE, "Encourage running, netball and exercise in her room to lift her mood"), ADVISED_EXERCISE),
]


@pytest.mark.parametrize("case, edit, finding", PASS)
def test_the_audit_passes_what_a_clinician_charts(tmp_path: Path, capsys, case: str, edit, finding: str) -> None:
    out = _audit(tmp_path, capsys, case, edit)
    assert finding not in out, out


@pytest.mark.parametrize("case, edit, finding", FLAG)
def test_the_audit_flags_what_a_clinician_would_query(tmp_path: Path, capsys, case: str, edit, finding: str) -> None:
    out = _audit(tmp_path, capsys, case, edit)
    assert finding in out, out
