"""Decide: what of the recalled answer this patient says now.

The third room of the patient. The persona (:func:`persona_for`: verbosity, guardedness, insight,
speech traits of the case's disorders, ``data/styles.json``) and :class:`Rapport` (state across the
encounter: empathic turns raise it, curt or judgemental ones lower it) decide whether sensitive facts
may be told yet (:meth:`Rapport.allows`), how much of a many-part question is answered
(:func:`partial`) and which facts stay on the question (:func:`focus`).
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

from mentalhospital_env.cases import Case
from mentalhospital_env.cases.model import Persona
from mentalhospital_env.knowledge.language import content_stems, stems, tokenize

from .reading import _holds, _phrase_stems, cosine, load_memory_cues
from .reading import FAMILY_SECTION
from .recall import (
    AFFIRM,
    DENY,
    SILENT,
    TELL,
    UNKNOWN,
    WITHHELD,
    AnswerItem,
    AnswerPlan,
    FactIndex,
    IndexedFact,
    _asking,
    finding_topics,
)
from .understanding import load_taxonomy


def _data(name: str) -> dict:
    return json.loads(resources.files(__package__).joinpath(f"data/{name}").read_text("utf-8"))


@lru_cache(maxsize=1)
def load_styles() -> dict:
    """Speech traits, verbosity settings and rapport cues (``data/styles.json``), cached."""
    return _data("styles.json")


@lru_cache(maxsize=1)
def _rapport_cues() -> tuple[tuple, tuple, tuple]:
    r = load_styles()["rapport"]
    return (
        _phrase_stems(r["empathic_cues"]),
        _phrase_stems(r["curt_cues"]),
        _phrase_stems(r["judgemental_cues"]),
    )


# --------------------------------------------------------------------------------------------------
# Persona
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PersonaProfile:
    """The persona the patient plays: the case's persona plus the speech traits of its disorders."""

    verbosity: str
    guardedness: float
    insight: str
    speech_style: str | None
    informant: str | None
    traits: frozenset[str]
    facts_per_topic: int
    opener_rate: float
    tail_rate: float
    filler_rate: float
    partial_after: int
    catchphrases: tuple[str, ...] = ()
    #: most sentences of the record said in one reply (0: no limit; ``verbosity`` of ``data/styles.json``)
    most_sentences: int = 0
    #: record sections (their first part) whose facts are said whole, never cut to ``most_sentences``
    said_whole_sections: frozenset[str] = frozenset()
    #: the patient's own sayings tied to what the speech style says they are about (:func:`topic_sayings`):
    #: (saying, topics, said after a "no" only)
    sayings: tuple[tuple[str, frozenset[str], bool], ...] = ()
    #: what the persona will not talk about (:func:`refusals`): (their words for it, or None; the topics; the
    #: content stems of each thing named)
    refuses: tuple[tuple[str | None, frozenset[str], tuple[frozenset[str], ...]], ...] = ()
    #: a terse adult's own words for a topic (:func:`own_words`): (the words, said as a sentence; the topics)
    own_words: tuple[tuple[str, frozenset[str]], ...] = ()


def _runs(text: str, quotes: list[re.Match[str]]) -> dict[int, int]:
    """For each quotation, how many quotations its run of comma/or/and-joined quotations holds."""
    run_of: dict[int, int] = {}
    start = 0
    for k in range(1, len(quotes) + 1):
        if k == len(quotes) or not re.fullmatch(r"\s*(?:,\s*(?:or\s+|and\s+)?|or|and)\s*", text[quotes[k - 1].end():quotes[k].start()]):
            for j in range(start, k):
                run_of[j] = k - start
            start = k
    return run_of


#: a quotation in the persona's speech style ("answers 'it's too late'", "('That's for the Lord')")
_QUOTE = re.compile(r"(?<![A-Za-z])['\u2018\"\u201c](.+?)['\u2019\"\u201d](?![A-Za-z])")


def _as_said(phrase: str) -> str:
    """A quoted phrase as a sentence of the patient's: first letter up, a full stop unless it asks or exclaims."""
    return phrase[0].upper() + phrase[1:] + ("" if phrase[-1] in "!?" else ".")


def catchphrases(speech_style: str | None) -> tuple[str, ...]:
    """The patient's own sayings quoted in the case's speech style, said as they are: a quotation after
    a saying verb (or joined to one by "or"/"and") that is a clause of its own ("answers 'it's too
    late' or 'I don't know'" -> "It's too late.", "I don't know."; never a word the patient uses,
    "frightened of 'going mad'", nor what they want, "wants 'something for the shakes'").
    ``catchphrases`` of ``data/styles.json``: the saying verbs and the words such a clause opens with."""
    table = load_styles().get("catchphrases", {})
    verbs = "|".join(re.escape(v) for v in table.get("verbs", ()))
    openers = "|".join(re.escape(w) for w in table.get("openers", ()))
    text = speech_style or ""
    if not verbs or not openers:
        return ()
    out: list[str] = []
    said = False
    at = 0
    quotes = list(_QUOTE.finditer(text))
    # a run of three or more quotations joined by commas is a vocabulary, the words the patient uses ("he says
    # 'it', 'the crash', 'that day', 'I see her', 'the dream'"), never sayings to end a reply on: uw-014's
    # "I see her." closed three replies about mood, energy and suicide
    run_of = _runs(text, quotes)
    for k, m in enumerate(quotes):
        between = text[at:m.start()]
        clause = re.split(r"[;,.:]", between)[-1]
        said = bool(re.search(rf"\b(?:{verbs})\b", clause, re.IGNORECASE)) or (
            said and re.fullmatch(r"\s*(?:or|and|,)\s*", between) is not None)
        at = m.end()
        phrase = m.group(1).strip(" .,;")
        if said and run_of[k] < 3 and re.match(rf"(?:{openers})\b", phrase, re.IGNORECASE) and 1 < len(phrase.split()) <= 12:
            out.append(_as_said(phrase))
    return tuple(dict.fromkeys(out))


