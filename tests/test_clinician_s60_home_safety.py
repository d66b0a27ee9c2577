"""Stop 60 (s60-clin): hw-024, a widower of 82 sure that people come into his house through the loft at night, had
taped over his boiler flue to keep them out (his son's account in the record); he was asked what the voices say and
whether anyone was watching him, never what he had done at home, and the gas hazard never reached the plan. A person
who tells of people getting into the home is asked what they have done to keep them out (disclosure_follow_up
'intruders_at_home', its own 'said' words); the plan acts on a hazard told (critical_actions' record signs)."""

from __future__ import annotations

from tests.scripted_encounters import opening_reply, questions, with_findings, write


def test_people_coming_into_the_home_are_followed_by_what_was_done_to_keep_them_out():
    asked = questions("Outpatient clinic. An 82-year-old man is here to see you, alone.",
                      opening_reply("They're coming through the loft at night, and nobody will do a thing about it."), "Son")
    assert any("boiler flue" in q for q in asked), asked


def test_no_home_protection_question_without_intruders():
    asked = questions("Outpatient clinic. A 40-year-old man is here to see you, alone.",
                      opening_reply("I've been feeling low and I can't sleep."), "Son")
    assert not any("boiler flue" in q for q in asked), asked


def test_a_taped_flue_told_puts_the_gas_hazard_in_the_plan():
    doctor = with_findings(
        "Outpatient clinic. An 82-year-old man is here to see you, alone.",
        present={"persecutory_delusions": "They're coming through the loft to get me."},
        answers={"follow:home_protection": "I taped over the boiler flue so they can't get in."},
    )
    doctor.findings.replies.append(("What have you done at home to keep them out?",
                                    "I taped over the boiler flue so they can't get in."))
    plan = write(doctor, "treat")
    assert "gas emergency service" in plan, plan


def test_the_note_files_the_answer_as_steps_taken_against_the_intruders():
    doctor = with_findings(
        "Outpatient clinic. An 82-year-old man is here to see you, alone.",
        present={"persecutory_delusions": "They're coming through the loft to get me."},
    )
    doctor.findings.answers["follow:home_protection"] = "I taped over the boiler flue so they can't get in."
    doctor.findings.replies.append(("What have you done at home to keep them out or to protect yourself?",
                                    "I taped over the boiler flue so they can't get in."))
    note = write(doctor, "write_note")
    assert "Steps taken at home to keep the intruders out" in note, note
    assert "against him" not in note, note
