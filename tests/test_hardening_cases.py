"""Case loading in bounded time and memory, with codes from the shipped list (issue 17, items 7-10)."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import BUNDLED_SUITES, CaseError, SuiteError, bundled_suite_path, load_case, load_suite
from mentalhospital_env.cases.loader import MAX_CASE_BYTES, MAX_CASE_DEPTH
from mentalhospital_env.knowledge.codes import category_of_code, is_icd10cm_code, is_listed_code

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _case(**changes) -> dict:
    raw = json.loads(bundled_suite_path("dev").read_text("utf-8").split("\n", 1)[0])
    raw.update(changes)
    return raw


def _suite_file(tmp_path: Path, lines: list[str], name: str = "s.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- 7: bounded loading


def test_nesting_100000_deep_names_case_and_field(tmp_path):
    raw = _case()
    text = json.dumps(raw)[:-1] + ', "extra": {"a": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    with pytest.raises(SuiteError) as e:
        load_suite(_suite_file(tmp_path, [text]))
    err = e.value.errors[0]
    assert err.case_id == "s.jsonl:1" and "nested too deeply" in err.problem
    assert err.field.startswith("extra.a[0][0]")


def test_nesting_within_the_reader_but_beyond_the_limit_names_the_field():
    raw = _case(extra={"deep": [[[[]]]]})
    node = raw["extra"]
    for _ in range(MAX_CASE_DEPTH + 5):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(CaseError) as e:
        load_case(raw)
    assert e.value.field.startswith("extra.x.x") and f"more than {MAX_CASE_DEPTH} levels" in e.value.problem


def test_a_5000_digit_integer_names_the_field(tmp_path):
    text = json.dumps(_case())
    text = text.replace('"age": ', '"age": ' + "9" * 5000 + ", \"was_age\": ", 1)
    with pytest.raises(SuiteError) as e:
        load_suite(_suite_file(tmp_path, [text]))
    err = e.value.errors[0]
    assert err.field == "demographics.age" and "number too long" in err.problem


def test_a_sub_folder_named_like_a_case_is_refused(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(_case()), encoding="utf-8")
    (tmp_path / "sub.json").mkdir()
    with pytest.raises(SuiteError) as e:
        load_suite(tmp_path)
    assert e.value.bad_case_ids == ("sub.json",) and "is a folder" in str(e.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
def test_a_fifo_in_a_suite_folder_is_refused_without_hanging(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(_case()), encoding="utf-8")
    os.mkfifo(tmp_path / "b.json")
    result: list = []
    worker = threading.Thread(target=lambda: result.append(_try(lambda: load_suite(tmp_path))), daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader so the test process can end, then fail
        fd = os.open(tmp_path / "b.json", os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("loading a suite folder with a FIFO hung")
    assert isinstance(result[0], SuiteError) and "is a FIFO" in str(result[0])
    with pytest.raises(CaseError, match="FIFO"):
        load_case(tmp_path / "b.json")


def _try(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return e


def test_a_50_mb_line_is_refused_unread_in_bounded_memory(tmp_path):
    good = json.dumps(_case())
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        f.write(good + "\n")
        f.write('{"case_id": "x", "extra": {"blob": "' + "a" * (50 * 1024 * 1024) + '"}}\n')
        f.write(json.dumps(_case(case_id="after-the-big-line")) + "\n")
    tracemalloc.start()
    t0 = time.perf_counter()
    with pytest.raises(SuiteError) as e:
        load_suite(path)
    elapsed = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert e.value.bad_case_ids == ("big.jsonl:2",)
    assert f"longer than the limit of {MAX_CASE_BYTES} bytes" in str(e.value)
    assert peak < 3 * MAX_CASE_BYTES + 16 * 1024 * 1024, peak
    assert elapsed < 10, elapsed


def test_a_case_file_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_CASE_BYTES + 1))
    with pytest.raises(CaseError, match="larger than the limit"):
        load_case(path)


def test_bad_utf8_names_the_line(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(json.dumps(_case()).encode() + b"\n\xff\xfe\n")
    with pytest.raises(SuiteError) as e:
        load_suite(path)
    assert e.value.bad_case_ids == ("s.jsonl:2",) and "not UTF-8" in str(e.value)


# --------------------------------------------------------------------------- 8: codes from the list


@pytest.mark.parametrize("code", ["F99.99", "F32.ZZZZ", "F32.19", "F41.99"])
def test_codes_not_in_the_shipped_list_are_refused(code):
    raw = _case()
    raw["diagnosis"]["disorders"][0]["code"] = code
    with pytest.raises(CaseError) as e:
        load_case(raw)
    assert e.value.field == "diagnosis.disorders[0].code" and "not a code of the ICD-10-CM list" in e.value.problem


def test_a_principal_code_outside_every_category_is_refused():
    raw = _case()
    raw["diagnosis"] = {"categories": ["depressive"], "disorders": [{"name": "Essential hypertension", "code": "I10"}]}
    with pytest.raises(CaseError) as e:
        load_case(raw)
    assert e.value.field == "diagnosis.disorders[0].code" and "principal" in e.value.problem


def test_a_medical_comorbidity_after_the_principal_is_kept():
    raw = _case()
    cat = raw["diagnosis"]["categories"][0]
    raw["diagnosis"]["disorders"] = raw["diagnosis"]["disorders"][:1] + [{"name": "Essential hypertension", "code": "I10"}]
    assert load_case(raw).diagnosis.disorders[-1].code == "I10" and cat


@pytest.mark.parametrize("name", BUNDLED_SUITES)
def test_every_bundled_suite_still_loads(name):
    assert len(load_suite(name)) > 0


def test_every_suite_file_shipped_loads():
    folder = bundled_suite_path("dev").parent
    files = sorted(folder.glob("*.jsonl"))
    assert {f.stem for f in files} >= set(BUNDLED_SUITES)
    for f in files:
        assert len(load_suite(f)) > 0


def test_every_code_of_the_knowledge_base_is_listed():
    from mentalhospital_env.knowledge import load_knowledge

    assert all(is_listed_code(d.code) for d in load_knowledge().disorders)


@PROPERTY
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.", min_size=1, max_size=8))
def test_listed_codes_have_the_shape(code):
    if is_listed_code(code):
        assert is_icd10cm_code(code)


# ---------------------------------------------------------------------------- 9: full-match anchors


@pytest.mark.parametrize("field,value", [("case_id", "example-001\n"), ("code", "F32.1\n"), ("case_id", "x\n")])
def test_a_trailing_newline_is_refused(field, value):
    raw = _case()
    if field == "case_id":
        raw["case_id"] = value
    else:
        raw["diagnosis"]["disorders"][0]["code"] = value
    with pytest.raises(CaseError):
        load_case(raw)


@PROPERTY
@given(st.sampled_from(["F32.1", "F41.1", "dev-1"]), st.sampled_from(["\n", "\r\n", " ", "\t", "\x00"]))
def test_ids_and_codes_with_trailing_whitespace_are_refused(value, tail):
    assert not is_icd10cm_code(value + tail)
    raw = _case(case_id=value + tail)
    with pytest.raises(CaseError):
        load_case(raw)


# ----------------------------------------------------------------- 10: JSON Lines and duplicate keys


@PROPERTY
@given(st.lists(st.sampled_from(["\u2028", "\u2029", "\u0085", "\x1c", "\x1d", "\x1e", "\x0b", "\x0c", "\r", "a"]), min_size=1, max_size=6))
def test_line_separators_inside_strings_load(tmp_path_factory, chars):
    tmp = tmp_path_factory.mktemp("u2028")
    text = "Low mood" + "".join(chars) + "since spring."
    raw = _case(extra={"note": text})
    path = _suite_file(tmp, [json.dumps(raw, ensure_ascii=False), json.dumps(_case(case_id="second"), ensure_ascii=False)])
    suite = load_suite(path)
    assert suite[raw["case_id"]].extra["note"] == text and len(suite) == 2


def test_a_duplicate_key_is_refused_with_its_path(tmp_path):
    text = json.dumps(_case())
    text = text.replace('"sex": ', '"sex": "female", "sex": ', 1)
    with pytest.raises(SuiteError) as e:
        load_suite(_suite_file(tmp_path, [text]))
    err = e.value.errors[0]
    assert err.field == "demographics.sex" and "given twice" in err.problem
    with pytest.raises(CaseError, match="given twice"):
        load_case(text)
