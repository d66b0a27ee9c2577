"""The learned readings of the *understand* room: the patient's topic reader, and the small models beside it.

The cue phrases of ``data/taxonomy.json`` are written by hand, so they know the wordings that were read and
miss the ones that were not ("Are you much of a drinker?"), and a cue word with two senses fires in the
wrong one ("How have your spirits been?"). Since stop 46 the patient's topic reader (:class:`TopicReader`,
``data/topic_model.json``) is one multi-label logistic regression that decides alone: its features are the stemmed
words and word pairs of the asked part, the words of the doctor's previous turn, the topics the cue phrases read (in
the utterance after that turn, in the utterance alone, in the previous turn: features, never an override), a
reflection flag (:func:`reading_features`), and the static sentence vectors of the utterance and of the previous turn
(:func:`sentence_vectors`: the word-piece table distilled from the Universal Sentence Encoder that ships for the
entailment reader). A topic is read where its probability reaches its threshold. Fitted by
``scripts/fit_topic_model.py`` from the hand-labelled utterances under ``benchmarks/data/``; reading needs numpy only,
and is deterministic.

:class:`TopicModel` is the older per-topic stem model's form, still the form of the fact filing model
(``data/fact_topic_model.json``), the follow model (``data/follow_model.json``) and the stem part of the opt-in
embedding reader, which mend the cues' reading (:func:`mentalhospital_env.patient.understanding.combine`): a topic the
cues missed is added where the model's probability reaches ``add_above``; a topic the cues found in the utterance itself
is dropped where the model's probability is under ``veto_below`` and the model confirms another topic the cues found at
``confirm_above``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path

import numpy as np

from mentalhospital_env.fields import finite, required

__all__ = [
    "TopicModel",
    "TopicModelError",
    "TopicReader",
    "fact_features",
    "features",
    "follow_features",
    "load_fact_topic_model",
    "load_follow_model",
    "load_topic_reader",
    "read_topic_model",
    "read_topic_reader",
    "reading_features",
    "sentence_vectors",
    "topic_model_text",
]

FORMAT = "mentalhospital-topic-model/1"


class TopicModelError(ValueError):
    """A topic-model file that cannot be read; the message names the file and the field."""


def features(stemmed: Sequence[str], context: Sequence[str] = (), cue_topics: Sequence[str] = ()) -> list[str]:
    """The model's features of an utterance: ``w:`` stems and ``b:`` stem pairs of the asked part,
    ``c:`` stems of the previous doctor turn (``fu`` when there is one), ``t:`` topics the cues found."""
    out = [f"w:{w}" for w in stemmed]
    out += [f"b:{a}_{b}" for a, b in pairwise(stemmed)]
    if context:
        out.append("fu")
        out += [f"c:{w}" for w in context]
    out += [f"t:{t}" for t in cue_topics]
    out.append("t:none" if not cue_topics else f"n:{min(len(cue_topics), 3)}")
    return list(dict.fromkeys(out))


def reading_features(stemmed: Sequence[str], context: Sequence[str] = (), cue_topics: Sequence[str] = (),
                     own_topics: Sequence[str] = (), before_topics: Sequence[str] = (), reflection: bool = False) -> list[str]:
    """The topic reader's sparse features of an utterance (:class:`TopicReader`; stop 46): ``w:`` stems and ``b:`` stem
    pairs of the asked part, ``c:`` stems of the previous doctor turn (``fu`` when there is one), and the cue phrases'
    readings as features, never as decisions: ``cue:`` the topics the cues read in the utterance after that turn (their
    follow-up rule included), ``own:`` those they read in the utterance alone, ``bef:`` those they read in the previous
    turn, and ``refl`` where the utterance reflects the story back (:func:`~.understanding.is_reflection`)."""
    out = [f"w:{w}" for w in stemmed]
    out += [f"b:{a}_{b}" for a, b in pairwise(stemmed)]
    if context:
        out.append("fu")
        out += [f"c:{w}" for w in context]
    out += [f"cue:{t}" for t in cue_topics]
    out += [f"own:{t}" for t in own_topics]
    out += [f"bef:{t}" for t in before_topics]
    if reflection:
        out.append("refl")
    return list(dict.fromkeys(out))


def follow_features(stemmed: Sequence[str], own_topics: Sequence[str] = ()) -> list[str]:
    """The follow model's features of an utterance (does it lean on the previous turn?): ``w:`` stems and ``b:`` stem
    pairs of the asked part, its first stem (``first:``), its length in thirds of a short question (``len:``) and how many
    topics of its own the cues read in it (``nown:``, 0, 1, 2 or more). The previous turn's words are not among them:
    whether a question stands alone is read from the question ("Has he ever had a seizure?" stands alone after any
    question; "Did any of that make a difference?" leans on the one before)."""
    out = [f"w:{w}" for w in stemmed]
    out += [f"b:{a}_{b}" for a, b in pairwise(stemmed)]
    out += [f"nown:{min(len(own_topics), 2)}", f"len:{min(len(stemmed) // 3, 5)}"]
    if stemmed:
        out.append(f"first:{stemmed[0]}")
    return list(dict.fromkeys(out))


def fact_features(stemmed: Sequence[str], section: str, cue_topics: Sequence[str] = ()) -> list[str]:
    """The fact filing model's features of a record sentence: those of :func:`features` (no context) and ``s:``
    its record section."""
    return [*features(stemmed, (), cue_topics), f"s:{section}"]


@dataclass(frozen=True)
class TopicModel:
    topics: tuple[str, ...]
    index: dict[str, int]
    weights: np.ndarray  # (n_features, n_topics)
    bias: np.ndarray  # (n_topics,)
    add_above: float
    veto_below: float
    confirm_above: float
    #: whether the model reads the cues' topics (``t:`` features): the reader must pass them exactly when it
    #: was fitted with them, or every probability shifts
    cue_features: bool = False
    #: where the cues read no topic of substance in the utterance, the model adds a topic at this probability instead
    #: of ``add_above`` (``combine.add_alone_above``, optional: ``None`` is ``add_above``): a question in words no cue
    #: was written for is the model's to read, a topic beside one the cues heard needs more
    add_alone_above: float | None = None
    #: a topic of the complaint's frame or the complaint itself (kind ``presentation``) is added at this probability
    #: (``combine.add_frame_above``, optional: ``None`` is ``add_above``)
    add_frame_above: float | None = None
    #: a topic the previous turn asked about is added at this probability (``combine.add_before_above``, optional:
    #: ``None`` never, the follow-up rule's call alone): the model reads the previous turn's words, and where it is sure
    #: the question goes on with that turn's topic ("Do you worry about having another one?" after a question about
    #: panic attacks) the topic is carried though no follow-up cue was written for the wording (stop 43)
    add_before_above: float | None = None

    def probabilities(self, feats: Sequence[str]) -> dict[str, float]:
        rows = [self.index[f] for f in feats if f in self.index]
        z = self.bias + (self.weights[rows].sum(axis=0) if rows else 0.0)
        p = 1.0 / (1.0 + np.exp(-z))
        return dict(zip(self.topics, p.tolist()))


def _read_head(text: str, where: str, fmt: str, known_topics: Sequence[str] | None) -> tuple[dict, list]:
    """The JSON object of a weight file and its ``topics``, after the checks every topic weight file shares: JSON, an
    object, the declared ``format`` ``fmt``, a non-empty list of distinct topic ids, all known to the taxonomy."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise TopicModelError(f"{where}: not JSON ({err})") from None
    if not isinstance(raw, dict):
        raise TopicModelError(f"{where}: the file must hold a JSON object, got {type(raw).__name__}")
    if required(raw, "format", str, where, TopicModelError) != fmt:
        raise TopicModelError(f"{where}: field 'format' must be {fmt!r}, got {raw['format']!r}")
    topics = required(raw, "topics", list, where, TopicModelError)
    if not topics or not all(isinstance(t, str) and t for t in topics) or len(set(topics)) != len(topics):
        raise TopicModelError(f"{where}: field 'topics' must be a non-empty list of distinct topic ids")
    if known_topics is not None:
        unknown = [t for t in topics if t not in set(known_topics)]
        if unknown:
            raise TopicModelError(f"{where}: field 'topics' names topics the taxonomy lacks: {unknown[:5]}")
    return raw, topics


