"""Stop 62: a test's score read under its other names, before its name, and credited on the score itself.

heldout61 (development data at stop 62) accepted a full-scale IQ of one value for another and an Addenbrooke's score
said before its name ('scored N of 100 on Addenbrooke's') for a different one: neither test was a scale the matcher
knew, and a score before its scale went unread. It missed a scale's score said under the scale's longer name
('PTSD checklist' for PCL-5): the names share no word, so the share of words carried never credited it. The tests
are contrasts.json's ``scale_scores.tests``; a score before its name needs the scale's range and a word of
``scale_scores.score_first.before_name``. The sentences below are written apart from the pair set.
"""

from __future__ import annotations

import pytest
from conftest import entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("WAIS-IV full scale IQ 96.", "Full scale IQ 84 on the WAIS-IV."),
        ("Full scale IQ 71 on the WISC-V.", "WISC-V testing: FSIQ 79, borderline range."),
        ("ACE-III 82/100 at the memory clinic.", "At the memory clinic she scored 66 of 100 on the ACE-III."),
        ("ACE-III 91/100.", "She scored 69 out of 100 on the Addenbrooke's at the memory clinic."),
        ("MoCA 24/30 at the memory clinic.", "At the memory clinic he managed 18/30 on the MoCA."),
    ],
)
def test_another_score_of_the_test_is_not_entailed(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("PHQ-9 19/27.", "Patient Health Questionnaire total 19 today."),
        ("ACE-III 74/100.", "Addenbrooke's Cognitive Examination scored 74 of 100 last month."),
        ("Y-BOCS 28/40.", "Yale-Brown Obsessive Compulsive Scale score of 28, severe."),
    ],
)
def test_the_same_score_under_another_name_is_entailed(matcher, checkpoint, output):
    assert entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        # the checkpoint says more than the score: the rest must still be carried
        ("PHQ-9 19/27 with daily thoughts of death.", "Patient Health Questionnaire total 19 today."),
        # the same number, another scale
        ("GAD-7 12/21.", "Patient Health Questionnaire total 12."),
        # the same score, said as withdrawn by a negation
        ("Y-BOCS 28/40.", "Not a Yale-Brown score of 28 this time; she would not complete it."),
    ],
)
def test_a_score_alone_is_not_more_than_it_says(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)
