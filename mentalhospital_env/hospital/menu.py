"""The fixed action menu of ``MentalHospitalDiscrete-v0`` and what the doctor has learned so far.

The menu is the same for every case (it depends only on the knowledge base), in this order:

1. interview openers and remarks (``data/menu.json``), then every clinician question of every lexicon
   concept (``ask``);
2. every exam of the catalog, one order each (``order_exams``);
3. note templates, filled at the moment they are chosen from what the patient disclosed and the exam
   results (``write_note``);
4. one diagnosis per disorder of the knowledge base: its category, the disorder first and its key
   differentials after it (``diagnose``);
5. one treatment plan per disorder (first-line drug and dose, psychotherapy, other measures, safety
   actions, follow-up) and a generic supportive plan (``treat``).

:class:`Findings` turns what the doctor has seen into a fixed-length vector: stage, turns used, the
walk-in (age, sex, setting, company), per lexicon concept whether it was asked about, affirmed or
denied, and per catalog exam whether it was ordered, on file and abnormal.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from mentalhospital_env.cases import Case
from mentalhospital_env.rewards.chart import Chart

from .actions import Action, Ask, Diagnose, OrderExams, Treat, WriteNote
from .encounter import UNREMARKABLE, StepOutcome
from .stages import ACTION_NAMES, ALL_STAGES, allowed_actions

SEXES = ("female", "male", "other")
SETTINGS = ("outpatient", "inpatient", "emergency")


@lru_cache(maxsize=1)
def menu_data() -> dict[str, Any]:
    """The menu's data file (openers, note templates, generic plan, result cues)."""
    return json.loads(resources.files(__package__).joinpath("data/menu.json").read_text("utf-8"))


@dataclass(frozen=True)
class MenuItem:
    """One entry of the menu: the action kind, a label, and the fixed action (``None`` for a note template).

    ``concept`` is the lexicon concept an interview question asks about, when it asks about one.
    """

    kind: str
    label: str
    action: Action | None = None
    template: str | None = None
    concept: str | None = None


