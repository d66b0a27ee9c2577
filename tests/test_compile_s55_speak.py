"""Stop 55, the speech room on an English GP record (uw-028, coded reply by reply by a psychiatrist): the record's own
machinery told as the patient's experience - a consultation's heading line with its date ('I had 24 July 2024 Dr S
Patel - Telephone.'), a coded entry or the clinician's comment ('Stress related problem.', 'Work stress, insomnia.'),
the record-keeping of the practice ('I coded 10 units a week in February 2023. And I copied forward in nurse templates
...'). Records written here for the test, in the register of a UK GP print (no bundled record's words)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


_GP = """BRIDGEFIELD SURGERY (EMIS) - record print for the memory clinic.

03/03/2024 09:40 Dr K Osei (GP) - Face to face
History: can't settle since the move, lying awake till 3. Feels 'on edge all the time'.
Examination: anxious, good eye contact.
Comment: adjustment reaction; poor sleep.
Plan: sleep hygiene. Review 2/52.
Coded: Anxiety state. Alcohol units per week: 6.

17/03/2024 Dr K Osei - Telephone
Sleeping 'a bit better', about 5 hours.

02/05/2024 M Price (Practice Nurse) - Face to face - Diabetes annual review (LTC)
Feet checked. Walks the dog every morning.

20/06/2024 Scanned letter - Cardiology (City Hospital): palpitations, normal echo.
"""


def test_a_consultations_heading_line_is_never_said() -> None:
    # uw-028: '24/07/2024 Dr S Patel - Telephone' was said 'I had 24 July 2024 Dr S Patel - Telephone.' (16 heading
    # lines of one GP print, each a date read out as what he had)
    said = told_sentences(compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness=_GP), "female"))
    for heading in ("Osei", "Telephone", "Face to face", "Price", "Scanned letter"):
        assert heading not in said, said
    assert "walk the dog" in said.lower() and "lying awake" in said.lower(), said  # the entries' own lines stay told


def test_a_coded_entry_and_the_clinicians_comment_are_not_said() -> None:
    # uw-028: 'Comment: work stress, insomnia.' was said 'Work stress, insomnia.', 'Coded: Stress related problem.'
    # 'Stress related problem.', 'Comment: ?OCD - harm-related intrusive thoughts ...' 'Possible OCD, ...'
    said = told_sentences(compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness=_GP), "female"))
    assert "adjustment reaction" not in said.lower() and "anxiety state" not in said.lower(), said
    assert "units per week" not in said.lower(), said


@pytest.mark.parametrize("text", [
    "Alcohol: coded 12 u/wk in 03/2022 and copied forward in nurse templates to 08/2026. He told the GP 'a glass "
    "with tea'. Ex-smoker.",
    "Coded 30 u/wk 04/2026; she now says '10-15'. Ex-smoker.",
])
def test_the_practices_record_keeping_is_not_the_patients_act(text: str) -> None:
    # uw-028's substance use: 'coded 10 u/wk in 02/2023 and copied forward in nurse templates to 09/2026' was said
    # 'I coded 10 units a week in February 2023. And I copied forward in nurse templates to September 2026.'
    ehr = EHR(chief_complaint="Low mood.", history_of_present_illness="Low for months.", substance_use=text)
    said = told_sentences(compile_facts(ehr, "female")).lower()
    assert "i coded" not in said and "copied forward" not in said, said


def test_safety_netting_is_the_clinicians() -> None:
    # uw-028: 'Psychiatry appt 06/12 confirmed. Safety netted.' was said 'Safety netted.'
    line = "17/11/2026 Dr K Osei - Telephone\nLow since January, sleeping 5 hours. Safety netted."
    said = told_sentences(compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=line), "female"))
    assert "safety" not in said.lower(), said
    assert "low since january" in said.lower(), said  # the patient's own line of the entry stays told

def test_a_record_kept_by_others_that_the_patient_was_told_stays_told() -> None:  # a guard: passes before and after
    # uw-010's allergy 'documented by the surgical team as "do not give"' is said 'I've been told never to have
    # haloperidol again.': a passive with its agent is another's act he knows of, never the writer's bookkeeping
    ehr = EHR(chief_complaint="Confusion.", history_of_present_illness="Muddled since the operation.",
              allergies='Haloperidol: severe reaction in June 2024 with rigidity and fever; documented by the surgical '
                        'team as "do not give".')
    said = told_sentences(compile_facts(ehr, "male")).lower()
    assert "never to have haloperidol" in said, said