def read_topic_model(
    text: str, where: str, known_topics: Sequence[str] | None = None, fmt: str = FORMAT
) -> TopicModel:
    """A :class:`TopicModel` from the text of a weight file; ``where`` names the file in errors; ``fmt`` the format
    the file must declare (the embedding reader's file, :mod:`.embedding_reader`, has its own)."""
    raw, topics = _read_head(text, where, fmt, known_topics)
    bias = required(raw, "bias", list, where, TopicModelError)
    if len(bias) != len(topics):
        raise TopicModelError(f"{where}: field 'bias' must hold one number per topic ({len(topics)}), got {len(bias)}")
    bias_arr = np.array([finite(b, "bias", where, TopicModelError) for b in bias], dtype=np.float64)
    weights = required(raw, "weights", dict, where, TopicModelError)
    index: dict[str, int] = {}
    matrix = np.zeros((len(weights), len(topics)), dtype=np.float64)
    for row, (feat, entries) in enumerate(sorted(weights.items())):
        if not isinstance(entries, dict):
            raise TopicModelError(f"{where}: field 'weights' entry {feat!r} must map topic ids to numbers")
        for topic, w in entries.items():
            if topic not in topics:
                raise TopicModelError(f"{where}: field 'weights' entry {feat!r} names unknown topic {topic!r}")
            matrix[row, topics.index(topic)] = finite(w, f"weights.{feat}", where, TopicModelError)
        index[feat] = row
    combine = required(raw, "combine", dict, where, TopicModelError)
    add_above, veto_below, confirm_above = (
        finite(required(combine, name, (int, float), f"{where} combine", TopicModelError), f"combine.{name}", where,
               TopicModelError)
        for name in ("add_above", "veto_below", "confirm_above")
    )
    if not (0.0 <= veto_below <= add_above) or not (0.0 <= confirm_above <= 1.0):
        raise TopicModelError(
            f"{where}: field 'combine' needs 0 <= veto_below <= add_above and 0 <= confirm_above <= 1, "
            f"got veto_below {veto_below}, add_above {add_above}, confirm_above {confirm_above}"
        )
    def optional_bar(name: str) -> float | None:
        if name not in combine:
            return None
        value = combine[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TopicModelError(f"{where}: field 'combine.{name}' must be a number, got {value!r}")
        value = finite(value, f"combine.{name}", where, TopicModelError)
        if not (veto_below <= value <= 1.0):
            raise TopicModelError(f"{where}: field 'combine.{name}' needs veto_below <= {name} <= 1, got {value!r}")
        return value

    add_alone_above = optional_bar("add_alone_above")
    if add_alone_above is not None and add_alone_above > add_above:
        raise TopicModelError(f"{where}: field 'combine.add_alone_above' needs add_alone_above <= add_above, "
                              f"got {add_alone_above!r}")
    add_frame_above = optional_bar("add_frame_above")
    add_before_above = optional_bar("add_before_above")
    cue_features = required(raw, "cue_features", bool, where, TopicModelError)
    return TopicModel(tuple(topics), index, matrix, bias_arr, add_above, veto_below, confirm_above, cue_features,
                      add_alone_above, add_frame_above, add_before_above)


def topic_model_text(model: dict) -> str:
    """A model file's text as the fitting scripts write it (``scripts/fit_topic_model.py``,
    ``scripts/fit_fact_topic_model.py``): the header on one line, then one feature a line, so that a diff of a refit
    shows which features changed; :func:`read_topic_model` reads it back."""
    head = {k: v for k, v in model.items() if k != "weights"}
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "weights": {']
    lines += [f"{json.dumps(f)}: {json.dumps(row, sort_keys=True)}," for f, row in sorted(model["weights"].items())]
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}}\n"


