"""What a supervisor faults in a note, read from the note's own text: a rubric of small named functions.

Each function takes a :class:`NoteView` (the note cut into sections, its quotes, and what it needs of the case and
the encounter) and returns the faults it finds; :data:`NOTE_FAULTS` is the rubric, :func:`note_faults` runs it and
:func:`fault_points` is what Qual. loses (each kind's ``points`` per fault, at most its ``max_points``:
``data/note_faults.json``). The faults:

* :func:`garbled_quotes`: quoted speech no person says ("from me's bathroom cabinet", "I have well.", "I was brought
  two months of a daily mood chart").
* :func:`third_person_quotes`: a quote of the patient that speaks of the patient as "she" or "he" ("She weighs 44
  kg ...", "Then, with encouragement, she disclosed ..."): an informant's or a record's sentence filed as the
  patient's words.
* :func:`chief_complaint_fault`: no chief complaint, "not stated", or one that states no complaint (a garbled or
  empty quote).
* :func:`misfiled_sections`: a sentence under Medications, Family history or Allergies that holds none of that
  section's words ("Current medications: ... I misplace my keys and phone daily."; "Family history: \"I had
  postnatal depression.\"").
* :func:`diagnosis_duration`: a principal diagnosis whose minimum duration (the knowledge base's
  ``durations.json``) is longer than any duration said in the encounter or the note, stated without a hedge
  (paranoid schizophrenia "for four days now").
* :func:`main_risk_omitted`: a risk the record's risk assessment names (an overdose, a knife, exploitation) that
  the note's risk section does not.
* :func:`symptom_list_history`: a history of present illness that is a list of terms ("The patient reports
  nightmares; insomnia; intrusive memories.") with no sentence that tells the illness.
* :func:`broken_punctuation`: a stop after a quote that ends in one ('"It started in May.".'), a label with nothing
  after it ("Exam results: ;").
* :func:`misfiled_findings`: low mood, sleep or nightmares (intrusive memories, palpitations, avoidance, aggression)
  filed as "Thought content".
* :func:`misfiled_answers` and :func:`misfiled_mood`: another question's answer under a label ("Occupation: \"Just
  the usual\"", the agoraphobic avoidance as "Trauma history", a childhood sentence under "Living situation"), or a
  mood quote that says no mood ("I think I'll never get better").
* :func:`central_features_omitted` (with :func:`central_finding_omitted`): the central feature of one of the
  record's disorders that the patient gave and the history never names (``central_features``: the index trauma of
  a PTSD, the binges and weight gain of a binge eating disorder, compensatory behaviour present or absent).
* :func:`results_uninterpreted`: a deranged laboratory panel listed and read nowhere (LDL 7.1 in a binge eating
  disorder).
* :func:`mood_unrecorded`: "Mood not described" though the patient gave a mood ("My mood's terrible").
* :func:`substance_omitted`: a substance use the patient told (a glass of vodka, cannabis, cocaine, cigarettes) that
  the note names nowhere (``told_substances``).
* :func:`told_content_omitted`: what the patient told of the illness (a sentence of a reply that affirms something and
  that the record's history, mental state or risk states) that a note with headings carries nowhere, in its words
  or as a finding it names: the presenting problem, the central finding or the context the encounter was about.
* :func:`told_risk_omitted`: a risk the patient told (a death wish, a punched teacher, an abuse disclosed) that the risk
  section leaves out; a note under headings with none leaves out each one its other sections do not record.

Denials that what the patient said contradicts ("Denies insomnia" beside "can't get to sleep before 2 a.m.") are
note-precision errors (:mod:`.precision`), which cap Qual. on their own.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.knowledge.durations import load_durations
from mentalhospital_env.knowledge.language import stem, tokenize
from mentalhospital_env.knowledge.lexicon import load_lexicon

from ..chart import Chart, per_encounter
from ..ranking import resolve_disorder_code
from .features import empty_quotes, mentions, note_blocks


@dataclass(frozen=True)
class NoteFault:
    """One fault: its kind (a key of ``note_faults.json`` ``points``), the section it is in and the text at fault."""

    kind: str
    section: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Quote:
    section: str
    text: str
    before: str  # the line's text before the quotation mark


@dataclass(frozen=True)
class NoteView:
    """What the fault functions read: the note's sections (key -> text without heading), its quotes, the
    principal diagnosis, what the patient said, and the record's risk lines."""

    note: str
    sections: Mapping[str, str]
    quotes: tuple[Quote, ...]
    principal: str | None
    replies: tuple[str, ...]
    risk_lines: tuple[str, ...]
    history_risk_lines: tuple[str, ...] = ()  # the record's risk history outside its risk assessment (``history_risk``)
    pronoun: str | None = None  # "she" or "he": how a sentence would name this patient in the third person
    diagnoses: tuple[str, ...] = ()  # the disorders the note makes (principal first), codes
    differential: tuple[str, ...] = ()  # the disorders it names only to weigh or exclude, codes
    note_present: frozenset[str] = frozenset()  # findings the note states present (outside plan and assessment)
    note_absent: frozenset[str] = frozenset()  # findings it records as denied or absent
    affirmed: frozenset[str] = frozenset()  # findings the patient affirmed in the encounter (replies, results)
    denied: frozenset[str] = frozenset()  # findings the patient denied
    record_present: frozenset[str] = frozenset()  # findings the record states present
    central: frozenset[str] = frozenset()  # the record's central findings (``central_sections``)
    #: findings a record fact the encounter disclosed holds (a reply that told it, perhaps in words the reader does not read)
    disclosed: frozenset[str] = frozenset()
    named: frozenset[str] = frozenset()  # every finding the note names, in any words or polarity
    turns: tuple[tuple[str, str], ...] = ()  # (the doctor's words, the patient's reply)
    record_sections: tuple[tuple[str, str], ...] = ()  # (path, text) of the record
    #: (section, text) of each fact the record lets the patient tell (``case.facts``, with what the patient says of it):
    #: a case's facts may hold more than its narrative sections ("By now she is avoiding swimming and hairdressers.")
    record_facts: tuple[tuple[str, str], ...] = ()
    results: tuple[tuple[str, str], ...] = ()  # (exam, result) on file in the encounter
    reference: tuple[str, ...] = ()  # the record's own diagnoses (codes, principal first)
    exam_kinds: Mapping[str, str] = None  # type: ignore[assignment]  # exam name (lower case) -> the record's kind
    age: int | None = None  # the patient's age in the record
    #: the impression read statement by statement (:func:`.impression.read_impression`): each disorder it names, with
    #: its status (stated, provisional, feature, differential, ruled out), a family name put as the record's own member
    impression: tuple[Any, ...] = ()


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    raw = json.loads(resources.files(__package__).joinpath("data/note_faults.json").read_text("utf-8"))
    for i, entry in enumerate(raw["garbled_speech"] + raw["broken_punctuation"]):
        try:
            entry["regex"] = re.compile(entry["pattern"], re.IGNORECASE)
        except re.error as error:
            raise ValueError(f"note_faults.json: pattern {entry['name']!r} does not compile: {error}") from None
    if set(raw["points"]) != set(KINDS):
        raise ValueError(f"note_faults.json: points must name exactly the fault kinds {KINDS}")
    return raw


KINDS = (
    "garbled_quote",
    "third_person_quote",
    "chief_complaint",
    "misfiled_section",
    "diagnosis_duration",
    "main_risk_omitted",
    "risk_history_omitted",
    "diagnosis_unsupported",
    "central_finding_omitted",
    "false_denial",
    "allergy_denied",
    "medication_invented",
    "misfiled_answer",
    "finding_denied",
    "diagnosis_specifier",
    "diagnosis_against_record",
    "diagnosis_missed",
    "symptom_list_history",
    "broken_punctuation",
    "diagnosis_features_unstated",
    "result_uninterpreted",
    "child_history_missing",
    "psychosis_invented",
    "told_risk_omitted",
    "substance_omitted",
    "asked_history_omitted",
    "mood_unrecorded",
    "answered_marked_unanswered",
    "told_content_omitted",
)

_QUOTE = re.compile(r'["\u201c]([^"\u201d]{2,600})["\u201d]')


