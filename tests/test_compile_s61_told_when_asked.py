"""What a record marks told only when asked directly is compiled told, and gated, to the end of its line (stop 61,
uw-034, uw-031): the stored tablets in the motorbike box ("He took it only some nights ('it left me groggy in the morning')
and kept the rest, about 150 tablets, ... in the locked top box of his motorbike") were never told, being one
sentence too long to say whose quoted aside took the next verb; and a line that opens on its label and note inside a
longer entry gated only its first sentence, so what followed was told as freely as his sleep.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json
import re

import pytest

from mentalhospital_env.cases import load_case

RECORD = {
    "case_id": "s61-told-when-asked",
    "language": "en",
    "demographics": {"age": 44, "sex": "male", "occupation": "van driver", "marital_status": "separated",
                     "education": "secondary", "living_situation": "lives alone in a flat"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Dean Holt, 44: low mood since his separation.",
        "history_of_present_illness": (
            "Low mood for six months since his wife left, with poor sleep and thoughts that he would be better off dead.\n\n"
            "02/03/2026 Team meeting. His GP gave him zopiclone every month for a year. He still drives his van four days "
            "a week.\n"
            "Tablets kept (told only when asked directly about tablets or a plan): he did not take the zopiclone every night. "
            "He took it only at weekends ('it made me slow at work') and kept the rest, about 200 tablets, with some "
            "codeine his brother left behind, in a shoebox on the top shelf of the wardrobe in his bedroom, 'for a "
            "rainy day'. The box is still there.\n"
            "Firearm (told only when asked directly about guns or weapons in the home): his flatmate Rob owns a handgun "
            "(9 mm pistol), kept loaded in the nightstand on his side of the room, not locked; he knows where the "
            "extra magazine is."
        ),
        "past_psychiatric_history": "None.",
        "medical_history": "Asthma.",
        "medications": "Sertraline 50 mg daily.",
        "allergies": "No known drug allergies.",
        "substance_use": "Alcohol at weekends.",
        "family_history": "None known.",
        "personal_history": "Van driver. No firearms in the home. His uncle Ray keeps hunting rifles at his house by the "
                            "lake, where Dean goes fishing with him (told only when asked directly about guns or weapons).",
        "mental_status_exam": {"mood": "'Flat.'"},
        "risk_assessment": {"suicide": "Moderate. Death wishes; stored tablets suspected."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
    "treatment": {"plan": "Ask about stored tablets.", "medications": [], "psychotherapy": [], "safety": [],
                  "follow_up": "Two weeks."},
    "persona": {"verbosity": "average", "guardedness": 0.5, "insight": "partial",
                "speech_style": "44-year-old van driver, few words."},
}


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s61") / "told_when_asked.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def _fact(case, pattern: str):
    found = [f for f in case.facts if re.search(pattern, f.text)]
    assert found, [f.text for f in case.facts]
    return found


def test_the_stored_tablets_are_told_in_his_own_words(case) -> None:
    kept = [f for f in _fact(case, r"kept the rest, about 200 tablets") if f.told]
    assert kept, [(f.text, f.told) for f in _fact(case, r"about 200 tablets")]
    says = kept[0].patient_says
    assert re.search(r"\bI kept the rest, about 200 tablets\b", says), says
    assert "shoebox" in says and "wardrobe" in says, says
    # the aside is his, with its own subject; it never takes the next verb ("It made me slow at work and kept the rest")
    assert not re.search(r"\bslow at work and kept\b", " ".join(f.patient_says or "" for f in case.facts))


def test_the_whole_line_under_its_label_and_note_is_told_only_when_asked(case) -> None:
    for pattern in (r"did not take the zopiclone every night", r"kept the rest, about 200 tablets",
                    r"The box is still there"):
        assert all(f.sensitive for f in _fact(case, pattern)), pattern
    # the entry's lines before it are not gated by its note
    assert not any(f.sensitive for f in _fact(case, r"drives his van four days a week"))


def test_a_means_of_harm_is_told_when_the_clause_that_filed_it_is_cut(case) -> None:
    # uw-031: "His maternal uncle Carlos keeps hunting rifles at his house by the lake, where Josh goes fishing with
    # him" was filed under daily routine for the fishing; cut to its first clause it was about no topic and never told
    rifles = _fact(case, r"keeps hunting rifles")
    assert all(f.told and f.sensitive for f in rifles), [(f.told, f.patient_says) for f in rifles]
    assert re.match(r"My uncle Ray keeps hunting rifles at his house by the lake\.", rifles[0].patient_says), rifles[0].patient_says


def test_a_gated_label_line_is_still_read_as_its_sentence(case) -> None:
    # the longer limit is the speakable cap only: read as a label's short list, uw-017's and uw-020's handguns went untold
    gun = _fact(case, r"owns a handgun")
    assert any(f.told and "handgun" in (f.patient_says or "") for f in gun), [(f.told, f.patient_says) for f in gun]
