"""The doctor actions and the text protocol parser: tolerant of form, strict about meaning, never raising."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.hospital.actions import (
    ActionError,
    Ask,
    Diagnose,
    NameAmbiguity,
    OrderExams,
    Treat,
    Vocabulary,
    WriteNote,
    action_from_dict,
    category_aliases,
    parse_action,
)
from mentalhospital_env.hospital.stages import (
    ACTION_NAMES,
    ACTION_STAGE,
    ALL_STAGES,
    END,
    STAGES,
    allowed_actions,
    stage_after,
)
from mentalhospital_env.knowledge.codes import category_ids, load_categories

EXAMS = {
    "phq-9": "PHQ-9",
    "phq9": "PHQ-9",
    "patient health questionnaire": "PHQ-9",
    "tsh": "TSH",
    "thyroid stimulating hormone": "TSH",
    "gad-7": "GAD-7",
    "ecg": "ECG",
    "ekg": "ECG",
    "lft": None,
}
DISORDERS = {
    "major depressive disorder, single episode, moderate": "F32.1",
    "generalized anxiety disorder": "F41.1",
    "schizophrenia": "F20.9",
    "alcohol dependence": "F10.20",
    "f32.1": "F32.1",
    "f41.1": "F41.1",
}
CODES = ("F32.1", "F41.1", "F20.9", "F10.20", "G47.00", "F43.10", "F60.3")


def _exam(name: str) -> str | None:
    if name.lower() == "cbc or lft":
        raise NameAmbiguity("matches CBC and LFT")
    return EXAMS.get(name.lower())


def _disorder(name: str) -> str | None:
    if name.lower() == "depression":
        raise NameAmbiguity("matches F32.1, F33.1 and F34.1")
    return DISORDERS.get(name.lower())


VOCAB = Vocabulary(_exam, _disorder, category_aliases(load_categories()))


def parse(source, stage="interview"):
    return parse_action(source, stage, VOCAB)


# ------------------------------------------------------------------------------ stages


def test_stages_allow_later_actions_and_repeat_only_interview_and_exams():
    assert allowed_actions("interview") == ACTION_NAMES
    assert allowed_actions("exams") == ("order_exams", "write_note", "diagnose", "treat")
    assert allowed_actions("note") == ("diagnose", "treat")
    assert allowed_actions("diagnosis") == ("treat",)
    assert allowed_actions("treatment") == ()
    assert allowed_actions(END) == ()
    assert stage_after("treat") == END and stage_after("ask") == "interview"
    with pytest.raises(ValueError, match="unknown stage"):
        allowed_actions("triage")


# ------------------------------------------------------------------------------ tolerant of form


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<ask>How are you sleeping?</ask>", Ask("How are you sleeping?")),
        (
            "Sure, I will ask.\n```\n< ASK >  how are you sleeping?  \n```\nThanks",
            Ask("how are you sleeping?"),
        ),
        ("<Ask>Any voices?", Ask("Any voices?")),
        ("<think>maybe <treat>x</treat></think><ask>Any voices?</ask>", Ask("Any voices?")),
        ("<question>Any voices?</question>", Ask("Any voices?")),
        (
            "<order exams>phq9; Thyroid stimulating hormone, GAD-7</order_exams>",
            OrderExams(("PHQ-9", "TSH", "GAD-7")),
        ),
        ("<Order-Exams>\n1. EKG\n2. Serum ferritin\n</Order-Exams>", OrderExams(("ECG", "Serum ferritin"))),
        ("<order_exams>PHQ-9; phq9; PHQ-9</order_exams>", OrderExams(("PHQ-9",))),
        ("<write_note>```markdown\nCC: low mood\n```</write_note>", WriteNote("CC: low mood")),
        ("<note>Brief note", WriteNote("Brief note")),
        (
            (
                "<diagnose>Categories: Depressive disorders, anxiety | Disorders: 1. F32.1 Major depressive disorder; "
                "2. Generalized anxiety disorder (likely)</diagnose>"
            ),
            Diagnose(("depressive", "anxiety"), ("F32.1", "F41.1")),
        ),
        (
            "<DIAGNOSIS>\ncategories: schizophrenia_spectrum; substance-related\ndisorders:\n- schizophrenia\n- f10.20\n</DIAGNOSIS>",
            Diagnose(("schizophrenia_spectrum", "substance_related"), ("F20.9", "F10.20")),
        ),
        (
            "<diagnose>categories: depressive | disorders: F32.1, F41.1</diagnose>",
            Diagnose(("depressive",), ("F32.1", "F41.1")),
        ),
        (
            "<diagnose>categories: depressive | disorders: f321</diagnose>",
            Diagnose(("depressive",), ("F32.1",)),
        ),
        (
            "<treat>Sertraline 50 mg daily; CBT; review in 2 weeks.</treat>",
            Treat("Sertraline 50 mg daily; CBT; review in 2 weeks."),
        ),
        ('```json\n{"action": "ask", "utterance": "Any voices?"}\n```', Ask("Any voices?")),
        ('Here: {"ask": "Any voices?"} done', Ask("Any voices?")),
        (
            '{"name": "order_exams", "arguments": "{\\"exams\\": [\\"tsh\\", \\"ekg\\"]}"}',
            OrderExams(("TSH", "ECG")),
        ),
        (
            '{"type": "diagnose", "categories": "depressive", "disorders": [{"code": "F32.1"}, {"name": "schizophrenia"}]}',
            Diagnose(("depressive",), ("F32.1", "F20.9")),
        ),
    ],
)
def test_parser_reads_what_models_emit(text, expected):
    assert parse(text) == expected


def test_parser_accepts_mappings_and_action_values():
    assert parse({"action": "treat", "plan": " CBT "}) == Treat("CBT")
    assert parse({"categories": ["depressive"], "disorders": "F32.1"}) == Diagnose(
        ("depressive",), ("F32.1",)
    )
    assert parse({"exams": "tsh; ecg"}) == OrderExams(("TSH", "ECG"))
    assert parse(Ask("hello")) == Ask("hello")
    assert parse(b"<ask>hi</ask>") == Ask("hi")


# ------------------------------------------------------------------------------ strict about meaning


@pytest.mark.parametrize(
    "source, problem, words",
    [
        ("", "empty", ["empty"]),
        ("   \n", "empty", ["empty"]),
        ("How are you?", "no_action", ["No action found"]),
        ("<ask>   </ask>", "empty", ["'ask' is empty"]),
        ("<ask>a</ask> then <treat>b</treat>", "ambiguous", ["2 actions", "ask", "treat"]),
        ("<ask>a</ask><ask>b</ask>", "ambiguous", ["exactly one"]),
        ("<order_exams> ; ; </order_exams>", "empty", ["names no exam"]),
        ("<order_exams>CBC or LFT</order_exams>", "ambiguous", ["CBC or LFT", "ambiguous"]),
        ("<diagnose>F32.1</diagnose>", "bad_field", ["categories:", "disorders:"]),
        ("<diagnose>categories: depressive</diagnose>", "empty", ["no disorders"]),
        (
            "<diagnose>categories: sadness | disorders: F32.1</diagnose>",
            "unknown_category",
            ["'sadness'", "15 diagnostic categories"],
        ),
        (
            "<diagnose>categories: depressive | disorders: feeling blue</diagnose>",
            "unknown_disorder",
            ["'feeling blue'", "ICD-10-CM"],
        ),
        (
            "<diagnose>categories: depressive | disorders: depression</diagnose>",
            "ambiguous",
            ["'depression'", "F33.1"],
        ),
        (
            "<diagnose>categories: depressive | categories: anxiety | disorders: F32.1</diagnose>",
            "ambiguous",
            ["twice"],
        ),
        ({"action": "fly"}, "no_action", ["Unknown action 'fly'"]),
        ({"hello": 1}, "no_action", ["names no action", "'hello'"]),
        ({"ask": "x", "treat": "y"}, "ambiguous", ["2 actions"]),
        ({"action": "ask", "utterance": ["x"]}, "bad_type", ['"utterance"', "must be text"]),
        ({"action": "ask"}, "bad_field", ['"utterance"']),
        ({"action": "order_exams", "exams": [1, 2]}, "bad_type", ['"exams"', "item 0"]),
        (42, "bad_type", ["got int"]),
        (None, "bad_type", ["got NoneType"]),
        (b"\xff\xfe", "bad_type", ["not UTF-8"]),
    ],
)
def test_bad_actions_are_errors_that_say_what_is_wrong_and_what_is_allowed(source, problem, words):
    result = parse(source)
    assert isinstance(result, ActionError), result
    assert result.problem == problem
    for w in words:
        assert w in result.message
    assert "Allowed now (stage interview): ask, order_exams, write_note, diagnose, treat" in result.message
    assert result.allowed == ACTION_NAMES


def test_out_of_stage_action_names_the_stage_and_what_is_allowed():
    result = parse("<ask>Anything else?</ask>", "note")
    assert isinstance(result, ActionError) and result.problem == "out_of_stage"
    assert "'ask' belongs to the interview stage" in result.message
    assert "Allowed now (stage note): diagnose, treat" in result.message
    assert result.allowed == ("diagnose", "treat")
    ended = parse("<treat>x</treat>", END)
    assert isinstance(ended, ActionError) and ended.problem == "ended" and ended.allowed == ()


def test_unknown_stage_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown stage"):
        parse("<ask>x</ask>", "triage")


def test_action_from_dict_inverts_to_dict():
    for action in (
        Ask("a"),
        OrderExams(("TSH",)),
        WriteNote("n"),
        Diagnose(("depressive",), ("F32.1",)),
        Treat("p"),
    ):
        assert action_from_dict(action.to_dict()) == action
    with pytest.raises(ValueError):
        action_from_dict({"action": "fly"})


# ------------------------------------------------------------------------------ properties

_free_text = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="<>`{}\x00"),
        min_size=1,
        max_size=80,
    )
    .map(str.strip)
    .filter(bool)
)
_exam_names = st.one_of(
    st.sampled_from(["PHQ-9", "TSH", "GAD-7", "ECG"]),
    st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,8}( [A-Za-z0-9][A-Za-z0-9-]{0,8}){0,3}", fullmatch=True).filter(
        lambda n: _exam(n) is None
    ),
)
_actions = st.one_of(
    st.builds(Ask, _free_text),
    st.builds(OrderExams, st.lists(_exam_names, min_size=1, max_size=5, unique=True).map(tuple)),
    st.builds(WriteNote, _free_text),
    st.builds(
        Diagnose,
        st.lists(st.sampled_from(category_ids()), min_size=1, max_size=4, unique=True).map(tuple),
        st.lists(st.sampled_from(CODES), min_size=1, max_size=5, unique=True).map(tuple),
    ),
    st.builds(Treat, _free_text),
)


def _stage_allowing(action):
    return st.sampled_from([s for s in STAGES if action.name in allowed_actions(s)])


@settings(max_examples=300, deadline=None)
@given(data=st.data(), action=_actions)
def test_every_action_round_trips_through_text_and_json_with_noise(data, action):
    stage = data.draw(_stage_allowing(action))
    assert parse(action.to_text(), stage) == action
    assert parse(action.to_dict(), stage) == action
    assert parse(json.dumps(action.to_dict()), stage) == action
    prose = data.draw(
        st.sampled_from(["", "Okay.\n", "I will now act:\n```\n", "<think>hmm, <ask>no</ask></think>"])
    )
    tail = data.draw(st.sampled_from(["", "\n```", " Thanks!"]))
    shouty = action.to_text().replace(f"<{action.name}>", f"< {action.name.upper()} >", 1)
    assert parse(prose + shouty + tail, stage) == action
    unclosed = action.to_text()[: -len(f"</{action.name}>")]
    assert parse(prose + unclosed, stage) == action


@settings(max_examples=200, deadline=None)
@given(action=_actions, stage=st.sampled_from(ALL_STAGES))
def test_an_action_outside_its_stage_is_always_refused(action, stage):
    result = parse(action.to_text(), stage)
    if action.name in allowed_actions(stage):
        assert result == action
    else:
        assert isinstance(result, ActionError) and result.problem in ("out_of_stage", "ended")
        assert result.allowed == allowed_actions(stage)
        if allowed_actions(stage):
            assert f"'{action.name}' belongs to the {ACTION_STAGE[action.name]} stage" in result.message


_json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
_keys = st.sampled_from(
    [
        "action",
        "type",
        "name",
        "ask",
        "utterance",
        "exams",
        "note",
        "categories",
        "disorders",
        "plan",
        "arguments",
        "order_exams",
        "diagnose",
        "treat",
        "write_note",
        "text",
    ]
)
_action_dicts = st.dictionaries(_keys, _json_like | st.sampled_from(list(ACTION_NAMES)), max_size=5)
_tagged_noise = st.lists(
    st.one_of(
        st.text(max_size=20),
        st.sampled_from(
            [
                "<ask>",
                "</ask>",
                "<diagnose>",
                "categories:",
                "disorders:",
                "|",
                ";",
                "```",
                "{",
                "}",
                "<order exams>",
                "F32.1",
                "<treat>",
                "<think>",
            ]
        ),
    ),
    max_size=12,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(
    source=st.one_of(st.text(), _tagged_noise, _action_dicts, _json_like), stage=st.sampled_from(ALL_STAGES)
)
def test_parser_never_raises_and_every_error_says_what_is_allowed(source, stage):
    result = parse(source, stage)
    if isinstance(result, ActionError):
        assert result.message.strip()
        assert result.stage == stage
        if not allowed_actions(stage):
            assert "ended" in result.message
        else:
            assert f"Allowed now (stage {stage})" in result.message
    else:
        assert result.name in allowed_actions(stage)
        assert parse(result.to_text(), stage) == result


def test_default_vocabulary_resolves_through_the_knowledge_base():
    exams = parse_action(
        "<order_exams>phq9; Thyroid stimulating hormone; EKG; B12, folate; a made-up test</order_exams>",
        "exams",
    )
    assert exams == OrderExams(("PHQ-9", "TSH", "ECG", "Vitamin B12", "Folate", "a made-up test"))
    dx = parse_action(
        "<diagnose>categories: Depressive disorders, trauma- and stressor-related disorders | disorders: "
        "1. Major depressive disorder, single episode, moderate; 2. PTSD; 3. F10.20 alcohol dependence</diagnose>",
        "interview",
    )
    assert dx == Diagnose(("depressive", "trauma_stressor"), ("F32.1", "F43.10", "F10.20"))
    unknown = parse_action(
        "<diagnose>categories: depressive | disorders: sadness of the soul</diagnose>", "note"
    )
    assert isinstance(unknown, ActionError) and unknown.problem == "unknown_disorder"