def note_view(case: Any, chart: Chart) -> NoteView:
    """The note read once for the fault functions."""
    note = chart.note or ""
    sections: dict[str, str] = {}
    quotes: list[Quote] = []
    other = re.compile(
        r"\n[ \t#*>\-]*(?:" + "|".join(re.escape(h) for h in _data()["other_headings"]) + r")[ \t]*:", re.IGNORECASE
    )
    assessment_raw = []
    for key, text in note_blocks(note):
        if key == "assessment":
            assessment_raw.append(text)  # with its heading: a "Differential:" heading weighs what follows it
        cut = other.search(text)
        if cut:  # "Investigations: ..." on its own line is no part of the section before it
            text = text[: cut.start()]
        name = key or "untitled"
        body = re.sub(r"^[^:\n]{0,60}:\s*", "", text.strip(), count=1) if key else text
        sections[name] = f"{sections[name]} {body}".strip() if name in sections else body.strip()
        for match in _QUOTE.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            quotes.append(Quote(name, match.group(1).strip(), text[line_start : match.start()]))
    principal = None
    for entry in chart.disorders or ():
        if isinstance(entry, str) and entry.strip():
            principal = resolve_disorder_code(entry)
            break
    ranked = principal  # the disorder the doctor ranked first, where the chart ranks any: a diagnosis made
    made, weighed = assessment_disorders("\n".join(assessment_raw))
    if principal is None and made:
        principal = made[0]
    diagnoses = tuple(dict.fromkeys(([principal] if principal else []) + made))
    risk_lines: list[str] = []
    history_risk: list[str] = []
    central: set[str] = set()
    ehr = getattr(case, "ehr", None)
    if ehr is not None:
        risk_lines = [text for path, text in ehr.sections() if path.startswith("risk")]
        history_risk = history_risk_lines(ehr.sections())
        wanted = set(_data()["central_sections"])
        lexicon = load_lexicon()
        for path, text in ehr.sections():
            if path in wanted:
                central |= {
                    m.concept_id for m in mentions(text)
                    if not m.negated and lexicon.get(m.concept_id).kind in ("symptom", "sign")
                    and lexicon.get(m.concept_id).domain in _data()["central_domains"]
                }
    from .precision import encounter_evidence, note_claims

    claims = note_claims(note)
    evidence = encounter_evidence(case, chart)
    reference = tuple(d.code for d in getattr(getattr(case, "diagnosis", None), "disorders", ()) or () if d.code)
    from .impression import Statement, read_impression, resolved_codes

    return NoteView(
        note=note,
        sections=sections,
        quotes=tuple(quotes),
        principal=principal,
        replies=tuple(chart.patient_replies),
        risk_lines=tuple(risk_lines),
        history_risk_lines=tuple(history_risk),
        pronoun={"female": "she", "male": "he"}.get(getattr(getattr(case, "demographics", None), "sex", None) or ""),
        diagnoses=diagnoses,
        differential=tuple(c for c in weighed if c not in diagnoses),
        note_present=frozenset(c for c, present in claims if present),
        note_absent=frozenset(c for c, present in claims if not present),
        affirmed=evidence.affirmed,
        denied=evidence.denied,
        record_present=evidence.record_present,
        central=frozenset(central),
        disclosed=evidence.disclosed,
        named=frozenset(m.concept_id for m in mentions(note)),
        turns=tuple((t.doctor, t.patient) for t in chart.turns),
        record_sections=tuple(ehr.sections()) if ehr is not None else (),
        record_facts=record_facts(case),
        results=tuple((str(n), str(r)) for n, r in chart.exam_results),
            reference=reference,
        impression=((Statement(ranked, "stated", "ranked first"),) if ranked else ())
        + resolved_codes(read_impression("\n".join(assessment_raw)), reference),
        exam_kinds={str(e.name).lower(): str(getattr(e, "kind", "") or "") for e in getattr(case, "exams", ()) or ()},
        age=getattr(getattr(case, "demographics", None), "age", None),
    )


def record_facts(case: Any) -> tuple[tuple[str, str], ...]:
    """(section, text) of each fact of the record the patient may tell (``case.facts``), and of what the record says
    the patient says of it (``patient_says``): what an encounter could elicit, read fact by fact, not only the
    record's narrative sections, which a case's facts may go beyond."""
    out: list[tuple[str, str]] = []
    for fact in getattr(case, "facts", ()) or ():
        section = str(getattr(fact, "section", "") or "")
        for text in (getattr(fact, "text", None), getattr(fact, "patient_says", None)):
            if isinstance(text, str) and text.strip():
                out.append((section, text))
    return tuple(out)


def assessment_disorders(text: str) -> tuple[list[str], list[str]]:
    """(the disorders an assessment makes, those it names only as a differential): codes in the order named; a
    disorder named after one of ``differential_markers`` ("Differential diagnosis includes ...", "rule out") is
    weighed, not made."""
    from .features import _disorder_names

    tokens = tokenize(text)
    stems_ = [stem(t) for t in tokens]
    markers = [tuple(stem(t) for t in tokenize(m)) for m in _data()["differential_markers"]]
    cut = next(
        (i for i in range(len(stems_)) for m in markers if tuple(stems_[i : i + len(m)]) == m),
        len(stems_),
    )
    made: list[str] = []
    weighed: list[str] = []
    features: set[str] = set()  # disorders named only by a word that is also a finding's ("insomnia", "panic attacks")
    lexicon = load_lexicon()
    for start, end, _ in _disorder_names().find(stems_):
        words = " ".join(tokens[start:end])
        code = resolve_disorder_code(words)
        if code:
            if any(m.start == 0 and m.end == end - start and lexicon.get(m.concept_id).kind in ("symptom", "sign")
                   for m in lexicon.find(words)):
                features.add(code)
            target = made if start < cut else weighed
            if code not in target:
                target.append(code)
    if any(c not in features for c in made):  # "with fatigue, insomnia and low mood, ... most consistent with X": X is made
        made = [c for c in made if c not in features]
    for code in _weighed_before_marker(text):  # "Bipolar disorder (F31.2) was considered but is less likely": weighed
        if code in made:
            made.remove(code)
            if code not in weighed:
                weighed.append(code)
    return made, weighed


def _weighed_before_marker(text: str) -> list[str]:
    """The disorders an assessment weighs by a marker that follows the name (``differential_markers_after``: "X was
    considered but is less likely", "Y has been ruled out"): in each sentence or clause (parted by ``;``), the
    disorder named nearest before such a marker. A disorder considered and weighed is not a disorder made."""
    from .features import _disorder_names

    after = _data().get("differential_markers_after", ())
    if not after:
        return []
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(m) for m in after) + r")\b", re.IGNORECASE)
    out: list[str] = []
    for clause in re.split(r"(?<=[.!?])\s+|;", text):
        for hit in pattern.finditer(clause):
            tokens = tokenize(clause[: hit.start()])
            stems_ = [stem(t) for t in tokens]
            found = sorted(_disorder_names().find(stems_), key=lambda m: (m[1], m[1] - m[0]))
            for start, end, _ in reversed(found):
                code = resolve_disorder_code(" ".join(tokens[start:end]))
                if code:
                    if code not in out:
                        out.append(code)
                    break
    return out


def _garble(text: str) -> str | None:
    """The name of the first garbled-speech pattern ``text`` shows, or ``None``."""
    for entry in _data()["garbled_speech"]:
        if entry["regex"].search(text):
            return entry["name"]
    return None


def garbled_quotes(view: NoteView) -> list[NoteFault]:
    """Quoted speech no person says (the chief complaint's own quote is :func:`chief_complaint_fault`'s)."""
    return [
        NoteFault("garbled_quote", q.section, q.text)
        for q in view.quotes
        if q.section != "chief_complaint" and _garble(q.text)
    ]


def _third_person(quote: Quote, pronoun: str | None) -> bool:
    conf = _data()["third_person"]
    pronouns, first, antecedents = set(conf["pronouns"]), set(conf["first_person"]), set(conf["antecedents"])
    if {stem(t) for t in tokenize(quote.before)} & {stem(a) for a in antecedents}:
        return False  # 'Mother: "He stopped it at 12"'
    for token in tokenize(quote.text):
        if token in first or stem(token) in {stem(a) for a in antecedents}:
            return False
        if token in pronouns and pronoun in (None, token):
            return True
    return False


def third_person_quotes(view: NoteView) -> list[NoteFault]:
    """A quote of the patient that names the patient "she" or "he" (the pronoun of the patient's sex) before anyone
    else is named."""
    return [NoteFault("third_person_quote", q.section, q.text) for q in view.quotes if _third_person(q, view.pronoun)]


def chief_complaint_fault(view: NoteView) -> list[NoteFault]:
    """A chief complaint heading with nothing under it, an empty one ("not stated"), or one that says no complaint (garbled speech or a
    non-answer); a terse one ("Depression.") is a complaint."""
    conf = _data()["chief_complaint"]
    if "chief_complaint" not in view.sections:
        return []  # a note without the heading loses its marks for the missing section (note_structure)
    text = view.sections["chief_complaint"].strip()
    bare = text.strip(' ."\u201c\u201d').lower()
    if not bare or bare in conf["empty"]:
        return [NoteFault("chief_complaint", "chief_complaint", text or "(none)")]
    if _garble(text) or empty_quotes(text if '"' in text else f'"{text}"'):
        return [NoteFault("chief_complaint", "chief_complaint", text)]
    denial = conf.get("denial_opening")
    if denial and re.match(denial, bare, re.IGNORECASE):
        found = mentions(text)
        if found and all(m.negated for m in found):
            # "I've never had thoughts of ending my life" (held_out34 test-v2-0086): a denial, no complaint
            return [NoteFault("chief_complaint", "chief_complaint", text)]
    if any(p in bare for p in conf.get("label_only", ())):
        # "inattentiveness (not in the patient's own words)": a label put where the patient's complaint belongs
        return [NoteFault("chief_complaint", "chief_complaint", text)]
    return []


@lru_cache(maxsize=1)
def _drug_stems() -> frozenset[str]:
    from .guidelines import _field, _knowledge, _records

    out: set[str] = set()
    for drug in _records(_field(_knowledge(), "drugs")):
        names = [getattr(drug, "name", None)] + list(getattr(drug, "synonyms", ()) or ())
        out |= {stem(n.lower()) for n in names if isinstance(n, str) and " " not in n}
    return frozenset(out)


def misfiled_sections(view: NoteView) -> list[NoteFault]:
    """Sentences under a section (``section_topics``) that hold none of its words: another section's text."""
    out = []
    for section, topic in _data()["section_topics"].items():
        words = [stem(w) for w in topic]
        text = view.sections.get(section, "")
        if not text:
            continue
        for sentence in re.split(r"(?<=[.!?])\s+", text.replace('"', " ").replace("\u201c", " ").replace("\u201d", " ")):
            sentence = re.sub(r"^\s*[A-Z][^:]{0,50}:\s*", "", sentence)  # "Family history of mental illness: ..."
            stems_ = [stem(t) for t in tokenize(sentence)]
            if len(stems_) < 2:
                continue
            hit = any(s.startswith(w) for s in stems_ for w in words)
            if section == "medications":
                hit = hit or bool(set(stems_) & _drug_stems())
            if section in _data()["first_person_only"]:
                hit = hit or not set(tokenize(sentence)) & set(_data()["third_person"]["first_person"])
            if section == "family_history":
                hit = hit or bool(set(tokenize(sentence)) & set(_data()["related_pronouns"]))
            if not hit:
                out.append(NoteFault("misfiled_section", section, sentence.strip()))
    return out


