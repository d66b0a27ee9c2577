"""Stops 42-43 (issue 15): the scripted clinician's note asserts nothing the patient did not say and records what was
answered. Each test plays a whole interview through ``act`` against a small patient that answers by the question's
words (any question it has no rule for gets ``DEFAULT``), then takes the written note; each has a control that shows the
note does write the finding when the patient did say it, so the test can fail both ways.

Stop 42 (landed untested): a loose lay phrase is written in the patient's words, not as its clinical term; the reply to
the mental state's mood question is the mood; a risk item answered is quoted even when a heading above spent the
sentence; a substance follow-up quotes only a reply on its subject; a risk item re-quoted never holds a risk of its own.
Stop 43 (consultants on held_out42, test-v2-0480, 0307, 0270, 0102): a fragment told to another question is no
marital status; this week's admission is no previous admission; an earlier answer said again is not the next
heading's answer; the patient's own question is no history; "I wouldn't act on it" told to any question is the intent.
"""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import ScriptedClinician

MAN = "Outpatient clinic. A 45-year-old man is here to see you, alone."
DEFAULT = "I'm not sure, to be honest."


def _play(walk_in: str, rules: list[tuple[str, str]], budget: int = 40) -> tuple[str, list[tuple[str, str]]]:
    """The note written after an interview in which each question gets the reply of the first rule whose pattern it
    matches (case-insensitive), else ``DEFAULT``; and the (question, reply) pairs."""
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": budget})
    action = doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    heard: list[tuple[str, str]] = []
    while action.startswith("<ask>"):
        question = action[len("<ask>"):-len("</ask>")]
        reply = next((r for p, r in rules if re.search(p, question, re.IGNORECASE)), DEFAULT)
        heard.append((question, reply))
        action = doctor.act({"text": reply}, {"allowed_actions": ["ask", "order_exams"]})
    note = doctor.act({"text": ""}, {"allowed_actions": ["write_note"]})
    assert note.startswith("<write_note>"), note
    return note[len("<write_note>"):-len("</write_note>")], heard


def _line(note: str, heading: str) -> str:
    return next((x for x in note.split("\n") if x.startswith(heading)), "")


def _told(heard: list[tuple[str, str]], text: str) -> bool:
    return any(text in reply for _, reply in heard)


LOW = [
    (r"brought you here", "My mood is rock bottom."),
    (r"first notice", "It started in October."),
    (r"mood been over the past", "My mood is rock bottom."),
    (r"describe your mood right now", "My mood is rock bottom."),
]


# --- stop 43 ---------------------------------------------------------------------------------------------------


def test_a_fragment_told_to_another_question_is_no_marital_status():
    """test-v2-0480: 'All my relationships end badly. Every single one.' (asked about looking after himself) was written
    'Marital status: "Every single one"'. A statement told the same way is still filed."""
    other = r"for enjoyment"
    note, heard = _play(MAN, LOW + [(other, "All my relationships end badly. Every single one.")])
    assert _told(heard, "Every single one")  # the premise: the fragment was said
    assert "Every single one" not in _line(note, "Personal history"), _line(note, "Personal history")
    note, heard = _play(MAN, LOW + [(other, "Not much. I've been married twenty years.")])
    assert _told(heard, "married twenty years")
    assert "married twenty years" in _line(note, "Personal history"), note


def test_this_weeks_admission_is_no_previous_admission():
    """test-v2-0270 (and 0473, 0362 at earlier stops): 'I was admitted this week from the emergency department', told
    when asked about physical health, was written 'Previous psychiatric admission'. An admission of the past still is."""
    ward = "Inpatient ward. A 38-year-old woman is here to see you, alone."
    physical = r"physical health problems"
    note, heard = _play(ward, LOW + [(physical, "No, nothing physical. I was admitted this week from the emergency department.")])
    assert _told(heard, "admitted this week")
    assert "admitted this week" not in _line(note, "Past psychiatric history"), _line(note, "Past psychiatric history")
    note, heard = _play(ward, LOW + [(physical, "No, nothing physical. I was admitted twice before, most recently a year ago.")])
    assert "admitted twice before" in _line(note, "Past psychiatric history"), note


def test_an_earlier_answer_said_again_is_not_the_next_headings_answer():
    """test-v2-0334 ('They struggle to settle in class' told of concentration, then again when asked about help before,
    written as the past psychiatric history), 0102, 0178. An answer told early and said again to its own question is
    that question's answer ('Like I said, I gave up smoking years ago')."""
    rules = LOW + [
        (r"concentration", "My boss has raised concerns about my work."),
        (r"help for your mental health before", "Like I said, my boss has raised concerns about my work."),
    ]
    note, heard = _play(MAN, rules)
    assert sum("raised concerns" in r for _, r in heard) == 2  # the premise: said twice
    assert "raised concerns" not in _line(note, "Past psychiatric history"), _line(note, "Past psychiatric history")
    rules = LOW + [
        (r"enjoyment", "I gave up smoking years ago."),
        (r"smoke or vape", "Like I said, I gave up smoking years ago."),
    ]
    note, heard = _play(MAN, rules)
    assert "gave up smoking years ago" in _line(note, "Substance use"), _line(note, "Substance use")


