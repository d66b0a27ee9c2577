"""Calibration ladders: a good chart degraded step by step in one dimension.

A judge worth using must score every ladder monotonically: each rung no better than the one above
it on the ladder's dimension, and the last rung worse than the first. Five ladders, one per
dimension:

* ``empathy_removed`` (empathy): warm sentences (empathy, validation, reflection) stripped from more
  and more turns;
* ``questions_leading`` (professionalism): more and more open questions rewritten as leading ones;
* ``sections_dropped`` (note quality): note sections removed one at a time;
* ``differential_emptied`` (diagnostic rigor): ranked disorders removed from the end until none is
  left;
* ``unsafe_plan`` (treatment appropriateness): safety measures removed, then follow-up, then a drug
  unsafe for the reference diagnosis added, then the first-line drugs removed.

and, where the case has the material for them:

* ``critical_step_removed`` (treatment appropriateness): the sentences holding the case's critical actions
  (``knowledge/data/critical_actions.json``) removed one action at a time;
* ``contraindicated_added`` (treatment appropriateness): a drug or action the case's rules forbid added to
  the plan, then a second;
* ``denied_finding_asserted`` (note quality): findings the patient denied in the interview asserted in the
  note's history, one more at each rung;
* ``note_faults`` (note quality): a garbled quote added, then the chief complaint emptied, then the record's
  main risk taken out of the risk section (:mod:`.note_faults`).

:func:`paraphrase_check` is no ladder: the exemplary plan rewritten with no drug named (each drug by its
class, "an antipsychotic", "a mood stabiliser"), which must lose at most half a point of App.

:func:`exemplary_chart` writes the good chart from any case (questions from the lexicon and
``data/ladder_phrases.json``, the record's own facts as replies, a sectioned note, the reference
diagnosis with the knowledge base's differentials, the reference plan with safety and follow-up),
so ladders can be built on every case of a suite. :func:`check_judge` runs a judge on ladders.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.cases import Case, load_case
from mentalhospital_env.cases.derive import split_sentences
from mentalhospital_env.knowledge.codes import category_of_code, normalize_code
from mentalhospital_env.knowledge.language import stem, tokenize
from mentalhospital_env.knowledge.lexicon import load_lexicon

from ..chart import Chart, Turn
from .cues import load_cues
from .features import is_emotional_disclosure, note_blocks, read_utterance
from mentalhospital_env.knowledge.critical import load_critical_actions

from .guidelines import _disorder_entry, _field, _knowledge, case_guideline, load_formulary
from .judges import Judge
from .note_faults import _encounter_gives, deranged, history_risk_lines, note_view


@lru_cache(maxsize=1)
def ladder_phrases() -> dict[str, Any]:
    """The phrases of ``data/ladder_phrases.json``."""
    return json.loads(resources.files(__package__).joinpath("data/ladder_phrases.json").read_text("utf-8"))


def calibration_case() -> Case:
    """The hand-written calibration case shipped with MentalEval (a manic episode with alcohol use)."""
    return load_case(
        json.loads(resources.files(__package__).joinpath("data/calibration_case.json").read_text("utf-8"))
    )


@dataclass(frozen=True)
class Ladder:
    """Charts from best (``rungs[0]``) to worst on ``dimension``; ``steps`` says what each rung changed."""

    name: str
    dimension: str
    rungs: tuple[Chart, ...]
    steps: tuple[str, ...]


# --- the exemplary chart --------------------------------------------------------------------------


def _fact_reply(facts: Sequence[Any]) -> str:
    return " ".join((f.patient_says or f.text).strip() for f in facts)


def _interview(case: Case) -> tuple[Turn, ...]:
    phrases = ladder_phrases()
    questions = phrases["section_questions"]
    warm = phrases["warm_openers"]
    by_section: dict[str, list[Any]] = {}
    observed = ("appearance", "behavior", "speech", "affect", "thought_process")
    for fact in case.facts:
        if fact.section.startswith("mental_status_exam.") and fact.section.split(".", 1)[1] in observed:
            continue
        by_section.setdefault(fact.section, []).append(fact)
    turns: list[Turn] = []
    cc = by_section.pop("chief_complaint", [])
    turns.append(
        Turn(phrases["opening"], _fact_reply(cc) or case.ehr.chief_complaint, tuple(f.id for f in cc))
    )
    for section, facts in by_section.items():
        question = questions.get(section) or "Can you tell me more about that?"
        turns.append(Turn(question, _fact_reply(facts), tuple(f.id for f in facts)))
    # a finding the record denies in the clinician's words ("She denies thought insertion"), or that the
    # patient's own words for the fact do not name, is asked as a closed question and denied, so the
    # note's denial rests on what was said in the encounter
    lexicon = load_lexicon()
    denied_asked: set[str] = set()
    for fact in case.facts:
        said = {m.concept_id for m in lexicon.find(fact.patient_says)} if fact.patient_says else set()
        for m in lexicon.find(fact.text):
            if m.concept_id in said:
                continue
            concept = lexicon.get(m.concept_id)
            if m.negated and concept.kind != "history" and concept.questions and m.concept_id not in denied_asked:
                denied_asked.add(m.concept_id)
                turns.append(Turn(concept.questions[0], "No.", (fact.id,)))
    asked = " ".join(t.doctor for t in turns)
    topics = read_utterance(asked).safety_topics
    for topic, question in phrases["safety_questions"].items():
        if topic not in topics:
            turns.append(Turn(question, "No, nothing like that.", ()))
    # Acknowledge every emotional disclosure, and warm at least every other turn.
    out: list[Turn] = [turns[0]]
    k = 0
    for i in range(1, len(turns)):
        previous = turns[i - 1].patient
        if is_emotional_disclosure(previous) or i % 2 == 1:
            out.append(replace(turns[i], doctor=f"{warm[k % len(warm)]} {turns[i].doctor}"))
            k += 1
        else:
            out.append(turns[i])
    return tuple(out)


def _evidence_terms(case: Case, code: str, limit: int = 3) -> list[str]:
    lexicon = load_lexicon()
    category = category_of_code(code)
    terms: list[str] = []
    for fact in case.facts:
        tokens = tokenize(fact.text)
        for m in lexicon.find(fact.text):
            concept = lexicon.get(m.concept_id)
            if not m.negated and category in concept.categories:
                term = " ".join(tokens[m.start : m.end])  # the record's own words for it
                if term not in terms:
                    terms.append(term)
    return terms[:limit]


def _disorder_name(code: str, case: Case) -> str:
    for d in case.diagnosis.disorders:
        if normalize_code(d.code) == code:
            return d.name
    entry = _disorder_entry(_knowledge(), code)
    return str(_field(entry, "name", code)) if entry is not None else code


def _differentials(case: Case, limit: int = 2, results: tuple = ()) -> list[str]:
    """The knowledge base's differentials of the principal, less those the case's own rating scales contradict
    (a "moderate" episode beside scales that read mild is one a supervisor calls unsupported)."""
    from mentalhospital_env.knowledge.specifiers import severity_conflict

    reference = [normalize_code(c) for c in case.diagnosis.codes]
    entry = _disorder_entry(_knowledge(), reference[0])
    out: list[str] = []
    for code in _field(entry, "differentials", ()) or () if entry is not None else ():
        code = normalize_code(str(code))
        if code not in reference and code not in out and not (results and severity_conflict(code, results)):
            out.append(code)
    return out[:limit]


def _plan(case: Case) -> str:
    phrases = ladder_phrases()
    guideline = case_guideline(case)
    parts = [case.treatment.plan.strip()]
    if guideline.first_line_therapies and not load_formulary().therapies_in(
        case.treatment.plan, guideline.first_line_therapies
    ):
        parts.append(f"Offer {guideline.first_line_therapies[0]}.")
    if case.treatment.safety:
        parts.append("Safety: " + "; ".join(case.treatment.safety) + ".")
    parts.append(phrases["plan_safety"])
    actions = load_critical_actions()
    missing = actions.check(guideline.profile, " ".join(parts)).missing
    parts.extend(actions.sentences(missing))
    parts.append(
        f"Follow-up: {case.treatment.follow_up.rstrip('.')}."
        if case.treatment.follow_up
        else phrases["plan_follow_up"]
    )
    parts.append(phrases["plan_psychoeducation"])
    return " ".join(parts)


def _note(
    case: Case, disorders: Sequence[str], plan: str, results: Sequence[tuple[str, str]] = (), turns: Sequence[Turn] = ()
) -> str:
    headings = ladder_phrases()["note_headings"]
    blocks: list[str] = []
    for name, text in case.ehr.sections():
        if "." in name:
            continue
        blocks.append(f"{headings.get(name, name)}: {text}")
    if case.ehr.mental_status_exam is not None:
        mse = " ".join(
            f"{k.replace('_', ' ').capitalize()}: {v.rstrip('.')}."
            for k, v in case.ehr.mental_status_exam.items()
        )
        blocks.append(f"{headings['mental_status_exam']}: {mse}")
    if case.ehr.risk_assessment is not None:
        risk = " ".join(f"{v.rstrip('.')}." for _, v in case.ehr.risk_assessment.items())
        # the risk the record's history tells (an overdose in the past psychiatric history) belongs in the risk
        # section too: a supervisor faults a risk assessment that leaves it out
        history = [line.rstrip(".;") + "." for line in history_risk_lines(case.ehr.sections()) if line not in risk]
        blocks.append(f"{headings['risk_assessment']}: " + " ".join([risk, *history]))
    reference = [normalize_code(c) for c in case.diagnosis.codes]
    lines = []
    # a comorbid disorder of the record whose required feature the interview never brought out is weighed, not made:
    # the judge faults a diagnosis the encounter does not support (note_faults.diagnosis_unsupported) and does not
    # fault leaving such a comorbidity unmade (diagnosis_against_record), so the exemplary note, the ladders' top
    # rung, does what a careful doctor would (stop 40: the redraw gave a generated GAD beside health anxiety with
    # restlessness and tension but no worry; its note lost Qual. for the GAD until the assessment was dropped)
    heard = note_view(case, Chart(turns=tuple(turns), exam_results=tuple(results))) if turns else None
    for i, code in enumerate(reference):
        if i > 0 and heard is not None and not _encounter_gives(heard, code):
            lines.append(
                f"{_disorder_name(code, case)} ({code}) was considered, as the referral records it, but is not "
                "supported by this interview and needs reassessment."
            )
            continue
        evidence = _evidence_terms(case, code)
        because = f", given {', '.join(evidence)} in the history" if evidence else ", based on the history"
        lead = "The presentation is consistent with" if i == 0 else "There is also evidence of"
        lines.append(f"{lead} {_disorder_name(code, case)} ({code}){because}.")
    others = [d for d in disorders if normalize_code(d.split()[0]) not in reference]
    for entry in others:
        code = normalize_code(entry.split()[0])
        lines.append(
            f"{_disorder_name(code, case)} ({code}) was considered but is less likely, because the history does not explain the whole picture."
        )
    # a deranged result on file is read, not only listed
    template = ladder_phrases()["result_reading"]
    lines += [template.format(name=name) for name, result in results if deranged(name, result, case)]
    blocks.append(f"{headings['assessment']}: " + " ".join(lines))
    blocks.append(f"{headings['plan']}: {plan}")
    return "\n".join(blocks)


def exemplary_chart(case: Case) -> Chart:
    """A good chart for ``case``, written from its record: the top rung of every ladder."""
    turns = _interview(case)
    exams = tuple(case.indicated_exams)
    results = tuple((name, case.exam(name).result) for name in exams if case.exam(name) is not None)
    reference = [normalize_code(c) for c in case.diagnosis.codes]
    disorders = tuple(f"{c} {_disorder_name(c, case)}" for c in reference + _differentials(case, results=results))
    plan = _plan(case)
    return Chart(
        turns=turns,
        exams=exams,
        exam_results=results,
        note=_note(case, disorders, plan, results, turns),
        categories=tuple(case.diagnosis.categories),
        disorders=disorders,
        treatment=plan,
    )


# --- the degradations ----------------------------------------------------------------------------


def _chunks(indices: Sequence[int], parts: int) -> list[list[int]]:
    """``indices`` cut into at most ``parts`` consecutive, non-empty chunks."""
    parts = max(1, min(parts, len(indices)))
    size, extra = divmod(len(indices), parts)
    out, start = [], 0
    for p in range(parts):
        end = start + size + (1 if p < extra else 0)
        out.append(list(indices[start:end]))
        start = end
    return out


def _sentences(text: str) -> list[str]:
    return [s for s in split_sentences(text.replace("?", "? ")) if s.strip()] or [text]


def strip_warmth(utterance: str) -> str:
    """The utterance without its empathic, validating or reflective sentences."""
    cues = load_cues()
    kept = []
    for sentence in _sentences(utterance):
        stemmed = [stem(t) for t in tokenize(sentence)]
        if cues.empathy.any(stemmed) or cues.validation.any(stemmed) or cues.reflection.any(stemmed):
            continue
        kept.append(sentence)
    return " ".join(kept).strip() or utterance


def empathy_ladder(chart: Chart, rungs: int = 4) -> Ladder:
    """Warm sentences stripped from more and more turns (``rungs`` steps, the last strips all)."""
    previous = ""
    warm = []
    for i, turn in enumerate(chart.turns):
        if read_utterance(turn.doctor, previous).warm:
            warm.append(i)
        previous = turn.patient
    charts, steps = [chart], ["exemplary"]
    stripped: set[int] = set()
    for chunk in _chunks(warm, rungs):
        stripped |= set(chunk)
        turns = tuple(
            replace(t, doctor=strip_warmth(t.doctor)) if i in stripped else t
            for i, t in enumerate(chart.turns)
        )
        charts.append(replace(chart, turns=turns))
        steps.append(f"warmth removed from {len(stripped)} of {len(warm)} warm turns")
    return Ladder("empathy_removed", "empathy", tuple(charts), tuple(steps))


def make_leading(utterance: str, k: int = 0) -> str:
    """The utterance with its question rewritten as a leading one (other sentences kept)."""
    phrases = ladder_phrases()
    lexicon = load_lexicon()
    sentences = _sentences(utterance)
    target = next(
        (i for i in range(len(sentences) - 1, -1, -1) if sentences[i].rstrip().endswith("?")),
        len(sentences) - 1,
    )
    mentions = lexicon.find(sentences[target])
    topic = phrases["generic_topic"]
    if mentions:
        m = mentions[0]
        topic = " ".join(tokenize(sentences[target])[m.start : m.end])
    templates = phrases["leading_templates"]
    sentences[target] = templates[k % len(templates)].format(topic=topic)
    return " ".join(sentences)


def leading_ladder(chart: Chart, rungs: int = 4) -> Ladder:
    """Open questions rewritten as leading ones, more at each rung (the last rewrites all)."""
    previous = ""
    open_turns = []
    for i, turn in enumerate(chart.turns):
        if read_utterance(turn.doctor, previous).open:
            open_turns.append(i)
        previous = turn.patient
    charts, steps = [chart], ["exemplary"]
    rewritten: set[int] = set()
    for chunk in _chunks(open_turns, rungs):
        rewritten |= set(chunk)
        turns = tuple(
            replace(t, doctor=make_leading(t.doctor, i)) if i in rewritten else t
            for i, t in enumerate(chart.turns)
        )
        charts.append(replace(chart, turns=turns))
        steps.append(f"{len(rewritten)} of {len(open_turns)} open questions made leading")
    return Ladder("questions_leading", "professionalism", tuple(charts), tuple(steps))


def sections_ladder(chart: Chart) -> Ladder:
    """Note sections dropped one at a time (``section_drop_order``), down to the chief complaint."""
    order = ladder_phrases()["section_drop_order"]
    blocks = note_blocks(chart.note or "")
    present = [key for key in order if any(k == key for k, _ in blocks)]
    charts, steps = [chart], ["exemplary"]
    dropped: set[str] = set()
    for key in present:
        dropped.add(key)
        if key == "medications":
            dropped.add("allergies")
        note = "".join(text for k, text in blocks if k not in dropped).strip()
        charts.append(replace(chart, note=note))
        steps.append(f"dropped {key}")
    return Ladder("sections_dropped", "note_quality", tuple(charts), tuple(steps))


def differential_ladder(chart: Chart) -> Ladder:
    """Ranked disorders removed from the end, one per rung, until the list is empty."""
    disorders = tuple(chart.disorders or ())
    charts, steps = [chart], ["exemplary"]
    for n in range(len(disorders) - 1, -1, -1):
        charts.append(replace(chart, disorders=disorders[:n]))
        steps.append(f"{n} disorders left")
    return Ladder("differential_emptied", "diagnostic_rigor", tuple(charts), tuple(steps))


def _drop_sentences(text: str, phrases: Any) -> str:
    kept = [s for s in split_sentences(text) if not phrases.any([stem(t) for t in tokenize(s)])]
    return " ".join(kept)


def unsafe_plan_ladder(case: Case, chart: Chart) -> Ladder:
    """The plan losing its safety measures, then its follow-up, then gaining a drug unsafe for the
    reference diagnosis (``drugs.json`` ``unsafe_with``), then losing its first-line drugs."""
    cues = load_cues()
    guideline = case_guideline(case)
    plan = chart.treatment or ""
    charts, steps = [chart], ["exemplary"]
    no_safety = _drop_sentences(plan, cues.safety_actions)
    charts.append(replace(chart, treatment=no_safety))
    steps.append("safety measures removed")
    no_follow = _drop_sentences(no_safety, cues.follow_up)
    charts.append(replace(chart, treatment=no_follow))
    steps.append("follow-up removed")
    if guideline.unsafe:
        drug = min(guideline.unsafe)
        with_unsafe = f"{no_follow} Also start {drug}."
        charts.append(replace(chart, treatment=with_unsafe))
        steps.append(f"unsafe drug added: {drug}")
        formulary = load_formulary()
        kept = [
            s
            for s in split_sentences(with_unsafe)
            if not ({d.name for d in formulary.drugs_in(s)} & guideline.first_line)
        ]
        charts.append(replace(chart, treatment=" ".join(kept)))
        steps.append("first-line drugs removed")
    return Ladder("unsafe_plan", "treatment_appropriateness", tuple(charts), tuple(steps))


def _plan_sentences(plan: str) -> list[str]:
    return [s for s in split_sentences(plan) if s.strip()]


def critical_step_ladder(case: Case, chart: Chart) -> Ladder | None:
    """The plan's sentences holding each critical action the case requires removed, one action more at each
    rung (``None`` when the case requires none, or the plan holds none)."""
    actions = load_critical_actions()
    profile = case_guideline(case).profile
    plan = chart.treatment or ""
    required, _ = actions.requirements(profile, plan)
    sentences = _plan_sentences(plan)
    holding = [
        (r.action, [i for i, s in enumerate(sentences) if r.action in actions.proposed(s)]) for r in required
    ]
    holding = [(a, idx) for a, idx in holding if idx and r_present(actions, plan, a)]
    if not holding:
        return None
    charts, steps = [chart], ["exemplary"]
    dropped: set[int] = set()
    for action, indices in holding:
        dropped |= set(indices)
        kept = " ".join(s for i, s in enumerate(sentences) if i not in dropped)
        charts.append(replace(chart, treatment=kept))
        steps.append(f"critical action removed: {action}")
    return Ladder("critical_step_removed", "treatment_appropriateness", tuple(charts), tuple(steps))


def r_present(actions: Any, plan: str, action: str) -> bool:
    return action in actions.proposed(plan)


def contraindicated_ladder(case: Case, chart: Chart) -> Ladder | None:
    """A drug or action the case's rules forbid added to the plan, then a second (``None`` when the rules
    forbid nothing for this case)."""
    actions = load_critical_actions()
    profile = case_guideline(case).profile
    plan = chart.treatment or ""
    _, candidates = actions.requirements(profile, plan)
    phrases = ladder_phrases().get("contraindicated_sentences", {})
    added = []
    for c in candidates:
        text = phrases.get(c.action)
        if text and text not in added:
            added.append(text)
    if not added:
        return None
    charts, steps = [chart], ["exemplary"]
    current = plan
    for text in added[:2]:
        current = f"{current} {text}"
        charts.append(replace(chart, treatment=current))
        steps.append(f"contraindicated: {text}")
    return Ladder("contraindicated_added", "treatment_appropriateness", tuple(charts), tuple(steps))


def denied_finding_ladder(case: Case, chart: Chart, rungs: int = 3) -> Ladder | None:
    """Findings the patient denied in the interview (and never affirmed) asserted in the note's history, one
    more at each rung (``None`` when the interview denied nothing the lexicon can name)."""
    from .precision import encounter_evidence

    evidence = encounter_evidence(case, chart)
    lexicon = load_lexicon()
    denied = sorted(
        c for c in evidence.denied - evidence.affirmed if c in lexicon and lexicon.get(c).kind == "symptom"
    )
    if not denied or not (chart.note or "").strip():
        return None
    template = ladder_phrases()["denied_finding_sentence"]
    blocks = note_blocks(chart.note or "")
    at = next((i for i, (k, _) in enumerate(blocks) if k == "history_of_present_illness"), 0)
    charts, steps = [chart], ["exemplary"]
    claims: list[str] = []
    for concept in denied[:rungs]:
        claims.append(template.format(finding=lexicon.get(concept).clinical_terms[0]))
        texts = [t for _, t in blocks]
        texts[at] = texts[at].rstrip() + " " + " ".join(claims) + "\n"
        charts.append(replace(chart, note="".join(texts).strip()))
        steps.append(f"denied finding asserted: {concept}")
    return Ladder("denied_finding_asserted", "note_quality", tuple(charts), tuple(steps))


def note_faults_ladder(case: Case, chart: Chart) -> Ladder | None:
    """What a supervisor faults in a note's text, one more at each rung: a garbled quote added (under Medications,
    else the present illness), the chief complaint emptied ("not stated"), and, when the record names a main risk
    (:func:`~.note_faults.main_risks`), the risk section's sentences naming it taken out (``None`` without a note
    with a chief complaint and a present illness)."""
    from .note_faults import main_risks, note_view

    phrases = ladder_phrases()["note_fault_rungs"]
    blocks = [list(b) for b in note_blocks(chart.note or "")]
    keys = [k for k, _ in blocks]
    if "chief_complaint" not in keys or "history_of_present_illness" not in keys:
        return None

    def note() -> str:
        return "".join(t for _, t in blocks).strip()

    def tail(text: str) -> str:  # the whitespace a block ends with: the next heading stays where it was
        return text[len(text.rstrip()) :] or " "

    charts, steps = [chart], ["exemplary"]
    # under Medications where the note has it (as in hw-040), a section whose words make no claim about the mental
    # state, so that the quote changes nothing but the garble; else at the start of the present illness
    at = keys.index(next(k for k in ("medications", "history_of_present_illness") if k in keys))
    heading, _, body = blocks[at][1].partition(":")
    blocks[at][1] = f"{heading}: {phrases['garbled_quote']} {body.lstrip()}"
    charts.append(replace(chart, note=note()))
    steps.append("garbled quote added")
    cc = keys.index("chief_complaint")
    heading = blocks[cc][1].split(":", 1)[0]
    blocks[cc][1] = f"{heading}: {phrases['empty_chief_complaint']}" + tail(blocks[cc][1])
    charts.append(replace(chart, note=note()))
    steps.append("chief complaint emptied")
    view = note_view(case, chart)
    risks = main_risks(view.risk_lines + view.history_risk_lines)
    if risks and "risk_assessment" in keys:
        at = keys.index("risk_assessment")
        heading, _, body = blocks[at][1].partition(":")
        words = [w for kind in risks for w in kind["note"] + kind.get("note_acts", [])]
        kept = [x for x in _sentences(body) if not any(re.search(rf"\b{re.escape(w)}", x, re.IGNORECASE) for w in words)]
        blocks[at][1] = f"{heading}: {' '.join(kept) or 'not assessed.'}" + tail(blocks[at][1])
        charts.append(replace(chart, note=note()))
        steps.append("main risk omitted: " + ", ".join(kind["name"] for kind in risks))
    return Ladder("note_faults", "note_quality", tuple(charts), tuple(steps))


def paraphrased_plan(plan: str) -> str:
    """``plan`` with every drug named by its class instead ("olanzapine 10 mg" becomes "an antipsychotic
    10 mg"); a drug of no class group of ``cues.json`` by ``ladder_phrases.json`` ``drug_paraphrases``."""
    formulary = load_formulary()
    kb = _knowledge()
    own = ladder_phrases().get("drug_paraphrases", {})
    words: dict[str, str] = {}
    for drug in _field(kb, "drugs") or ():
        name = str(_field(drug, "name")).lower()
        group = next((g for g, held in formulary.class_drugs.items() if name in held), None)
        article = "an" if group and group[0] in "aeiou" else "a"
        words[name] = own.get(name) or (f"{article} {group}" if group else None) or name
    out = plan
    for drug in _field(kb, "drugs") or ():
        name = str(_field(drug, "name"))
        for phrase in sorted((name, *(_field(drug, "synonyms", ()) or ())), key=len, reverse=True):
            out = re.sub(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", words[name.lower()], out, flags=re.IGNORECASE)
    return out


@dataclass(frozen=True)
class ParaphraseCheck:
    """A judge's App. on a plan and on the same plan with no drug named: the paraphrase loses ``lost``."""

    original: float | None
    paraphrased: float | None
    tolerance: float = 0.5

    @property
    def lost(self) -> float | None:
        if self.original is None or self.paraphrased is None:
            return None
        return self.original - self.paraphrased

    @property
    def holds(self) -> bool:
        return self.lost is not None and self.lost <= self.tolerance


def paraphrase_check(judge: Judge, case: Case, chart: Chart | None = None) -> ParaphraseCheck:
    """App. of the exemplary plan and of :func:`paraphrased_plan` of it (the wording changes, the substance
    does not)."""
    chart = chart if chart is not None else exemplary_chart(case)
    other = replace(chart, treatment=paraphrased_plan(chart.treatment or ""))
    a, b = judge.score_many([(case, chart), (case, other)])
    return ParaphraseCheck(a["treatment_appropriateness"], b["treatment_appropriateness"])


def build_ladders(case: Case, chart: Chart | None = None) -> list[Ladder]:
    """The five ladders of ``case`` and those of the safety and precision rungs the case has material for,
    from ``chart`` or from :func:`exemplary_chart`."""
    chart = chart if chart is not None else exemplary_chart(case)
    ladders = [
        empathy_ladder(chart),
        leading_ladder(chart),
        sections_ladder(chart),
        differential_ladder(chart),
        unsafe_plan_ladder(case, chart),
    ]
    for extra in (
        critical_step_ladder(case, chart),
        contraindicated_ladder(case, chart),
        denied_finding_ladder(case, chart),
        note_faults_ladder(case, chart),
    ):
        if extra is not None:
            ladders.append(extra)
    return ladders


@dataclass(frozen=True)
class LadderCheck:
    """A judge's scores down one ladder on its dimension."""

    ladder: str
    dimension: str
    scores: tuple[float | None, ...]

    @property
    def monotone(self) -> bool:
        """No rung scored above the rung before it, no score masked, and the last rung below the first."""
        if any(s is None for s in self.scores) or len(self.scores) < 2:
            return False
        pairs = zip(self.scores, self.scores[1:])
        return all(b <= a for a, b in pairs) and self.scores[-1] < self.scores[0]  # type: ignore[operator]


def check_judge(judge: Judge, case: Case, ladders: Sequence[Ladder]) -> list[LadderCheck]:
    """Score every rung of every ladder (one ``score_many`` call) and report each ladder."""
    encounters = [(case, rung) for ladder in ladders for rung in ladder.rungs]
    verdicts = judge.score_many(encounters)
    out, i = [], 0
    for ladder in ladders:
        scores = tuple(verdicts[i + j][ladder.dimension] for j in range(len(ladder.rungs)))
        i += len(ladder.rungs)
        out.append(LadderCheck(ladder.name, ladder.dimension, scores))
    return out