_RISK_SAYINGS = frozenset({"suicide", "self_harm", "violence"})


def topic_sayings(speech_style: str | None) -> tuple[tuple[str, frozenset[str], bool], ...]:
    """The patient's own sayings that the speech style places by what they are about: a quotation that is a
    clause of the patient's own (it opens as a saying does, ``catchphrases`` openers of ``data/styles.json``) in a
    part of the style that names a topic ("No thoughts of ending her life ('That's for the Lord')" -> suicide;
    "Irritated by talk of memory tests or care homes ('I know where I put things')" -> memory; "Talks more easily
    about the checking ... ('I know it's daft')" -> the checking), with or without a saying verb. Each is said only
    to a question on its topics; one whose part of the style is a denial ("No ...", "Denies ...") only after a
    "no". Not a catchphrase already (said with no topic), never a vocabulary (a run of three or more quotations,
    "'mate', 'to be fair', 'it's nothing', 'that's it really'"). uw-029 and uw-028 (stops 54-55): the author's quoted sayings were never said, since no
    saying verb stood before them."""
    text = speech_style or ""
    table = load_styles().get("catchphrases", {})
    openers = "|".join(re.escape(w) for w in table.get("openers", ()))
    denial = table.get("denial_context")
    if not text or not openers:
        return ()
    from .understanding import record_topics, understand

    plain = set(catchphrases(text))
    out: dict[str, tuple[str, frozenset[str], bool]] = {}
    quotes = list(_QUOTE.finditer(text))
    run_of = _runs(text, quotes)
    for k, m in enumerate(quotes):
        phrase = m.group(1).strip(" .,;")
        words = phrase.split()
        if run_of[k] >= 3 or not re.match(rf"(?:{openers})\b", phrase, re.IGNORECASE) or not 2 < len(words) <= 14:
            continue  # a run of three or more is the words the patient uses ("'I dey kampe', 'na small', ...")
        said = _as_said(phrase)
        if said in plain or said in out:
            continue
        # the part of the style it sits in: back to the last sentence end or semicolon, other quotations left out;
        # a part of under three words ("...; 'I am not mad, Doctor'", "...; then tearful: 'I'd never ...'") is how
        # it is said, not what about: read with the part before it
        before = _QUOTE.sub("x", text[: m.start()])  # "... 'Doctor'. No thoughts" still ends a sentence
        parts = re.split(r"(?<=[a-z)\]'\u2019])\.\s+|;\s*", before)
        context = parts[-1]
        if len(re.findall(r"[A-Za-z]{2,}", context)) < 3 and len(parts) > 1:
            context = parts[-2]  # "then tearful" is no topic (mood) of the saying
        topics = frozenset(understand(context.strip(" (:,")).topics) - {"greeting", "closing", "rapport"}
        own = frozenset(record_topics("", said)) & _RISK_SAYINGS
        if own:
            # a saying whose own words name a risk is about that risk, whatever the style says before it: uw-035's
            # "Minimises: 'I scratch sometimes, it's nothing'" came after his medicine and was said after his list of
            # medicines; "on bad nights 'I'd rather be dead than be like that'" was tacked onto his sleep (stop 62)
            topics = own
        if not topics:
            continue
        after_no = bool(denial and re.match(denial, context.strip(" (:,"), re.IGNORECASE))
        out[said] = (said, topics, after_no)
    return tuple(out.values())


def refusals(speech_style: str | None) -> tuple[tuple[str | None, frozenset[str], tuple[frozenset[str], ...]], ...]:
    """What the speech style says the patient will not talk about (``refuses`` of ``data/styles.json``): for each
    cue ("Will not talk about"), the words after it up to the next semicolon or sentence end, read as the topics
    they name, the things they name one by one (the content stems of each "or"-joined part: "hurting himself",
    "hitting his head", "the funeral") and the quotation given there as the patient's words ("Will not talk about
    hurting himself or hitting his head ('No. Stop.') or about the funeral" -> "No. Stop."), or None where none is
    quoted."""
    text = speech_style or ""
    cues = load_styles().get("refuses", {}).get("cues", ())
    if not text or not cues:
        return ()
    from .understanding import understand

    # quotations masked, so that "('No. Stop.')" ends no sentence
    masked = _QUOTE.sub(lambda q: "x" * len(q.group(0)), text)
    out = []
    for cue in cues:
        for m in re.finditer(cue, masked, re.IGNORECASE):
            end = re.search(r";|(?<=[a-z)])\.(?:\s|$)", masked[m.end():])
            clause = text[m.end(): m.end() + end.start() if end else len(text)]
            quote = _QUOTE.search(clause)
            plain = _QUOTE.sub(" ", clause).strip(" (),")
            topics = frozenset(understand(plain).topics) - {"greeting", "closing", "rapport", "other"}
            things = tuple(frozenset(c) for part in re.split(r"\bor\b|\band\b|,", plain) if (c := content_stems(part)))
            if topics or things:
                out.append((_as_said(quote.group(1).strip(" .,;")) if quote else None, topics, things))
    return tuple(out)


