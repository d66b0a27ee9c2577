"""Stop 60 (s60-clin): uw-033, a woman of 67 seen in clinic and going home, led as a delirium once her cognition was
asked, was given 'Follow-up: daily review until resolved; cognitive follow-up after discharge' (disorders.json's F05,
written for a ward). For a patient not admitted the ward's follow-up is replaced by a review within days with the
physical work-up, and a memory assessment once the delirium has cleared (plan.follow_up_not_admitted)."""

from __future__ import annotations

from tests.scripted_encounters import codes, with_findings, write


def test_a_delirium_seen_in_clinic_is_not_followed_up_as_on_a_ward():
    doctor = with_findings(
        "Outpatient clinic. A 78-year-old woman is here to see you, accompanied by her daughter.",
        present={"disorientation": "She didn't know where she was yesterday.",
                 "fluctuating_attention": "Some hours she's clear, then she's muddled again.",
                 "visual_hallucinations": "She sees children in the garden who aren't there."},
        answers={"hpi:1": "It came on four days ago."},
    )
    assert codes(write(doctor, "diagnose"))[0].startswith("F05")
    plan = write(doctor, "treat")
    assert "daily review until resolved" not in plan and "after discharge" not in plan, plan
    assert "with the physical work-up's results" in plan, plan
