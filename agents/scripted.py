"""The scripted clinician: a strong rule-based psychiatrist driven by the knowledge base.

It runs a structured psychiatric interview (``agents/data/clinician.json`` says what to cover; the
lexicon supplies the questions): the chief complaint, the history of the present illness, questions
about the symptoms of its leading hypotheses, a screen of every major domain, the mental state in the
patient's words, risk (after validation, since sensitive topics need rapport), and the past, medical,
family and personal history. It reads each reply with the lexicon (concepts mentioned, negated or
not, and a yes/no reading of the answer to the concept it asked about), keeps a differential ranked
by the evidence (presentation symptoms weighted by how typical they are, denied core symptoms
counting against, the service's base rates as a prior, abnormal exam results for the disorders that
expect them), orders the exams its hypotheses call for, writes a sectioned note from what was
disclosed, names the categories of its leading hypotheses, ranks the disorders, and plans the
first-line treatment of the principal one with its safety actions.

It never sees the case: only the observations any doctor sees.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.agents.base import Action, Doctor, Info, Observation, allowed_now
from mentalhospital_env.knowledge import load_knowledge
from mentalhospital_env.knowledge.language import tokenize


@lru_cache(maxsize=1)
def clinician_script() -> dict[str, Any]:
    """The interview plan of ``agents/data/clinician.json``."""
    return json.loads(resources.files("mentalhospital_env.agents").joinpath("data/clinician.json").read_text("utf-8"))


@dataclass(frozen=True)
class Hypothesis:
    """What the clinician knows of one disorder: its typical symptoms and what its work-up expects."""

    code: str
    name: str
    category: str
    prior: float
    symptoms: tuple[tuple[str, float], ...]
    exams: tuple[str, ...]
    abnormal_exams: frozenset[str]
    medications: tuple[tuple[str, str], ...]
    psychotherapy: tuple[str, ...]
    other_treatment: tuple[str, ...]
    safety: tuple[str, ...]
    follow_up: str
    unsafe_drugs: frozenset[str]


@lru_cache(maxsize=1)
def hypotheses() -> tuple[Hypothesis, ...]:
    """Every disorder of the knowledge base with a presentation, as the clinician reasons about it."""
    kb = load_knowledge()
    total = sum(d.service_weight for d in kb.disorders) or 1.0
    out = []
    for d in kb.disorders:
        presentation = kb.presentation(d.code)
        if presentation is None:
            continue
        unsafe = frozenset(dr.name.lower() for dr in kb.drugs if d.code in dr.unsafe_with)
        unsafe |= frozenset(c.drug.lower() for c in d.contraindicated_drugs)
        out.append(
            Hypothesis(
                code=d.code,
                name=d.name,
                category=d.category,
                prior=d.service_weight / total,
                symptoms=tuple((s.concept, s.p) for s in presentation.symptoms),
                exams=tuple(e.exam for e in d.exams),
                abnormal_exams=frozenset(e.exam.lower() for e in d.exams if e.reading == "abnormal"),
                medications=tuple((m.drug, m.starting_dose) for m in d.treatment.medications),
                psychotherapy=tuple(d.treatment.psychotherapy),
                other_treatment=tuple(d.treatment.other),
                safety=tuple(d.safety),
                follow_up=d.treatment.follow_up,
                unsafe_drugs=unsafe,
            )
        )
    return tuple(out)


@dataclass
class Findings:
    """What the clinician has learned so far in this encounter."""

    present: dict[str, str] = field(default_factory=dict)  # concept id -> the patient's words
    denied: set[str] = field(default_factory=set)
    asked: set[str] = field(default_factory=set)
    chief_complaint: str = ""
    replies: list[tuple[str, str]] = field(default_factory=list)  # (question, reply)
    answers: dict[str, str] = field(default_factory=dict)  # concept or "mse:<domain>" or "hpi:<n>" -> reply
    exam_results: list[tuple[str, str]] = field(default_factory=list)
    walk_in: str = ""


@lru_cache(maxsize=1)
def _denial_start() -> re.Pattern[str]:
    """A reply that opens with one of the script's denials ("No", "Not really", "I haven't" ...)."""
    words = "|".join(re.escape(w) for w in clinician_script()["denials"])
    return re.compile(rf"^\W*({words})\b", re.I)