def own_words(speech_style: str | None) -> tuple[tuple[str, frozenset[str]], ...]:
    """A terse adult's own words for a topic (``own_words`` of ``data/styles.json``), where the speech style lists
    what he says now: in the part opening ``section`` ("Current:"), up to ``end``, each quotation of at most
    ``most_words`` words after at most ``most_before`` words that name its topic ("sleeping 'bit better'" -> sleep),
    or after none and naming its own ("'bit sad'" -> mood); never one of a run of three or more, nor one after a
    saying verb of ``catchphrases``."""
    text = speech_style or ""
    rule = load_styles().get("own_words")
    if not text or not rule:
        return ()
    start = re.search(rule["section"], text)
    if start is None:
        return ()
    from .understanding import understand

    stop = re.search(rule["end"], text[start.end():])
    part = text[start.end(): start.end() + stop.start() if stop else len(text)]
    quotes = list(_QUOTE.finditer(part))
    run_of = _runs(part, quotes)
    masked = _QUOTE.sub(lambda q: "\x00" * len(q.group(0)), part)
    verbs = load_styles().get("catchphrases", {}).get("verbs", ())
    out: dict[str, frozenset[str]] = {}
    for k, m in enumerate(quotes):
        before = masked[: m.start()]
        lead = before[max(before.rfind(c) for c in ";,.:(\x00") + 1:].strip()
        words = m.group(1).strip(" .,;")
        if run_of[k] >= 3 or len(lead.split()) > int(rule["most_before"]) or len(words.split()) > int(rule["most_words"]):
            continue
        if any(re.search(rf"\b{re.escape(v)}\b", lead, re.IGNORECASE) for v in verbs):
            continue  # "answers 'tired'": how he answers, not what of
        topics = frozenset(understand(lead or words).topics) - {"greeting", "closing", "rapport", "other"}
        if topics:
            out.setdefault(_as_said(words), topics)
    return tuple(out.items())


def _refused(fact: IndexedFact, persona: PersonaProfile) -> bool:
    """Whether a fact is on something the persona will not talk about: filed under a refused topic, or naming
    every content word of a thing refused ("hit his head with right palm 5 times", filed under violence only)."""
    return any(_names(fact, topics, things) for _, topics, things in persona.refuses)


def _names(fact: IndexedFact, topics: frozenset[str], things: tuple[frozenset[str], ...]) -> bool:
    stems = set(content_stems(fact.fact.text))
    return bool(set(fact.topics) & topics) or any(thing <= stems for thing in things)


def refused_words(item: AnswerItem, persona: PersonaProfile, index: FactIndex) -> str | None:
    """The patient's own words for not talking about what ``item`` is about (:func:`refusals`), where it is on
    something they refuse and the style quotes them; None otherwise."""
    own = _item_topics(item, index)
    for words, topics, things in persona.refuses:
        if words and (topics & own or any(_names(f, topics, things) for f in item.facts)):
            return words
    return None


def _item_topics(item: AnswerItem, index: FactIndex) -> set[str]:
    """The topics an answer item is about: its subject's (a topic, or a finding's topics)."""
    if item.subject in load_taxonomy().by_id:
        return {item.subject}
    if item.subject in index.lexicon:
        return set(finding_topics(item.subject, index.lexicon))
    return set()


def refuse(plan: AnswerPlan, persona: PersonaProfile, index: FactIndex) -> AnswerPlan:
    """The plan with what the persona will not talk about (:func:`refusals`) held back, whatever the rapport: an
    item on a refused topic is withheld (said in their own words for it: :func:`refused_words`), and a fact on
    something refused recalled for another question is left out ("When you are angry, what goes through your
    mind?" is not answered "I hit my head with right palm 5 times." by a man who will not talk about hitting his
    head, uw-030); an item left with nothing is withheld. The same plan object when nothing is refused."""
    if not persona.refuses or plan.refusal is not None or not plan.items:
        return plan
    closed = frozenset().union(*(topics for _, topics, _ in persona.refuses))
    items: list[AnswerItem] = []
    emptied: list[AnswerItem] = []  # items of another subject left with nothing once the refused facts went
    changed = False
    for item in plan.items:
        if item.silent or item.stance == WITHHELD:
            items.append(item)
            continue
        kept = tuple(f for f in item.facts if not _refused(f, persona))
        if _item_topics(item, index) & closed:
            # asked about it: refused, and said beside whatever else is answered (left out, a "no" to the rest would
            # read as a "no" to it)
            items.append(AnswerItem(WITHHELD, item.subject, item.facts, True, item.about_other))
            changed = True
        elif item.facts and not kept:
            emptied.append(AnswerItem(WITHHELD, item.subject, item.facts, True, item.about_other))
            changed = True
        elif len(kept) != len(item.facts):
            items.append(replace(item, facts=kept))
            changed = True
        else:
            items.append(item)
    if not changed:
        return plan
    if not any(not i.silent for i in items):
        items += emptied  # nothing else to say: the refusal is the answer ("When you are angry ...?" - "No. Stop.")
    return replace(plan, items=tuple(items))


