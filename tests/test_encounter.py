"""The encounter state machine and its episode record, with small test doubles for the patient and shaper."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import load_case
from mentalhospital_env.hospital.actions import Ask, Vocabulary, category_aliases
from mentalhospital_env.hospital.encounter import (
    UNREMARKABLE,
    Encounter,
    EncounterSettings,
    walk_in_text,
)
from mentalhospital_env.hospital.record import EpisodeRecord
from mentalhospital_env.hospital.roles import PatientLike, ShaperLike
from mentalhospital_env.hospital.stages import END
from mentalhospital_env.knowledge.codes import load_categories

CASE = {
    "case_id": "enc-001",
    "language": "en",
    "demographics": {"age": 34, "sex": "female", "occupation": "accountant"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Low mood and poor sleep for three months.",
        "history_of_present_illness": "She feels empty most days and wakes at 4 am.",
        "mental_status_exam": {"mood": "'Empty'"},
    },
    "exams": [
        {"name": "PHQ-9", "kind": "scale", "result": "19/27"},
        {"name": "TSH", "kind": "lab", "result": "2.1 mIU/L (normal)", "indicated": False},
    ],
    "diagnosis": {
        "categories": ["depressive"],
        "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}],
    },
    "treatment": {"plan": "Sertraline 50 mg daily; CBT; review in two weeks."},
    "persona": {"informant": "Her mother, who worries about her weight loss"},
    "facts": [
        {
            "id": "f1",
            "section": "chief_complaint",
            "text": "Low mood for three months",
            "patient_says": "I've felt empty for months",
        },
        {
            "id": "f2",
            "section": "history_of_present_illness",
            "text": "Early morning waking",
            "patient_says": "I wake at four and can't sleep",
        },
        {"id": "f3", "section": "mental_status_exam.mood", "text": "Mood empty"},
    ],
}

EXAMS = {"phq9": "PHQ-9", "phq-9": "PHQ-9", "tsh": "TSH", "ecg": "ECG", "ekg": "ECG"}
VOCAB = Vocabulary(lambda n: EXAMS.get(n.lower()), lambda n: None, category_aliases(load_categories()))


class KeywordPatient:
    """A test double: discloses the facts whose lay wording shares a word with the question."""

    def __init__(self, case):
        self.case = case
        self.asked: list[str] = []
        self.seed = None

    def reset(self, seed=None):
        self.asked, self.seed = [], seed

    def respond(self, utterance):
        self.asked.append(utterance)
        words = set(utterance.lower().split())
        facts = [f for f in self.case.facts if f.patient_says and words & set(f.patient_says.lower().split())]
        return Reply(" ".join(f.patient_says for f in facts) or "I'm not sure.", tuple(f.id for f in facts))


@dataclass(frozen=True)
class Reply:
    text: str
    fact_ids: tuple[str, ...]


@dataclass(frozen=True)
class Pay:
    reward: float
    components: dict


class TallyShaper:
    """A test double: weighted rewards with raw components, a penalty per invalid action, a final payment."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.ends, self.invalid, self.exam_calls = [], [], []

    def on_ask(self, utterance, reply, fact_ids=()):
        return Pay(float(len(fact_ids)), {"disclosed": float(len(fact_ids))})

    def on_exams(self, names, results=()):
        self.exam_calls.append((tuple(names), tuple(results)))
        return Pay(0.5, {"exams": float(len(names))})

    def on_note(self, note):
        return Pay(1.0, {"note": 1.0})

    def on_diagnosis(self, categories, disorders):
        return Pay(2.0 if "F32.1" in disorders else 0.0, {"ndcg": 1.0 if "F32.1" in disorders else 0.0})

    def on_treatment(self, plan):
        return Pay(1.0, {"treatment": 1.0})

    def on_invalid(self, reason=""):
        self.invalid.append(reason)
        return Pay(-0.25, {"invalid_action": -1.0})

    def finish(self, chart=None):
        self.ends.append(chart.treatment is not None)
        return Pay(3.0 if chart.treatment else -1.0, {"end": 1.0 if chart.treatment else -1.0, "judge": None})