def illness_days(view: NoteView) -> float | None:
    """How long the present illness has lasted by the encounter and the note: the longest duration (the knowledge
    base's parser, a bare "for weeks" read as two) in the replies to questions about onset (``onset_questions``),
    the note's chief complaint and its history of present illness; when none of those says one, the longest in a
    reply's sentence that names a finding (not "I've been a cleaner for 4 years"); a length under a day counts only
    counted back from now (not "sleeps about four hours")."""
    cues = [stem(w) for w in _data()["onset_questions"]]
    onset = [
        reply for question, reply in view.turns
        if any(" ".join(stem(t) for t in tokenize(question)).find(c) >= 0 for c in cues)
    ]
    texts = onset + [view.sections.get("chief_complaint", ""), view.sections.get("history_of_present_illness", "")]
    said = _longest_illness_duration(texts)
    if said is not None:
        return said
    # else a reply's sentence that tells a finding with its duration ("I've felt low for months"), never one about
    # something else ("I've been a cleaner for 4 years" is no illness of four years)
    lexicon = load_lexicon()
    telling = [
        sentence for reply in view.replies for sentence in re.split(r"(?<=[.!?])\s+", reply)
        if any(not m.negated and lexicon.get(m.concept_id).kind in ("symptom", "sign") for m in mentions(sentence))
    ]
    return _longest_illness_duration(telling)


# a length under a day is how long an illness has lasted only when it is counted back from now ("six hours ago", "for
# the last twelve hours"); else it is a length within the day: a night's sleep ("sleeps about four hours"), an attack,
# a drinking session
_HOURS_BACK = re.compile(r"\b(?:hours?|minutes?)\s+ago\b|\b(?:last|past)\s+(?:\w+\s+){0,2}hours?\b|\bsince\s+(?:this\s+morning|last\s+night|yesterday)\b", re.IGNORECASE)


def _longest_illness_duration(texts: list[str]) -> float | None:
    """The longest duration ``texts`` say (the knowledge base's parser, a bare "for weeks" read as two), a length
    under a day counted only where it is counted back from now (:data:`_HOURS_BACK`)."""
    durations = load_durations()
    said = [
        d for t in texts for d in durations.said_days(t, bare_plurals=True) if d >= 1.0 or _HOURS_BACK.search(t)
    ]
    return max(said) if said else None


def diagnosis_duration(view: NoteView) -> list[NoteFault]:
    """A principal diagnosis made before its minimum duration (:func:`illness_days` is shorter than the disorder
    needs). Keeping it provisional excuses it only when no disorder the note names fits the duration now (a
    provisional paranoid schizophrenia at four days beside a brief psychotic disorder in the differential is the
    wrong principal: the note's own history says which one of the same category fits)."""
    durations = load_durations()
    need = durations.minimum_days(view.principal)
    if need is None:
        return []
    said = illness_days(view)
    if said is None or said >= need:
        return []
    fitting = [
        c for c in view.diagnoses + view.differential
        if c != view.principal and _category(c) == _category(view.principal) and durations.fits(c, said)
    ]
    if durations.hedged(view.sections.get("assessment", "")) and not fitting:
        return []
    return [NoteFault("diagnosis_duration", "assessment", f"{view.principal} needs {need} days; the history says {said:g} days")]


def unsupported_entries(case: Any, chart: Chart) -> tuple[str, ...]:
    """The disorders of the ranked list (``chart.disorders``) that the encounter itself rules out: one whose minimum
    duration is longer than the illness the history gives (:func:`illness_days`: dysthymia for an illness of four
    months; its maximum too, a brief psychotic disorder at a year), or whose severity the rating scales on file
    contradict (a "severe" episode beside a PHQ-9 and a HAM-D that read moderate). A supervisor calls them unsupported:
    a longer differential of such entries is no better reasoned (Rigor counts only the others)."""
    from mentalhospital_env.knowledge.specifiers import severity_conflict

    codes = [c for c in (resolve_disorder_code(e) for e in chart.disorders or () if isinstance(e, str)) if c]
    if not codes or not (chart.note or chart.turns):
        return ()
    view = note_view(case, chart)
    durations = load_durations()
    said = illness_days(view)
    out = []
    for code in dict.fromkeys(codes):
        if said is not None and not durations.fits(code, said):
            out.append(code)
        elif severity_conflict(code, view.results):
            out.append(code)
    return tuple(out)


@lru_cache(maxsize=1)
def _categories() -> dict[str, str]:
    from .guidelines import _field, _knowledge, _records

    return {str(_field(d, "code")): str(_field(d, "category")) for d in _records(_field(_knowledge(), "disorders"))}


def _category(code: str | None) -> str | None:
    """The knowledge base's category of ``code`` (of its longest listed prefix), or ``None``."""
    table = _categories()
    hits = [k for k in table if code and code.upper().startswith(k)]
    return table[max(hits, key=len)] if hits else None


def _supported(view: NoteView, concepts: set[str]) -> bool:
    """Whether any of ``concepts`` was affirmed in the encounter, or is stated by the record and was not denied by
    the patient (the note's own word is no support: a note cannot make its diagnosis by asserting its features)."""
    if concepts & view.affirmed:
        return True
    return bool(concepts & view.record_present - view.denied)


def _encounter_gives(view: NoteView, code: str) -> bool:
    """Whether the encounter (the patient's replies and the results on file, not the record) gives each feature
    group ``required_features`` holds for ``code``: a finding of the group affirmed, or one of its words said by the
    patient. True for a code the table does not hold (nothing to read)."""
    table = _data()["required_features"]
    hits = [p for p in table if code.upper().startswith(p)]
    if not hits:
        return True
    for group in table[max(hits, key=len)]["groups"]:
        concepts, words = set(group.get("findings", ())), list(group.get("words", ()))
        if not (concepts & view.affirmed or (words and _words_in(list(view.replies), words))):
            return False
    return True


def _words_in(texts: list[str], words: list[str]) -> bool:
    """Whether a sentence of ``texts`` names one of ``words`` with no negation earlier in its clause."""
    return any(_names_affirmed(sentence, words) for text in texts for sentence in re.split(r"(?<=[.!?])\s+", text))


def _weighed_in_sentence(assessment: str) -> set[str]:
    """The disorders an assessment names in a sentence that weighs them (a ``differential_markers`` word anywhere in
    it: "Bipolar disorder was considered but is less likely"), whose features the note need not state."""
    markers = [m.lower() for m in _data()["differential_markers"]]
    out: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+", assessment):
        if any(m in sentence.lower() for m in markers):
            made, weighed = assessment_disorders(sentence)
            out |= set(made) | set(weighed)
    return out


def diagnosis_unsupported(view: NoteView) -> list[NoteFault]:
    """Each disorder the note makes (not one it weighs) that lacks a feature the diagnosis requires
    (``required_features``: each group needs one finding the note, the encounter or the record supports, or one of
    the group's words in the note, the replies or the record): a depressive episode in a man who says he is not
    depressed and enjoys things, an adjustment disorder with no stressor, a dependence with no feature of one. A
    feature the encounter gives but the note's own sections (its assessment and plan aside) never state is
    ``diagnosis_features_unstated``: the note does not show what its diagnosis rests on ("Alcohol dependence" made
    in the assessment of a note whose history names no craving, withdrawal or loss of control)."""
    out = []
    table = _data()["required_features"]
    ehr = [text for _, text in view.record_sections]
    stated = [text for key, text in view.sections.items() if key not in ("assessment", "plan")]
    in_note = {m.concept_id for text in stated for m in mentions(text) if not m.negated}  # the patient's quoted words too
    weighed = _weighed_in_sentence(view.sections.get("assessment", ""))
    for code in view.diagnoses:
        hits = [p for p in table if code.upper().startswith(p)]
        if not hits:
            continue
        rule = table[max(hits, key=len)]
        for group in rule["groups"]:
            concepts = set(group.get("findings", ()))
            words = list(group.get("words", ()))
            if not _supported(view, concepts) and not (words and _words_in([view.note, *view.replies, *ehr], words)):
                out.append(NoteFault("diagnosis_unsupported", "assessment", f"{code}: {group['what']}"))
                break
            said = words + list(group.get("note_words", ()))
            if not (code in weighed or concepts & in_note or (said and _words_in(stated, said))):
                what = ", ".join(sorted(concepts)[:4]) or ", ".join(words[:4])
                out.append(NoteFault("diagnosis_features_unstated", "assessment", f"{code}: the note states none of {what}"))
                break
    return out


def _named_in_any_words(view: NoteView) -> set[str]:
    """The findings the note names, with those each implies, is implied by or goes with (the lexicon's relations)."""
    from .precision import _equivalents, _implications

    named: set[str] = set()
    for c in view.named:
        implied_by, implies = _implications(c)
        named |= {c} | implied_by | implies | _equivalents(c)
    return named


def central_finding_omitted(view: NoteView) -> list[NoteFault]:
    """Each central finding of the record (a finding of ``central_domains``, psychosis or risk, that its
    ``central_sections`` state: the chief complaint, the thought content, the perceptions) that the note never names, in any words or polarity, nor names one it
    implies or goes with."""
    named = _named_in_any_words(view)
    out = [NoteFault("central_finding_omitted", "history_of_present_illness", c) for c in sorted(view.central - named)]
    return out + central_features_omitted(view)