def narrative_manner(case: Case) -> Persona | None:
    """A persona read from how a narrative record describes the patient's manner, for a record that
    gives none (``narrative_manner`` of ``data/styles.json``): the examination's speech and behaviour
    text is the speech style (its words name traits: "gruff", "slow", "guarded"), words such as
    "monosyllabic" or "garrulous" set the verbosity, and "guarded" or "suspicious" the guardedness."""
    if case.persona is not None:
        return None
    table = load_styles().get("narrative_manner")
    if not table:
        return None
    text = " ".join(t for section, t in case.ehr.sections() if section in table["sections"]).strip()
    if not text:
        return None
    low = text.lower()
    verbosity = next((v for v, words in table["verbosity"].items() if any(re.search(rf"\b{re.escape(w)}\b", low) for w in words)),
                     "average")
    guarded = any(re.search(rf"\b{re.escape(w)}\b", low) for w in table["guarded"])
    base = Persona()
    return replace(base, verbosity=verbosity, speech_style=text,
                   guardedness=max(float(base.guardedness), float(table["guardedness"])) if guarded else base.guardedness)


def persona_for(case: Case) -> PersonaProfile:
    """Derive the persona: verbosity and guardedness from the case (or from how a narrative record
    describes the patient's manner), traits from disorders and speech style."""
    styles = load_styles()
    persona = narrative_manner(case) or case.effective_persona
    traits: set[str] = set()
    for disorder in case.diagnosis.disorders:
        for prefix, named in styles["by_code"].items():
            if disorder.code.upper().startswith(prefix.upper()):
                traits.update(named)
    for category in case.diagnosis.categories:
        traits.update(styles["by_category"].get(category, ()))
    for word in tokenize(persona.speech_style or ""):
        if word in styles["by_style_word"]:
            traits.add(styles["by_style_word"][word])
    style = (persona.speech_style or "").lower()
    # a trait named in more than one word ("hard of hearing") or by the words the author quotes as the patient's
    # own ("'nowt', 'summat'", "'Duw, Duw', 'cariad'"): the dialect the style shows rather than names
    for phrase, trait in styles.get("by_style_phrase", {}).items():
        if not phrase.startswith("_") and re.search(rf"\b{re.escape(phrase)}\b", style):
            traits.add(trait)
    quoted = " | ".join(m.group(1).lower() for m in _QUOTE.finditer(persona.speech_style or ""))
    for phrase, trait in styles.get("by_quoted_word", {}).items():
        if not phrase.startswith("_") and re.search(rf"\b{re.escape(phrase)}\b", quoted):
            traits.add(trait)
    verbosity = persona.verbosity
    if case.demographics.age < 13:
        verbosity = "terse"  # a child answers in few words; the parent present tells the history
    if "impoverished" in traits:
        verbosity = "terse"
    elif "pressured" in traits and verbosity == "terse":
        verbosity = "average"
    table = styles["verbosity"][verbosity]
    return PersonaProfile(
        verbosity=verbosity,
        guardedness=float(persona.guardedness),
        insight=persona.insight,
        speech_style=persona.speech_style,
        informant=persona.informant,
        traits=frozenset(traits),
        facts_per_topic=int(table["facts_per_topic"]),
        opener_rate=float(table["opener_rate"]),
        tail_rate=float(table["tail_rate"]),
        filler_rate=float(table["filler_rate"]),
        partial_after=int(table["partial_after"]),
        catchphrases=catchphrases(persona.speech_style),
        most_sentences=int(table.get("most_sentences", 0)),
        said_whole_sections=frozenset(styles.get("said_whole_sections", ())),
        sayings=topic_sayings(persona.speech_style),
        refuses=refusals(persona.speech_style),
        # a terse adult's own few words (a child's are the child's voice as it was; uw-030)
        own_words=own_words(persona.speech_style) if verbosity == "terse" and case.demographics.age >= 18 else (),
    )


# --------------------------------------------------------------------------------------------------
# Rapport
# --------------------------------------------------------------------------------------------------


class Rapport:
    """Rapport between doctor and patient, 0..1, as state across the encounter.

    ``hear(utterance)`` reads the doctor's tone from the cue phrases of ``data/styles.json``:
    validating, empathic turns raise rapport; curt ones lower it; judgemental ones lower it more.
    ``allows(sensitive)`` opens sensitive facts when rapport is at least the persona's guardedness.
    """

    def __init__(self, guardedness: float):
        cfg = load_styles()["rapport"]
        self.threshold = float(guardedness)
        self.start = float(cfg["start"])
        self._steps = (float(cfg["empathic_step"]), float(cfg["curt_step"]), float(cfg["judgemental_step"]))
        self._bounds = (float(cfg["floor"]), float(cfg["ceiling"]))
        self.value = self.start

    def reset(self) -> None:
        self.value = self.start

    def hear(self, utterance: str) -> str | None:
        """Update rapport from one doctor turn; return its tone (``empathic``, ``curt``, ``judgemental`` or ``None``)."""
        stemmed = stems(utterance)
        empathic, curt, judgemental = _rapport_cues()
        up, down, harsh = self._steps
        tone = None
        delta = 0.0
        if _holds(stemmed, judgemental):
            delta, tone = -harsh, "judgemental"
        elif _holds(stemmed, curt):
            delta, tone = -down, "curt"
        elif _holds(stemmed, empathic):
            delta, tone = up, "empathic"
        lo, hi = self._bounds
        self.value = min(hi, max(lo, self.value + delta))
        return tone

    def allows(self, sensitive: bool) -> bool:
        return not sensitive or self.value >= self.threshold - 1e-9


