"""Stop 57 (s57-clin): PTSD and panic disorder plans a consultant called thin.

Earlier stops' consultants called the PTSD plans (test-v2-0162, 0176) and the panic disorder plans thin; in stop 57's
reading of 80 cases the PTSD plans (hw-006, hw-039, test-v2-0120) said 'start sertraline', named two therapies and
'sleep hygiene; grounding skills', and the panic plans (hw-004) 'psychoeducation on the panic cycle; reduce caffeine'.
Now a PTSD plan explains the condition and that trauma-focused therapy is the treatment that works (a medicine the
addition, NICE NG116), keeps benzodiazepines out and measures progress; a panic plan offers guided self-help while
therapy is awaited, keeps benzodiazepines out and says how long a medicine that helps is continued (NICE CG113)."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write


def _plan(present: dict[str, str]) -> str:
    doctor = with_findings("Outpatient clinic. A 38-year-old man is here to see you, alone.", present=present)
    return write(doctor, "treat")


def test_a_ptsd_plan_explains_the_condition_and_its_treatment():
    plan = _plan({
        "flashbacks": "Since then I relive the scene in vivid flashbacks.",
        "nightmares": "I have nightmares about the crash most nights.",
        "hypervigilance": "I sit with my back to the wall in restaurants.",
        "exaggerated_startle": "I'm jumpy.",
    })
    assert "trauma-focused psychological therapy as the treatment that works" in plan, plan
    assert "avoid benzodiazepines" in plan, plan
    assert "PCL-5 repeated" in plan, plan


def test_a_panic_plan_offers_self_help_and_keeps_benzodiazepines_out():
    plan = _plan({
        "panic_attacks": "I've had sudden attacks of racing heart and fear of dying.",
        "palpitations": "My heart pounded, I couldn't catch my breath.",
    })
    assert "guided self-help" in plan, plan
    assert "no benzodiazepine as a course of treatment" in plan, plan
    assert "at least 6 months after the attacks settle" in plan, plan
