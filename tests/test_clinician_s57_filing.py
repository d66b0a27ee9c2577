"""Stop 57 (s57-clin): an answer to another question is not filed under a follow-up's heading.

Read in the 80 cases of stop 57 (the 40 handwritten records and 40 test-v2 cases, random.Random(5757)): hw-012's
'Staying out or going missing: "My father is a scaffolder and has a new partner"' (the item had no subject cues, so
any reply was its answer); hw-033's 'Action on the belief (risk to others): "I didn't have any wish to die with the
episodes"' (a clause of the suicide questions' subject); test-v2-0210's 'The belief, on further questioning: "It's like
a grey cloud follows me about"' (a mood, on the cue 'follow'); hw-005's 'Going without: "My mood has been low ..."'
after 'until the skin cracks' was read as crack cocaine and stimulants were followed up in a woman who uses none. The
off-topic line is left out; a risk item asked and not answered says so; a bare 'No' still answers."""

from __future__ import annotations


from tests.scripted_encounters import played, with_findings, write


def _played(case_id: str, suite: str = "handwritten"):
    return played(case_id, suite)


def _risk(note: str) -> str:
    return next(line for line in note.splitlines() if line.startswith("Risk assessment:"))


def test_an_answer_about_the_father_is_not_filed_as_going_missing():
    note = _played("hw-012").note
    assert "scaffolder" not in _risk(note), _risk(note)
    assert "Staying out or going missing: asked, no direct answer." in _risk(note), _risk(note)


def test_a_bare_no_still_answers_the_going_missing_question():
    doctor = with_findings("Outpatient clinic. A 14-year-old boy is here to see you, accompanied by his mother.",
                           answers={"follow:missing_screen": "No, not that I know of."})
    risk = _risk(write(doctor, "write_note"))
    assert 'Staying out or going missing: "No, not that I know of".' in risk, risk


def test_a_wish_to_die_is_not_the_action_on_a_belief():
    doctor = with_findings(
        "Inpatient ward. A 34-year-old woman is here to see you, alone.",
        present={"persecutory_delusions": "People are following me."},
        answers={"follow:belief_action": "I didn't have any wish to die with the episodes."},
    )
    risk = _risk(write(doctor, "write_note"))
    assert "wish to die" not in risk, risk
    assert "Action on the belief (risk to others): asked, no direct answer." in risk, risk


def test_a_grey_cloud_that_follows_her_is_no_belief_about_others():
    doctor = with_findings(
        "Inpatient ward. A 37-year-old woman is here to see you, alone.",
        present={"persecutory_delusions": "People are following me."},
        answers={"follow:belief": "It's like a grey cloud follows me about."},
    )
    assert "grey cloud" not in write(doctor, "write_note")


def test_skin_that_cracks_is_no_crack_cocaine():
    chart = _played("hw-005")  # 'I wash my hands up to forty times a day, until the skin cracks'
    asked = " ".join(turn.doctor for turn in chart.turns)
    assert "use stimulants" not in asked and "using cocaine" not in asked, asked
    for label in ("Amount and pattern of use", "Going without", "Harms of the use"):
        assert label not in chart.note, chart.note