# --------------------------------------------------------------------------------------------------
# Partial answers and focus
# --------------------------------------------------------------------------------------------------


def partial(plan: AnswerPlan, persona: PersonaProfile) -> tuple[AnswerPlan, bool]:
    """Answer only as many things as this persona takes in at once when asked about many (3+)."""
    limit = persona.partial_after
    if plan.question.items_asked <= max(2, limit) or len(plan.items) <= limit:
        return plan, False
    # what the patient has (affirmed, told, held back) comes to mind before what they lack
    order = sorted(plan.items, key=lambda i: 0 if i.stance in (AFFIRM, TELL, WITHHELD) else 1)
    return replace(plan, items=tuple(order[:limit])), True


def focus(plan: AnswerPlan, persona: PersonaProfile, index: FactIndex, similarity: float = 0.2) -> AnswerPlan:
    """Keep the answer on the question: facts that do not answer what was asked are left out.

    A fact is on point when it states a concept asked, or is lexically close to the question
    (cosine of idf-weighted stems at least ``similarity``); the first fact of each topic asked
    answers that topic and is kept, unless a concept asked was already answered from that
    topic's sections ("how was your childhood?" told about childhood needs no job added).
    Open topics ("what brings you here", "anything else?") keep everything. A talkative or
    tangential persona may add one fact that is not on point; no one else adds any.
    """
    if plan.refusal is not None or not plan.items:
        return plan
    question = plan.question
    asked = set(question.concepts)
    open_topics = {t.id for t in load_memory_cues().topics if t.open}
    allowance = 1 if persona.verbosity == "talkative" or "tangential" in persona.traits else 0
    query = index.vectorize(question.text)
    topics = {t.id: t for t in load_memory_cues().topics}
    answered_sections = {
        f.section
        for i in plan.items
        if i.stance in (AFFIRM, DENY) and i.subject in asked
        for f in i.facts
    }
    items: list[AnswerItem] = []
    changed = False
    for item in plan.items:
        if item.stance != TELL or item.subject in open_topics or item.subject not in question.topics:
            items.append(item)
            continue
        keep: list[IndexedFact] = []
        for k, fact in enumerate(item.facts):
            on_point = (
                bool((fact.affirms | fact.rules_out | fact.about_other) & asked)
                or cosine(query, fact.vector) >= similarity
                or (k == 0 and not answered_sections & set(topics[item.subject].sections))
            )
            if on_point:
                keep.append(fact)
            elif allowance:
                keep.append(fact)
                allowance -= 1
        if len(keep) != len(item.facts):
            changed = True
        if keep:
            items.append(replace(item, facts=tuple(keep)))
    if not changed:
        return plan
    return replace(plan, items=tuple(items), unclear=plan.unclear or not items)


def said_again(plan: AnswerPlan, index: FactIndex | None = None, similarity: float = 0.2) -> AnswerPlan:
    """Whether what is said again is said as said before. Recall marks a plan ``again`` when all it tells
    was told earlier in the encounter, to another question; the reply then opens "Like I said, ...". A
    patient says that when the doctor asks about what they told: a fact told before that answers yes to a
    concept asked, is on a topic the question asks, states a concept asked, or shares a word of substance
    with the question ("Do you check your body?" - "Like I said, I check for lumps every day"). A sentence
    told before that is none of these (recall's nearest sentence to a question it has no answer for: "What
    do you do for enjoyment?" - "Like I said, I gave up smoking years ago"; "Why do you think they'd do
    that?" - "Like I mentioned, I live alone") is not presented as the answer already given: the opener is
    left off (``again`` false), the words stay. With the case's ``index`` the words are weighed as :func:`focus`
    weighs them (cosine of idf-weighted stems at least ``similarity``: "life" in "anything going on in your
    life" does not make "I want a normal life" its answer); without, a content word of more than three
    letters in common. The same plan object when nothing changes."""
    if not plan.again or plan.refusal is not None:
        return plan
    question = plan.question
    topics = set(question.topics)
    asked = set(plan.asked if plan.asked is not None else question.concepts)
    words = {w for w in content_stems(question.text) if len(w) > 3}  # not "day", "up": a word of substance
    query = index.vectorize(question.text) if index is not None else None

    def close(fact: IndexedFact) -> bool:
        if query is not None:
            return cosine(query, fact.vector) >= similarity
        return bool(words & set(content_stems(fact.fact.text)))

    def on_question(item: AnswerItem, fact: IndexedFact) -> bool:
        return (
            (item.stance == AFFIRM and item.subject in asked)
            or bool(set(fact.topics) & topics)
            or bool((fact.affirms | fact.rules_out) & asked)
            or close(fact)
        )

    spoken = [(i, f) for i in plan.items if i.stance in (AFFIRM, TELL) and not i.silent for f in i.facts]
    if not spoken or any(on_question(i, f) for i, f in spoken):
        return plan
    return replace(plan, again=False)


# --------------------------------------------------------------------------------------------------
# The question's focus
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _FocusKind:
    asked: tuple[re.Pattern[str], ...]
    not_asked: tuple[re.Pattern[str], ...]
    said: tuple[re.Pattern[str], ...]
    not_said: tuple[re.Pattern[str], ...]
    #: with no sentence of the subject that gives it, the patient is not sure (else the reply stands)
    unsure_when_none: bool = True


@lru_cache(maxsize=1)
def _focus_data() -> dict:
    """``data/focus.json``, read once (the kinds, the clinician's voice and the risk topics all come from it)."""
    return _data("focus.json")


