"""What a supervisor faults in a note's own text lowers Qual. and is listed in the scores' details (issue 15)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import load_suite
from mentalhospital_env.knowledge.durations import load_durations, read_durations
from mentalhospital_env.knowledge.errors import KnowledgeError
from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.mentaleval import OfflineJudge
from mentalhospital_env.rewards.mentaleval.note_faults import fault_points, note_faults


@pytest.fixture(scope="module")
def hw():
    return load_suite("handwritten")


GOOD_040 = """Identifying data: Emergency department. A 13-year-old girl, accompanied by her mother.
Chief complaint: "I took 14 ibuprofen tablets at school."
History of present illness: Three months of low mood, poor sleep and poor appetite. She took an overdose of ibuprofen at school today intending to die, after two weeks of thoughts of not waking up.
Medications: No regular medicines; salbutamol inhaler when needed.
Family history: Her mother had postnatal depression.
Mental status examination: Low mood, tearful, no psychotic features.
Risk assessment: High. Overdose today with intent; recent self-cutting; online sexual extortion by an unknown person (safeguarding referral today).
Assessment: Severe depressive episode after an overdose, with online sexual exploitation.
Plan: see treatment plan."""


def _faults(case, note, **chart):
    return note_faults(case, Chart(note=note, **chart))


def test_a_sound_note_has_no_fault(hw):
    assert _faults(hw["hw-040"], GOOD_040) == ()


def test_each_fault_is_found_and_lowers_qual(hw):
    case = hw["hw-040"]
    judge = OfflineJudge(dimensions=("note_quality",))
    good = judge.score(case, Chart(note=GOOD_040))["note_quality"]
    variants = {
        "garbled_quote": GOOD_040.replace(
            "Medications: No regular medicines; salbutamol inhaler when needed.",
            'Medications: "About 64 mg/kg from me\'s bathroom cabinet, the tablets."',
        ),
        "third_person_quote": GOOD_040.replace(
            "Mental status examination:", 'Personal history: "Then, with encouragement, she disclosed the messages."\nMental status examination:'
        ),
        "chief_complaint": GOOD_040.replace('"I took 14 ibuprofen tablets at school."', "not stated."),
        "misfiled_section": GOOD_040.replace(
            "Family history: Her mother had postnatal depression.", 'Family history: "I had postnatal depression."'
        ),
        "main_risk_omitted": GOOD_040.replace(
            "online sexual extortion by an unknown person (safeguarding referral today)", "protective: her mother"
        ),
    }
    for kind, note in variants.items():
        found = _faults(case, note)
        assert [f.kind for f in found] == [kind], (kind, found)
        assert judge.score(case, Chart(note=note))["note_quality"] < good, kind


def test_the_risk_section_must_name_the_main_risk_not_the_results(hw):
    note = GOOD_040.replace("Overdose today with intent; recent self-cutting; ", "").replace(
        "Assessment:", "Investigations: C-SSRS: actual attempt today.\nAssessment:"
    )
    kinds = sorted(f.text for f in _faults(hw["hw-040"], note))
    assert kinds == ["overdose or suicide attempt", "self-harm"]


def test_a_denied_risk_in_the_record_is_no_main_risk(hw):
    # hw-002: "no weapons"; hw-025: "no history of self-harm"; neither is graded high
    for cid in ("hw-002", "hw-025", "hw-009"):
        note = "Chief complaint: low mood.\nRisk assessment: Denies suicidal ideation.\nAssessment: see above."
        assert not [f for f in _faults(hw[cid], note) if f.kind == "main_risk_omitted"], cid


def test_diagnosis_made_before_its_duration_unless_hedged(hw):
    case = hw["hw-002"]
    turns = (Turn("How long has this been going on?", "For four days now."),)
    base = "Chief complaint: brought in by flatmates.\nHistory of present illness: Four days of voices.\nAssessment: {}"
    early = _faults(case, base.format("Paranoid schizophrenia."), turns=turns, disorders=("F20.0 Paranoid schizophrenia",))
    assert [f.kind for f in early] == ["diagnosis_duration"]
    hedged = _faults(case, base.format("Working diagnosis: paranoid schizophrenia if symptoms persist."), turns=turns,
                     disorders=("F20.0 Paranoid schizophrenia",))
    assert hedged == ()
    brief = _faults(case, base.format("Brief psychotic disorder."), turns=turns, disorders=("F23 Brief psychotic disorder",))
    assert brief == ()


def test_fault_points_are_capped_per_kind(hw):
    note = GOOD_040.replace(
        "Mental status examination:",
        'Personal history: "I have well." "I\'m a domestic abuse." "I have been saw a counselor." "Me\'s cabinet."\nMental status examination:',
    )
    faults = _faults(hw["hw-040"], note)
    assert sum(f.kind == "garbled_quote" for f in faults) == 4
    assert fault_points(faults) == 1.5


def test_faults_are_in_the_scores_details(hw):
    from mentalhospital_env.rewards.scoring import Scorer

    case = hw["hw-040"]
    scores = Scorer().score(case, Chart(note=GOOD_040.replace('"I took 14 ibuprofen tablets at school."', "not stated.")))
    assert [f["kind"] for f in scores.details["note_faults"]] == ["chief_complaint"]


def test_durations_are_read_from_speech():
    d = load_durations()
    assert d.said_days("For four days now.") == (4.0,)
    assert d.said_days("Over about three months I've been sad.") == (90.0,)
    assert d.said_days("a couple of weeks ago") == (14.0,)
    assert d.said_days("for about two and a half years I've had pain") == (912.5,)
    assert d.said_days("She weighs 44 kg and has 28-day cycles.") == ()
    assert d.minimum_days("F20.0") == 30 and d.minimum_days("F23") is None


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=1, max_value=400), unit=st.sampled_from(["days", "weeks", "months", "years"]),
       lead=st.sampled_from(["for", "over the last", "for the past", ""]), tail=st.sampled_from(["", " ago"]))
def test_said_days_reads_any_count_and_unit(n, unit, lead, tail):
    d = load_durations()
    text = f"It has been {lead} {n} {unit}{tail}.".replace("  ", " ")
    said = d.said_days(text)
    if lead or tail:
        assert said == (float(n * d.units[unit]),)
    else:
        assert said == ()


def test_malformed_durations_name_entry_and_field():
    good = {"hedges": ["provisional"], "markers": ["for"], "units": {"day": 1}, "numbers": {"one": 1}}
    with pytest.raises(KnowledgeError, match="F20.*days"):
        read_durations({**good, "minimum_days": {"F20": {"days": 0, "source": "x"}}})
    with pytest.raises(KnowledgeError, match="F99.*matches no disorder"):
        read_durations({**good, "minimum_days": {"F99": {"days": 3, "source": "x"}}}, ["F20.0"])
    with pytest.raises(KnowledgeError, match="units"):
        read_durations({**good, "units": {"day": -1}, "minimum_days": {}})
