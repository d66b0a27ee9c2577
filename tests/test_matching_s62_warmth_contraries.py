"""Stop 62: opposites said without a negation word, in how a person treats a relative, enjoys a pastime, opens up
in the room, or keeps up at school.

heldout61 (development data at stop 62) credited warmth towards a relative from a reply saying the relative was
treated coldly or cruelly, an enjoyed pastime from a reply saying it bores the speaker, 'more engaged' from 'more
guarded', and attainment above the expected standard from attainment below it: each pair shares its topic words,
and no negation word marks the other side. The sides are contrasts.json ``contraries``. The sentences below are
written apart from the pair set.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import statement_conflict


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Affectionate towards his grandmother.", "Grandmother: he's cruel to me, says hurtful things."),
        ("Good relationship with her brother.", "Her brother and she hate each other; they fight daily."),
        ("Gentle with the family dog.", "Father: he's vicious to the dog when nobody is looking."),
        ("Enjoys chess and cycling.", "Chess and cycling, that stuff just bores me now."),
        ("More forthcoming with the nurse.", "Note: more guarded with the nurse than with the doctor."),
        ("Reading ahead of her peers.", "Teacher: reading is falling behind, well short of her class."),
    ],
)
def test_the_other_side_said_plainly_is_not_entailed(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Affectionate towards his grandmother.", "He's ever so affectionate with his nan, cuddles her every visit."),
        ("Enjoys chess and cycling.", "I love chess, and I'm out cycling every weekend."),
        # both sides in the checkpoint: nothing to set against
        ("Kind to his sister but cruel to the cat.", "He is kind to his sister."),
        # the other side denied is the first side
        ("Gentle with the family dog.", "Father: he's never cruel to the dog, he's gentle with it."),
    ],
)
def test_the_same_side_is_still_entailed(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