def central_features_omitted(view: NoteView) -> list[NoteFault]:
    """Each feature of one of the record's disorders that a supervisor holds central (``central_features``: the
    index trauma of a PTSD, the binges and the weight gain of a binge eating disorder, the avoidance of an
    agoraphobia, the mood swings of a borderline personality disorder) that the patient gave in the encounter (a
    reply affirming one of its findings or naming one of its words) and the note's history, mental state and
    assessment never name in any words or polarity; a ``pertinent`` feature (compensatory behaviour, present or
    absent, in binge eating disorder) is given by a reply denying it too (stop 50: none is wanted where the encounter
    never gave it); a group's ``contrary`` findings
    recorded present contradict it (a mania written up with anhedonia). Elsewhere in the note (the
    weight gain under Medical history) is not where a reader of the history looks for it."""
    conf = _data()["central_features"]
    text = _without_disorder_names(" ".join(_section_text(view, k) for k in conf["sections"]))
    found = mentions(text)
    in_note = {m.concept_id for m in found}
    present = {m.concept_id for m in found if not m.negated}
    # a group marked 'anywhere' is read in the whole note (stop 36: a terse note of one paragraph, or one that puts the
    # drinking under Substance use and the stressor under Social history, records it all the same)
    whole = _without_disorder_names(" ".join(view.sections.values()))
    in_whole = {m.concept_id for m in mentions(whole)}
    out = []
    for ref in view.reference:
        # every entry whose code the record's code starts with: F43.21 (adjustment disorder with depressed mood) holds
        # its own group and F43.2's (the stressor), which the longest prefix alone left out (stop 37: held_out34
        # test-v2-0086's note never named the failed exams the reaction followed)
        groups = [g for p in sorted(conf["disorders"]) if ref.upper().startswith(p) for g in conf["disorders"][p]]
        for group in groups:
            if "contrary" in group:  # the feature contradicted: its opposite recorded present (anhedonia in a mania)
                if set(group["contrary"]) & present:
                    out.append(NoteFault("central_finding_omitted", "history_of_present_illness", f"{ref}: {group['what']}"))
                continue
            findings, words = set(group.get("findings", ())), list(group.get("words", ()))
            # wanted only where the encounter gave it (a reply affirming one of its findings or naming one of its words, or
            # a record fact the encounter disclosed): a note is rated against what was said (stop 50: the trauma of a PTSD
            # the patient never told, the nightmares never asked about, cost notes rated 4-5 their score); 'pertinent'
            # keeps its meaning of present or absent (a denial of compensatory behaviour is its record, not an omission)
            answered = view.affirmed | view.disclosed | (view.denied if group.get("pertinent") else frozenset())
            given = bool(findings & answered) or any(_names(r, words) for r in view.replies)
            seen, where = (in_whole, whole) if group.get("anywhere") else (in_note, text)
            if given and not (findings & seen or _names(where, words)):
                out.append(NoteFault("central_finding_omitted", "history_of_present_illness", f"{ref}: {group['what']}"))
    return out


def _without_disorder_names(text: str) -> str:
    """``text`` less the names of disorders it holds ("most consistent with Nightmare disorder" names no nightmare,
    "ADHD, predominantly inattentive type" no inattention): a feature is recorded in the history, not by naming the
    diagnosis it would support. Only names of two words or more: a one-word name ("insomnia", "nightmares") is also
    the symptom's own word."""
    from .features import _disorder_names

    tokens = tokenize(text)
    spans = _disorder_names().find([stem(t) for t in tokens])
    drop = {i for a, b, _ in spans if b - a >= 2 for i in range(a, b)}
    return " ".join(t for i, t in enumerate(tokens) if i not in drop)


def _deranged(name: str, result: str, kinds: Any) -> bool:
    conf = _data()["result_interpretation"]
    if (kinds or {}).get(name.lower()) not in conf["kinds"]:
        return False
    flags = "|".join(re.escape(f) for f in conf["flags"])
    return len(re.findall(rf"\((?:{flags})\b", result, flags=re.IGNORECASE)) >= conf.get("min_flagged", 1)


def deranged(name: str, result: str, case: Any) -> bool:
    """Whether the case's result ``name`` is a deranged panel a note must read (:func:`results_uninterpreted`)."""
    kinds = {str(e.name).lower(): str(getattr(e, "kind", "") or "") for e in getattr(case, "exams", ()) or ()}
    return _deranged(name, result, kinds)


def results_uninterpreted(view: NoteView) -> list[NoteFault]:
    """Each laboratory or physical result on file with at least ``min_flagged`` values flagged abnormal
    (``result_interpretation``: a deranged panel) that the note's own prose never reads: not outside its listing of
    the results, and not outside the patient's quoted words (the exam's name, an analyte it flags, or a word for the
    panel). Listed, not read ("LDL 7.1 mmol/L (raised)" under Investigations and nothing of it in the formulation); a
    diagnosis that could account for it ("alcohol dependence" beside platelets of 52) has not read it. One fault per
    panel."""
    conf = _data()["result_interpretation"]
    kinds = view.exam_kinds or {}
    # the note less the results as listed ("Lipid panel: total cholesterol 8.5 mmol/L (raised), ...") and less what
    # the patient said ("My GP says my liver tests are raised"): what is left is the doctor reading them or not
    prose = view.note
    for name, result in view.results:
        prose = prose.replace(f"{name}: {result}", " ").replace(result, " ")
    prose = _QUOTE.sub(" ", prose)
    said = {t.lower() for t in tokenize(prose)}
    flags = "|".join(re.escape(f) for f in conf["flags"])
    out = []
    for name, result in view.results:
        if not _deranged(name, result, kinds):
            continue  # one value out of range (a potassium of 3.1) is read at a glance; a deranged panel is not
        flagged = re.findall(rf"([A-Za-z][A-Za-z0-9 :]*?)\s+[\d.<>]+[^,;()]*\((?:{flags})\b", result, flags=re.IGNORECASE)
        words = {t.lower() for t in tokenize(name)} | {t.lower() for f in flagged for t in tokenize(f)}
        for key, names in conf["names"].items():
            if key in name.lower():
                words |= {n.lower() for n in names}
        words -= {"total", "and", "of", "the", "panel", "test", "level", "serum"}
        if not (words & said or any(" " in w and w in prose.lower() for w in words)):
            out.append(NoteFault("result_uninterpreted", "assessment", f"{name}: {result[:100]}"))
    return out


def child_history_missing(view: NoteView) -> list[NoteFault]:
    """A child's note (younger than ``child_history.max_age``) whose history records neither collateral from the
    parent or carer nor any developmental or school history (none of its ``words`` in its ``sections``): a keyword
    note for a 9-year-old."""
    conf = _data()["child_history"]
    if view.age is None or view.age >= conf["max_age"]:
        return []
    text = " ".join(view.sections.get(k, "") for k in conf["sections"])
    if _names(text, conf["words"]):
        return []
    return [NoteFault("child_history_missing", "history_of_present_illness", f"age {view.age}: no collateral or developmental history")]


def _same_disorder(a: str, b: str) -> bool:
    """Whether two codes name one disorder, whatever its grade: equal, one a longer form of the other (F43.1 and
    F43.10), or one three-character category (F32.1 and F32.2) unless the category's fourth character tells disorders
    apart (``distinct_within``: F43.1 is PTSD, F43.2 an adjustment disorder)."""
    a, b = a.upper(), b.upper()
    if a.startswith(b) or b.startswith(a):
        return True
    if a[:3] != b[:3]:
        return False
    return a[:3] not in _data()["distinct_within"] or a[:5] == b[:5]


def _specifier_family(a: str, b: str) -> bool:
    """Whether two codes are one disorder told apart by a specifier of course or type (``specifier_families``: a
    depressive episode single or recurrent, ADHD inattentive or combined), each code under another member."""
    for group in _data()["specifier_families"]:
        at = [next((i for i, p in enumerate(group) if c.upper().startswith(p)), None) for c in (a, b)]
        if None not in at and at[0] != at[1]:
            return True
    return False


def diagnosis_against_record(view: NoteView) -> list[NoteFault]:
    """What the record's own diagnoses say of the diagnoses the note asserts, read from its impression statement by
    statement (:mod:`.impression`: a disorder named in other words, "moderate depressive syndrome", "relapse of his
    known psychotic illness", is the disorder it names; one "not established" or ruled out is no diagnosis; a
    disorder's name that is a single finding is read as made, ``_MADE``, unless listed among the findings before what
they amount to, where it is a feature that addresses a comorbid disorder only): the
    record's principal diagnosis not made (``diagnosis_against_record``: dissociative identity disorder written up as
    schizophrenia, dementia as generalised anxiety), neither itself nor one differing only by a specifier; another of
    the record's diagnoses not addressed (``diagnosis_missed``): neither made nor its syndrome recorded as such
    ("depressive symptoms to reassess once abstinent", "paranoid personality traits"); one only weighed as a
    differential is missed (the comorbid depression left as a differential); a schizophrenia-spectrum principal
    diagnosis where the record holds no psychosis (``psychosis_invented``). Read from codes alone, so no wording of the note's sways it; a note that
    asserts no diagnosis is not read here. Stop 39: a comorbid diagnosis of the record whose required features the
    encounter never gave (:func:`_encounter_gives`) is not charged (held_out38 note-703, an anorexia's note rated 5,
    charged for the comorbid anxiety the interview never assessed); the principal one still is (a schizophrenia on
    file in a patient without psychotic symptoms today is still the diagnosis: held_out30 note-423, rated 2)."""
    statements = view.impression
    made = list(dict.fromkeys(s.code for s in statements if s.status in _MADE))
    addressed = list(dict.fromkeys([s.code for s in statements if s.status in _ADDRESSED] + made))
    if not view.reference or not made:
        return []
    out = []
    for i, ref in enumerate(view.reference):
        if any(_same_disorder(ref, c) or _specifier_family(ref, c) for c in (made if i == 0 else addressed)):
            continue
        if i > 0 and not _encounter_gives(view, ref):
            continue  # a comorbid disorder the interview never brought out: a note cannot be faulted for not making it
        kind = "diagnosis_against_record" if i == 0 else "diagnosis_missed"
        out.append(NoteFault(kind, "assessment", f"{ref} is the record's diagnosis; the note makes {', '.join(made)}"))
    conf = _data()["psychosis_invented"]
    if (out and out[0].kind == "diagnosis_against_record" and made[0].startswith(tuple(conf["note_prefixes"]))
            and not any(ref.startswith(tuple(conf["record_prefixes"])) for ref in view.reference)):
        out.append(NoteFault("psychosis_invented", "assessment", f"{made[0]} for a record without psychosis ({', '.join(view.reference)})"))
    return out


