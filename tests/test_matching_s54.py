"""Stop 54: the matcher read at heldout53's even half (the odd half held out).

A rating scale scored with another number was accepted on the scale's name alone: four of heldout53's even half's
eight false accepts ('CIWA-Ar 18' against 'CIWA 8', 'Y-BOCS 22/40' against 'Y-BOCS 32/40'). Two statements that
score the same scale (exams.json's scales, by name or alias) with no score in common now differ
(contrasts.json's ``scale_scores``). The sentences below are written apart from the pair set.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import statement_conflict


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("CIWA-Ar 24 on arrival.", "CIWA 14 on arrival."),
        ("YBOCS 28/40.", "Y-BOCS 18/40, moderate."),
        ("PHQ-9 score of 19.", "PHQ-9 9."),
        ("AQ-10 score 8.", "AQ 3/10, below the cut-off."),
        ("PHQ-9 of 14 at baseline, now 9.", "PHQ-9 12. GAD-7 9."),  # a score of another scale is not this one's
    ],
)
def test_a_scale_scored_otherwise_is_not_entailed(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("CIWA-Ar 24 on arrival.", "CIWA score was 24."),
        ("Y-BOCS 28/40.", "YBOCS 28."),
        ("PHQ-9 on 3/10/2026 was high.", "PHQ-9 high on 5/10/2026."),  # a date is no score
        # reviewer, stop 54: only the first number was read ('14'; '17', the form's item count)
        ("PHQ-9 9.", "PHQ-9 of 14 at baseline, now 9."),
        ("HAM-D 17-item score 22 on admission.", "HAM-D 22."),
    ],
)
def test_the_same_score_or_none_is_no_score_clash(checkpoint, output):
    from mentalhospital_env.rewards.adjudication import scale_score_clash

    assert scale_score_clash(checkpoint, output) is None


# A dose with how many times a day it is taken is its total a day: 'X mg twice daily' against '2X mg a day in two
# doses' was refused as another amount (heldout45, 52 and 53 each had such a pair); another total still differs.
@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Takes quetiapine 100 mg twice daily.", "Quetiapine 200 mg a day in two doses."),
        ("Sertraline 200 mg a day, split into two doses.", "Sertraline 100 mg twice daily."),
    ],
)
def test_a_dose_times_a_day_is_its_daily_total(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
    assert entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Takes quetiapine 100 mg twice daily.", "Quetiapine 300 mg a day, split in two."),
        ("Takes quetiapine 100 mg twice daily.", "Quetiapine 100 mg a day."),
    ],
)
def test_another_daily_total_still_differs(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not entailed(matcher, checkpoint, output)


def test_doses_said_one_by_one_are_not_made_a_total(matcher):
    # the record pairs' 'Takes lithium 300 mg twice daily' / '300 mg in the morning and 300 mg at night' stays credited
    assert entailed(matcher, "Takes sertraline 50 mg twice daily.", "Sertraline, 50 mg in the morning and 50 mg at night.")
