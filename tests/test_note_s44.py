"""Stop 44 (issue 15): the scripted clinician's note carries what the encounter was about. Consultants rated stop 43's
notes 3 where the sleep complaint (the referral reason) was absent because the reader read no finding in the sleep
answer (test-v2-0150), and where the mental state was empty beside a positive CAM and an MMSE of 14 (test-v2-0127).
Each test plays a whole interview through ``act`` against a small patient that answers by the question's words, then
takes the written note; each has a control, so the test can fail both ways.
"""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import ScriptedClinician

WOMAN = "Outpatient clinic. A 56-year-old woman is here to see you, alone."
OLD_MAN = "Emergency department. A 79-year-old man is here to see you, accompanied by a care home nurse."
DEFAULT = "I'm not sure, to be honest."

WORRY = [
    (r"brought you here", "I get a churning stomach and my heart pounds."),
    (r"first notice", "It started in February."),
    (r"worr", "I'm a worrier, I go over things over and over in my head."),
    (r"mood been over the past|describe your mood right now", "I feel anxious."),
    (r"thoughts that life is not worth|better off dead|ending your life", "No. I've never had thoughts of ending my life."),
    (r"voices", "I don't hear voices."),
]


def _play(walk_in: str, rules: list[tuple[str, str]], results: str = "") -> str:
    """The note written after an interview in which each question gets the reply of the first rule whose pattern it
    matches, else ``DEFAULT``; ``results`` is the exam-results observation handed back after the exams are ordered."""
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": 40})
    action = doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    while action.startswith("<ask>"):
        question = action[len("<ask>"):-len("</ask>")]
        reply = next((r for p, r in rules if re.search(p, question, re.IGNORECASE)), DEFAULT)
        action = doctor.act({"text": reply}, {"allowed_actions": ["ask", "order_exams"]})
    note = doctor.act({"text": results}, {"allowed_actions": ["write_note"]})
    assert note.startswith("<write_note>"), note
    return note[len("<write_note>"):-len("</write_note>")]


def _line(note: str, heading: str) -> str:
    return next((x for x in note.split("\n") if x.startswith(heading)), "")


def test_a_symptom_answer_no_finding_was_read_in_is_still_quoted():
    """test-v2-0150: the sleep answer the reader reads no finding in was left out of the note, and with it the
    referral's complaint. It is quoted as the sleep question's answer; a reply that drifts off the question is not."""
    sleep = "I'm dozy on the sofa, then the minute I get into bed my brain switches on."
    note = _play(WOMAN, WORRY + [(r"sleeping", sleep)])
    assert 'asked about sleep, "i\'m dozy on the sofa' in _line(note, "History of present illness").lower(), note
    note = _play(WOMAN, WORRY + [(r"sleeping", "I've been a mechanic for six years.")])
    assert "mechanic" not in _line(note, "History of present illness"), note


def test_the_mental_state_carries_the_cognitive_tests_on_file():
    """test-v2-0127 (delirium): the mental state said nothing of cognition beside a positive CAM and an MMSE of 14.
    The tests on file are the cognition's; a result of another kind is not."""
    rules = WORRY[:2]
    results = "Exam results:\nMMSE: total 14/30 (moderate impairment)\nTSH: 1.4 mIU/L (within reference range 0.4-4)"
    mse = _line(_play(OLD_MAN, rules, results), "Mental status examination")
    assert "Cognition:" in mse and "14/30" in mse, mse
    assert "TSH" not in mse, mse
    mse = _line(_play(OLD_MAN, rules, "Exam results:\nTSH: 1.4 mIU/L (within reference range 0.4-4)"), "Mental status examination")
    assert "14/30" not in mse and "TSH" not in mse, mse


def test_a_mood_given_in_one_word_the_cues_lack_is_the_mood():
    """test-v2-0084 'Embarrassed.', dev-v2-0141 'I'd say trapped': 'Mood not described' though the mood was given. A
    non-answer is written as asked and not described, not as a mood."""
    rules = [r for r in WORRY if "mood" not in r[0]]
    mse = _line(_play(WOMAN, [(r"describe your mood right now|mood been over the past", "Embarrassed.")] + rules), "Mental status examination")
    assert 'Mood described as "Embarrassed"' in mse, mse
    mse = _line(_play(WOMAN, [(r"describe your mood right now|mood been over the past", "I'm not sure.")] + rules), "Mental status examination")
    assert "Mood described" not in mse and "could not describe it" in mse, mse


def test_thought_content_records_the_denials_asked():
    """The thought content was left out when nothing was affirmed, though suicidal thoughts were asked and denied;
    a thought affirmed is not written as denied."""
    mse = _line(_play(WOMAN, WORRY), "Mental status examination")
    assert re.search(r"Thought content: [^.]*denies suicidal ideation", mse), mse
    yes = [(r"thoughts that life is not worth|better off dead|ending your life", "Yes, I think about ending my life most days.")]
    mse = _line(_play(WOMAN, yes + WORRY), "Mental status examination")
    assert "denies suicidal ideation" not in mse, mse