#: the statuses with which an impression makes a disorder: stated, held open, or a disorder's name that is a single
#: finding standing alone (stop 47: reading a listed "insomnia" as no diagnosis where another is made lowered the fitted
#: half, even 0.649 -> 0.638, odd 0.684 -> 0.683: the consultants did not fault those notes for it; kept as made). One
#: listed among the findings before what they amount to ("with derealisation and panic attacks, most consistent with
#: panic disorder") is read ``feature`` by the impression reader: it addresses a comorbid disorder, it never makes the
#: principal (review 1, M1: such a list cleared the record's principal against a note that made another)
_MADE = ("stated", "provisional", "symptom")
#: the statuses with which an impression addresses a comorbid disorder of the record: made, or its syndrome recorded as
#: such; one left as a differential, or ruled out, is not addressed (the record's principal must be made)
_ADDRESSED = _MADE + ("feature",)


def allergy_denied(view: NoteView) -> list[NoteFault]:
    """A note that records no allergy ('Allergies: NKDA') where the record names one and the patient told it when
    asked (``allergy_denied``): a medicine-safety error a prescriber acts on, not an omission. Stop 51 (issue 15):
    held_out50's consultant rated 2 a note otherwise sound for 'records no known drug allergies when she said
    penicillin gives her a rash' (the judge 4.5)."""
    conf = _data()["allergy_denied"]
    denial = re.compile("|".join(conf["note_denials"]), re.IGNORECASE)
    where = " ".join(view.sections.get(k, "") for k in conf["note_sections"]) or view.note
    # the patient's own words quoted ('"Codeine makes me sick, no allergies that I know of"') are her answer, not the
    # note's record of no allergy
    if not denial.search(_QUOTE.sub(" ", where)):
        return []
    record_denial = re.compile(conf["record_denial"], re.IGNORECASE)
    named = [t for path, t in view.record_sections if path == conf["record_section"] and t.strip() and not record_denial.search(t)]
    if not named:
        return []
    asked = re.compile(conf["question"], re.IGNORECASE)
    # a reply that denies an allergy in any of its words ('codeine makes me sick, no allergies that I know of': an
    # intolerance) tells none
    told = [
        reply for doctor, reply in view.turns
        if asked.search(doctor) and reply.strip() and not record_denial.search(reply) and not denial.search(reply)
    ]
    if not told:
        return []
    return [NoteFault("allergy_denied", "allergies", f"the note records no allergy; the patient said: {told[0][:120]}")]


def medication_invented(view: NoteView) -> list[NoteFault]:
    """A medicine the note's medication section records (``medication_invented.note_sections``) that neither the
    record, what the patient said nor the results on file name in any words the formulary reads (``medication_invented``):
    a wrong medication a prescriber acts on. Stop 56 (issue 15): the consultants rated 2 notes otherwise sound for
    'records lamotrigine 100 mg when she takes lithium' (held_out51 note-5124, judge 3.4) and 'records nightly zopiclone
    ... he takes no tablets' (held_out52 note-5215); the judge read no medicine against the record. A medicine the record
    names but the patient no longer takes is not read here (what the record says of it is beyond this reading)."""
    from .guidelines import load_formulary

    conf = _data()["medication_invented"]
    where = " ".join(view.sections.get(k, "") for k in conf["note_sections"])
    if not where.strip():
        return []
    formulary = load_formulary()
    listed = [d.name for d in formulary.drugs_in(_QUOTE.sub(" ", where)) if d.proposed]
    if not listed:
        return []
    source = " ".join(
        [t for _, t in view.record_sections] + [t for _, t in view.record_facts] + list(view.replies)
        + [f"{e} {r}" for e, r in view.results]
    )
    known = {d.name for d in formulary.drugs_in(source)}
    return [
        NoteFault("medication_invented", "medications", f"{name}: neither the record nor the patient names it")
        for name in dict.fromkeys(listed) if name not in known
    ]


def false_denials(view: NoteView) -> list[NoteFault]:
    """Each finding the note records as denied ("Denies insomnia", "No poor concentration") that the patient affirmed
    in the encounter (the finding itself or one that implies it: "I lie awake" is insomnia) or that the record states
    and the patient never denied (``finding_denied``); and :func:`risk_false_denials`."""
    from .precision import _implications

    out = risk_false_denials(view)
    risks = {c for kind in _data()["risk_kinds"] for c in kind.get("denied_findings", ())}
    for concept in sorted(view.note_absent - view.note_present - risks):
        if ({concept} | _implications(concept)[0]) & view.affirmed:
            out.append(NoteFault("finding_denied", "history_of_present_illness", f"{concept}: the patient affirmed it"))
        elif concept in view.record_present and concept not in view.denied:
            out.append(NoteFault("finding_denied", "history_of_present_illness", f"{concept}: the record states it"))
    return out


def diagnosis_specifier(view: NoteView) -> list[NoteFault]:
    """A mood episode diagnosed with a specifier the note's own findings or the rating scales on file contradict
    (knowledge ``specifiers.json``): "without psychotic features" beside a delusion the note records, "with
    psychotic features" beside none, "severe" beside a PHQ-9 and a HAM-D that read moderate. The specifier is read
    from the assessment's words before its differential, else from the code."""
    from mentalhospital_env.knowledge.specifiers import psychotic_conflict, severity_conflict

    text = view.sections.get("assessment", "")
    markers = [m.lower() for m in _data()["differential_markers"]]
    cut = min([i for i in (text.lower().find(m) for m in markers) if i >= 0] or [len(text)])
    made = text[:cut]
    out = []
    for code in view.diagnoses[:1]:
        for why in (psychotic_conflict(code, view.note_present, made), severity_conflict(code, view.results, made)):
            if why:
                out.append(NoteFault("diagnosis_specifier", "assessment", why))
    # the record's own diagnosis, where the note makes the same disorder with another specifier ("recurrent" in a first
    # episode, the inattentive type of a combined ADHD) and nowhere the record's own code
    for ref in view.reference:
        if any(_same_disorder(ref, c) and not _specifier_family(ref, c) for c in view.diagnoses):
            continue
        for code in view.diagnoses:
            if _specifier_family(ref, code):
                out.append(NoteFault("diagnosis_specifier", "assessment", f"{code} where the record's diagnosis is {ref}"))
                break
    return out


def risk_false_denials(view: NoteView) -> list[NoteFault]:
    """A risk the note records as denied ("Denies self-harm", "No risk to others": a risk kind's ``denied_findings``
    or ``denial_phrases``) that the record affirms (a risk line naming it with no negation before it, or a line on
    its ``graded_paths`` graded with a ``grade_words`` word) or that the note's own results affirm (a C-SSRS line
    naming the method)."""
    out = []
    risk_text = view.sections.get("risk_assessment", "")
    results = " ".join(v for k, v in view.sections.items() if k in _data()["results_sections"])
    grades = {stem(w) for w in _data()["grade_words"]}
    for kind in _data()["risk_kinds"]:
        denied = set(kind.get("denied_findings", ())) & view.note_absent
        phrase = next((p for p in kind.get("denial_phrases", ()) if p in risk_text.lower()), None)
        if not denied and not phrase:
            continue
        if _names_affirmed(risk_text, kind["note"] + _data()["risk_named"]) or _acts_named(risk_text, kind.get("note_acts", [])):
            continue  # the risk section names the risk too ("says he has not wanted to hurt anybody, but a risk to the neighbours")
        affirmed = any(_names_affirmed(line, kind["record"]) for line in view.risk_lines)
        for path, line in view.record_sections:
            if any(path.endswith(g) for g in kind.get("graded_paths", ())):
                first = _clauses(line)[0] if _clauses(line) else ""
                affirmed = affirmed or bool({stem(t) for t in tokenize(first)} & grades)
        affirmed = affirmed or bool(results and _names_affirmed(results, kind["record"]))
        if affirmed:
            what = ", ".join(sorted(denied)) or phrase
            out.append(NoteFault("false_denial", "risk_assessment", f"{kind['name']}: the note denies {what}"))
    return out


_LABEL = re.compile(r"(?:^|(?<=[.;\n\"\u201d]))\s*([A-Z][A-Za-z ]{2,40}):\s*")


