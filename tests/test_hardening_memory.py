"""The memos' caps are one documented setting (issue 17, item 15)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

PROBE = """
import json
import mentalhospital_env.env
import mentalhospital_env.patient
from mentalhospital_env.knowledge import language
from mentalhospital_env.rewards import adjudication, coverage, embedders
print(json.dumps({
    "scale": language.MEMO_SCALE,
    "text": language.TEXT_MEMO_SIZE,
    "verdicts": adjudication._MEMO_SIZE,
    "phrasing_bytes": adjudication.PHRASING_STACK_BYTES,
    "matches": coverage.MATCH_MEMORY.max_entries,
    "embeddings": embedders.make_embedder("hashing").cache.max_size,
    "bucket": embedders._bucket.cache_info().maxsize,
    "patients": {m.name: m.max_size for m in language.shared_memos()},
}))
"""


def _caps(scale: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "MENTALHOSPITAL_MEMO_SCALE"}
    if scale is not None:
        env["MENTALHOSPITAL_MEMO_SCALE"] = scale
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_memo_scale_sets_every_cap():
    default, quarter = _caps(None), _caps("0.25")
    assert default["scale"] == 1.0 and quarter["scale"] == 0.25
    assert default["text"] == 8192 and default["embeddings"] == 50_000 and default["matches"] == 1024
    for key in ("text", "verdicts", "phrasing_bytes", "matches", "embeddings", "bucket"):
        assert quarter[key] == default[key] // 4, key


@pytest.mark.parametrize("bad", ["0", "-1", "x", "nan"])
def test_a_bad_memo_scale_is_a_clear_error(bad):
    env = {**os.environ, "MENTALHOSPITAL_MEMO_SCALE": bad}
    done = subprocess.run([sys.executable, "-c", "import mentalhospital_env.env"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode != 0 and "MENTALHOSPITAL_MEMO_SCALE must be a number above 0" in done.stderr


# Every memo at its floor (64 entries): a long enough run fills each, so a container that still grows is one
# that no cap holds. The probe plays seeded episodes of the discrete environment on the handwritten suite
# (every case built first), notes the size of every dict, list, set and deque in the process, plays as many
# again and names each container past the floor that grew (a memo growing by one an episode shows too).
BOUNDED_PROBE = r"""
import collections, functools, gc, inspect, json, sys
import gymnasium as gym
import numpy as np
import mentalhospital_env  # noqa: F401
from mentalhospital_env.hospital.menu import default_menu

def play(env, n, rng, menu):
    r = menu.kind_ranges
    for _ in range(n):
        env.reset(seed=int(rng.integers(1 << 30)))
        plan = list(rng.choice(r["ask"], size=15, replace=False)) + [
            int(rng.choice(r["order_exams"])), r["write_note"][0], int(rng.choice(r["diagnose"])),
            int(rng.choice(r["treat"]))]
        for a in plan:
            if any(env.step(int(a))[2:4]):
                break

def sizes():
    return {id(o): (o, len(o)) for o in gc.get_objects() if isinstance(o, (dict, list, set, collections.deque))}

def holder(o):
    for r in gc.get_referrers(o):
        if isinstance(r, functools._lru_cache_wrapper):  # a memo's own table, named by its function
            return f"{r.__module__}.{r.__qualname__}"
        if isinstance(r, dict):
            name = next((k for k, v in r.items() if v is o), None)
            if name is not None:
                if "__builtins__" in r:
                    return f"{r['__name__']}.{name}"
                owner = next((type(x).__name__ for x in gc.get_referrers(r) if getattr(x, "__dict__", None) is r), "dict")
                return f"{owner}.{name}"
        elif hasattr(r, "__dict__") and not isinstance(r, type):
            name = next((k for k, v in vars(r).items() if v is o), None)
            if name is not None:
                return f"{type(r).__name__}.{name}"
    return type(o).__name__