def make(budget=10):
    case = load_case(CASE)
    patient = KeywordPatient(case)
    shaper = TallyShaper()
    enc = Encounter(case, patient, shaper, EncounterSettings(budget), VOCAB, {"patient": "keyword"})
    return enc, patient, shaper


def test_doubles_satisfy_the_protocols():
    _enc, patient, shaper = make()
    assert isinstance(patient, PatientLike) and isinstance(shaper, ShaperLike)


def test_walk_in_shows_only_what_a_clinician_sees():
    case = load_case(CASE)
    text = walk_in_text(case)
    assert text == "Outpatient clinic. A 34-year-old woman is here to see you, accompanied by her mother."
    enc, _, _ = make()
    first = enc.reset(seed=3)
    assert first.text.startswith(text) and "10 turns" in first.text
    for secret in (
        "F32.1",
        "depress",
        "Major",
        "accountant",
        "empty",
        "sleep",
        "weight",
        "PHQ",
        "Sertraline",
    ):
        assert secret.lower() not in first.text.lower()
    assert first.stage == "interview" and first.turn == 0 and first.reward == 0.0


def test_walk_in_of_a_child_alone_in_the_emergency_department():
    raw = {**CASE, "demographics": {"age": 12, "sex": "male"}, "setting": "emergency"}
    raw.pop("persona")
    assert (
        walk_in_text(load_case(raw)) == "Emergency department. A 12-year-old boy is here to see you, alone."
    )


def test_a_complete_encounter_through_every_stage():
    enc, patient, shaper = make()
    enc.reset(seed=1)
    out = enc.step("<ask>Have you felt empty?</ask>")
    assert out.text == "Patient: I've felt empty for months" and out.fact_ids == ("f1",)
    assert out.components == {"disclosed": 1.0} and out.reward == 1.0 and out.stage == "interview"
    assert patient.asked == ["Have you felt empty?"] and enc.disclosed == {"f1"}

    out = enc.step("<order_exams>phq9; ECG; Serum ferritin</order_exams>")
    assert out.stage == "exams"
    assert (
        "- PHQ-9: 19/27" in out.text
        and f"- ECG: {UNREMARKABLE}" in out.text
        and f"- Serum ferritin: {UNREMARKABLE}" in out.text
    )
    out = enc.step({"action": "order_exams", "exams": ["TSH", "PHQ-9"]})
    assert "- TSH: 2.1 mIU/L (normal)" in out.text and "- PHQ-9: already reported above" in out.text
    assert out.components == {"exams": 4.0} and out.reward == 0.5
    assert enc.chart.exams == ("PHQ-9", "ECG", "Serum ferritin", "TSH")
    names, results = shaper.exam_calls[-1]  # the shaper sees every exam ordered so far and every result
    assert names == enc.chart.exams and results[0] == ("PHQ-9", "19/27") and len(results) == 4

    assert enc.step("<write_note>Low mood, early waking.</write_note>").stage == "note"
    out = enc.step("<diagnose>categories: depressive | disorders: 1. F32.1; 2. F41.1</diagnose>")
    assert out.stage == "diagnosis" and out.reward == 2.0
    out = enc.step("<treat>Sertraline and CBT.</treat>")
    assert out.terminated and not out.truncated and out.stage == END
    assert out.components == {"treatment": 1.0, "end": 1.0, "judge": None}
    assert out.reward == pytest.approx(4.0) and shaper.ends == [True]
    chart = enc.chart
    assert chart.note == "Low mood, early waking." and chart.categories == ("depressive",)
    assert chart.disorders == ("F32.1", "F41.1") and chart.treatment == "Sertraline and CBT."


def test_stages_can_be_skipped_but_never_revisited_and_invalid_actions_change_nothing():
    enc, patient, shaper = make()
    enc.reset()
    enc.step("<diagnose>categories: depressive | disorders: F32.1</diagnose>")
    before = enc.clinical_state()
    for bad in ("<ask>Have you felt empty?</ask>", "<write_note>late</write_note>", "nonsense", {"x": 1}, 7):
        out = enc.step(bad)
        assert out.error is not None and out.action is None
        assert out.text.startswith("Invalid action: ") and "Allowed now (stage diagnosis): treat" in out.text
        assert out.components == {"invalid_action": -1.0} and out.reward == -0.25
        assert enc.clinical_state() == before
    assert patient.asked == [] and enc.chart.invalid_actions == 5 and enc.turn == 6
    assert shaper.invalid == ["out_of_stage", "out_of_stage", "no_action", "no_action", "bad_type"]