def misfiled_answers(view: NoteView) -> list[NoteFault]:
    """A labelled item ("Marital status: ...", ``labelled_answers``) whose text holds none of its topic's words and
    is no bare denial: the answer to another question ("Marital status: \"As I said, I was an only child.\""); or one
    that holds a word of another topic and none that says its own (``labelled_other_topic``: "Marital status: \"I rent
    a flat with my partner near his family.\"" is where he lives). An item the note marks unanswered (``labelled_unanswered``:
    "Sleep: asked, answered about drinking instead.") is the gap told, not an answer misfiled."""
    table = {k.lower(): [stem(w) for w in v] for k, v in _data()["labelled_answers"].items()}
    others = {k.lower(): {part: [stem(w) for w in words] for part, words in v.items()} for k, v in _data()["labelled_other_topic"].items()}
    denials = set(_data()["denial_words"])
    patterns = {k.lower(): re.compile(v, re.IGNORECASE) for k, v in _data().get("labelled_patterns", {}).items() if not k.startswith("_")}
    flagged = _data().get("labelled_unanswered", {}).get("pattern")
    unanswered = re.compile(flagged, re.IGNORECASE) if flagged else None
    out = []
    for section, text in view.sections.items():
        marks = list(_LABEL.finditer(text))
        for i, m in enumerate(marks):
            label = m.group(1).strip().lower()
            if label not in table:
                continue
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            answer = text[m.end() : end].strip()
            tokens = tokenize(re.sub(r"^[\"\u201c]?\s*(?:as i said|like i said|like i mentioned|as i mentioned)[, ]*", "", answer, flags=re.I))
            if not tokens or tokens[0] in denials:
                continue
            if unanswered is not None and unanswered.search(answer):
                continue  # the note says the question went unanswered ("Sleep: asked, answered about drinking instead.")
            stems_ = [stem(t) for t in tokens]
            other = others.get(label)
            pattern = patterns.get(label)
            on_topic = any(s.startswith(w) for s in stems_ for w in table[label]) or bool(pattern and pattern.search(answer))
            # a sentence of the answer that holds another topic's word and none that says its own ("Living situation:
            # \"Home wasn't a safe place growing up. I live with my partner ...\"": the first is the childhood)
            strays = [
                sentence for sentence in re.split(r"(?<=[.!?])\s+", answer)
                if other and any(s.startswith(w) for s in (stem(t) for t in tokenize(sentence)) for w in other["other"])
                and not any(s.startswith(w) for s in (stem(t) for t in tokenize(sentence)) for w in other["unless"])
            ]
            if not on_topic or strays:
                out.append(NoteFault("misfiled_answer", section, f"{m.group(1)}: {answer[:120]}"))
    return out + misfiled_mood(view)


def misfiled_mood(view: NoteView) -> list[NoteFault]:
    """The quote given as the patient's mood (``mood_quote`` ``leads``: "Mood described as \"...\"") with a sentence
    that says no mood (none of ``words``): hopelessness ("I think I'll never get better") or a marriage ("We've grown
    apart") filed as the mood word. One fault per quote."""
    conf = _data()["mood_quote"]
    words = [stem(w) for w in conf["words"]]
    # stop 37: a phrase whose word only looks like a mood ("cutting down on my own", held_out32 test-v2-0111), and a
    # quote that gives another person's words ("In my daughter's words, she was fine", held_out33 test-v2-0299)
    not_mood = re.compile(conf["not_mood"], re.IGNORECASE) if conf.get("not_mood") else None
    reported = re.compile(conf["reported"], re.IGNORECASE) if conf.get("reported") else None
    out = []
    for q in view.quotes:
        if not any(q.before.lower().rstrip().endswith(lead) for lead in conf["leads"]):
            continue
        if reported is not None and reported.search(q.text):
            out.append(NoteFault("misfiled_answer", q.section, f"Mood: {q.text[:120]}"))
            continue
        for sentence in re.split(r"(?<=[.!?])\s+", q.text):
            body = re.sub(r"^\s*(?:as i said|like i said|like i mentioned|as i mentioned)[, ]*", "", sentence, flags=re.I)
            if not_mood is not None:
                body = not_mood.sub(" ", body)
            tokens = tokenize(body)
            if len(tokens) >= 2 and not any(stem(t).startswith(w) for t in tokens for w in words):
                out.append(NoteFault("misfiled_answer", q.section, f"Mood: {q.text[:120]}"))
                break
    return out


def mood_unrecorded(view: NoteView) -> list[NoteFault]:
    """A note that records the mood as not described (``mood_unrecorded`` ``note``: "Mood not described") though the
    patient gave one in answer to a question about mood (``questions``): a sentence of the answer that speaks of their
    mood with a mood word ("My mood's terrible, I'd say", "I'm in a foul mood"), or its first sentence holding a mood
    word ("Stressed, I suppose."), neither told of the past (``past``: "I had one previous episode of low mood at 52").
    The mood words are ``mood_quote`` ``words`` and ``mood_unrecorded`` ``more_words``. Stop
    32: a supervisor marked 'Mood not described' beside 'terrible', 'alright', 'fantastic' and 'okay' in four of
    thirteen notes of held_out31 (and six more of the earlier slices carry it). One fault per note."""
    conf = _data()["mood_unrecorded"]
    if not any(_names(view.note, [phrase]) for phrase in conf["note"]):
        return []
    words = [stem(w) for w in _data()["mood_quote"]["words"] + conf["more_words"] if stem(w) != "mood"]

    def moody(sentence: str) -> bool:
        return any(stem(t).startswith(w) for t in tokenize(sentence) for w in words)

    from mentalhospital_env.knowledge.language import time_frame

    for doctor, patient in view.turns:
        if not _names(doctor or "", conf["questions"]):
            continue
        # a past episode ("I had one previous episode of low mood at 52") is history, not the mood now
        sentences = [
            x for x in re.split(r"(?<=[.!?])\s+", patient or "")
            if x.strip() and time_frame(x) != "past" and not _names(x, conf["past"])
        ]
        said = any(_names(x, ["mood"]) and moody(x) for x in sentences)
        first = bool(sentences) and sentences[0] == re.split(r"(?<=[.!?])\s+", (patient or "").strip())[0]
        if said or (first and moody(sentences[0])):
            return [NoteFault("mood_unrecorded", "mental_status_exam", (patient or "")[:80])]
    return []


def _keyword_list(sentence: str) -> bool:
    """Whether ``sentence`` (quotes removed) is a list of terms rather than a sentence (``symptom_list``): at least
    ``min_items_semicolon`` items parted by semicolons, or ``min_items`` by commas and a final "and", every item after the first at most
    ``item_words`` words ("The patient reports depressed mood; anhedonia; suicidal ideation."). "Low mood, poor
    sleep and tiredness for six weeks since her separation" is a sentence: its last item tells when and why."""
    conf = _data()["symptom_list"]
    body = sentence.strip().rstrip(".!?")
    for parts, least in ((body.split(";"), conf["min_items_semicolon"]), (re.split(r",|\band\b", body), conf["min_items"])):
        parts = [p for p in parts if p.strip()]
        if len(parts) >= least and all(len(tokenize(p)) <= conf["item_words"] for p in parts[1:]):
            return True
    return False


def symptom_list_history(view: NoteView) -> list[NoteFault]:
    """A history of present illness written as a list of symptoms: a sentence of its own words (quotes aside) that
    is a list of terms (:func:`_keyword_list`) and fewer than ``narrative_sentences`` sentences of at least
    ``narrative_words`` words that tell the illness (what began when, what followed, what it has done). Quotes and
    labels ("Onset and course: \"In May.\"") are not a narrative; a narrative that also lists symptoms is one. A note
    with too little prose in all (fewer than the cues' ``prose_sentences_target``) already loses the marks for it
    (``note_structure``), so its telegraphic history is not faulted twice."""
    from .cues import load_cues
    from .features import _prose_sentences

    conf = _data()["symptom_list"]
    cues = load_cues()
    if _prose_sentences(view.note, cues) < cues.limits["prose_sentences_target"]:
        return []
    text = view.sections.get("history_of_present_illness", "")
    own = _QUOTE.sub(" ", text)
    own = re.sub(r"(?:^|(?<=[.;]))\s*[A-Z][A-Za-z ]{2,40}:", " ", own)  # labels: "Context:", "Impact:"
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", own) if s.strip(" .;:")]
    lists = [s for s in sentences if _keyword_list(s)]
    narrative = [s for s in sentences if s not in lists and len(tokenize(s)) >= conf["narrative_words"]]
    if lists and len(narrative) < conf["narrative_sentences"]:
        return [NoteFault("symptom_list_history", "history_of_present_illness", lists[0].strip()[:160])]
    return []


def broken_punctuation(view: NoteView) -> list[NoteFault]:
    """Doubled or broken punctuation a writer would not leave (``broken_punctuation`` patterns: a stop after a quote
    that ends in one, \".\". ; a label with nothing after it, \"Exam results: ;\"; two quotes run together), one
    fault per place."""
    out = []
    for entry in _data()["broken_punctuation"]:
        for m in entry["regex"].finditer(view.note):
            out.append(NoteFault("broken_punctuation", "note", f"{entry['name']}: {view.note[max(0, m.start() - 30) : m.end() + 10]!r}"))
    return out


def misfiled_findings(view: NoteView) -> list[NoteFault]:
    """A finding recorded under a mental-state label it does not belong to (``labelled_findings``): low mood,
    anhedonia or nightmares as "Thought content" (one fault per label)."""
    out = []
    table = {k.lower(): v for k, v in _data()["labelled_findings"].items()}
    lexicon = load_lexicon()
    for section, text in view.sections.items():
        marks = list(_LABEL.finditer(text))
        for i, m in enumerate(marks):
            rule = table.get(m.group(1).strip().lower())
            if rule is None:
                continue
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            item = text[m.end() : end]
            if rule.get("self_view"):
                # how the patient sees himself ('Describes himself as "always the gloomy one"') is his thought, whatever
                # mood word it holds
                item = re.sub(rule["self_view"], " ", item, flags=re.IGNORECASE)
            found = [
                x.concept_id for x in mentions(item)
                if not x.negated and x.concept_id not in rule.get("except", ())
                and (lexicon.get(x.concept_id).domain in rule["domains"] or x.concept_id in rule["concepts"])
            ]
            if found:
                out.append(NoteFault("misfiled_answer", section, f"{m.group(1)}: {', '.join(dict.fromkeys(found))}"))
    return out


def _root(word: str) -> str:
    """A word's stem without a final e or s: "overdose" and "overdoses" stem apart ("overdose", "overdos")."""
    return stem(word).rstrip("es") or stem(word)


def _names(text: str, phrases: list[str]) -> bool:
    """Whether ``text`` names one of ``phrases`` (by roots, anywhere)."""
    stems_ = [_root(t) for t in tokenize(text)]
    for phrase in phrases:
        p = [_root(t) for t in tokenize(phrase)]
        if any(stems_[i : i + len(p)] == p for i in range(len(stems_) - len(p) + 1)):
            return True
    return False


