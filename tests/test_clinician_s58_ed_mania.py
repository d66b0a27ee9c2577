"""Stop 58 (s58-clin): hw-026, a man of 58 brought to the emergency department at 2 a.m., his lithium stopped two months
before, demanding a two-million-pound loan for his invention, talking so fast his wife could not get a word in,
driving at night without sleep, a YMRS of 34: called a manic episode, he was sent home with the crisis line number and a
home treatment review within 48 hours, because the lexicon caught irritability and pressured speech, not the elevated
mood or grandiosity the admission waited for; and his plan named no antipsychotic (only 'if it helped, restart
lithium'). A manic episode in the department is admitted the same day, and the ward starts an antipsychotic; a
hypomania is not admitted on its code."""

from __future__ import annotations

from tests.scripted_encounters import codes, with_findings, write

_WALK_IN = "Emergency department. A 58-year-old man is here to see you, accompanied by his wife."
_MANIA = {
    "irritability": "I've been irritable.",
    "pressured_speech": "I've been talking so fast she can't get a word in.",
    "decreased_need_for_sleep": "I have driven at night with no sleep, I don't need it.",
    "racing_thoughts": "My thoughts are racing.",
}


def test_a_mania_in_the_emergency_department_is_admitted_and_given_an_antipsychotic():
    doctor = with_findings(_WALK_IN, present=_MANIA)
    diagnosis = write(doctor, "diagnose")
    assert codes(diagnosis)[0].startswith(("F30.1", "F31.1")), diagnosis
    plan = write(doctor, "treat")
    assert plan.startswith("Disposition: admission to the acute ward today"), plan
    assert "start an antipsychotic now" in plan, plan