def test_turn_budget_truncates_and_counts_invalid_actions():
    enc, _, shaper = make(budget=3)
    enc.reset()
    enc.step("<ask>Have you felt empty?</ask>")
    enc.step("gibberish")
    out = enc.step("<ask>How do you sleep?</ask>")
    assert out.truncated and not out.terminated and out.stage == END
    assert "turn budget is spent" in out.text
    assert out.components == {"disclosed": 0.0, "end": -1.0, "judge": None} and out.reward == -1.0
    assert shaper.ends == [False]
    after = enc.step("<treat>x</treat>")
    assert (
        after.error is not None and after.error.problem == "ended" and after.reward == 0.0 and enc.turn == 3
    )
    record = enc.record()
    assert record.truncated and not record.terminated and len(record.steps) == 3


def test_step_before_reset_is_a_programming_error():
    enc, _, _ = make()
    with pytest.raises(RuntimeError, match="reset"):
        enc.step("<ask>x</ask>")


def test_settings_are_checked():
    with pytest.raises(ValueError, match="turn_budget"):
        EncounterSettings(turn_budget=0)
    with pytest.raises(ValueError, match="turn_budget"):
        EncounterSettings(turn_budget=True)


def test_reset_starts_over_and_same_inputs_give_the_same_record():
    enc, patient, _ = make()
    script = ["<ask>empty?</ask>", "bad", "<order_exams>TSH</order_exams>", "<treat>plan</treat>"]
    records = []
    for _ in range(2):
        enc.reset(seed=5)
        assert enc.turn == 0 and enc.chart.turns == () and enc.stage == "interview" and patient.seed == 5
        for action in script:
            enc.step(action)
        records.append(enc.record())
    assert records[0] == records[1]
    assert records[0].seed == 5 and records[0].settings == {
        "turn_budget": 10,
        "rewards_at_end": False,
        "patient": "keyword",
    }


def test_record_holds_every_step_and_round_trips_through_json():
    enc, _, _ = make()
    enc.reset(seed=9)
    enc.step("<ask>Do you wake at four?</ask>")
    enc.step({"action": "diagnose", "categories": ["depressive"], "disorders": ["F32.1"]})
    enc.step("<ask>again?</ask>")
    enc.step(Ask("ignored, out of stage"))
    enc.step("<treat>CBT</treat>")
    record = enc.record()
    assert (
        record.case_id == "enc-001" and record.terminated and record.walk_in.startswith("Outpatient clinic.")
    )
    assert [s.turn for s in record.steps] == [1, 2, 3, 4, 5]
    assert record.steps[0].action == {"action": "ask", "utterance": "Do you wake at four?"}
    assert record.steps[0].observation.startswith("Patient: I wake at four")
    assert json.loads(record.steps[1].action_text)["action"] == "diagnose"
    assert (
        record.steps[2].action is None
        and record.steps[2].problem == "out_of_stage"
        and "treat" in record.steps[2].error
    )
    assert record.steps[3].action_text == "<ask>ignored, out of stage</ask>"
    assert record.chart.turns[0].fact_ids == ("f2",) and record.chart.invalid_actions == 2
    assert record.total_reward == pytest.approx(sum(s.reward for s in record.steps))
    line = record.to_json()
    assert "\n" not in line
    back = EpisodeRecord.from_json(line)
    assert back == record and back.to_json() == line
    scored = record.with_scores({"inter": 0.5, "emp": None})
    assert EpisodeRecord.from_json(scored.to_json()) == scored


