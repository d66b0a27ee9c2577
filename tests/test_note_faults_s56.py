"""Stop 56 (s56-judge, Qual.): a medicine the note records that neither the record nor the patient names
(``medication_invented``), read on the consultants' rated notes (development slices held_out51/52)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from mentalhospital_env.rewards.mentaleval import OfflineJudge
from mentalhospital_env.rewards.mentaleval.note_faults import note_faults
from tests.test_note_faults import _rated


def _kinds(case, chart):
    return {f.kind for f in note_faults(case, chart)}


@pytest.mark.parametrize("note_id, wrong, right", [
    ("note-5124", "lamotrigine 100 mg daily", "lithium 300 mg twice daily"),
])
def test_a_medicine_neither_the_record_nor_the_patient_names_is_faulted_and_loses_qual(note_id, wrong, right):
    """held_out51 note-5124 (rated 2: 'decisive medication error: records lamotrigine 100 mg when she takes lithium 300 mg
    twice daily; otherwise accurate') scored 3.4. The same note recording her lithium has no such fault."""
    case, chart, rating = _rated(note_id)
    assert rating == 2 and wrong in chart.note
    assert "medication_invented" in _kinds(case, chart)
    fixed = dataclasses.replace(chart, note=chart.note.replace(wrong, right))
    assert "medication_invented" not in _kinds(case, fixed)
    judge = OfflineJudge(dimensions=("note_quality",))
    assert judge.score(case, chart)["note_quality"] <= judge.score(case, fixed)["note_quality"] - 1.0


def test_no_medication_section_no_medicine_fault():
    case, chart, _ = _rated("note-5124")
    bare = dataclasses.replace(chart, note=re.sub(r"(?im)^medications:.*$", "", chart.note))
    assert "medication_invented" not in _kinds(case, bare)