class Findings:
    """What the doctor has learned in this episode, as a fixed-length float32 vector.

    Concepts affirmed or denied are read from the patient's reply: the built-in patient reports them
    with each reply (``affirmed``/``denied``); for any other patient the lexicon reads the reply text.
    """

    def __init__(self, concept_ids: Sequence[str], exam_names: Sequence[str], turn_budget: int):
        self.concept_ids = tuple(concept_ids)
        self.exam_names = tuple(exam_names)
        self.turn_budget = turn_budget
        self._concept_slot = {c: i for i, c in enumerate(self.concept_ids)}
        self._exam_slot = {e.lower(): i for i, e in enumerate(self.exam_names)}
        n_c, n_e = len(self.concept_ids), len(self.exam_names)
        # layout: stage one-hot | turn | age, sex one-hot, setting one-hot, accompanied | asked, affirmed, denied | ordered, on file, abnormal
        self._stage0 = 0
        self._turn = len(ALL_STAGES)
        self._walk = self._turn + 1
        self._asked = self._walk + 1 + len(SEXES) + len(SETTINGS) + 1
        self._affirmed = self._asked + n_c
        self._denied = self._affirmed + n_c
        self._ordered = self._denied + n_c
        self._on_file = self._ordered + n_e
        self._abnormal = self._on_file + n_e
        self.size = self._abnormal + n_e
        self.vector = np.zeros(self.size, dtype=np.float32)
        data = menu_data()
        self._normal_cues = sorted((c.lower() for c in data["normal_result_cues"]), key=len, reverse=True)
        self._abnormal_cues = re.compile(
            r"\b(" + "|".join(re.escape(c.lower()) for c in data["abnormal_result_cues"]) + r")\b"
        )
        self.affirmed: list[str] = []
        self.denied: list[str] = []
        self.replies: list[str] = []
        self.results: list[tuple[str, str]] = []

    def feature_names(self) -> list[str]:
        names = [f"stage={s}" for s in ALL_STAGES] + ["turn_fraction", "age/110"]
        names += [f"sex={s}" for s in SEXES] + [f"setting={s}" for s in SETTINGS] + ["accompanied"]
        for kind in ("asked", "affirmed", "denied"):
            names += [f"{kind}:{c}" for c in self.concept_ids]
        for kind in ("ordered", "on_file", "abnormal"):
            names += [f"{kind}:{e}" for e in self.exam_names]
        return names

    def reset(self, case: Case, accompanied: bool) -> None:
        """Start a new episode: only the walk-in is known."""
        self.vector[:] = 0.0
        self.affirmed, self.denied, self.replies, self.results = [], [], [], []
        self.vector[self._stage0] = 1.0
        d = case.demographics
        self.vector[self._walk] = min(d.age, 110) / 110.0  # CASES.md ages run 3..110
        if d.sex in SEXES:
            self.vector[self._walk + 1 + SEXES.index(d.sex)] = 1.0
        if case.setting in SETTINGS:
            self.vector[self._walk + 1 + len(SEXES) + SETTINGS.index(case.setting)] = 1.0
        self.vector[self._walk + 1 + len(SEXES) + len(SETTINGS)] = 1.0 if accompanied else 0.0

    def update(self, outcome: StepOutcome, chart: Chart, asked_concept: str | None, lexicon: Any) -> None:
        """Take in one step's outcome, the chart after it, and the concept the question was about, if any."""
        self.vector[self._stage0 : self._turn] = 0.0
        self.vector[self._stage0 + ALL_STAGES.index(outcome.stage)] = 1.0
        self.vector[self._turn] = outcome.turn / self.turn_budget
        if outcome.action is None:
            return
        if asked_concept is not None and asked_concept in self._concept_slot:
            self.vector[self._asked + self._concept_slot[asked_concept]] = 1.0
        reply = outcome.reply
        if reply is not None:
            self.replies.append(reply.text)
            affirmed = getattr(reply, "affirmed", None)
            denied = getattr(reply, "denied", None)
            if affirmed is None or denied is None:
                mentions = lexicon.find(reply.text)
                affirmed = [m.concept_id for m in mentions if not m.negated]
                denied = [m.concept_id for m in mentions if m.negated]
            for cid in affirmed:
                self._mark(self._affirmed, cid, self.affirmed)
            for cid in denied:
                self._mark(self._denied, cid, self.denied)
        for name, result in chart.exam_results[len(self.results) :]:
            self.results.append((name, result))
            slot = self._exam_slot.get(name.lower())
            if slot is None:
                continue
            self.vector[self._ordered + slot] = 1.0
            if result != UNREMARKABLE:
                self.vector[self._on_file + slot] = 1.0
                self.vector[self._abnormal + slot] = 1.0 if self._reads_abnormal(result) else 0.0

    def _mark(self, offset: int, concept_id: str, seen: list[str]) -> None:
        slot = self._concept_slot.get(concept_id)
        if slot is not None and self.vector[offset + slot] == 0.0:
            self.vector[offset + slot] = 1.0
            seen.append(concept_id)

    def _reads_abnormal(self, result: str) -> bool:
        text = result.lower()
        for cue in self._normal_cues:
            text = text.replace(cue, " ")
        return bool(self._abnormal_cues.search(text))


