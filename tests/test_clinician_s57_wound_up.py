"""Stop 57 (s57-clin): 'when I get wound up' is anger, not restlessness.

test-v2-0181 (21F, premenstrual dysphoric disorder) said 'Well, I've been in fights when I get wound up'; the lexicon
read 'wound up' as restlessness, and the note's 'She describes ... restlessness' was the one note-precision error of
the 40 test-v2 cases stop 57 read (a finding the record never raises). Getting wound up, or fighting when wound up, is
irritability; 'I'm wound up all the time' stays restlessness."""

from __future__ import annotations

from tests.scripted_encounters import played


def _played(case_id: str, suite: str = "test-v2"):
    return played(case_id, suite)


def test_fights_when_wound_up_are_no_restlessness():
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval.precision import check_note

    chart = _played("test-v2-0181")
    assert "restlessness" not in chart.note, chart.note
    assert not check_note(load_suite("test-v2")["test-v2-0181"], chart).errors


def test_wound_up_all_the_time_is_still_restlessness():
    from mentalhospital_env.knowledge.answers import patient_findings

    assert ("restlessness", False) in patient_findings("I'm wound up all the time.")
    assert ("irritability", False) in patient_findings("Gets into arguments that turn physical when wound up.")
