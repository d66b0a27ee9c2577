"""Stop 60 (s60-clin): uw-032, a man of 47 with a gambling disorder ('I now owe more than double with the interest', a
loan shark, his father's mahjong for money and horse races), was never asked whether he gambled: a depression and an
alcohol dependence were treated. Betting words in a reply (a relative's too) open the gambling questions
(complaint_domains 'gambling'); 'I bet you hear that a lot' is no betting."""

from __future__ import annotations

from tests.scripted_encounters import opening_reply, questions


def asked(opening: str) -> list[str]:
    return questions("Outpatient clinic. A 47-year-old man is here to see you, alone.", opening_reply(opening), "Wife")


def test_a_loan_shark_and_the_casino_open_the_gambling_questions():
    put = asked("I've been going to the casino and now a loan shark is after me for the money.")
    assert any("after you've lost money" in q for q in put), put


def test_an_idiom_opens_nothing():
    put = asked("I bet you hear this a lot, but I've been feeling low for months.")
    assert not any("owe money to threatened you" in q for q in put), put


def test_the_gambling_questions_never_push_out_the_smoking_question():
    put = asked("I've been betting on the football every night and I've lost thousands.")
    assert any("Do you smoke or vape?" in q for q in put), put