class Menu:
    """The fixed menu of actions (see the module docstring) built from the knowledge base."""

    def __init__(self, knowledge: Any):
        data = menu_data()
        lexicon = knowledge.lexicon
        items: list[MenuItem] = [MenuItem("ask", f"say: {q}", Ask(q)) for q in data["openers"]]
        for concept in lexicon.concepts:
            for q in concept.questions:
                items.append(MenuItem("ask", f"ask about {concept.id}: {q}", Ask(q), concept=concept.id))
        items += [MenuItem("order_exams", f"order {e.name}", OrderExams((e.name,))) for e in knowledge.exams]
        items += [MenuItem("write_note", t["label"], template=t["id"]) for t in data["note_templates"]]
        known = {d.code for d in knowledge.disorders}
        for d in knowledge.disorders:
            ranked = (d.code, *[c for c in d.differentials if c in known and c != d.code][:3])
            items.append(MenuItem("diagnose", f"diagnose {d.code} {d.name}", Diagnose((d.category,), ranked)))
        for d in knowledge.disorders:
            items.append(MenuItem("treat", f"treat as {d.code} {d.name}", Treat(plan_for(d))))
        items.append(MenuItem("treat", "generic supportive plan", Treat(data["generic_plan"])))
        self.items: tuple[MenuItem, ...] = tuple(items)
        self.labels: tuple[str, ...] = tuple(i.label for i in items)
        self._risk_domains = frozenset(data["risk_domains"])
        self._stage_masks = {
            stage: np.array([1 if i.kind in allowed_actions(stage) else 0 for i in items], dtype=np.int8)
            for stage in ALL_STAGES
        }
        self.kind_ranges = {k: [i for i, it in enumerate(items) if it.kind == k] for k in ACTION_NAMES}

    def __len__(self) -> int:
        return len(self.items)

    def mask(self, stage: str, taken: set[int]) -> np.ndarray:
        """Actions allowed at ``stage`` and not yet taken (a question asked or an exam ordered once is masked)."""
        mask = self._stage_masks[stage].copy()
        if taken:
            mask[list(taken)] = 0
        return mask

    def action(self, index: int, findings: Findings, lexicon: Any) -> Action:
        """The action of menu entry ``index``; a note template is filled from ``findings`` now."""
        item = self.items[index]
        if item.action is not None:
            return item.action
        return WriteNote(self._note(item.template or "", findings, lexicon))

    def _note(self, template: str, findings: Findings, lexicon: Any) -> str:
        def term(c: str) -> str:
            concept = lexicon.get(c)
            return concept.clinical_terms[0] if concept.clinical_terms else c

        def one_per_sentence(verb: str, ids: Sequence[str], empty: str = "none elicited") -> str:
            # One finding a sentence ("reports low mood. Reports poor sleep"), not a list: each sentence is a
            # unit the note's coverage reads on its own (its negation, its subject), and the same finding
            # is the same sentence in every note, so what is read of it once is kept.
            if not ids:
                return f"{verb} {empty}"
            return ". ".join([f"{verb} {term(ids[0])}", *(f"{verb.capitalize()} {term(c)}" for c in ids[1:])])

        if template == "patient_words":
            said = " ".join(f'"{r}"' for r in findings.replies) or "No history was taken."
            return f"History in the patient's words: {said}"
        if template == "symptom_list":
            return f"{one_per_sentence('Reports', findings.affirmed)}. {one_per_sentence('Denies', findings.denied)}."
        risk_pos = [c for c in findings.affirmed if lexicon.get(c).domain in self._risk_domains]
        risk_neg = [c for c in findings.denied if lexicon.get(c).domain in self._risk_domains]
        # the patient's first reply as its own sentences (the heading's words are not read into them), the
        # sentences the interview's coverage already read
        complaint = f"in the patient's words. {findings.replies[0]}" if findings.replies else "not elicited"
        exams = "; ".join(f"{n}: {r}" for n, r in findings.results) or "none ordered"
        risk = one_per_sentence("reports", risk_pos) if risk_pos else "no risk factors reported"
        if risk_neg:
            risk += ". " + one_per_sentence("Denies", risk_neg)
        return (
            f"Presenting complaint: {complaint}\n"
            f"History: {one_per_sentence('reports', findings.affirmed)}.\n"
            f"Pertinent negatives: {one_per_sentence('denies', findings.denied)}.\n"
            f"Risk: {risk}.\n"
            f"Investigations: {exams}."
        )


def plan_for(disorder: Any) -> str:
    """A first-line plan for a disorder of the knowledge base, as a clinician would write it."""
    t = disorder.treatment
    parts = []
    if t.medications:
        m = t.medications[0]
        parts.append(f"Start {m.drug} {m.starting_dose}")
    if t.psychotherapy:
        parts.append("psychotherapy: " + ", ".join(t.psychotherapy[:2]))
    if t.other:
        parts.append(t.other[0])
    if disorder.safety:
        parts.append("safety: " + "; ".join(disorder.safety))
    if t.follow_up:
        parts.append(f"follow-up {t.follow_up}")
    return "; ".join(parts) + "."


@lru_cache(maxsize=1)
def default_menu() -> Menu:
    """The menu of the bundled knowledge base (built once per process)."""
    from mentalhospital_env.knowledge import load_knowledge

    return Menu(load_knowledge())