_inputs = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "<ask>Have you felt empty?</ask>",
            "<ask>sleep at four?</ask>",
            "<order_exams>PHQ-9; ECG</order_exams>",
            "<write_note>note</write_note>",
            "<diagnose>categories: depressive | disorders: F32.1</diagnose>",
            "<treat>plan</treat>",
            "<diagnose>F32.1</diagnose>",
            "<ask></ask>",
        ]
    ),
    st.dictionaries(
        st.sampled_from(["action", "utterance", "exams", "plan", "ask"]),
        st.one_of(st.text(max_size=10), st.integers(), st.lists(st.text(max_size=5), max_size=3)),
        max_size=3,
    ),
    st.integers(),
    st.none(),
)


@settings(max_examples=150, deadline=None)
@given(inputs=st.lists(_inputs, max_size=14))
def test_any_sequence_of_inputs_keeps_the_state_machine_sound(inputs):
    enc, _, _ = make(budget=8)
    enc.reset(seed=0)
    for source in inputs:
        before, turn_before, ended_before = enc.clinical_state(), enc.turn, enc.ended
        out = enc.step(source)
        if out.error is not None:
            # an invalid action changes nothing, except that the last turn of the budget ends the encounter
            after = enc.clinical_state()
            assert after == before or (out.truncated and after.chart == before.chart and after.stage == END)
            assert out.text.startswith("Invalid action: ") and out.error.message in out.text
            assert enc.turn == turn_before + (0 if ended_before else 1)
        if enc.ended:
            assert enc.stage == END
    record = enc.record()
    assert EpisodeRecord.from_json(record.to_json()) == record
    assert len(record.steps) == min(len(inputs), 8) or record.terminated


def test_rewards_at_end_pay_the_same_return_in_one_payment():
    script = [
        "<ask>Have you felt empty?</ask>",
        "junk",
        "<ask>wake at four?</ask>",
        "<order_exams>PHQ-9</order_exams>",
        "<order_exams>TSH</order_exams>",
        "<write_note>n</write_note>",
        "<treat>plan</treat>",
    ]
    totals = []
    for at_end in (False, True):
        case = load_case(CASE)
        shaper = TallyShaper()
        enc = Encounter(
            case, KeywordPatient(case), shaper, EncounterSettings(10, rewards_at_end=at_end), VOCAB
        )
        enc.reset(seed=2)
        outs = [enc.step(a) for a in script]
        if at_end:
            assert all(o.reward == 0.0 and o.components == {} for o in outs[:-1])
        summed: dict = {}
        for o in outs:
            for k, v in o.components.items():
                summed[k] = (
                    None if v is None and summed.get(k) is None else (summed.get(k) or 0.0) + (v or 0.0)
                )
        totals.append((sum(o.reward for o in outs), summed, shaper.invalid, shaper.exam_calls))
    assert totals[0] == totals[1]
    with pytest.raises(ValueError, match="rewards_at_end"):
        EncounterSettings(rewards_at_end="yes")


class RunTallyShaper(TallyShaper):
    """TallyShaper that also takes a run of asks in one call, and records the runs it was given."""

    def reset(self):
        super().reset()
        self.runs = []

    def on_asks(self, asks):
        self.runs.append([reply for _utterance, reply, _facts in asks])
        return [self.on_ask(*ask) for ask in asks]


def test_rewards_at_end_settle_each_run_of_asks_in_one_call():
    script = [
        "<ask>Have you felt empty?</ask>",
        "<ask>wake at four?</ask>",
        "<ask>Any thoughts of ending your life?</ask>",
        "junk",  # an invalid action between asks ends a run
        "<ask>How is your appetite?</ask>",
        "<ask>Do you drink?</ask>",
        "<write_note>n</write_note>",
        "<treat>plan</treat>",
    ]
    returns = []
    for at_end in (False, True):
        case = load_case(CASE)
        shaper = RunTallyShaper()
        enc = Encounter(case, KeywordPatient(case), shaper, EncounterSettings(12, rewards_at_end=at_end), VOCAB)
        enc.reset(seed=4)
        outs = [enc.step(a) for a in script]
        replies = [t.patient for t in enc.chart.turns]
        returns.append((sum(o.reward for o in outs), shaper.invalid))
        if at_end:
            assert shaper.runs == [replies[:3], replies[3:]]
        else:
            assert shaper.runs == []  # paid as earned: one on_ask a question
    assert returns[0] == returns[1]