class ScriptedClinician(Doctor):
    name = "scripted"

    def __init__(self) -> None:
        self.script = clinician_script()
        self.kb = load_knowledge()
        self.lexicon = self.kb.lexicon
        self.hyps = hypotheses()
        self._reset_state()

    def _reset_state(self) -> None:
        self.findings = Findings()
        self.plan: list[tuple[str, str | None]] = []  # (question, concept asked about)
        self.turns = 0
        self.last_concept: str | None = None
        self.last_question = ""
        self.phase = "interview"
        self.validation_index = 0
        self.hypothesis_asks = 0
        self.budget = 40

    # ------------------------------------------------------------------------------- the interview

    def reset(self, observation: Observation, info: Info) -> None:
        self._reset_state()
        self.findings.walk_in = str(observation.get("text", ""))
        budget = info.get("turn_budget") or info.get("max_turns")
        if isinstance(budget, int) and budget > 0:
            self.budget = budget
        s = self.script
        blocks = {
            "opening": [(s["opening"], "hpi:complaint")],
            "history_of_present_illness": [(q, f"hpi:{i}") for i, q in enumerate(s["history_of_present_illness"], 1)],
            "hypotheses": [("__hypotheses__", None)],
            "screen": [(self._question(c), c) for c in s["screen"] if c in self.lexicon],
            "mental_state": [(m["ask"], f"mse:{m['domain']}") for m in s["mental_state"]],
            "risk": [(self._question(c), c) for c in s["risk"] if c in self.lexicon],
            "history": [(self._question(c), c) for c in s["history"] if c in self.lexicon],
        }
        self.plan = [item for block in s["order"] for item in blocks[block]]

    def _question(self, concept_id: str) -> str:
        questions = self.lexicon.get(concept_id).questions
        return questions[0] if questions else f"Can you tell me about {self.lexicon.get(concept_id).clinical_terms[0]}?"

    def _read_reply(self, text: str) -> None:
        f = self.findings
        text = re.sub(r"^\s*Patient:\s*", "", text)
        if self.last_question:
            f.replies.append((self.last_question, text))
            if self.last_concept:
                f.answers.setdefault(self.last_concept, text)
        if not f.chief_complaint and self.turns == 1:
            f.chief_complaint = text
        mentioned = self.lexicon.find(text)
        for m in mentioned:
            if m.negated:
                if m.concept_id not in f.present:
                    f.denied.add(m.concept_id)
            else:
                f.present.setdefault(m.concept_id, text)
                f.denied.discard(m.concept_id)
        concept = self.last_concept
        if concept and ":" not in concept and concept in self.lexicon:
            if not any(m.concept_id == concept for m in mentioned):
                low = text.lower()
                if any(u in low for u in self.script["uncertain"]):
                    pass
                elif _denial_start().search(text):
                    f.denied.add(concept)
                elif any(low.startswith(a) or f" {a} " in f" {low} " for a in self.script["affirmations"]):
                    f.present.setdefault(concept, text)

    def _next_question(self) -> tuple[str, str | None] | None:
        while self.plan:
            question, concept = self.plan.pop(0)
            if question == "__hypotheses__":
                self.plan = [(self._question(c), c) for c in self._hypothesis_concepts()] + self.plan
                continue
            if concept and ":" not in concept and (concept in self.findings.present or concept in self.findings.denied or concept in self.findings.asked):
                continue
            return question, concept
        return None

    def _hypothesis_concepts(self) -> list[str]:
        """The most typical not-yet-known symptoms of the leading hypotheses."""
        ranked = self._ranked()[:3]
        wanted: list[str] = []
        for h, _ in ranked:
            for concept, p in sorted(h.symptoms, key=lambda s: -s[1]):
                known = concept in self.findings.present or concept in self.findings.denied
                if not known and concept not in wanted and concept in self.lexicon and p >= 0.5:
                    wanted.append(concept)
        return wanted[: self.script["hypothesis_questions"]]

    def _validation(self) -> str:
        v = self.script["validations"]
        text = v[self.validation_index % len(v)]
        self.validation_index += 1
        return text

    def _reflection(self, concept: str) -> str:
        """Reflect what the patient just said back in lay words, then validate it."""
        c = self.lexicon.get(concept)
        words = c.lay_phrases[0] if c.lay_phrases else c.clinical_terms[0]
        forms = self.script["reflections"]
        text = forms[self.validation_index % len(forms)].format(words=words)
        self.validation_index += 1
        return text

    # ------------------------------------------------------------------------------------ reasoning

    def _ranked(self) -> list[tuple[Hypothesis, float]]:
        f = self.findings
        abnormal = {name.lower() for name, result in f.exam_results if _reads_abnormal(result)}
        scored = []
        for h in self.hyps:
            support = sum(p for c, p in h.symptoms if c in f.present)
            against = sum(p for c, p in h.symptoms if c in f.denied and p >= 0.6)
            typical = sum(p for _, p in h.symptoms) or 1.0
            exam_support = len(h.abnormal_exams & abnormal)
            score = (support - 0.6 * against) / math.sqrt(typical) + 0.15 * exam_support + 0.08 * math.log(h.prior + 1e-6)
            scored.append((h, score))
        scored.sort(key=lambda hs: (-hs[1], hs[0].code))
        return scored

    # --------------------------------------------------------------------------------- the actions

    def act(self, observation: Observation, info: Info) -> Action:
        text = str(observation.get("text", ""))
        allowed = allowed_now(observation, info)
        affirmed: list[str] = []
        if self.phase == "interview" and self.last_question:
            before = set(self.findings.present)
            self._read_reply(text)
            affirmed = [c for c in self.findings.present if c not in before and self.lexicon.get(c).kind != "history"]
        if self.phase == "exams" and text:
            self.findings.exam_results.extend(_parse_results(text))
        reserve = self.script["interview_reserve_turns"]
        if "ask" in allowed and self.turns < self.budget - reserve:
            nxt = self._next_question()
            if nxt is not None:
                question, concept = nxt
                self.turns += 1
                self.last_question, self.last_concept = question, concept
                if concept and ":" not in concept:
                    self.findings.asked.add(concept)
                sensitive = bool(concept and concept in self.lexicon and self.lexicon.get(concept).sensitive)
                if sensitive and concept in self.script["risk"]:
                    question = f"{self._validation()} {self.script['risk_preface']} {question}"
                elif affirmed:
                    question = f"{self._reflection(affirmed[0])} {question}"
                elif self.turns > 1 and self.turns % 4 == 0:
                    question = f"{self._validation()} {question}"
                return f"<ask>{question}</ask>"
        self.turns += 1
        if "order_exams" in allowed and self.phase == "interview":
            self.phase = "exams"
            return f"<order_exams>{'; '.join(self._exams())}</order_exams>"
        if "write_note" in allowed:
            self.phase = "note"
            return f"<write_note>{self._note()}</write_note>"
        if "diagnose" in allowed:
            self.phase = "diagnosis"
            return f"<diagnose>{self._diagnosis()}</diagnose>"
        self.phase = "treatment"
        return f"<treat>{self._plan()}</treat>"

    def _exams(self) -> list[str]:
        ranked = self._ranked()[:3]
        names: list[str] = []
        for i, (h, _) in enumerate(ranked):
            for exam in h.exams:
                if exam not in names and (i == 0 or exam.lower() in h.abnormal_exams):
                    names.append(exam)
        return names[: self.script["max_exams"]] or ["CBC"]

    def _leading(self) -> list[tuple[Hypothesis, float]]:
        ranked = self._ranked()
        top = ranked[0][1]
        lead = [ranked[0]]
        for h, s in ranked[1:]:
            if len(lead) >= self.script["max_disorders"]:
                break
            if top <= 0 or s >= top * self.script["category_threshold"]:
                lead.append((h, s))
        return lead

    def _diagnosis(self) -> str:
        lead = self._leading()
        categories: list[str] = []
        for h, _ in lead:
            if h.category not in categories and len(categories) < self.script["max_categories"]:
                categories.append(h.category)
        disorders = "; ".join(f"{i}. {h.code} {h.name}" for i, (h, _) in enumerate(lead, 1))
        return f"categories: {', '.join(categories)} | disorders: {disorders}"

    def _plan(self) -> str:
        lead = self._leading()
        principal = lead[0][0]
        others = {h.code for h, _ in lead}
        unsafe = set().union(*(h.unsafe_drugs for h in self.hyps if h.code in others))
        parts = []
        meds = [(drug, dose) for drug, dose in principal.medications if drug.lower() not in unsafe]
        if meds:
            drug, dose = meds[0]
            parts.append(f"Medication: start {drug} {dose}, explaining benefits, side effects and the time to effect.")
        else:
            parts.append("Medication: none first line; avoid drugs that are unsafe for this presentation.")
        if principal.psychotherapy:
            parts.append(f"Psychotherapy: refer for {', '.join(principal.psychotherapy[:2])}.")
        if principal.other_treatment:
            parts.append(f"Other: {'; '.join(principal.other_treatment[:3])}.")
        safety = list(principal.safety[:3])
        if "suicidal_ideation" in self.findings.present or "self_harm" in self.findings.present:
            safety.append("agree a written safety plan with crisis contacts and restrict access to means")
        parts.append(f"Safety: {'; '.join(safety)}.")
        parts.append(f"Follow-up: {principal.follow_up}.")
        return " ".join(parts)

    def _note(self) -> str:
        """A sectioned note in prose: what the patient said, in clinical terms, with their own words quoted."""
        f = self.findings
        lex = self.lexicon
        sections = self.script["note_sections"]

        def term(c: str) -> str:
            return lex.get(c).clinical_terms[0] if c in lex and lex.get(c).clinical_terms else c.replace("_", " ")

        def said(key: str) -> str:
            reply = f.answers.get(key, "").strip()
            return f'"{reply}"' if reply else ""

        symptoms = [c for c in f.present if c in lex and lex.get(c).kind in ("symptom", "sign")]
        negatives = sorted(c for c in f.denied if c in lex and lex.get(c).kind in ("symptom", "sign"))
        lines = [f"Identifying data: {f.walk_in.splitlines()[0] if f.walk_in else 'not recorded'}"]
        lines.append(f"Chief complaint: {said('hpi:complaint') or 'not stated'}.")
        hpi = []
        if symptoms:
            hpi.append(f"The patient reports {_join(term(c) for c in symptoms)}.")
        for key, label in (("hpi:1", "Onset and course"), ("hpi:2", "Context"), ("hpi:3", "Impact")):
            if f.answers.get(key):
                hpi.append(f"{label}: {said(key)}.")
        hpi.extend(f"Denies {term(c)}." for c in negatives)
        lines.append("History of present illness: " + (" ".join(hpi) or "not obtained."))
        for heading, concepts in sections.items():
            parts = []
            for c in concepts:
                if c in f.answers and c in lex:
                    label = term(c)
                    parts.append(f"{said(c)}." if label.lower() == heading.lower() else f"{label.capitalize()}: {said(c)}.")
            if parts:
                lines.append(f"{heading}: {' '.join(parts)}")
        mse = [f"Mood described as {said('mse:mood')}." if f.answers.get("mse:mood") else "Mood not described."]
        content = [term(c) for c in symptoms if lex.get(c).domain in ("mood", "psychosis", "obsessive_compulsive", "trauma", "risk")]
        if content:
            mse.append(f"Thought content: {_join(content)}.")
        percept = [term(c) for c in ("auditory_hallucinations", "visual_hallucinations") if c in f.present]
        if percept:
            mse.append(f"Perception: reports {_join(percept)}.")
        elif "auditory_hallucinations" in f.denied:
            mse.append("Perception: denies hallucinations.")
        cognition = [term(c) for c in ("poor_concentration", "memory_loss", "disorientation") if c in f.present]
        if cognition:
            mse.append(f"Cognition: {_join(cognition)}.")
        if f.answers.get("mse:insight"):
            mse.append(f"Insight: on what is happening, says {said('mse:insight')}.")
        lines.append("Mental status examination: " + " ".join(mse))
        risk = []
        for c in ("suicidal_ideation", "self_harm", "homicidal_ideation"):
            if c in f.present:
                risk.append(f"Reports {term(c)} ({said(c) or 'disclosed'}).")
            elif c in f.denied:
                risk.append(f"Denies {term(c)}.")
        lines.append("Risk assessment: " + (" ".join(risk) or "risk not assessed."))
        if f.exam_results:
            lines.append("Investigations: " + "; ".join(f"{n}: {r}" for n, r in f.exam_results) + ".")
        lead = self._leading()
        evidence = _join(term(c) for c in symptoms[:6]) or "the history"
        assessment = f"Assessment: the presentation, with {evidence}, is most consistent with {lead[0][0].name}."
        if len(lead) > 1:
            assessment += f" Differential diagnosis includes {_join(h.name for h, _ in lead[1:])}."
        lines.append(assessment)
        lines.append("Plan: see treatment plan; review risk at each visit.")
        return "\n".join(lines)


def _join(items: Any) -> str:
    items = list(dict.fromkeys(items))
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _parse_results(text: str) -> list[tuple[str, str]]:
    """(exam, result) pairs from an exam-results observation (``NAME: result`` lines)."""
    out = []
    for line in text.splitlines():
        name, sep, result = line.partition(":")
        name = name.strip(" -*\t")
        if sep and name and len(name) < 60:
            out.append((name, result.strip()))
    return out


def _reads_abnormal(result: str) -> bool:
    words = " ".join(tokenize(result))
    if "within reference range" in result.lower() or "unremarkable" in result.lower() or "normal" == words.strip():
        return False
    return any(w in words for w in clinician_script()["abnormal_result_words"])


def make(argument: str | None = None) -> ScriptedClinician:
    """Roster factory: ``scripted``."""
    if argument:
        raise ValueError(f"the scripted clinician takes no argument, got {argument!r}")
    return ScriptedClinician()
