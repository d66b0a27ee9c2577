"""Readings the stop-53 matcher got wrong (heldout52's even half, grouped): a drug's dosing in the chart's Latin
shorthand ("bd", "QID", "od") was no number of times a day, so "50 mg bd" covered "50 mg once daily" and "10 mg QID"
"10 mg three times a day"; a score out of a scale's total ("24/30") was no amount, so one score covered another; and
the negation of a patient speaking Scots ("nae") or Afrikaans ("nie ... nie") was not heard; the lay phrase "no periods"
(amenorrhoea) swallowed the "no" of "No periods of elevated mood", a record's common pertinent negative, so the mood
was read affirmed and an output with episodes of it was accepted; and a test's result (positive against "NEG") and a
device out of action against one "tested and working" were no contrary meanings. Each is checked through
the matcher, with the pair that must still be accepted beside it. The sentences are written here, not copied from a
pair set."""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import _quantities
from mentalhospital_env.rewards.matching import Matcher


def test_dosing_shorthand_is_read_as_times_a_day():
    assert (2.0, "time/day") in _quantities("Quetiapine 25 mg bd.")
    assert (4.0, "time/day") in _quantities("Diazepam 2 mg QDS.")
    assert (1.0, "time/day") in _quantities("Mirtazapine 15 mg once daily.")
    # an overdose is no dose: 'OD' before 'of' is left as it is, so the tablets are read and no times a day
    assert _quantities("He took an OD of 20 tablets.") == frozenset({(20.0, "medication")})


def test_no_periods_is_amenorrhoea_but_no_periods_of_a_mood_is_not():
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    def found(text: str) -> set[tuple[str, bool]]:
        return {(m.concept_id, m.negated) for m in load_lexicon().find(text)}

    assert ("amenorrhoea", False) in found("She has had no periods.")
    assert ("amenorrhoea", False) in found("No periods since March.")
    assert "amenorrhoea" not in {c for c, _ in found("No periods of elevated mood or irritability.")}
    assert "amenorrhoea" not in {c for c, _ in found("No period of low mood lasting two weeks.")}


def test_score_out_of_a_total_is_an_amount():
    assert (24.0, "out") in _quantities("MMSE 24/30.") & _quantities("MMSE 24 out of 30 points.")
    assert _quantities("BP 120/80.") == frozenset()  # a ratio, no score


def test_a_numeric_date_is_no_score():
    # written out as the record compiler writes it (a day of a month), never '3 out of 10 points'
    assert _quantities("Seen 3/10/2026.") == frozenset({(3.0, "october")})
    assert _quantities("Last drink 21/10/25.") == frozenset({(21.0, "october")})
    # month first: no day-first row writes it out, and a pair followed by '/24' is no score out of 30
    assert not {u for _, u in _quantities("Discharged 12/30/24.")} & {"out", "point"}
    assert _quantities("MoCA 21/30.") == frozenset({(21.0, "out"), (30.0, "point")})  # a score stays one


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Takes quetiapine 25 mg once daily.", "Quetiapine 25 mg bd.", False),
        ("Takes quetiapine 25 mg twice daily.", "Quetiapine 25 mg bd.", True),
        ("Diazepam 2 mg three times a day.", "Diazepam 2 mg QDS.", False),
        ("Diazepam 2 mg four times a day.", "Diazepam 2 mg QDS.", True),
        ("Mirtazapine 15 mg once daily.", "Mirtazapine 15 mg od.", True),
        ("Zopiclone 7.5 mg at night.", "Zopiclone 7.5 mg nocte.", True),
        ("MMSE 24/30.", "MMSE 14/30.", False),
        ("MMSE 24/30.", "MMSE 24 out of 30.", True),
        ("Uses tik most days.", "Ek rook nie tik nie.", False),
        ("Uses tik most days.", "I smoke tik most days.", True),
        ("Has a plan to end his life.", "Nae plan, nothin' like that.", False),
        ("No periods of low mood or tearfulness.", "Long periods of low mood and tearfulness.", False),
        ("No periods of low mood or tearfulness.", "Never had spells of low mood or tearfulness.", True),
        ("Her periods have stopped since March.", "No periods since March.", True),
        # the plain lay phrase is still amenorrhoea; only 'no period(s) of ...' (a span of a mood) is not
        ("Amenorrhoea.", "She has had no periods.", True),
        ("Reports amenorrhoea.", "She says she has no periods.", True),
        ("No periods of elevated mood.", "Discrete episodes of elevated mood.", False),
        ("Urine drug screen positive for cannabis.", "UDS: cannabis NEG.", False),
        ("Urine drug screen positive for cannabis.", "UDS: cannabis POS.", True),
        ("The smoke alarm was unplugged.", "Smoke alarm tested and working.", False),
        ("The smoke alarm was unplugged.", "The smoke alarm had been unplugged.", True),
        ("PHQ-9 8/27, mild.", "PHQ-9 8 (mild).", True),
        # a date's day read as a score out of 10 supplied the checkpoint's score
        ("Anxiety 3/10.", "Anxiety 7/10; first seen 3/10/2026.", False),
        ("Anxiety 7/10.", "Anxiety 7/10; first seen 1/10/2026.", True),
        ("Relapsed on 4/10/2026.", "Relapsed on 5/10/2026.", False),
    ],
)
def test_stop52_readings(matcher: Matcher, checkpoint: str, output: str, entails: bool):
    assert entailed(matcher, checkpoint, output) is entails