@lru_cache(maxsize=1)
def _never_unsure() -> frozenset[str]:
    return frozenset(_focus_data().get("never_unsure", ()))


@lru_cache(maxsize=1)
def load_focus() -> dict[str, _FocusKind]:
    """The kinds of answer a question may ask and how a sentence gives each (``data/focus.json``), compiled."""

    def compiled(patterns) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(p, re.IGNORECASE) for p in patterns)

    return {
        kind: _FocusKind(compiled(spec.get("asked", ())), compiled(spec.get("not_asked", ())),
                         compiled(spec.get("said", ())), compiled(spec.get("not_said", ())),
                         bool(spec.get("unsure_when_none", True)))
        for kind, spec in _focus_data()["kinds"].items()
    }


@lru_cache(maxsize=1)
def _means() -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    """``focus.json`` ``means``: a question's words and the words a record sentence says the same thing in."""
    return tuple((re.compile(m["asked"], re.IGNORECASE), re.compile(m["said"], re.IGNORECASE))
                 for m in _focus_data().get("means", ()))


def _said_as(question_text: str) -> tuple[re.Pattern[str], ...]:
    """The record's words for what the question asks in its own ("try not to" - "resist")."""
    return tuple(said for asked, said in _means() if asked.search(question_text))


@lru_cache(maxsize=1)
def _clinician_voice() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in _focus_data().get("clinician_voice", ()))


def focus_asked(question) -> frozenset[str]:
    """The kinds of answer the question's asking sentences ask (``data/focus.json``): "How often does that
    happen?" a rate, "What happens if you try not to?" an effect, "When did you get out?" a time. None for a
    yes/no question (its stance answers it) and no time for a question about the present illness's own time
    (the timeline's, :meth:`Patient._when`)."""
    if question.yes_no:
        return frozenset()
    asked = _asking(question)
    kinds = set()
    for kind, spec in load_focus().items():
        if any(p.search(s) for s in asked for p in spec.asked) and not any(
                p.search(s) for s in asked for p in spec.not_asked):
            kinds.add(kind)
    if question.when is not None:
        # the present illness's time is the timeline's; a time of a subject of its own ("When did you get out?")
        # is checked here
        tax = load_taxonomy()
        others = set(question.topics) - _FOCUS_FRAMES - {"rapport", "greeting"}
        if all(t in tax.by_id and tax.kind(t) == "symptom" for t in others):
            kinds.discard("time")
    return frozenset(kinds)


def says_focus(text: str, kind: str) -> bool:
    """Whether a sentence gives the kind of answer ``kind`` (its ``said`` patterns, once its ``not_said`` matches
    are taken out: "last drink about 30 hours ago" gives a time, not an amount)."""
    spec = load_focus().get(kind)
    if spec is None:
        return False
    for p in spec.not_said:
        text = p.sub(" ", text)
    return any(p.search(text) for p in spec.said)


def gives_focus(question, text: str) -> bool:
    """Whether ``text`` gives a kind of answer the question asks by its words (:func:`focus_asked`)."""
    return any(says_focus(text, k) for k in focus_asked(question))


def _said_text(fact: IndexedFact) -> str:
    return fact.fact.patient_says or fact.fact.text


#: least closeness (cosine of idf-weighted stems) of a sentence to one told for it to be about the same thing
_SAME_THING = 0.35
_FOCUS_FRAMES = frozenset({"onset", "course", "trigger", "functioning", "help_tried", "chief_complaint"})


