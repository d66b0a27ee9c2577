"""Who speaks a reply (issue 18): the relative or carer present answers in their own voice, and the matcher reads
that reply in the patient's frame (knowledge/voice.py, Persons.read(text, "informant", relation)): the informant's
"I" is the informant, the patient's "he"/"she" is the patient, the informant's relatives are the patient's."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.coverage import (
    InterviewCoverage,
    chart_interview_coverage,
    interview_coverage,
)
from mentalhospital_env.rewards.matching import Matcher

from mentalhospital_env.cases import load_suite
from mentalhospital_env.knowledge.persons import Persons


def credited(matcher: Matcher, checkpoint: str, reply: str) -> bool:
    return matcher.match([checkpoint], [reply])[0] is not None


@pytest.mark.parametrize(
    "checkpoint, reply, relation, sex",
    [
        ("Has lied to his wife about the money and hidden the post.",
         "He's been lying to me about where the money went and hiding the letters.", "wife", "male"),
        ("Maternal grandfather died by suicide.", "My dad took his own life.", "mother", "female"),
        ("Mother had no idea she was this unhappy.", "I had no idea it was this bad.", "mother", "female"),
        ("Threw a plate when his wife hid the car keys.",
         "Last night I hid the keys and he flung a plate across the kitchen.", "wife", "male"),
    ],
)
def test_an_informants_report_is_credited_only_when_read_as_the_informants(matcher, checkpoint, reply, relation, sex):
    persons = Persons(sex=sex)
    assert credited(matcher, checkpoint, persons.read(reply, "informant", relation))
    assert not credited(matcher, checkpoint, persons.read(reply))  # read as the patient's: the subject differs


@pytest.mark.parametrize(
    "checkpoint, reply, relation, sex",
    [
        # the mother's own illness is not the patient's
        ("Panic attacks in her twenties.", "I had panic attacks in my twenties.", "mother", "female"),
        # the mother's father is the maternal grandfather, not the patient's father
        ("Father died by suicide.", "My dad took his own life.", "mother", "female"),
        # the wife's own worry is not the patient's
        ("Worries about money all the time.", "I worry about money all the time, he doesn't.", "wife", "male"),
    ],
)
def test_an_informants_own_history_is_not_the_patients(matcher, checkpoint, reply, relation, sex):
    assert not credited(matcher, checkpoint, Persons(sex=sex).read(reply, "informant", relation))


def test_the_frame_puts_each_person_in_the_patients_place():
    read = Persons(sex="male").read("His dad was violent to me till he was six.", "informant", "mother")
    assert read == "My dad was violent to my mother till I was six."
    # a son said by the mother of a boy is the patient; her husband his father; her sister his maternal aunt's side
    assert Persons(sex="male").read("My son won't eat.", "informant", "mother") == "I won't eat."
    assert Persons(sex="male").read("My husband drinks.", "informant", "mother") == "My father drinks."
    assert Persons(sex="female").read("My sister is autistic.", "informant", "mother") == "My mother's sister is autistic."
    # a daughter's "Mum" is the patient's wife when the patient is a man, the patient herself when a woman
    assert Persons(sex="male").read("After Mum died he stopped going out.", "informant", "daughter").startswith(
        "After my wife died I stopped"
    )
    assert Persons(sex="female").read("Mum forgets things.", "informant", "daughter").startswith("I forget")
    # a patient's reply is read as before
    assert Persons(sex="male").read("He's been lying to me.") == "He's been lying to me."


def _case_with_informant_and_checkpoint(words: str):
    for case in load_suite("handwritten").cases:
        if not case.effective_persona.informant:
            continue
        for cp in case.checkpoints.interview:
            if words in cp.text:
                return case, cp
    pytest.skip(f"no hand-written case with an informant and a checkpoint holding {words!r}")


def test_coverage_credits_the_informants_report_by_the_speaker_it_is_given():
    # a record whose informant is the patient's mother, with a checkpoint on the mother's own history
    case, cp = _case_with_informant_and_checkpoint("anxiety in her twenties")
    reply = "I had anxiety in my twenties."
    as_informant = InterviewCoverage(case)
    assert cp.id in as_informant.update(reply, "informant")
    as_patient = InterviewCoverage(case)
    assert cp.id not in as_patient.update(reply)
    # batch and chart coverage agree with the incremental one
    assert cp.id in interview_coverage(case, [reply], speakers=["informant"]).matched
    assert cp.id not in interview_coverage(case, [reply]).matched
    chart = Chart(turns=(Turn("Any anxiety in the family?", reply, (), "informant"),))
    assert cp.id in chart_interview_coverage(case, chart).matched
    many = InterviewCoverage(case)
    assert cp.id in {c for new in many.update_many(["Fine.", reply], ["patient", "informant"]) for c in new}


def test_a_speaker_must_be_the_patient_or_the_informant():
    case, _ = _case_with_informant_and_checkpoint("anxiety in her twenties")
    with pytest.raises(ValueError):
        InterviewCoverage(case).update("Yes.", "doctor")
    with pytest.raises(ValueError):
        InterviewCoverage(case).update_many(["Yes.", "No."], ["patient"])


def test_a_turn_keeps_its_speaker_and_a_patients_turn_is_written_as_before():
    turn = Turn("Q?", "He's fine.", ("f1",), "informant")
    assert Turn.from_dict(turn.to_dict()) == turn
    assert "speaker" not in Turn("Q?", "I'm fine.").to_dict()
    assert Turn.from_dict({"doctor": "Q?", "patient": "I'm fine."}).speaker == "patient"
    assert Chart(turns=(turn, Turn("Q?", "Yes."))).speakers == ("informant", "patient")


def test_the_environment_records_who_answered_and_keeps_its_info_keys():
    import gymnasium

    import mentalhospital_env  # noqa: F401  (registers the ids)

    case, _ = _case_with_informant_and_checkpoint("anxiety in her twenties")
    env = gymnasium.make("MentalHospital-v0", suite="handwritten", turn_budget=10)
    try:
        _obs, info = env.reset(seed=0, options={"case_id": case.case_id})
        keys = set(info)
        for question in ("What brings you here today?", "Has anyone in the family had anxiety or depression?",
                         "Did she walk and talk at the usual age?"):
            _obs, _r, _term, _trunc, info = env.step(f"<ask>{question}</ask>")
            assert set(info) == keys
        turns = env.unwrapped.episode_record().chart.turns
        assert {t.speaker for t in turns} <= {"patient", "informant"}
        assert "informant" in {t.speaker for t in turns}  # the third-person questions go to the mother
    finally:
        env.close()


def test_the_leaderboard_reads_an_informants_reply_as_the_shaper_does():
    # review1 s42: Scorer called interview_coverage without the chart's speakers, so the reported score and
    # the training reward read an informant's reply differently
    from mentalhospital_env.rewards.scoring import score_chart

    case, cp = _case_with_informant_and_checkpoint("anxiety in her twenties")
    chart = Chart(turns=(Turn("Any anxiety in the family?", "I had anxiety in my twenties.", (), "informant"),))
    assert score_chart(case, chart).inter == chart_interview_coverage(case, chart).score > 0
    assert cp.id in chart_interview_coverage(case, chart).matched
