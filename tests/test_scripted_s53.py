"""Stop 53 (s53-clin): faults a consultant marked down in the scripted clinician's notes and plans on test-v2 at stop 52
(benchmarks/data/judge_agreement/ratings.jsonl, held_out52, and the blind A/B of /work/notes/s52/sets/ab52*), each fixed
by a mechanism meant to carry to cases not seen."""

from __future__ import annotations

from tests.test_note_s47_mendc import _answer, _doctor, _line  # the note filer's probes, one copy


def test_a_bare_no_said_before_is_still_the_answer_to_a_history_question():
    # test-v2-0396 (stop 52): 'No, no.' to 'Have you had any help for your mental health before?' was written
    # 'Past psychiatric history: Asked, no direct answer.' because an earlier question had also been answered 'No, no.'
    # (0381's 'Not at all.' likewise): a bare no repeats itself, it is no earlier answer said again
    doctor = _doctor()
    _answer(doctor, "auditory_hallucinations", "No, no. I don't hear voices.")
    _answer(doctor, "elevated_mood", "Not at all. I don't have spells where I'm on a high.")
    _answer(doctor, "past_psychiatric_treatment", "No, no.")
    _answer(doctor, "previous_episodes", "Not at all.")
    line = _line(doctor, "Past psychiatric history:")
    assert "no direct answer" not in line, doctor._note()
    assert line, doctor._note()


def test_a_longer_sentence_said_again_is_still_no_answer_to_a_history_question():
    doctor = _doctor()
    _answer(doctor, "excessive_worry", "I worry about everything, my health, the bills.")
    _answer(doctor, "past_psychiatric_treatment", "Like I said, I worry about everything, my health, the bills.")
    assert "no direct answer" in _line(doctor, "Past psychiatric history:"), doctor._note()