def test_the_patients_own_question_is_no_history():
    """test-v2-0473, 0201 ('I'm healthy otherwise. Is this going to take long?' under the medical history), 0144 ('Is
    that bad?' under the family history)."""
    note, heard = _play(MAN, LOW + [(r"physical health problems", "I have asthma. Is this going to take long?")])
    assert _told(heard, "Is this going to take long?")
    medical = _line(note, "Medical history")
    assert "asthma" in medical and "take long" not in note, medical


def test_intent_told_in_reply_to_another_question_is_the_intent():
    """test-v2-0307: 'The thought crosses my mind, but I wouldn't act on it' told when asked about sleep; asked about
    intent he said only 'I don't have a plan to end it', and the note wrote 'Intent: asked, no direct answer'."""
    risk = [
        (r"not worth living", "I think I'd be better off dead."),
        (r"plans or preparations", "No. I don't have a plan to end it."),
        (r"might act on them|act on those thoughts", "I don't have a plan to end it."),
    ]
    sleep = (r"how have you been sleeping", "The thought crosses my mind, but I wouldn't act on it.")
    note, heard = _play(MAN, LOW + [sleep] + risk)
    assert _told(heard, "wouldn't act on it")
    risk_line = _line(note, "Risk assessment")
    assert "Intent: \"I wouldn't act on it" in risk_line, risk_line
    note, _ = _play(MAN, LOW + [(sleep[0], "I wake at four most mornings.")] + risk)
    assert "Intent: asked, no direct answer." in _line(note, "Risk assessment"), _line(note, "Risk assessment")


# --- stop 42 (landed without tests) ------------------------------------------------------------------------------


def test_a_loose_lay_phrase_is_written_in_the_patients_words_not_as_excessive_worry():
    """test-v2-0144: 'Stressed, I suppose' was written 'excessive worry' three times. A worry described is."""
    worry = r"on your mind|worrying you"
    note, heard = _play(MAN, LOW + [(worry, "Stressed, I suppose.")])
    assert _told(heard, "Stressed")
    assert "excessive worry" not in note, note
    note, _ = _play(MAN, LOW + [(worry, "I worry about everything, all day long, I can't stop it.")])
    assert "excessive worry" in note, note


def test_the_reply_to_the_mood_question_is_the_mood_given_in_any_word():
    """test-v2-0215: 'Okay, I suppose', said twice, was written 'Mood not described'. A reply that says nothing of a
    mood ("I feel fat") is still no mood."""
    rules = [(r"brought you here", "I keep to myself."), (r"mood been over the past|describe your mood right now", "Okay, I suppose.")]
    note, _ = _play(MAN, rules)
    assert 'Mood described as "Okay, I suppose"' in note, _line(note, "Mental status")
    rules = [(r"brought you here", "I keep to myself."), (r"mood been over the past|describe your mood right now", "I feel fat.")]
    note, _ = _play(MAN, rules)
    assert "Mood not described." in note, _line(note, "Mental status")


def test_a_risk_item_answered_is_quoted_though_a_heading_above_quoted_it():
    """test-v2-0480, 0307, 0300: the tablets named under the medicines answer access to means too; 'I live with my
    mother' answers what keeps him safe. Neither may be written 'asked, no direct answer'."""
    rules = LOW + [
        (r"not worth living", "I think I'd be better off dead."),
        (r"access to anything", "I take sertraline 100 mg."),
        (r"medicines do you take", "I take sertraline 100 mg."),
        (r"keeps you going|stay safe", "I live with my mother."),
    ]
    note, heard = _play(MAN, rules)
    assert _told(heard, "sertraline")
    risk_line = _line(note, "Risk assessment")
    assert 'Access to means: "I take sertraline 100 mg"' in risk_line, risk_line
    assert 'What keeps him safe: "I live with my mother"' in risk_line, risk_line


def test_a_risk_item_requoted_never_holds_a_risk_of_its_own():
    """hw-034: the re-quote wrote 'Plan or preparations: "I had one overdose at 28"'; the overdose is a past attempt."""
    rules = LOW + [
        (r"not worth living", "I think I'd be better off dead."),
        (r"plans or preparations", "I had one overdose at 28."),
        (r"ever tried to end your life", "I had one overdose at 28."),
    ]
    note, heard = _play(MAN, rules)
    assert _told(heard, "overdose at 28")
    risk_line = _line(note, "Risk assessment")
    assert "overdose" not in (re.search(r"Plan or preparations: [^.]*\.", risk_line) or re.match("", "")).group(0), risk_line
    assert "overdose at 28" in risk_line, risk_line


def test_a_substance_follow_up_quotes_no_non_answer():
    """dev-v2-0229, hw-021: 'Amount and pattern of use: "Sorry, what was the other thing you asked?"'. The amount given
    is quoted."""
    base = LOW + [(r"use any drugs", "I smoke weed every day.")]
    note, heard = _play(MAN, base + [(r"how much at a time", "Sorry, what was the other thing you asked?")])
    assert _told(heard, "what was the other thing")
    assert "other thing you asked" not in note, note
    note, _ = _play(MAN, base + [(r"how much at a time", "About three joints a day, for two years now.")])
    assert "three joints a day" in note, note
