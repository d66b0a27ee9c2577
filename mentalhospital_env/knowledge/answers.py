"""How a patient's reply answers a clinician's question: the findings it affirms, the ones it denies, and the
ones the question asked about that a bare "yes" or "no" answers (``data/answers.json``).

:func:`read_reply` reads a reply as a clinician would. A finding the reply names counts as affirmed or denied
by the lexicon's negation reading (``mentalhospital_env.knowledge.lexicon``), and only when the clause names the
patient (``language.clauses``: "my mother had depression" is not the patient's depression). A finding the
question asked about that the reply does not name is answered by the reply's opening: a denial ("Not really,
no.") denies it, an affirmation ("Yes, most days.") affirms it, anything else ("I can't concentrate." to a
question about appetite, "I'm not sure.") leaves it unanswered. Only a closed question ("Do you ...?"), or an open
one about a sensitive finding (suicidal thoughts, self-harm: "What thoughts like that have you had?" "No, never."), is
answered by a bare yes or no, and only by an opener that is its whole clause ("No, not really." yes; "I do drive."
or "No idea." no). Uncertain clauses affirm and deny nothing.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .language import clauses, has_cue, leading_openers, memo_size, tokenize
from .lexicon import listed_denials, load_lexicon

_SENTENCE = re.compile(r"(?<=[.!?;])\s+")


@dataclass(frozen=True)
class ReplyReading:
    """What one reply says of the patient: concept ids affirmed, denied, and asked but left unanswered."""

    affirmed: frozenset[str]
    denied: frozenset[str]
    unanswered: frozenset[str]


@lru_cache(maxsize=1)
def _openers() -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    raw = json.loads(resources.files(__package__).joinpath("data", "answers.json").read_text("utf-8"))
    for key in ("affirming_openers", "denying_openers"):
        value = raw.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            from .errors import KnowledgeError

            raise KnowledgeError("answers.json", None, key, "must be a list of non-empty strings")

    def phrases(key: str) -> tuple[tuple[str, ...], ...]:
        return tuple(sorted({tuple(tokenize(p)) for p in raw[key]}, key=len, reverse=True))

    return phrases("affirming_openers"), phrases("denying_openers")


@lru_cache(maxsize=1)
def _thought_openers() -> tuple[tuple[tuple[str, ...], ...], frozenset[str]]:
    """(``thought_openers`` longest first, ``thought_findings``) of ``answers.json``: "The thought crosses my mind"
    affirms a thought that was asked about, never an act."""
    raw = json.loads(resources.files(__package__).joinpath("data", "answers.json").read_text("utf-8"))
    for key in ("thought_openers", "thought_findings"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            from .errors import KnowledgeError

            raise KnowledgeError("answers.json", None, key, "must be a list of non-empty strings")
    lexicon = load_lexicon()
    unknown = [c for c in raw.get("thought_findings", []) if c not in lexicon]
    if unknown:
        from .errors import KnowledgeError

        raise KnowledgeError("answers.json", None, "thought_findings", f"unknown concepts {unknown}")
    phrases = tuple(sorted({tuple(tokenize(p)) for p in raw.get("thought_openers", ())}, key=len, reverse=True))
    return phrases, frozenset(raw.get("thought_findings", ()))


def thought_affirmed(reply: str) -> bool:
    """Whether the reply's first sentence opens with a whole-clause ``thought_openers`` phrase ("The thought crosses
    my mind, but I wouldn't act on it."): a yes to a question about a thought (suicidal ideation), no answer to one
    about an act (self-harm)."""
    first = next((s for s in _SENTENCE.split(reply.strip()) if tokenize(s)), "")
    if not first or has_cue(first, "uncertainty"):
        return False
    tokens = _opening(first)
    ends = _clause_ends(first[leading_openers(first):])
    return any(tokens[: len(p)] == p and len(p) in ends for p in _thought_openers()[0])


def _opening(sentence: str) -> tuple[str, ...]:
    return tuple(tokenize(sentence[leading_openers(sentence) :]))


def answer_polarity(reply: str) -> str | None:
    """``"yes"``, ``"no"`` or ``None``: how the reply's first sentence answers a yes/no question."""
    first = next((s for s in _SENTENCE.split(reply.strip()) if tokenize(s)), "")
    if not first or has_cue(first, "uncertainty"):
        return None
    tokens = _opening(first)
    ends = _clause_ends(first[leading_openers(first):])
    affirming, denying = _openers()
    # an opener answers only when it is the whole of its clause ("No, not really." "I do."): "I do drive.",
    # "No idea, sorry." or "I don't drink in the week" speak of something else
    for phrase in denying:
        if tokens[: len(phrase)] == phrase and len(phrase) in ends:
            return "no"
    for phrase in affirming:
        if tokens[: len(phrase)] == phrase and len(phrase) in ends:
            return "yes"
    return None


