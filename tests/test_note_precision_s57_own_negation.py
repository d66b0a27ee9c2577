"""Stop 57 (s57-judge): a negation word that is a finding's own ('no energy') makes that finding and denies nothing
after it.

'Since March: no energy, low all the time, worse in the mornings, lies awake going over things, stopped seeing
friends;' (held_out53 note-5323, rated 4) was read as denying the sleeplessness and the withdrawal the patient
reported: the 'no' of the fatigue phrase, after a short label and its colon, opened a list of denials. 'Not sleeping
for ~10 days, worried about being watched' likewise denied the persecutory worry. A denial that heads its list
('Denies: low mood, poor sleep'; 'No low mood, poor sleep or panic') still denies every item.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.rewards.mentaleval.precision import note_claims


@pytest.mark.parametrize(("note", "affirmed"), [
    ("Since March: no energy, low all the time, worse in the mornings, lies awake going over things, stopped seeing "
     "friends;", {"fatigue", "insomnia", "social_withdrawal"}),
    ("Mood: no energy, no interest, poor sleep.", {"fatigue", "anhedonia", "insomnia"}),
])
def test_a_finding_said_with_its_own_no_denies_nothing_after_it(note, affirmed):
    claims = dict(note_claims(note))
    assert all(claims.get(c) is True for c in affirmed)


@pytest.mark.parametrize("note", ["Denies: low mood, poor sleep, panic.", "No low mood, poor sleep or panic."])
def test_a_denial_heading_its_list_still_denies_each_item(note):
    claims = dict(note_claims(note))
    assert claims.get("low_mood") is False and claims.get("insomnia") is False