READER_FORMAT = "mentalhospital-topic-reader/1"


@dataclass(frozen=True)
class TopicReader:
    """The patient's topic reader (stop 46): one multi-label logistic regression over the sparse features of
    :func:`reading_features` and the static sentence vectors of the utterance and of the previous turn
    (:func:`sentence_vectors`); a topic is read where its probability reaches its threshold, the model deciding alone
    (the cue phrases are among its features, never an override). ``dense`` is ``(2 * dimension, n_topics)``: the
    utterance's rows, then the previous turn's."""

    topics: tuple[str, ...]
    index: dict[str, int]
    weights: np.ndarray  # (n_features, n_topics)
    dense: np.ndarray  # (2 * dimension, n_topics)
    bias: np.ndarray  # (n_topics,)
    thresholds: np.ndarray  # (n_topics,)
    dimension: int

    def logits(self, feats: Sequence[str], utterance: np.ndarray, context: np.ndarray | None) -> np.ndarray:
        rows = [self.index[f] for f in feats if f in self.index]
        z = self.bias + (self.weights[rows].sum(axis=0) if rows else 0.0)
        z = z + utterance.astype(np.float64) @ self.dense[: self.dimension]
        if context is not None:
            z = z + context.astype(np.float64) @ self.dense[self.dimension:]
        return z

    def probabilities(self, feats: Sequence[str], utterance: np.ndarray, context: np.ndarray | None) -> dict[str, float]:
        """Each topic's probability."""
        p = 1.0 / (1.0 + np.exp(-self.logits(feats, utterance, context)))
        return dict(zip(self.topics, p.tolist()))

    def above(self, probs: dict[str, float]) -> list[str]:
        """The topics read from :meth:`probabilities`: those at their threshold or above, most probable first."""
        return sorted((t for t, bar in zip(self.topics, self.thresholds) if probs[t] >= bar), key=lambda t: (-probs[t], t))