env = gym.make("MentalHospitalDiscrete-v0", suite="handwritten", turn_budget=40, rewards_at_end=True)
env.unwrapped.build_all_cases()
menu, rng = default_menu(), np.random.default_rng(0)
play(env, int(sys.argv[1]), rng, menu)
gc.collect()
before = {k: n for k, (_o, n) in sizes().items()}
play(env, int(sys.argv[1]), rng, menu)
gc.collect()
grown = [[type(o).__name__, holder(o), before.get(k, 0), n] for k, (o, n) in sizes().items()
         if n > 64 and n > before.get(k, 0)]
memos = []
for o in gc.get_objects():
    if isinstance(o, functools._lru_cache_wrapper) and (o.__module__ or "").startswith("mentalhospital_env"):
        info = o.cache_info()
        memos.append([f"{o.__module__}.{o.__qualname__}", info.maxsize, info.currsize,
                      len(inspect.signature(o.__wrapped__).parameters)])
print(json.dumps({"grown": grown, "memos": memos}))
"""

# memos without a cap because what they are keyed on is finite
FINITE_KEYS = {
    "mentalhospital_env.cases.loader._key_sets",  # the case schema's key lists
    "mentalhospital_env.cases.generator.composer.load_material",  # the generator's data files
    "mentalhospital_env.hospital.stages.allowed_actions",  # the encounter's stages
    "mentalhospital_env.hospital.stages.describe_allowed",
    "mentalhospital_env.rewards.adjudication._contrast_about",  # the contrary-meaning groups of the data file
}


@pytest.fixture(scope="module")
def floor_run():
    env = {**os.environ, "MENTALHOSPITAL_MEMO_SCALE": "0.0001"}  # every cap at its floor of 64
    done = subprocess.run(
        [sys.executable, "-c", BOUNDED_PROBE, "40"], check=False, capture_output=True, text=True, env=env, timeout=1200
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# containers that grow without a cap of the setting because what they hold is bounded otherwise
BOUNDED_ELSEWHERE = {
    "re._cache",  # Python's compiled patterns: 512 at most (the lexicon's patterns are compiled as met)
    "re._compile_repl",  # Python's parsed replacement templates of re.sub: 512 at most (the compiler's rewrites, stop 28)
    "LayRenderer._wordings",  # a patient's lay wordings per lexicon concept and negation: the lexicon's size
}


@pytest.mark.slow
def test_no_container_grows_past_the_memo_caps_over_a_long_run(floor_run):
    grown = [g for g in floor_run["grown"] if g[1] not in BOUNDED_ELSEWHERE]
    assert grown == []


@pytest.mark.slow
def test_every_memo_of_the_library_has_a_cap_from_the_setting(floor_run):
    memos = {name: (cap, size, params) for name, cap, size, params in floor_run["memos"]}
    assert len(memos) > 40  # the probe saw the memos the episodes use
    uncapped = [n for n, (cap, _s, params) in memos.items() if cap is None and params and n not in FINITE_KEYS]
    assert uncapped == []
    # a memo of texts follows MENTALHOSPITAL_MEMO_SCALE down to its floor of 64; the few fixed caps are small
    # (suites, knowledge bases, reference tables: up to 256)
    large = [(n, cap) for n, (cap, _s, params) in memos.items() if cap is not None and params and cap > 256]
    assert large == []
    assert sum(cap == 64 for cap, _s, _p in memos.values()) > 30


def test_the_adjudicator_keeps_the_embedding_caches_vector_not_a_copy():
    # the per-output memo held a second copy of every output's vector (4 kB a text with the hashing
    # embedder) beside the embedder cache's own: it now refers to the cache's, and its similarities are
    # those of the vector encode() gives
    import numpy as np
    from mentalhospital_env.rewards.adjudication import ClinicalAdjudicator
    from mentalhospital_env.rewards.embedders import HashingEmbedder

    hashing = HashingEmbedder()
    adjudicator = ClinicalAdjudicator(phrase_embedder=hashing, phrase_threshold=0.5)
    outputs = ["I can't get to sleep at night", "I feel down all the time", "Nothing."]
    for output in outputs:
        similarity = adjudicator.concept_similarity(output, "insomnia")
        kept = adjudicator._output_phrasing[output][0]
        assert kept is hashing.cache.get(output) and not kept.flags.writeable
        expected = float((adjudicator._concept_phrases("insomnia") @ hashing.encode([output])[0]).max())
        assert similarity == expected
    # an embedder of the user's with no cache (only encode): the memo keeps a vector of its own, not a view
    # of a batch

    class Uncached:
        def encode(self, texts):
            return hashing.encode(texts)

    alone = ClinicalAdjudicator(phrase_embedder=Uncached(), phrase_threshold=0.5)
    alone.concept_similarity("I hear voices", "auditory_hallucinations")
    assert alone._output_phrasing["I hear voices"][0].base is None
    assert np.array_equal(alone._output_phrasing["I hear voices"][0], hashing.encode(["I hear voices"])[0])


# the patients' memos: one per kind for every patient of the process, capped by the setting, not per patient
# (capped per patient, 480 cases held 480 caps, and a long run never reached a level)


def test_the_patients_memos_are_shared_and_follow_the_setting():
    default, quarter = _caps(None), _caps("0.25")
    assert set(default["patients"]) == {"LeakGuard.leaks", "ClaimChecker.checked", "RepresentationSkill.contained"}
    for name, cap in default["patients"].items():
        assert quarter["patients"][name] == cap // 4


def _memo(size: int):
    from mentalhospital_env.knowledge.language import SharedMemo, memo_size, shared_memos

    memo = SharedMemo("test", size)
    shared_memos()  # registered for the benchmark
    return memo, memo_size(size)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 200)), max_size=600))
def test_a_shared_memo_never_holds_more_than_its_cap_and_answers_like_the_function(calls):
    from mentalhospital_env.knowledge import language

    memo, cap = _memo(64)
    try:
        owners = [memo.owner() for _ in range(4)]
        for owner, key in calls:
            computed: list[int] = []
            value = memo.recall(owners[owner], key, lambda o=owner, k=key: computed.append(1) or (o, k))
            assert value == (owner, key)  # an owner never reads another's entry
            assert len(memo) <= cap
        assert memo.hits + memo.misses == len(calls)
    finally:
        language._shared_memos.remove(memo)


def test_a_shared_memo_forgets_the_least_recently_used_first_and_is_cleared_with_the_others():
    from mentalhospital_env.knowledge import language

    memo, cap = _memo(64)
    try:
        owner = memo.owner()
        assert owner != memo.owner()  # a token is never given twice
        for k in range(cap):
            memo.recall(owner, k, lambda k=k: k)
        memo.recall(owner, 0, lambda: -1)  # a hit: 0 is now the most recent
        memo.recall(owner, cap, lambda: cap)  # over the cap: 1, the least recent, goes
        calls: list[int] = []
        assert memo.recall(owner, 0, lambda: calls.append(0) or -1) == 0 and calls == []
        assert memo.recall(owner, 1, lambda: calls.append(1) or 1) == 1 and calls == [1]
        with language.memos_off():
            assert memo.recall(owner, 0, lambda: "fresh") == "fresh"
        language.clear_caches()
        assert len(memo) == 0 and memo.hits == memo.misses == 0
    finally:
        language._shared_memos.remove(memo)


@pytest.mark.slow
def test_the_memory_benchmark_runs_to_its_verdict(tmp_path):
    # the benchmark that shows item 15 must keep working as the library moves (a refactor of the patient's
    # rooms once broke its import of the per-patient memos, unseen until the figure was wanted)
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "env_throughput.py"), "--only", "MentalHospitalDiscrete-v0",
         "--suite", "handwritten", "--steps", "20", "--warmup-steps", "60", "--steady-steps", "40",
         "--memory-slice", "30"],
        capture_output=True, text=True, timeout=900, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert ("PASS:" in done.stdout) or ("FAIL:" in done.stdout)
    assert "steady-state memory:" in done.stdout
