"""ScriptedClient and the shared contract helpers of mentalhospital_env.llm.base."""

from __future__ import annotations

import pytest

from mentalhospital_env.llm import (
    ConversationError,
    GenerationSettings,
    LLMClient,
    LLMError,
    ScriptedClient,
    truncate_at_stop,
)


def user(text: str) -> list[dict]:
    return [{"role": "system", "content": "You are a patient."}, {"role": "user", "content": text}]


def test_list_script_hands_out_replies_in_order_across_calls():
    client = ScriptedClient(["one", "two", "three"])
    assert client.generate([user("a"), user("b")]) == ["one", "two"]
    assert client.remaining == 1
    assert client.generate([user("c")]) == ["three"]
    with pytest.raises(LLMError, match="used up") as caught:
        client.generate([user("d")])
    assert "scripted" in str(caught.value) and "conversation 0 of 1" in str(caught.value)


def test_list_script_falls_back_to_default_when_exhausted():
    client = ScriptedClient(["only"], default="fallback")
    assert client.generate([user("a"), user("b"), user("c")]) == ["only", "fallback", "fallback"]


def test_callable_script_sees_each_conversation():
    client = ScriptedClient(lambda conversation: conversation[-1]["content"].upper())
    assert client.generate([user("sleep"), user("mood")]) == ["SLEEP", "MOOD"]


def test_callable_script_errors_are_llm_errors():
    client = ScriptedClient(lambda conversation: 1 / 0)
    with pytest.raises(LLMError, match="ZeroDivisionError"):
        client.generate([user("x")])
    with pytest.raises(LLMError, match="returned int"):
        ScriptedClient(lambda conversation: 3).generate([user("x")])


def test_mapping_script_matches_substring_of_last_user_message_in_key_order():
    client = ScriptedClient(
        {"sleep": "I sleep badly.", "mood": "Low, mostly.", "sle": "never used"}, default="Hm."
    )
    conversation = user("How is your mood?") + [
        {"role": "assistant", "content": "Low, mostly."},
        {"role": "user", "content": "And your SLEEP?"},
    ]
    assert client.generate([conversation, user("How is your mood?"), user("Any pain?")]) == [
        "I sleep badly.",
        "Low, mostly.",
        "Hm.",
    ]


def test_mapping_script_without_default_raises_naming_the_message():
    client = ScriptedClient({"sleep": "I sleep badly."})
    with pytest.raises(LLMError, match="'Any pain\\?'"):
        client.generate([user("How do you sleep?"), user("Any pain?")])


def test_calls_are_recorded_with_copies_and_settings():
    client = ScriptedClient(default="ok")
    conversation = user("first")
    settings = GenerationSettings(max_new_tokens=5, seed=3)
    client.generate([conversation], settings)
    conversation[-1]["content"] = "changed afterwards"
    client.generate([user("second"), user("third")])
    assert len(client.calls) == 2
    assert client.calls[0].settings is settings
    assert client.calls[0].conversations[0][-1]["content"] == "first"
    assert client.calls[1].settings == GenerationSettings()
    assert [c[-1]["content"] for c in client.conversations] == ["first", "second", "third"]


def test_stop_strings_cut_scripted_replies():
    client = ScriptedClient(["Fine. </ask> more", "no stop here"])
    assert client.generate([user("a"), user("b")], GenerationSettings(stop=("</ask>",))) == [
        "Fine. ",
        "no stop here",
    ]


def test_bad_conversations_name_their_position():
    client = ScriptedClient(default="ok")
    with pytest.raises(ConversationError, match="conversation 1 of 2.*role 'doctor'"):
        client.generate([user("a"), [{"role": "doctor", "content": "x"}]])
    with pytest.raises(ConversationError, match="no messages"):
        client.generate([[]])
    with pytest.raises(ConversationError, match="content of type int"):
        client.generate([[{"role": "user", "content": 3}]])
    with pytest.raises(ConversationError, match="list of conversations"):
        client.generate("hello")
    assert client.calls == []
    assert isinstance(ConversationError("b", "r", "c"), ValueError)


def test_empty_batch_gives_empty_list():
    assert ScriptedClient(["x"]).generate([]) == []


def test_scripted_client_is_an_llm_client_and_needs_a_script():
    assert isinstance(ScriptedClient(default="x"), LLMClient)
    with pytest.raises(ValueError):
        ScriptedClient()
    with pytest.raises(TypeError, match="not a single string"):
        ScriptedClient("a single string")
    with pytest.raises(TypeError, match="must be a str"):
        ScriptedClient(["fine", 3])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_new_tokens": 0},
        {"temperature": -0.1},
        {"top_p": 0.0},
        {"top_p": 1.5},
        {"seed": 1.5},
        {"stop": ("",)},
        {"timeout_s": 0},
        {"temperature": float("nan")},
    ],
)
def test_generation_settings_reject_bad_values(kwargs):
    with pytest.raises(ValueError, match="GenerationSettings"):
        GenerationSettings(**kwargs)


def test_generation_settings_are_frozen_and_normalise_stop():
    settings = GenerationSettings(stop=["a", "b"])
    assert settings.stop == ("a", "b")
    assert GenerationSettings(stop="x").stop == ("x",)
    assert GenerationSettings().greedy and not GenerationSettings(temperature=0.7).greedy
    with pytest.raises(AttributeError):
        settings.seed = 3  # type: ignore[misc]


def test_truncate_at_stop_uses_earliest_marker():
    assert truncate_at_stop("abc STOP def END", ["END", "STOP"]) == "abc "
    assert truncate_at_stop("abc", ["x"]) == "abc"
    assert truncate_at_stop("abc", []) == "abc"