def _only_bare(reply: str) -> bool:
    """Whether the reply is a bare yes or no and nothing more ("No, never." "Nope."; not "As I said, no. I've never had
    thoughts of ending my life.", which answers another question)."""
    tokens = _opening(reply)
    for phrases in _openers():  # "No, never." is two bare denials, "Yes, yes." two affirmations
        rest = tokens
        while rest:
            phrase = next((p for p in phrases if rest[: len(p)] == p), None)  # longest first
            if phrase is None:
                break
            rest = rest[len(phrase) :]
        if tokens and not rest:
            return True
    return False


def _asked_openly(question: str) -> set[str]:
    """The sensitive findings an open question asks about ("Sometimes when people feel this low, they have thoughts that
    life is not worth living. What thoughts like that have you had?"): a bare "No, never." denies them, as a clinician
    hears it (an open question about enjoyment answered "Nothing." affirms anhedonia, so only the sensitive ones)."""
    lexicon = load_lexicon()
    return {c for c in asked_about(question) if c in lexicon and lexicon.get(c).sensitive}


def _clause_ends(sentence: str) -> frozenset[int]:
    """Token counts at which a clause of ``sentence`` ends (a comma, dash or the sentence's end)."""
    out = set()
    count = 0
    for part in re.split(r"(,|\s-\s)", sentence):
        if part in (",",) or part.strip() == "-":
            out.add(count)
            continue
        count += len(tokenize(part))
    out.add(count)
    return frozenset(out)


_CLOSED = re.compile(r"^(?:do|does|did|have|has|had|are|is|was|were|can|could|would|will|any)\b", re.IGNORECASE)


def closed_question(utterance: str) -> str | None:
    """The utterance's last question when it asks for a yes or no ("Do you ever hear voices ...?"); the
    reflections and validations before it are the doctor's words, not what was asked."""
    questions = [q for q in re.split(r"(?<=[.!?])\s+", utterance.strip()) if q.endswith("?")]
    return questions[-1] if questions and _CLOSED.match(questions[-1].strip()) else None


def patient_findings(text: str) -> list[tuple[str, bool]]:
    """(concept id, negated) for each finding ``text`` states of the patient (not of a relative), certainly (no
    uncertainty cue in its clause), denial lists read through. Remembered per text: the offline judge reads a
    case's facts and each reply of a chart several times."""
    return list(_patient_findings(text))


@lru_cache(maxsize=memo_size(8192))
def _patient_findings(text: str) -> tuple[tuple[str, bool], ...]:
    lexicon = load_lexicon()
    found = lexicon.find(text)
    if not found:
        return ()
    listed = listed_denials(text, found, lambda m: m.negated)
    parts = clauses(text)
    tokens = tokenize(text)
    out = []
    for m in found:
        clause = next((c for c in parts if c.start <= m.start < c.end), None)
        if clause is not None and clause.subject == "other":
            continue
        if clause is not None and has_cue(" ".join(tokens[clause.start : clause.end]), "uncertainty"):
            continue
        out.append((m.concept_id, m.negated or m.start in listed))
    return tuple(out)


@lru_cache(maxsize=1)
def _question_index() -> tuple[tuple[str, str], ...]:
    """(question in lower case, concept id) for every question the lexicon gives a concept."""
    return tuple((q.lower().strip(), c.id) for c in load_lexicon().concepts for q in c.questions if q.strip())


@lru_cache(maxsize=memo_size(8192))
def asked_about(utterance: str) -> frozenset[str]:
    """Concepts whose own lexicon question the utterance asks ("How is your concentration ...?" is the
    question of poor concentration though it names no symptom)."""
    low = utterance.lower()
    return frozenset(c for q, c in _question_index() if q in low)


@lru_cache(maxsize=memo_size(8192))
def read_reply(question: str, reply: str) -> ReplyReading:
    """Read ``reply`` as the answer to ``question`` (see the module docstring; remembered by the pair)."""
    affirmed: set[str] = set()
    denied: set[str] = set()
    for concept, negated in patient_findings(reply):
        (denied if negated else affirmed).add(concept)
    # a finding both affirmed and denied in one reply ("I'm not forgetful. I don't know what day it is") stays both;
    # a bare yes or no answers only a closed question, and only for the finding that question asks about (not the
    # words of a reflection before it: "It sounds like can't sleep has been hard. Have you ...?")
    closed = closed_question(question)
    if closed:
        asked = set(asked_about(closed)) - affirmed - denied
    else:  # an open question: only a reply that is a bare answer and nothing more ("No, never.") answers it
        asked = _asked_openly(question) - affirmed - denied if _only_bare(reply) else set()
    unanswered: set[str] = set()
    if asked:
        polarity = answer_polarity(reply)
        if polarity == "yes":
            affirmed |= asked
        elif polarity == "no":
            denied |= asked
        elif thought_affirmed(reply):
            thoughts = asked & _thought_openers()[1]
            affirmed |= thoughts
            unanswered |= asked - thoughts
        else:
            unanswered |= asked
    return ReplyReading(frozenset(affirmed), frozenset(denied), frozenset(unanswered))


__all__ = ["ReplyReading", "answer_polarity", "asked_about", "closed_question", "patient_findings", "read_reply", "thought_affirmed"]
