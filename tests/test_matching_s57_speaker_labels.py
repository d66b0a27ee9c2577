"""Stop 57: a relative's words under a speaker label that name the patient only in a later clause.

"His partner: Most nights it's four cans, then he'll have half a bottle of wine on top." (heldout55) was read as
the partner's drinking: a label ("Wife:", "His partner:") was taken for a speaker only when the first clause after it
held a pronoun, and this one opens on the time ("most nights it's ..."). A label is now a speaker's too when a later
clause names the patient as "he" or "she" ("he'll" as "he") and the first clause has a subject of its own (the
parse's), so a family history line, which opens on a bare finding ("Mother: depression for years; she was
admitted"), stays the relative's. The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.knowledge.language import clauses


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks a bottle of vodka most days.", "His wife: most days it's a full bottle of vodka, then he'll start on the beer."),
        ("Forgets what she has just been told.", "Son: it's got worse since Easter, she forgets what I've just told her."),
    ],
)
def test_a_relative_who_names_the_patient_later_speaks_of_the_patient(matcher, checkpoint, output):
    assert clauses(output)[-1].subject == "patient"
    assert entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Depression.", "Mother: depression for years; she was admitted twice."),
        ("Has depression.", "Mother: years of depression, then she was admitted twice."),
    ],
)
def test_a_family_history_line_stays_the_relatives(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)
