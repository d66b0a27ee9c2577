"""Stop 61 (s61-clin): hw-024, a man of 82 sure that people come into his house through the loft, came with his son,
who had found the boiler flue taped over; the son was never asked anything (the walk-in gives him no role). Where a
danger at home is told (people getting into the home), the relative in the room is asked what has been done at home
(disclosure_follow_up 'intruders_at_home', its 'companion' item), whatever role the walk-in gives them."""

from __future__ import annotations

from tests.scripted_encounters import interview, opening_reply, questions

INTRUDERS = "They're coming through the loft at night, and nobody will do a thing about it."
TO_SON = "A question for his son: Has he done anything at home to keep them out"


def test_the_son_in_the_room_is_asked_what_has_been_done_at_home():
    asked = questions("Outpatient clinic. A 82-year-old man is here to see you, accompanied by his son.",
                      opening_reply(INTRUDERS), "Son")
    mine = next(i for i, q in enumerate(asked) if "What have you done at home to keep them out" in q)
    son = [i for i, q in enumerate(asked) if TO_SON in q]
    assert son and son[0] == mine + 1, asked


def test_a_man_seen_alone_is_asked_only_himself():
    asked = questions("Outpatient clinic. A 82-year-old man is here to see you, alone.", opening_reply(INTRUDERS))
    assert not any("A question for" in q for q in asked), asked


def test_no_home_question_to_the_son_without_a_danger_at_home():
    asked = questions("Outpatient clinic. A 82-year-old man is here to see you, accompanied by his son.",
                      opening_reply("I've been feeling low since my wife died."), "Son")
    assert not any(TO_SON in q for q in asked), asked


def test_the_sons_answer_is_filed_in_the_risk_assessment():
    doctor, turns = interview("Outpatient clinic. A 82-year-old man is here to see you, accompanied by his son.",
                              lambda q: INTRUDERS if "brought you" in q else
                              "He taped over the boiler flue last week." if "keep them out" in q and "his son" in q
                              else "No, not really.", "Son")
    from tests.scripted_encounters import write
    note = write(doctor, "write_note")
    assert "What the family has seen done at home" in note and "boiler flue" in note, note