def read_topic_reader(text: str, where: str, known_topics: Sequence[str] | None = None) -> TopicReader:
    """A :class:`TopicReader` from the text of its file (``data/topic_model.json``); ``where`` names the file in
    errors. The file holds ``topics``, ``bias``, ``thresholds`` (topic id to probability; a topic not named reads at
    ``threshold``), ``dimension``, and ``weights``: the sparse features and one feature per vector dimension,
    ``v:u<i>`` for the utterance and ``v:c<i>`` for the previous turn."""
    raw, topics = _read_head(text, where, READER_FORMAT, known_topics)
    column = {t: i for i, t in enumerate(topics)}
    bias = required(raw, "bias", list, where, TopicModelError)
    if len(bias) != len(topics):
        raise TopicModelError(f"{where}: field 'bias' must hold one number per topic ({len(topics)}), got {len(bias)}")
    bias_arr = np.array([finite(b, "bias", where, TopicModelError) for b in bias], dtype=np.float64)
    dimension = required(raw, "dimension", int, where, TopicModelError)
    if isinstance(dimension, bool) or dimension < 1:
        raise TopicModelError(f"{where}: field 'dimension' must be a positive integer, got {dimension!r}")
    default = finite(required(raw, "threshold", (int, float), where, TopicModelError), "threshold", where,
                     TopicModelError)
    named = required(raw, "thresholds", dict, where, TopicModelError)
    thresholds = np.full(len(topics), default, dtype=np.float64)
    for topic, bar in named.items():
        if topic not in column:
            raise TopicModelError(f"{where}: field 'thresholds' names unknown topic {topic!r}")
        thresholds[column[topic]] = finite(bar, f"thresholds.{topic}", where, TopicModelError)
    if not ((thresholds > 0.0) & (thresholds < 1.0)).all():
        raise TopicModelError(f"{where}: fields 'threshold' and 'thresholds' must lie strictly between 0 and 1")
    weights = required(raw, "weights", dict, where, TopicModelError)
    sparse = sorted(f for f in weights if not f.startswith("v:"))
    index = {f: i for i, f in enumerate(sparse)}
    matrix = np.zeros((len(sparse), len(topics)), dtype=np.float64)
    dense = np.zeros((2 * dimension, len(topics)), dtype=np.float64)
    for feat, entries in weights.items():
        if not isinstance(entries, dict):
            raise TopicModelError(f"{where}: field 'weights' entry {feat!r} must map topic ids to numbers")
        if feat.startswith("v:"):
            part, number = feat[2:3], feat[3:]
            if part not in ("u", "c") or not number.isdigit() or int(number) >= dimension:
                raise TopicModelError(f"{where}: vector feature {feat!r} is not v:u<i> or v:c<i> with i < {dimension}")
            row = dense[int(number) + (dimension if part == "c" else 0)]
        else:
            row = matrix[index[feat]]
        for topic, w in entries.items():
            if topic not in column:
                raise TopicModelError(f"{where}: field 'weights' entry {feat!r} names unknown topic {topic!r}")
            row[column[topic]] = finite(w, f"weights.{feat}", where, TopicModelError)
    return TopicReader(tuple(topics), index, matrix, dense, bias_arr, thresholds, dimension)