def _acts_named(text: str, acts: list[str]) -> bool:
    """Whether ``text`` tells one of ``acts`` (a risk kind's ``note_acts``: 'pushed', 'lashed out') as the patient's own:
    at the start of its clause or just after a word of ``note_act_subjects`` ('she pushed', 'reports pushing'), and
    not followed by 'by' ('pushed by her brother')."""
    subjects = {_root(w) for w in _data()["note_act_subjects"]}
    for clause in _clauses(text):
        roots = [_root(t) for t in tokenize(clause) if re.search(r"\w", t)]
        for phrase in acts:
            p = [_root(t) for t in tokenize(phrase)]
            for i in range(len(roots) - len(p) + 1):
                if roots[i : i + len(p)] == p and (i == 0 or roots[i - 1] in subjects) and roots[i + len(p) : i + len(p) + 1] != [_root("by")]:
                    return True
    return False


def _names_risk(text: str, kind: dict[str, Any]) -> bool:
    """Whether ``text`` names a risk kind in the note: one of its ``note`` words, or its ``note_acts`` as the patient's."""
    return _names(text, kind["note"]) or _acts_named(text, kind.get("note_acts", []))


def _clauses(line: str) -> list[str]:
    breaks = "|".join(rf"\b{re.escape(w)}\b" for w in _data()["clause_breaks"])
    return [c for c in re.split(rf"[.;:]|{breaks}", line, flags=re.IGNORECASE) if c.strip()]


def _names_affirmed(line: str, phrases: list[str]) -> bool:
    """Whether ``line`` names one of ``phrases`` with no negation earlier in its clause ("No suicidal ideation, plans
    or past attempts" names no attempt; "no weapons" no weapon)."""
    negations = set(_data()["negations"])
    for clause in _clauses(line):
        tokens = tokenize(clause)
        stems_ = [_root(t) for t in tokens]
        for phrase in phrases:
            p = [_root(t) for t in tokenize(phrase)]
            for i in range(len(stems_) - len(p) + 1):
                if stems_[i : i + len(p)] == p and not set(tokens[:i]) & negations:
                    return True
    return False


def main_risks(risk_lines: tuple[str, ...]) -> list[dict[str, Any]]:
    """The record's main risks (``risk_kinds``): those always main that a risk line names, and any a line graded
    with a severity word ("High: ...", "Safeguarding: ...") names."""
    conf = _data()
    severe = {stem(w) for w in conf["severity_words"]}
    out = []
    for kind in conf["risk_kinds"]:
        for line in risk_lines:
            graded = bool({stem(t) for t in tokenize(_clauses(line)[0] if _clauses(line) else "")} & severe)
            if (kind["always_main"] or graded) and _names_affirmed(line, kind["record"]):
                out.append(kind)
                break
    return out


def history_risk_lines(sections: Any) -> list[str]:
    """The record's risk history told outside its risk assessment (``history_risk``): each sentence of a section it
    names that holds one of that section's words ("Conviction for assault three years ago" in the personal history,
    "Took an overdose at 22" in the past psychiatric history). A risk a supervisor wants in the risk section whether or
    not the interview reached it."""
    conf = _data().get("history_risk", {}).get("sections", {})
    out = []
    for path, text in sections:
        gates = conf.get(path)
        if not gates:
            continue
        for sentence in re.split(r"(?<=[.;])\s+", text):
            if _names_affirmed(sentence, gates):
                out.append(sentence)
    return out


def main_risk_omitted(view: NoteView) -> list[NoteFault]:
    """Each of the record's main risks (:func:`main_risks`, read from its risk assessment and its risk history:
    :func:`history_risk_lines`) that the note's risk section does not name in any of its words: ``main_risk_omitted``
    for a risk the record's risk assessment names, ``risk_history_omitted`` for one only its history tells (a
    conviction for assault, an overdose at 13: what the interview should have reached, a lesser fault)."""
    risk_text = _section_text(view, "risk_assessment")
    assessed = {kind["name"] for kind in main_risks(view.risk_lines)}
    return [
        NoteFault("main_risk_omitted" if kind["name"] in assessed else "risk_history_omitted", "risk_assessment", kind["name"])
        for kind in main_risks(view.risk_lines + view.history_risk_lines)
        if not _names_risk(risk_text, kind)
    ]


def _structured(view: NoteView) -> bool:
    """A note written under headings (``structured_min_core`` of the core sections): the faults of omission below
    read its headings, and a note in prose without them has already lost its structure's credit."""
    conf = _data()
    core = {"chief_complaint", "history_of_present_illness", "mental_status_exam", "risk_assessment", "assessment", "plan"}
    return len(core & set(view.sections)) >= int(conf.get("structured_min_core", 4))


def _headed(view: NoteView) -> bool:
    """A note with at least one heading (prose with none is read as ``untitled``)."""
    return bool(set(view.sections) - {"untitled"})


def _section_text(view: NoteView, key: str) -> str:
    """The text of the note's section ``key``; a note with no heading at all (one paragraph of prose or shorthand, read
    as ``untitled``) holds every section in that paragraph (stop 42, issue 15: a terse note of one paragraph that
    records the intrusive thoughts and checking, or the assault conviction, was read as having no history and no risk
    section, so every central feature and main risk counted as left out and held accurate terse notes rated 4 at 2)."""
    if key in view.sections:
        return view.sections[key]
    if not _headed(view) or key in _data().get("untitled_opening", {}).get("sections", ()):
        # stop 51: the paragraph before a note's first heading ("42F, outpatient. One week: sleeping about 3 hours a
        # night and not tired ... Risk: ...") is its history where the note heads none (untitled_opening)
        return view.sections.get("untitled", "")
    return ""


def told_risk_omitted(view: NoteView) -> list[NoteFault]:
    """A risk the patient told in the encounter (``told_risks``: a finding the replies affirm, passive death wishes, a
    teacher punched) that the note's risk section does not name in any of its words, when the record's risk does
    not already fault it (:func:`main_risk_omitted`); a note under headings with no risk section leaves out each one.
    Stop 29 (issue 15): a supervisor fails a note whose risk section records only denials beside "I punched a
    teacher"."""
    risk_text = view.sections.get("risk_assessment")
    if risk_text is None and _headed(view):
        # a note under headings with no risk section leaves out every risk the patient told that no other section of
        # its history or mental state records, however few its sections (a psychotic depression's note without its
        # risk assessment is a major omission, not a lesser note; risk folded into the history is recorded: stop 32)
        risk_text = " ".join(text for key, text in view.sections.items() if key != "plan")
    elif risk_text is None or not _structured(view):
        return []
    faulted = {kind["name"] for kind in main_risks(view.risk_lines + view.history_risk_lines) if not _names_risk(risk_text, kind)}
    out = []
    for told in _data().get("told_risks", {}).get("kinds", []):
        # an abuse the patient disclosed is recorded wherever the note tells it (the personal history); a risk to self
        # or others belongs in the risk section
        where = view.note if told.get("where") == "note" else risk_text
        if not set(told["findings"]) & view.affirmed:
            continue
        if told.get("denied"):
            # a risk the patient affirmed that the note records as absent ('no plan' beside 'Yes' to a plan to end her
            # life) misleads more than one left out (stop 50): a false denial, whatever the record says
            denial = re.compile(told["denied"], re.IGNORECASE)
            if denial.search(where) and not _names(denial.sub(" ", where), told["note"]):
                out.append(NoteFault("false_denial", "risk_assessment", f"{told['name']}: the note denies what the patient affirmed"))
                continue
        if told.get("risk_kind") in faulted:
            continue  # main_risk_omitted has it
        if not _names(where, told["note"]):
            out.append(NoteFault("told_risk_omitted", "risk_assessment", told["name"]))
    return out


def substance_omitted(view: NoteView) -> list[NoteFault]:
    """A substance use the patient disclosed in the encounter (``told_substances.concepts``: a lexicon concept the
    replies affirm), of which the record diagnoses a disorder (``told_substances.codes``), that the note names nowhere, in the lexicon's words (:attr:`NoteView.named`) or the data's; a
    note naming drug use in general (``told_substances.general``) names any drug. Stop 39 (issue 15): the omission
    checks counted symptoms and risks, not the substance history (held_out32 note-449, cocaine use left out)."""
    conf = _data()["told_substances"]
    general = set(conf.get("general", ()))
    codes = [c.upper() for c in view.reference]
    out = []
    for concept, words in conf["concepts"].items():
        if not any(c.startswith(tuple(conf["codes"][concept])) for c in codes):
            continue  # a use the record diagnoses no disorder of (a light drinker's wine, cannabis at university)
        if concept not in view.affirmed or concept in view.named or _names(view.note, words):
            continue
        if concept != "alcohol_use" and concept != "tobacco_use" and general & view.named:
            continue
        out.append(NoteFault("substance_omitted", "substance_use", concept.replace("_", " ")))
    return out


def asked_history_omitted(view: NoteView) -> list[NoteFault]:
    """A history the doctor asked for and the patient answered (``asked_history``: family, medical, past psychiatric
    history, allergies, by the question's words) that a note written under headings gives no heading of its own: the
    family history that was asked and is absent (a supervisor's fault, stop 28, three of six notes). Any heading makes
    a note one written under headings (:func:`_headed`): a note that drops more of its headings must not escape it."""
    if not _headed(view):
        return []
    conf = _data().get("asked_history", {})
    negative = set(conf.get("negative_replies", ()))
    out = []
    for key, entry in conf.get("sections", {}).items():
        if key in view.sections:
            continue
        if _names(view.note, entry.get("named", [])):  # stop 36: told in the prose ("FH: sister recurrent depression")
            continue
        asked = [
            (d, p) for d, p in view.turns
            if d and p and _names(d, entry["questions"])
            and (entry.get("negative_too") or not (tokenize(p)[:1] and tokenize(p)[0] in negative))
        ]
        if asked:
            out.append(NoteFault("asked_history_omitted", key, asked[0][1][:80]))
    return out


