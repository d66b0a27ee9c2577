"""Stop 57: "me" said for "my" before a relative or a part of the body.

"Me dad's got the sugar, takes tablets for it." (heldout55) was refused against the father's diabetes and read as
the patient's own: "me" is a patient-subject cue, so "me dad" made the patient the one with diabetes. Northern
English, Irish and Scots speakers say "me" for "my"; right before a relative or a part of the body (language.json's
``possessive_me``) it is now read as "my". The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.knowledge.language import tokenize


def test_me_before_a_relative_reads_as_my():
    assert tokenize("Me dad's got bad lungs.")[0] == "my"
    assert tokenize("They gave me tablets.")[2] == "me"  # an object stays an object


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Father has high blood pressure.", "Me dad's got high blood pressure, he's on tablets for it."),
        ("Mother drank heavily.", "Me mam drank heavily all through my childhood."),
    ],
)
def test_the_relatives_finding_is_the_relatives(matcher, checkpoint, output):
    assert entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Has high blood pressure.", "Me dad's got high blood pressure, he's on tablets for it."),
        ("Drank heavily.", "Me mam drank heavily all through my childhood."),
    ],
)
def test_the_relatives_finding_is_not_the_patients(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)