def on_focus(plan: AnswerPlan, index: FactIndex, disclosed=(), said: str | None = None) -> AnswerPlan:
    """The plan with what it tells checked against what the question asks (:func:`focus_asked`). Recall gives
    the sentences of the subject asked, and the one nearest in words; a sentence can share a word or the topic
    with the question and still say none of what is asked ("When you go without, what happens to the urge?" -
    "I left college without finishing"). When no sentence told gives a kind asked, the nearest sentence of the
    same subject (a topic of the question, a concept asked, or a sentence close to one told) that shares a word
    with the question and gives the kind is told instead (of two as near, one not yet told). With none, a reply
    on the subject asked stands (it says it in its own way), and one on another subject gives way to "not sure"
    (never for a kind whose ``unsure_when_none`` is false: an effect is too many things). Denials, sentences held
    back and the rest of the plan stay as they are. ``said``: the reply as worded from the plan,
    checked in place of the plan's sentences (the wording may leave out the sentence that gave the kind, or say
    a clinician's line in other words): a sentence of the plan that gives the kind is then told on its own. The
    same plan object when nothing changes."""
    if plan.refusal is not None or plan.small_talk is not None or not plan.items:
        return plan
    kinds = focus_asked(plan.question)
    if not kinds:
        return plan
    spoken = [i for i in plan.items if i.stance in (AFFIRM, TELL) and not i.silent and i.facts]
    if not spoken:
        return plan
    told = [f for i in spoken for f in i.facts]
    if said is not None:
        if any(says_focus(said, k) for k in kinds):
            return plan
    elif any(says_focus(_said_text(f), k) for f in told for k in kinds):
        return plan
    question = plan.question
    subjects = set(question.topics) - _FOCUS_FRAMES
    risk = _never_unsure()
    if subjects & risk or any(set(f.topics) & risk for f in told):
        # a disclosure of risk stands as it is said, never "not sure" nor another sentence; the risk topics are one
        # subject (self-harm asked, a suicide attempt told). Taxonomy ``related`` is too wide for this (appetite's
        # weight would let a low mood stand for an amount eaten)
        return plan
    concepts = set(question.concepts)
    about_family = any(f.section == FAMILY_SECTION for f in told)
    query = index.vectorize(question.text)
    # "What happens if you try not to do it?" shares no word with "I feel unbearable anxiety if I resist": a sentence
    # of the part of the story told that says what is asked in the record's words (focus.json means) is one too
    said_as = _said_as(question.text)
    # a sentence of the plan that gives the kind, lost in the wording, is a candidate again
    told_ids = {f.id for f in told if not any(says_focus(_said_text(f), k) for k in kinds)}
    # where the reply was on the subject asked, a sentence of it is looked for where the reply found it
    told_sections = {f.section for f in told if set(f.topics) & subjects or f.affirms & concepts} or None
    candidates = []
    for f in index.facts:
        if not f.tellable or not f.present or f.id in told_ids or f.id.startswith(SILENT):
            continue
        if any(p.search(_said_text(f)) for p in _clinician_voice()):
            continue  # a clinician's note ("asked whether ..., admitted ...") is no patient's sentence
        if f.sensitive and f.id not in disclosed and not set(f.topics) & subjects:
            continue  # a guarded fact the reply held back is not told for a word it shares with the question
        if set(f.topics) & risk and not subjects & risk:
            continue
        if (f.section == FAMILY_SECTION) != about_family:
            continue
        close = any(cosine(t.vector, f.vector) >= _SAME_THING for t in told)
        on_subject = bool(set(f.topics) & subjects or f.affirms & concepts)
        where = told_sections is None or f.section in told_sections
        meant = where and any(p.search(_said_text(f)) for p in said_as)
        if not (on_subject and where or close or meant):
            continue  # of the subject asked where it was told, or of the thing told ("my mother's diazepam"): a
            # sentence of another part of the story that names the subject in passing ("with no medication, I had
            # two weeks ...") is not about it
        closeness = cosine(query, f.vector) + (1.0 if meant else 0.0)
        if closeness <= 0:
            continue  # and shares a word of the question (or says it in the record's words)
        if not any(says_focus(_said_text(f), k) for k in kinds):
            continue
        candidates.append((-closeness, f.id in disclosed, f.position, f))
    kept = [i for i in plan.items if i not in spoken]
    if candidates:
        best = min(candidates, key=lambda c: c[:3])[3]
        items = [AnswerItem(TELL, "similar", (best,))] + kept
        return replace(plan, items=tuple(items), again=best.id in disclosed)  # told before: "Like I said, ..."
    if not any(load_focus()[k].unsure_when_none for k in kinds):
        return plan
    if not subjects or any(set(f.topics) & subjects or f.affirms & concepts for f in told):
        # a sentence on the subject asked says it in its own way ("How many hours do you sleep?" - "Sleep's been
        # terrible since."): it stands; "not sure" is for a sentence on another subject only. A question with no
        # subject of its own ("How often does that happen?" after the complaint) leaves no other subject to tell:
        # "I wake up and the sadness is already there" says every morning, "After a weekend I'm a wreck" when
        return plan
    # "not sure" of the amount or the time, not of the finding itself (a finding the record implies has its own
    # hedge, "I haven't really thought about it like that", which answers no "how often")
    unsure = AnswerItem(UNKNOWN, "focus", (), False, spoken[0].about_other)
    return replace(plan, items=tuple([unsure] + kept), again=False)


# --------------------------------------------------------------------------------------------------
# The decision
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """What decide hands to say: the plan as this patient will answer it now (sensitive facts held
    back, a many-part question cut to what the persona takes in: ``partial``), who speaks
    (``patient`` or ``informant``), the doctor's tone as heard (``empathic``, ``curt``, ``judgemental``
    or ``None``), and ``said_before``: the earlier reply to the same question, said again."""

    plan: AnswerPlan
    partial: bool = False
    speaker: str = "patient"
    tone: str | None = None
    said_before: str | None = None


# --------------------------------------------------------------------------------------------------
# The rapport gate
# --------------------------------------------------------------------------------------------------

# sections told whatever the rapport (why the patient came)
_UNGATED = ("chief_complaint",)


def gate(plan: AnswerPlan, may_disclose, disclosed, index: FactIndex) -> AnswerPlan:
    """The plan with the sensitive facts held back that rapport does not yet allow (``may_disclose(fact)``):
    never what the patient came about (a topic of the chief complaint), nor what they have already told
    in this encounter (``disclosed``). The same plan object when nothing is held back."""
    if may_disclose is None:
        return plan
    opened = _subjects_told(disclosed, index)
    items: list[AnswerItem] = []
    changed = False
    for item in plan.items:
        gated = _gate_item(
            item,
            may_disclose,
            disclosed,
            _UNGATED if item.subject == "chief_complaint" else (),
            _came_about(item, index),
            opened,
        )
        changed = changed or gated is not item
        items.append(gated)
    if not changed:
        return plan
    if any(i.stance in (AFFIRM, TELL) and i.facts and i.subject != "similar" for i in items):
        # a sentence recall added only for being close in words, held back, is left out, not deflected: what
        # was asked is answered ("Do you use any drugs?" - not "That's hard. Can we come back to it? Yes, heroin")
        items = [i for i in items if not (i.stance == WITHHELD and i.subject == "similar")]
    asked = set(plan.question.concepts) | {i.subject for i in items if i.stance == DENY and not i.silent}
    if any(i.subject in asked and i.stance in (AFFIRM, DENY) and not i.silent for i in items):
        # a concept asked is answered ("Any plans to act on that?" - "No, I wouldn't do anything"): the rest of
        # its topic held back is left out, not deflected after the answer ("... That's hard. Can we come back to it?")
        items = [i for i in items if not (i.stance == WITHHELD and i.subject not in asked)]
    return replace(plan, items=tuple(items))