@lru_cache(maxsize=1)
def _vector_table():
    from mentalhospital_env.rewards.reader import default_reader

    return default_reader()


def sentence_vectors(utterance: str, context: str | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The static unit vectors the topic reader reads of the utterance and of the previous turn (``None`` without
    one): the word-piece table distilled from the Universal Sentence Encoder at stop 44, shipped for the entailment
    reader (``mentalhospital_env/rewards/data/entailment_reader.npz``; microseconds a sentence, no optional
    dependency)."""
    table = _vector_table()
    if table is None:
        raise TopicModelError("mentalhospital_env/rewards/data/entailment_reader.npz is missing: the topic reader's "
                              "sentence vectors are not shipped")
    u = table.encode([utterance])[0]
    return u, (table.encode([context])[0] if context else None)


def load_topic_model_file(path: Path, known_topics: Sequence[str] | None = None) -> TopicModel:
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise TopicModelError(f"{path}: cannot be read ({err})") from None
    return read_topic_model(text, str(path), known_topics)


@lru_cache(maxsize=1)
def load_topic_reader() -> TopicReader | None:
    """The shipped topic reader (``data/topic_model.json``, fitted by ``scripts/fit_topic_model.py``), or ``None``
    where none is shipped (the cues' reading then stands)."""
    from mentalhospital_env.patient.understanding import load_taxonomy

    res = resources.files(__package__).joinpath("data/topic_model.json")
    if not res.is_file():
        return None
    known = [t.id for t in load_taxonomy().topics]
    return read_topic_reader(res.read_text("utf-8"), "mentalhospital_env/patient/data/topic_model.json", known)


@lru_cache(maxsize=1)
def load_follow_model() -> TopicModel | None:
    """The shipped follow model (``data/follow_model.json``, fitted by ``scripts/fit_follow_model.py``): one topic,
    ``follows``, the probability that a doctor's question leans on the previous turn and asks about its topics too;
    its ``combine.add_above`` is where the previous turn's topics are carried, ``combine.veto_below`` where the cue
    rule's carrying is undone. ``None`` where none is shipped."""
    res = resources.files(__package__).joinpath("data/follow_model.json")
    if not res.is_file():
        return None
    return read_topic_model(res.read_text("utf-8"), "mentalhospital_env/patient/data/follow_model.json", ("follows",))


@lru_cache(maxsize=1)
def load_fact_topic_model() -> tuple[TopicModel, frozenset[str]] | None:
    """The shipped fact filing model (``data/fact_topic_model.json``, fitted by ``scripts/fit_fact_topic_model.py``)
    and the topics it never drops (``combine.keep``), or ``None`` where none is shipped."""
    from mentalhospital_env.patient.understanding import load_taxonomy

    res = resources.files(__package__).joinpath("data/fact_topic_model.json")
    if not res.is_file():
        return None
    where = "mentalhospital_env/patient/data/fact_topic_model.json"
    known = [t.id for t in load_taxonomy().topics]
    text = res.read_text("utf-8")
    model = read_topic_model(text, where, known)
    keep = json.loads(text)["combine"].get("keep", [])
    if not isinstance(keep, list) or not all(isinstance(t, str) and t in known for t in keep):
        raise TopicModelError(f"{where}: field 'combine.keep' must list topic ids of the taxonomy")
    return model, frozenset(keep)