def answered_marked_unanswered(view: NoteView) -> list[NoteFault]:
    """A risk item the note marks unanswered ("Past attempts: asked, no direct answer.", ``labelled_unanswered``) that
    the reply to a question about that item answers in plain words (``answered_items``: "There was one time."; "I wouldn't do
    anything, though."; "I've got things to live for."), read from the patient's words alone, not from any reader of
    findings. Stop 37 (issue 15): on held_out32..36 the scripted clinician's notes logged past attempts, intent and
    what keeps the patient safe as unanswered where the patient had answered (test-v2-0317 'There was one time', rated
    2; test-v2-0024 'I wouldn't do anything, though', rated 3) and the judge charged nothing."""
    conf = _data()["answered_items"]
    unanswered = re.compile(_data()["labelled_unanswered"]["pattern"], re.IGNORECASE)
    # a reply answers an item only when its question asked about it ("question"): a reply to another question
    # ("I haven't tried any other medication yet", "There was one time I felt better, at Christmas") does not
    turns = [(d, _without_reported(r)) for d, r in view.turns]
    out = []
    for section, text in view.sections.items():
        marks = list(_LABEL.finditer(text))
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            if not unanswered.search(text[m.end() : end]):
                continue
            label = m.group(1).strip()
            for item in conf["items"]:
                if not re.search(item["label"], label, re.IGNORECASE):
                    continue
                said = next((r for d, r in turns if re.search(item["question"], d, re.IGNORECASE)
                             and re.search(item["answer"], r, re.IGNORECASE)), None)
                if said is not None:
                    out.append(NoteFault("answered_marked_unanswered", section, f"{label}: {said[:100]}"))
                break
    return out


def _without_reported(reply: str) -> str:
    """The reply without the words it quotes (a letter, a relative): what the patient says of themself."""
    return re.sub(r"(?<![A-Za-z])'[^']{2,}?'(?![A-Za-z])|\"[^\"]{2,}?\"", " ", reply)


def _affirming_sentences(reply: str) -> list[str]:
    """The sentences of a reply that affirm something: none that holds a negation (a denial, "not sure") or is a
    question back to the doctor."""
    from mentalhospital_env.knowledge.language import load_cues as language_cues

    negations = {p[0] for p in language_cues().negation if len(p) == 1}

    def negated(tokens: list[str]) -> bool:
        return any(t in negations or t.endswith("n't") for t in tokens)

    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", reply.strip()):
        tokens = tokenize(sentence)
        if not tokens or sentence.rstrip().endswith("?"):
            continue
        if not negated(tokens):
            out.append(sentence)
            continue
        out.extend(_affirming_clauses(tokens, negated))
    return out


def _affirming_clauses(tokens: list[str], negated: Callable[[list[str]], bool]) -> list[str]:
    """The clauses of a sentence that holds a negation which affirm something themselves (no negation of their own):
    "I don't even notice I'm doing it | until there's a pile of hair on the desk" tells the pile of hair."""
    from mentalhospital_env.knowledge.language import clauses

    text = " ".join(tokens)
    if len(tokenize(text)) != len(tokens):  # the clause reader counts another tokenisation: read no clause apart
        return []
    parts = [tokens[c.start : c.end] for c in clauses(text)]
    return [" ".join(part) for part in parts if len(parts) > 1 and part and not negated(part)]


def _content_keys(text: str) -> frozenset[str]:
    from mentalhospital_env.knowledge.language import content_stems, word_key

    return frozenset(word_key(s) for s in content_stems(text) if len(s) > 2)


def _record_sentence_keys(view: NoteView, wanted: tuple[str, ...]) -> list[frozenset[str]]:
    """The content words of each sentence of the record's ``wanted`` sections: its narrative and its facts."""
    return [
        keys
        for path, text in (*view.record_sections, *view.record_facts)
        if path.startswith(wanted)
        for sentence in re.split(r"(?<=[.!?;])\s+", text)
        if (keys := _content_keys(sentence))
    ]


def told_content_omitted(view: NoteView) -> list[NoteFault]:
    """What the patient told of the illness that a note with any heading carries nowhere (``told_content``), terse or
    full: a terse note is still to carry what the encounter was about (held to a note with most core sections only, a
    note with one more section dropped lost the fault and scored higher, and the sections-dropped ladder broke). Each
    sentence of a reply that affirms something (no negation, no question back), with at least ``min_content_words``
    content words not already told, is what the encounter elicited when most of its content words
    (``record_match``) are those of one sentence of the record's history, mental state or risk
    (``record_sections``): the presenting problem, the central finding, the context of the illness, not a deflection
    or small talk. The note carries it when it holds ``note_cover`` of its content words, or names every finding the
    sentence affirms (in any words, by the lexicon). Stop 44 (issue 15): on every development slice the judge gave 5
    to scripted notes rated 3 that left out the referral's complaint ("the minute I get into bed my brain switches
    on"), the oppositional finding ("they are fighting at home every day") or what the patient does ("I'm barely
    leaving bed"): omissions that only a reading against the transcript finds, not a list of words."""
    conf = _data().get("told_content")
    if not conf or not _headed(view):
        return []
    wanted = tuple(conf["record_sections"])
    record = _record_sentence_keys(view, wanted)
    if not record:
        return []
    note_keys = _content_keys(view.note)
    named = _named_in_any_words(view)
    seen: set[str] = set()
    out = []
    for reply in view.replies:
        for sentence in _affirming_sentences(_without_reported(reply)):
            keys = _content_keys(sentence)
            if len(keys) < int(conf["min_content_words"]) or keys <= seen:
                continue
            seen |= keys
            if max(len(keys & r) / len(keys) for r in record) < float(conf["record_match"]):
                continue
            if len(keys & note_keys) / len(keys) >= float(conf["note_cover"]):
                continue
            concepts = {m.concept_id for m in mentions(sentence) if not m.negated}
            if concepts and concepts <= named:
                continue
            out.append(NoteFault("told_content_omitted", "history_of_present_illness", sentence))
    return out


NOTE_FAULTS: tuple[Callable[[NoteView], list[NoteFault]], ...] = (
    garbled_quotes,
    third_person_quotes,
    chief_complaint_fault,
    misfiled_sections,
    diagnosis_duration,
    main_risk_omitted,
    diagnosis_unsupported,
    central_finding_omitted,
    false_denials,
    allergy_denied,
    medication_invented,
    misfiled_answers,
    diagnosis_specifier,
    diagnosis_against_record,
    symptom_list_history,
    broken_punctuation,
    misfiled_findings,
    results_uninterpreted,
    child_history_missing,
    told_risk_omitted,
    substance_omitted,
    asked_history_omitted,
    mood_unrecorded,
    answered_marked_unanswered,
    told_content_omitted,
)
"""The rubric: each function finds one kind of fault."""


@per_encounter
def note_faults(case: Any, chart: Chart) -> tuple[NoteFault, ...]:
    """Every fault the rubric finds in ``chart.note`` (none without a note). A quote both garbled and in the third
    person is one fault (garbled)."""
    if not (chart.note or "").strip():
        return ()
    view = note_view(case, chart)
    out: list[NoteFault] = []
    garbled = set()
    for function in NOTE_FAULTS:
        for fault in function(view):
            if fault.kind == "garbled_quote":
                garbled.add(fault.text)
            elif fault.kind == "third_person_quote" and fault.text in garbled:
                continue
            out.append(fault)
    return tuple(out)


def fragment_blocked(faults: tuple[NoteFault, ...]) -> bool:
    """Whether a fault keeps a keyword note from the floor of an accurate fragment (``fragment_blocked_by``: a
    diagnosis against the record or the encounter, a false denial)."""
    kinds = set(_data().get("fragment_blocked_by", {}).get("kinds", ()))
    return any(f.kind in kinds for f in faults)


def misleading(faults: tuple[NoteFault, ...]) -> bool:
    """Whether a fault would mislead care (``misleading_kinds``: a principal diagnosis the encounter does not support,
    a schizophrenia-spectrum diagnosis for a record with no psychosis): such a note is not a usable one."""
    kinds = set(_data()["misleading_kinds"])
    return any(f.kind in kinds for f in faults)


def fault_points(faults: tuple[NoteFault, ...]) -> float:
    """What Qual. loses: per kind, ``points`` per fault, at most ``max_points``; the faults of style (``style.kinds``:
    a symptom list, broken punctuation, misfiled answers) together at most ``style.max_points``, so that style alone
    cannot sink a sound note below fair."""
    points = _data()["points"]
    style = _data()["style"]
    total = styled = 0.0
    for kind in KINDS:
        n = sum(f.kind == kind for f in faults)
        if n:
            lost = min(points[kind]["max_points"], points[kind]["points"] * n)
            if kind in style["kinds"]:
                styled += lost
            else:
                total += lost
    return round(total + min(styled, style["max_points"]), 3)


__all__ = [
    "KINDS",
    "NOTE_FAULTS",
    "told_content_omitted",
    "NoteFault",
    "NoteView",
    "chief_complaint_fault",
    "diagnosis_duration",
    "diagnosis_specifier",
    "diagnosis_against_record",
    "fault_points",
    "garbled_quotes",
    "assessment_disorders",
    "central_finding_omitted",
    "child_history_missing",
    "diagnosis_unsupported",
    "false_denials",
    "allergy_denied",
    "risk_false_denials",
    "illness_days",
    "unsupported_entries",
    "main_risk_omitted",
    "misleading",
    "misfiled_answers",
    "misfiled_findings",
    "misfiled_sections",
    "misfiled_mood",
    "results_uninterpreted",
    "central_features_omitted",
    "broken_punctuation",
    "symptom_list_history",
    "substance_omitted",
    "note_faults",
    "note_view",
    "third_person_quotes",
]
