"""Stop 61 (s61-clin): uw-033, a woman of 67 seen in clinic with her daughter after a year's slow decline with
fluctuation (a mild neurocognitive disorder with Lewy bodies), once led as a delirium, and the plan wrote the ward's
'supervise closely for falls, wandering and pulling out lines' for a woman going home. A delirium leads only on an
acute onset heard (or a cause on file): with the illness's length unknown or longer than a delirium lasts, a
neurocognitive disorder leads (onset_to_lead). A clinic's plan says a ward's safety items in its own words
(settings.outpatient.safety_instead)."""

from __future__ import annotations

from tests.scripted_encounters import codes, with_findings, write

WALK_IN = "Outpatient clinic. A 67-year-old woman is here to see you, accompanied by her daughter."
CONFUSED = {
    "disorientation": "She gets muddled about where she is.",
    "fluctuating_attention": "Some days she's sharp, other days she drifts off.",
    "memory_loss": "She forgets things she's just been told.",
    "visual_hallucinations": "She sees children in the den.",
}


def _diagnosis(onset: str) -> list[str]:
    return codes(write(with_findings(WALK_IN, present=dict(CONFUSED), answers={"hpi:1": onset}), "diagnose"))


def test_an_onset_never_heard_leads_as_a_neurocognitive_disorder_with_delirium_on_the_differential():
    dx = _diagnosis("It's hard to say.")
    assert dx[0] != "F05" and "F05" in dx, dx


def test_a_year_of_slow_decline_is_no_delirium_first():
    dx = _diagnosis("About a year ago, slowly.")
    assert dx and dx[0] != "F05", dx


def test_an_acute_onset_over_days_still_leads_as_a_delirium():
    assert _diagnosis("It came on over the last three days.")[0] == "F05"


def test_a_clinic_delirium_plan_has_no_ward_wording():
    doctor = with_findings(WALK_IN, present=dict(CONFUSED), answers={"hpi:1": "It came on over the last three days."})
    plan = write(doctor, "treat")
    assert "pulling out lines" not in plan and "restraint" not in plan, plan
    assert "checking on her daily while confused" in plan, plan