def in_company(plan: AnswerPlan) -> AnswerPlan:
    """The plan of a patient whose companion is in the room, with what he tells only when seen alone held back
    (``Fact.gate`` ``"alone"``: "(told only when asked directly and seen alone)"), whatever the rapport and whatever
    he has told of the topic already: an item left with none of its facts is withheld (his deflection), one with others
    keeps those. uw-035's Oscar, whose cutting and count of his mother's zopiklon the chart marks so, would tell them
    with his mother beside him. The same plan object when nothing is held back."""
    items: list[AnswerItem] = []
    changed = False
    for item in plan.items:
        held = tuple(f for f in item.facts if f.fact.gate == "alone")
        if not held or item.stance not in (AFFIRM, TELL):
            items.append(item)
            continue
        changed = True
        kept = tuple(f for f in item.facts if f not in held)
        items.append(AnswerItem(item.stance, item.subject, kept, True, item.about_other, item.silent) if kept
                     else AnswerItem(WITHHELD, item.subject, held, True, item.about_other))
    if not changed:
        return plan
    if any(i.stance in (AFFIRM, TELL) and i.facts and i.subject != "similar" for i in items):
        # what was asked is answered; a sentence recall added only for being close in words is left out, not deflected
        items = [i for i in items if not (i.stance == WITHHELD and i.subject == "similar")]
    return replace(plan, items=tuple(items))


def _came_about(item: AnswerItem, index: FactIndex) -> bool:
    """Whether an item is on what the patient came about (:attr:`FactIndex.came_about_topics`): a patient
    who asks for help with their drinking, or told the referrer about it in their own words, talks about
    their drinking, whatever the rapport."""
    taxonomy = load_taxonomy()
    if item.subject in taxonomy.by_id:
        subjects = {item.subject}
    elif item.subject in index.lexicon:
        subjects = set(finding_topics(item.subject, index.lexicon))
    else:
        subjects = {t for f in item.facts for t in f.topics}
    # and what the sentences told say: "Do you use any drugs?" is told the heroin he came about
    subjects |= {t for f in item.facts for c in f.affirms for t in finding_topics(c, index.lexicon)}
    return bool(subjects & index.came_about_topics)


def _subjects_told(disclosed, index: FactIndex) -> frozenset[str]:
    """The sensitive habits (topics of ``styles.json`` ``rapport.subject_told`` kinds) the patient has already told
    in this encounter: their details are no new secret."""
    rule = load_styles()["rapport"].get("subject_told", {})
    kinds = frozenset(rule.get("kinds", ()))
    if not kinds or not disclosed:
        return frozenset()
    taxonomy = load_taxonomy()
    told = set()
    for fid in disclosed:
        try:
            fact = index[fid]
        except KeyError:
            continue
        if fact.sensitive and fact.present:
            told.update(t for t in fact.topics if taxonomy.kind(t) in kinds)
    return frozenset(told)


def _opened(fact: IndexedFact, opened: frozenset[str]) -> bool:
    """Whether a sensitive fact is on habits already told (``opened``), every one of them, and on nothing kept
    behind rapport whatever was told (``rapport.subject_told.not_with``: risk, trauma, the law). The rule is per
    habit: the drink told does not open a line that also tells the cannabis ("Diagnosis: depression; cannabis use;
    alcohol misuse.", uw-016)."""
    if not opened or not set(fact.topics) & opened:
        return False
    rule = load_styles()["rapport"].get("subject_told", {})
    if set(fact.topics) & set(rule.get("not_with", ())):
        return False
    kinds = frozenset(rule.get("kinds", ()))
    taxonomy = load_taxonomy()
    return all(t in opened for t in fact.topics if taxonomy.kind(t) in kinds)


def _gate_item(item: AnswerItem, may_disclose, disclosed, ungated=(), free_topic: bool = False,
               opened: frozenset[str] = frozenset()) -> AnswerItem:
    if item.stance not in (AFFIRM, TELL) or not item.facts or free_topic or item.subject == "protective_factors":
        return item  # what keeps them going costs nothing to say, even where the risk line it is in is sensitive
    free = set(ungated)
    # a pertinent negative is never held back: "No, I've never hurt myself" costs a patient nothing, and
    # "Do I have to answer that?" to a screen the record answers no reads as a yes (hw-007, hw-024)
    # nor is a sentence that only rules something out, whatever else it notes ("Preoccupied with weight,
    # shape and calories; no suicidal ideation" answers the suicide screen no)
    held = [
        f for f in item.facts if f.sensitive and f.present and not (f.rules_out and not f.affirms)
        and f.section not in free and f.id not in disclosed and not may_disclose(f) and not _opened(f, opened)
    ]
    if not held:
        return item
    kept = tuple(f for f in item.facts if f not in held)
    if kept:
        return AnswerItem(item.stance, item.subject, kept, True, item.about_other)
    return AnswerItem(WITHHELD, item.subject, tuple(held), True, item.about_other)
