"""Stop 61 (s61-clin): hw-024, a man of 82 sure that people come into his house through the loft, came with his son,
who had found the boiler flue taped over; the son was never asked anything (the walk-in gives him no role, and only a
companion who 'can give an account' was asked the collateral questions, last, where the screen had taken the turns).
A relative in the room is asked when the change began and how he is managing at home, what has been done or changed
in the house (informant_questions.adult 'collateral', 'collateral_roles'); one the walk-in gives no role is asked after
the risk questions, before the screen ('collateral_before')."""

from __future__ import annotations

from tests.scripted_encounters import opening_reply, questions

HOME = "has anything in the house been done or changed"


def test_a_son_in_the_room_is_asked_about_home_before_the_screen():
    asked = questions("Outpatient clinic. A 82-year-old man is here to see you, accompanied by his son.",
                      opening_reply("They're coming through the loft at night, and nobody will do a thing about it."),
                      "Son")
    home = [i for i, q in enumerate(asked) if HOME in q and q.startswith("A question for his son")]
    panic = next(i for i, q in enumerate(asked) if "sudden spells of intense fear" in q)
    assert home and home[0] < panic, asked


def test_a_patient_seen_alone_is_asked_no_collateral_question():
    asked = questions("Outpatient clinic. A 82-year-old man is here to see you, alone.",
                      opening_reply("They're coming through the loft at night, and nobody will do a thing about it."))
    assert not any("A question for" in q for q in asked), asked


def test_a_wife_who_joins_later_is_asked_nothing_before_his_history():
    asked = questions("Outpatient clinic. A 54-year-old man is here to see you, accompanied by his wife. His wife will "
                      "join for the later part of the interview and can give an account of what has been happening.",
                      opening_reply("I've been feeling low for months."), "Wife")
    to_wife = [i for i, q in enumerate(asked) if q.startswith("A question for his wife")]
    allergies = next(i for i, q in enumerate(asked) if "allergic" in q)
    assert all(i > allergies for i in to_wife), asked
