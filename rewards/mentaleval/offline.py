"""The offline MentalEval judge: rubric scores from observable features, no model, deterministic.

Each dimension is ``1 + 4 * clip(raw, 0, 1)`` where ``raw`` combines the readings of
:mod:`.features` as below (targets and limits in ``data/cues.json`` ``limits``; ``min(1, x / t)``
reads "x, full credit at t"):

* empathy: ``0.45 * min(1, warm_share / empathic_share_target) + 0.40 * responsiveness
  + 0.15 * min(1, variety / 3) - 0.25 * dismissive_turns - max(0, formulaic_share - 0.4)`` where
  ``formulaic_share`` is the share of turns using the single most repeated warm phrase (the same
  "I'm sorry" pasted into every turn is not empathy), ``warm_share`` is the share of
  distinct turns that are empathic, validating or reflective, and ``responsiveness`` the share of
  the patient's emotional disclosures answered warmly in the next turn (``warm_share``'s term when
  there were none).
* professionalism: ``0.20 * min(1, open_share / open_share_target) + 0.20 * (1 - leading_share)
  + 0.15 * min(1, informative_share / efficiency_target) + 0.25 * safety_topics / 3
  + 0.20 * min(1, domains / breadth_target) - 0.3 * leading_share - 0.7 * repeated_share
  - 1.0 * overloaded_share``.
* note quality: ``structure * (0.5 + 0.5 * prose) + 0.25 * prose`` with ``structure =
  0.30 * core_sections / 6 + 0.15 * other_sections / 7 + 0.20 * min(1, mse_domains /
  mse_domains_target) + 0.10 * risk_topics / 3`` and ``prose = min(1, prose_sentences /
  prose_sentences_target)``, then times
  ``(1 - unsupported_claims / claims)``, where claims are the symptoms and signs the note states
  (not negated, outside the plan) and unsupported ones are those neither the record, the patient's
  replies nor the exam results state; capped by the note-precision errors, then less the points of
  what a supervisor faults in the note's text (:mod:`.note_faults`: garbled or third-person quotes,
  no chief complaint, another section's text under a heading, a diagnosis made before its minimum
  duration, the record's main risk left out of the risk section); never below 2 for a structured note
  with nothing in it that would mislead care (:func:`note_usable`).
* diagnostic rigor: ``0.30 * min(1, (n - 1) / (differential_target - 1)) + 0.30 * supported_top2 / 2
  + 0.15 * min(1, reasoning_markers / 2) + 0.10 * min(1, rule_outs / 3)
  + 0.10 * categories_accounted / categories_named + 0.05 * [an exam tests a listed diagnosis]
  - min(0.3, 0.1 * max(0, n - 6))`` (a list of everything is no differential)
  over the ``n`` resolved disorders (the first term counts only the entries after the first that the encounter does not
  rule out, :func:`.note_faults.unsupported_entries`: a disorder too long or too short for the illness told, a severity
  the scales on file contradict) (score 1 when none resolve), where ``supported_top2`` counts the
  first two ranked disorders whose category the note's evidence (symptoms it states) points to.
* treatment appropriateness: ``0.40 * concordance + 0.25 * safety + 0.15 * follow_up
  + 0.10 * dose + 0.10 * psychoeducation - 0.5 * unsafe_drugs - min(0.4, 0.1 * off_guideline)``
  (drugs first-line for no reference disorder: a shotgun plan is no plan), less ``plan_advised_points`` for each
  advised step left out (:func:`advised_points`); concordance is 1 for a first-line
  drug and a first-line psychotherapy (or the one the guideline has), 0.75 for one of the two,
  0.4 for a treatment of another reference disorder only; safety is ``min(1, actions / 2)`` when
  the case calls for it, else 1; dose is 1 when a dose is stated or no drug proposed. A plan with an
  unsafe drug scores at most 2. A safe plan with gaps in first-line care for this patient
  (:attr:`~.features.PlanReading.gaps`: an element for another disorder, the core treatment of one of the patient's
  disorders left out, a step the record rules out or calls for, read by the audit's plan-follows-record rules, a plan
  whose treatments are a comorbid disorder's with nothing aimed at the principal one, :func:`.features.plan_targets_other`) scores
  at most 3, half a point less for each further gap, never below 2 (``limits.plan_gap_step``, ``plan_gap_floor``).

A fitted calibration (``data/calibration.json``, ``scripts/fit_judge_calibration.py``) may replace App.'s and Qual.'s
hand-set combination: a sign-constrained linear model over :func:`plan_features` and :func:`note_features` (the
readings above and the rules' own score), within the hard caps (:func:`safety_cap`, :func:`note_precision_cap`).
Qual.'s model is followed by the rules' deductions and floors (:func:`note_after_fit`), so that it keeps every note
ladder rung and floor the rules keep (stop 34's model, without them, broke four). It is used only where the file marks
it ``enabled``; both are off until the rule pre-registered in the fitting script (``PREREGISTERED``) is applied to the
slice ``held_out35``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..chart import Chart
from .cues import load_cues
from .features import (
    DiagnosisReading,
    InterviewReading,
    NoteReading,
    PlanReading,
    checklist_denials,
    mentions,
    read_diagnosis,
    read_interview,
    read_note,
    read_plan,
    support_concepts,
)
from .guidelines import CaseGuideline, case_guideline
from .judges import Judge, stage_missing
from mentalhospital_env.knowledge.critical import load_critical_actions
from mentalhospital_env.knowledge.lexicon import load_lexicon

from .note_faults import fault_points, fragment_blocked, misleading, note_faults, unsupported_entries
from .precision import check_note, omitted_findings
from .rubrics import DIMENSIONS, MIN_SCORE


@dataclass(frozen=True)
class Calibration:
    """A linear model fitted to hand ratings (``scripts/fit_judge_calibration.py``): ``intercept + sum(w * x)``
    over named features, clipped to 1-5. Each weight's sign is fixed before fitting (``signs``: +1 for a reading
    that should raise the score, -1 for one that should lower it), so that a plan or note made worse on any
    reading never scores higher: the calibration ladders stay monotone."""

    intercept: float
    weights: Mapping[str, float]

    def predict(self, features: Mapping[str, float]) -> float:
        x = np.array([features[k] for k in self.weights], dtype=float)
        w = np.array(list(self.weights.values()), dtype=float)
        return float(np.clip(self.intercept + float(x @ w), MIN_SCORE, 5.0))


CALIBRATION_PATH = Path(__file__).parent / "data" / "calibration.json"


@lru_cache(maxsize=1)
def _calibrations() -> dict[str, Calibration]:
    if not CALIBRATION_PATH.exists():
        return {}
    raw = json.loads(CALIBRATION_PATH.read_text("utf-8"))
    out = {}
    for dim in ("plan", "note"):
        model = raw.get(dim)
        if model and model.get("enabled", True):
            for name, w in model["weights"].items():
                if w * model["signs"][name] < 0:
                    raise ValueError(f"{CALIBRATION_PATH}: {dim}.{name} weight {w} against its sign")
            if dim == "note" and set(model["weights"]) & set(NOTE_AFTER_FIT):
                raise ValueError(f"{CALIBRATION_PATH}: note weighs {sorted(set(model['weights']) & set(NOTE_AFTER_FIT))}, "
                                 "which the judge applies after the fit (note_after_fit)")
            out[dim] = Calibration(float(model["intercept"]), dict(model["weights"]))
    return out


def calibration(dimension: str) -> Calibration | None:
    """The fitted model for ``plan`` (App.) or ``note`` (Qual.), or None where the data file holds none (the
    hand-set rules score it)."""
    return _calibrations().get(dimension)


def _clip(x: float) -> float:
    return max(0.0, min(1.0, x))


def _scale(raw: float) -> float:
    return round(1.0 + 4.0 * _clip(raw), 3)


def _share(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def empathy_score(r: InterviewReading) -> float:
    limits = load_cues().limits
    if r.turns == 0:
        return MIN_SCORE
    warm = min(1.0, _share(r.warm_turns, r.turns) / limits["empathic_share_target"])
    responsive = _share(r.acknowledged, r.disclosures) if r.disclosures else warm
    formulaic = max(0.0, _share(r.formulaic_turns, r.turns) - 0.4)
    raw = (
        0.45 * warm
        + 0.40 * responsive
        + 0.15 * min(1.0, r.empathy_variety / 3)
        - 0.25 * r.dismissive_turns
        - formulaic
    )
    return _scale(raw)


def professionalism_score(r: InterviewReading) -> float:
    limits = load_cues().limits
    if r.turns == 0:
        return MIN_SCORE
    n = r.turns
    raw = (
        0.20 * min(1.0, _share(r.open_turns, n) / limits["open_share_target"])
        + 0.20 * (1.0 - _share(r.leading_turns, n))
        - 0.3 * _share(r.leading_turns, n)
        + 0.15 * min(1.0, _share(r.informative_turns, n) / limits["efficiency_target"])
        + 0.25 * len(r.safety_topics) / 3
        + 0.20 * min(1.0, len(r.domains) / limits["breadth_target"])
        - 0.7 * _share(r.repeated_turns, n)
        - 1.0 * _share(r.overloaded_turns, n)
    )
    return _scale(raw)


def note_structure(r: NoteReading) -> float:
    """``structure * (0.5 + 0.5 * prose) + 0.25 * prose`` (headings filled with keywords are not a note:
    structure counts in full only in prose)."""
    cues = load_cues()
    limits = cues.limits
    core = len(cues.core_sections)
    others = len(cues.note_sections) - core
    prose = min(1.0, r.prose_sentences / limits["prose_sentences_target"])
    structure = (
        0.30 * len(r.core_sections) / core
        + 0.15 * min(1.0, (len(r.sections) - len(r.core_sections)) / min(others, limits.get("other_sections_target", others)))
        + 0.20 * min(1.0, len(r.mse_domains) / limits["mse_domains_target"])
        + 0.10 * len(r.risk_topics) / 3
    )
    return structure * (0.5 + 0.5 * prose) + 0.25 * prose


def note_error_points(r: NoteReading) -> float:
    """What the note's precision errors cost Qual.: each kind of error weighs what ``limits.note_claim_error_points_*``
    says (:func:`claim_error_weight`, stop 36), one about risk or psychosis a point more, and the reading carries the
    weighed sum (:attr:`~.features.NoteReading.error_points`); a reading built without it counts a point an error
    and two for a serious one."""
    if r.error_points is not None:
        return r.error_points
    return r.claim_errors + r.serious_errors


def claim_error_weight(error: Any) -> float:
    """What one note-precision error costs Qual. (``limits.note_claim_error_points_*``, by what was asserted and why it
    is wrong; a serious one costs a point more). Stop 36, issue 15: on the consultants' slices held_out32..35 a finding
    asserted that the patient denied sat in 44 notes rated 1-2 and one rated 4-5, a full point; one the encounter never
    raised in 38 notes rated 1-2 and 13 rated 4-5 (the reader misses answers in words it does not read), half a point;
    a denial recorded that the reader found nowhere in the encounter in 10 notes rated 1-2 and 12 rated 4-5 (the
    patient denied it in words the reader does not read: 'I've got things I want to do'), nothing. The note-precision
    metric (:func:`.precision.check_note`) still counts every error."""
    return float(load_cues().limits.get(f"note_claim_error_points_{error.asserted}_{error.kind}", 1.0))


def note_precision_cap(r: NoteReading) -> float:
    """The highest Qual. a note with errors may get: ``note_error_cap - points`` (5 with none)."""
    points = note_error_points(r)
    return 5.0 if not points else max(MIN_SCORE, load_cues().limits["note_error_cap"] - points)


def note_features(r: NoteReading) -> dict[str, float]:
    """What Qual.'s calibration reads (``data/calibration.json`` ``note``): the judge's own readings of a note."""
    limits = load_cues().limits
    return {
        "rule_score": rule_note_quality_score(r),
        "structure": note_structure(r) / limits["note_full_credit"],
        "prose": min(1.0, r.prose_sentences / limits["prose_sentences_target"]),
        "error_points": float(note_error_points(r)),
        "serious_errors": float(r.serious_errors),
        "unsupported_share": _share(len(r.unsupported_claims), r.claims),
        "empty_quotes": float(r.empty_quotes),
        "omitted": float(len(r.omitted)),
        "omitted_serious": float(r.omitted_serious),
        "misfiled_quotes": float(r.misfiled_quotes),
        "checklist_denials": float(len(r.checklist_denials)),
        "fault_points": fault_points(r.faults),
        "misleading": float(misleading(r.faults)),
        "usable": float(note_usable(r)),
    }


def note_quality_score(r: NoteReading) -> float:
    """Qual.: the calibration's fitted model over :func:`note_features` where ``data/calibration.json`` holds one,
    within :func:`note_precision_cap`; else :func:`rule_note_quality_score`."""
    if not r.sections and not r.prose_sentences and not r.claims:
        return MIN_SCORE
    model = calibration("note")
    if model is None:
        return rule_note_quality_score(r)
    return note_after_fit(model.predict(note_features(r)), r)


#: readings the rules charge after the fitted note model (:func:`note_deductions`), never fitted: a note model may not
#: weigh them itself (it would charge them twice)
NOTE_AFTER_FIT = ("empty_quotes", "omitted", "omitted_serious", "misfiled_quotes", "checklist_denials", "fault_points")


def note_after_fit(fitted: float, r: NoteReading) -> float:
    """The fitted Qual. held to the rules' hard limits, in the rules' order (stop 35, issue 15): capped by
    :func:`note_precision_cap`, less the rules' deductions (:func:`note_deductions`: the main risk left out costs its
    full point, a checklist of denials and misfiled quotes their points, whatever the model weighs), then the rules'
    floors (a usable note, an accurate fragment). A keyword list (no heading, no prose) has nothing for the model to
    read and keeps the rules' score (2 when accurate, 1 when not). The model therefore scores only what the rules leave
    to judgement (structure, prose, claims the encounter does not support), and every note ladder rung and floor the
    rules keep, the fitted judge keeps."""
    if not r.sections and not r.prose_sentences:
        return rule_note_quality_score(r)
    return _held_to_rules(fitted, r)


def note_deductions(r: NoteReading) -> float:
    """What the rules take off a note's structure score after the precision cap: quoted non-answers, what the patient
    said that the note leaves out, misfiled quotes, a checklist of irrelevant denials, a supervisor's faults."""
    limits = load_cues().limits
    # a heading filled with a quoted non-answer ("Impact: \"Hard to say.\"") is marked down even in a full note
    empty = limits["note_empty_quote_points"] * r.empty_quotes
    # what the patient told the doctor and the note leaves out (a few may be minor; risk and psychosis never are)
    missing = limits["note_omission_points"] * (
        max(0, len(r.omitted) - limits["note_omissions_allowed"]) + r.omitted_serious
    )
    # a quote filed under a heading it is not about ("Context: \"Can we get on with it?\""), and a row of
    # "Denies ..." negatives that bear on nothing in this presentation (a screening checklist, not a history)
    misfiled = limits.get("note_misfiled_quote_points", 0.0) * r.misfiled_quotes
    checklist = min(
        limits.get("note_checklist_max", 0.0),
        limits.get("note_checklist_points", 0.0)
        * max(0, len(r.checklist_denials) - int(limits.get("note_checklist_allowed", 0))),
    )
    # what a supervisor faults in the note's own text (garbled or third-person quotes, no chief complaint, another
    # section's text under a heading, a diagnosis made before its duration, the record's main risk left out)
    return empty + missing + misfiled + checklist + fault_points(r.faults)


def _held_to_rules(score: float, r: NoteReading) -> float:
    """A structure score (the rules' own or the fitted model's) capped by :func:`note_precision_cap`, less
    :func:`note_deductions`, then raised to the usable-note or accurate-fragment floor."""
    score = max(MIN_SCORE, min(score, note_precision_cap(r)) - note_deductions(r))
    limits = load_cues().limits
    if note_usable(r):
        score = max(score, float(limits.get("note_usable_floor", MIN_SCORE)))
    elif note_accurate_fragment(r):
        score = max(score, float(limits.get("note_fragment_floor", MIN_SCORE)))
        if note_terse_complete(r):
            score = max(score, float(limits.get("note_terse_floor", MIN_SCORE)))
    return round(score, 3)


#: faults that keep a terse note from the terse-note floor: a risk or the illness's central feature left out
TERSE_BLOCKING_FAULTS = frozenset({"main_risk_omitted", "risk_history_omitted", "told_risk_omitted", "central_finding_omitted"})


def note_terse_complete(r: NoteReading) -> bool:
    """A terse note that a supervisor passes as brief but sound (``limits.note_terse_floor``, 3): an accurate fragment
    (:func:`note_accurate_fragment`) that also records the suicide risk either way and states an impression, and leaves
    out no risk and no central feature of the illness. Stop 38, issue 15: the consultants' 'terse correct' notes of
    held_out35..37 (rated 4: "accurate and supported throughout, with risk denials correct, but too brief") scored 2,
    the keyword-list floor; a keyword list (no risk, no impression) and a note with no risk assessment (rated 2-3)
    keep theirs."""
    return (
        note_accurate_fragment(r)
        and r.impression_stated
        and "suicide" in r.risk_topics
        and not {getattr(f, "kind", None) for f in r.faults} & TERSE_BLOCKING_FAULTS
    )


def rule_note_quality_score(r: NoteReading) -> float:
    """Qual. by the hand-set terms, caps and floors above (the calibration's ``rule_score`` feature)."""
    if not r.sections and not r.prose_sentences and not r.claims:
        return MIN_SCORE
    limits = load_cues().limits
    raw = note_structure(r) / limits["note_full_credit"] - limits["note_error_weight"] * note_error_points(r)
    return _held_to_rules(_scale(raw), r)


def note_accurate_fragment(r: NoteReading) -> bool:
    """A keyword list or headless prose that states what the patient said and nothing the encounter contradicts or
    never raised (no claim error, no misleading fault, no fault of ``note_faults.json`` ``fragment_blocked_by``: a diagnosis
    against the record, a false denial) with at least ``limits.note_fragment_min_claims`` findings:
    hand raters give it 2 ("a keyword list"), keeping 1 for a dangerous misrecording or a nearly empty note (stop 29:
    held_out28's keyword note and six earlier ones rated 2 or 3 scored 1)."""
    limits = load_cues().limits
    return (
        not r.claim_errors
        and not r.serious_errors
        and not misleading(r.faults)
        and not fragment_blocked(r.faults)
        and r.claims >= int(limits.get("note_fragment_min_claims", 2))
    )


def note_usable(r: NoteReading) -> bool:
    """A note flawed but usable, which its faults may not push below ``limits.note_usable_floor`` (2): it has most
    core sections (``note_usable_core_sections``), a mental state examination, and nothing in it would mislead care:
    no claim about risk or psychosis the encounter contradicts or never raised (:attr:`NoteReading.serious_errors`),
    and no fault :func:`.note_faults.misleading` names: a principal diagnosis the encounter does not support
    (``diagnosis_unsupported``), schizophrenia for a record with no psychosis (``psychosis_invented``). Faults of omission, filing,
    wording and a wrong ranking of the reference disorder add up to a poor note (2), not a dangerous one (1); hand
    raters give 1 to a note that records denied suicidal ideation or hallucinations, or rests on an invented illness."""
    limits = load_cues().limits
    return (
        len(r.core_sections) >= int(limits.get("note_usable_core_sections", 3))
        and bool(r.mse_domains)
        and not r.serious_errors
        and not misleading(r.faults)
    )


def diagnostic_rigor_score(r: DiagnosisReading) -> float:
    limits = load_cues().limits
    n = len(r.codes)
    if n == 0:
        return MIN_SCORE
    target = max(2.0, limits["differential_target"])
    # the differential's breadth counts the entries the encounter leaves open, not those it rules out (dysthymia for
    # an illness of months, "severe" beside scales that read moderate): dropping them must not cost Rigor
    kept = n - len(set(r.unsupported_codes) & set(r.codes[1:]))
    raw = (
        0.30 * min(1.0, (kept - 1) / (target - 1))
        + 0.30 * sum(c in r.supported_codes for c in r.codes[:2]) / 2
        + 0.15 * min(1.0, r.reasoning_markers / 2)
        + 0.10 * min(1.0, r.rule_outs / 3)
        + 0.10 * _share(r.categories_accounted, r.categories_named)
        + 0.05 * (1.0 if r.testing_exams else 0.0)
        - min(0.3, 0.1 * max(0, n - 6))
    )
    return _scale(raw)


def plan_concordance(r: PlanReading) -> float:
    """1 for a first-line drug (by name or class) and a psychological therapy where the guideline has both,
    0.75 for one of the two, 0.4 for a treatment of another reference disorder only, at most 0.4 when every
    drug proposed is first-line for no reference disorder (a plan for another illness); raised to
    ``0.9 * share`` of the disorder's critical actions present (a correct delirium or withdrawal plan is its
    actions, whatever it calls them)."""
    drug_hit = bool(r.first_line_drugs)
    therapy_hit = bool(r.first_line_therapies) or (r.guideline_has_therapies and r.generic_therapy)
    if r.guideline_has_drugs and r.guideline_has_therapies:
        concordance = 1.0 if drug_hit and therapy_hit else 0.75 if drug_hit or therapy_hit else 0.0
    else:
        concordance = 1.0 if drug_hit or therapy_hit else 0.0
    if concordance == 0.0 and (r.other_line_drugs or r.other_therapies):
        concordance = 0.4
    if r.off_guideline_drugs and not (r.first_line_drugs or r.other_line_drugs):
        concordance = min(concordance, 0.4)  # every drug proposed treats something this patient does not have
    if r.disorder_actions_met is not None:
        concordance = max(concordance, 0.9 * r.disorder_actions_met)
    return concordance


def plan_safety(r: PlanReading) -> float:
    """When the case calls for safety measures: ``min(1, n / 2)`` over the safety cues and the critical
    actions present; 1 when it does not."""
    if not r.safety_needed:
        return 1.0
    present = len(r.critical_required) - len(r.critical_missing)
    return min(1.0, (r.safety_actions + present) / 2)


def plan_follow_up(r: PlanReading) -> float:
    return 1.0 if r.follow_up else 0.0


def plan_dose(r: PlanReading) -> float:
    """1 when a dose is stated or described, or no drug is proposed."""
    return 1.0 if r.dose_stated or r.drugs_proposed == 0 else 0.0


def plan_education(r: PlanReading) -> float:
    return 1.0 if r.psychoeducation else 0.0


def plan_overreach(r: PlanReading) -> float:
    """A shotgun plan is no plan: 0.1 per drug first-line for no reference disorder, at most 0.4."""
    return min(0.4, 0.1 * len(r.off_guideline_drugs))


def unindicated_drugs(r: PlanReading) -> tuple[str, ...]:
    """The drugs the plan proposes that treat no disorder the patient has: first-line or other-line for none of the
    reference disorders, and carrying none of the case's actions (``critical_actions.json``: a critical action it
    carries, or what a rule advises or allows, ``may``: a benzodiazepine withdrawal regimen in alcohol dependence,
    thiamine before refeeding), of no kind the patient's guideline calls for and not stopped by the plan
    (:func:`.features.unindicated_drugs`). A wrong treatment, an over-treatment in the knowledge base's sense (an antipsychotic,
    a benzodiazepine or a hypnotic added to the right treatment of a depression, prazosin for a trauma the patient
    denied): App. at most ``cues.json`` ``limits.plan_unindicated_cap`` (2), as a ``must_not`` entry with ``cap: 2``."""
    return r.unindicated_drugs


def safety_cap(r: PlanReading) -> float:
    """The highest App. a plan may get: 1 with a contraindicated drug or action (the case's rules, or a drug
    the knowledge base marks unsafe for a reference disorder) or a prescribing harm (:mod:`.prescribing`: a day's dose
    above the maximum, a large supply of tablets for a patient at risk of suicide), 2 with an over-treatment the rules forbid
    (``cap: 2``) or a critical action missing (or the action's own ``missing_cap``, :func:`missing_cap`: 3 for a
    safeguarding screen, counted with the gaps below), ``limits.plan_unindicated_cap`` (2) with a drug for a disorder the
    patient does not have (:func:`unindicated_drugs`), ``cues.json``
    ``limits.plan_incoherent_cap`` (3) when the plan has a gap in first-line care (:attr:`PlanReading.gaps`: it does
    not hang together, leaves out a disorder's core treatment, or does not follow its record), less
    ``plan_gap_step`` for each further gap down to ``plan_gap_floor``, else 5."""
    if r.unsafe_drugs or r.prescribing_harms:  # a dose above the maximum, a month of tablets at suicide risk
        return MIN_SCORE
    if r.contraindicated:  # an over-treatment (an antipsychotic for panic) is a wrong treatment, capped at 2
        return max(MIN_SCORE, min(r.contraindication_cap, 2.0))
    missing_caps = [missing_cap(a) for a in r.critical_missing]
    if any(c <= 2.0 for c in missing_caps):
        return min(missing_caps)
    if unindicated_drugs(r):  # an over-treatment: a drug for a disorder the patient does not have
        return float(load_cues().limits.get("plan_unindicated_cap", 2.0))
    faults = len(r.gaps) + len(missing_caps)
    if faults:
        # a safe plan that is not first-line care for this patient: 3, and a step lower for each further fault (a
        # plan that misses the personality disorder's therapy AND gives inpatient detoxification steps in clinic); a
        # critical action whose absence caps above 2 (a safeguarding screen) is one such fault, held to its own cap
        limits = load_cues().limits
        cap = float(limits.get("plan_incoherent_cap", 3.0)) - float(limits.get("plan_gap_step", 0.5)) * (faults - 1)
        return max(float(limits.get("plan_gap_floor", 2.0)), min([cap, *missing_caps]))
    return 5.0


def missing_cap(action: str) -> float:
    """The highest App. a plan lacking the required ``action`` may get: 2, or the action's own ``missing_cap``
    (``critical_actions.json``). Stop 54: of the nine safe plans whose only missing critical step was the
    safeguarding screen (who is at risk at home, the children's safety; tune and held_out..held_out53), eight were
    rated 3 or 4 (plan-5309 'safe and first-line drug and therapy but thin', plan-5053 'safe and first-line in
    substance ... but no safeguarding', rated 4) and one 2 (plan-5108); capped at 2 they were a step too low. Still
    never 4+: a plan missing a critical safety step is not a good plan."""
    found = load_critical_actions().actions.get(action)
    return 2.0 if found is None or found.missing_cap is None else found.missing_cap


TREATMENT_TERMS = (
    (0.40, plan_concordance),
    (0.20, plan_safety),
    (0.15, plan_follow_up),
    (0.10, plan_dose),
    (0.15, plan_education),
    (-1.0, plan_overreach),
)
"""App.'s weighted terms: ``raw = sum(w * term(r))``, then ``1 + 4 * clip(raw)`` capped by :func:`safety_cap`."""


def advised_points(r: PlanReading) -> float:
    """What the plan loses for each advised step it leaves out (``cues.json`` ``limits.plan_advised_points`` each,
    at most ``plan_advised_max``): school liaison for a child, physical care after days without food, a drug of the
    past history left unconsidered (:func:`.features.past_treatment_unconsidered`); a gap, not a danger, so never a
    cap."""
    limits = load_cues().limits
    missing = len(r.advised_missing) + len(r.record_advised) + len(r.past_unconsidered)
    return min(float(limits.get("plan_advised_max", 0.8)), float(limits.get("plan_advised_points", 0.4)) * missing)


def rule_treatment_score(r: PlanReading) -> float:
    """App. by the hand-set terms and caps above (the calibration's ``rule_score`` feature)."""
    raw = sum(weight * term(r) for weight, term in TREATMENT_TERMS)
    return round(max(MIN_SCORE, min(_scale(raw) - advised_points(r), safety_cap(r))), 3)


def plan_features(r: PlanReading) -> dict[str, float]:
    """What App.'s calibration reads (``data/calibration.json`` ``plan``): the judge's own readings of a plan."""
    return {
        "rule_score": rule_treatment_score(r),
        "concordance": plan_concordance(r),
        "safety": plan_safety(r),
        "follow_up": plan_follow_up(r),
        "dose": plan_dose(r),
        "education": plan_education(r),
        "overreach": plan_overreach(r),
        "gaps": float(len(r.gaps)),
        "advised_missing": float(len(r.advised_missing) + len(r.record_advised) + len(r.past_unconsidered)),
        "critical_missing": float(bool(r.critical_missing)),
        "contraindicated": float(bool(r.contraindicated or r.unsafe_drugs or r.prescribing_harms)),
    }


def treatment_score(r: PlanReading) -> float:
    """App.: the calibration's fitted model over :func:`plan_features` where ``data/calibration.json`` holds one,
    within :func:`safety_cap`; else :func:`rule_treatment_score`."""
    model = calibration("plan")
    if model is None:
        return rule_treatment_score(r)
    return round(max(MIN_SCORE, min(model.predict(plan_features(r)), safety_cap(r))), 3)


class OfflineJudge(Judge):
    """Rubric scores from observable features (see the module docstring for the formulas).

    Deterministic and model-free; a few milliseconds per chart. Per-case knowledge (the guideline
    view and the record's concepts) is computed once per case and kept.
    """

    name = "offline"

    def __init__(self, dimensions: Sequence[str] = DIMENSIONS, cache_size: int = 256):
        super().__init__(dimensions)
        self._cache: dict[int, tuple[Any, CaseGuideline, frozenset[str]]] = {}
        self._cache_size = cache_size

    def _case_view(self, case: Any) -> tuple[CaseGuideline, frozenset[str]]:
        hit = self._cache.get(id(case))
        if hit is not None and hit[0] is case:
            return hit[1], hit[2]
        if len(self._cache) >= self._cache_size:
            self._cache.pop(next(iter(self._cache)))
        view = (case, case_guideline(case), support_concepts(case, Chart()))
        self._cache[id(case)] = view
        return view[1], view[2]

    def prepare(self, case: Any) -> None:
        """Read the case's guideline view and record concepts now (the reward shaper calls this when it
        is built for a case, so that no episode pays for it)."""
        self._case_view(case)

    def _note_reading(self, case: Any, chart: Chart) -> NoteReading:
        _, record_support = self._case_view(case)
        reading = read_note(case, chart, record_support | support_concepts_of_chart(chart))
        precision = check_note(case, chart)
        charged = [(e, claim_error_weight(e)) for e in precision.errors]
        charged = [(e, w) for e, w in charged if w > 0]
        omitted = omitted_findings(case, chart)
        lexicon = load_lexicon()
        serious = sum(lexicon.get(c).domain in ("risk", "psychosis") for c in omitted)
        return replace(
            reading,
            checklist_denials=checklist_denials(case, chart),
            claim_errors=len(charged),
            serious_errors=sum(e.serious for e, _ in charged),
            error_points=round(sum(w + e.serious for e, w in charged), 3),
            omitted=omitted,
            omitted_serious=serious,
            faults=note_faults(case, chart),
        )

    def _diagnosis_reading(self, case: Any, chart: Chart) -> DiagnosisReading:
        return replace(read_diagnosis(case, chart), unsupported_codes=unsupported_entries(case, chart))

    def readings(self, case: Any, chart: Chart) -> dict[str, Any]:
        """The observable readings behind each score, for explanation and debugging."""
        guideline, _ = self._case_view(case)
        return {
            "interview": read_interview(chart),
            "note": self._note_reading(case, chart),
            "diagnosis": self._diagnosis_reading(case, chart),
            "plan": read_plan(chart.treatment or "", guideline, case),
        }

    def _score_dimensions(
        self, case: Any, chart: Chart, dimensions: Sequence[str]
    ) -> Mapping[str, float | None]:
        out: dict[str, float | None] = {}
        wanted = set(dimensions)
        if wanted & {"empathy", "professionalism"}:
            interview = read_interview(chart)
            if "empathy" in wanted:
                out["empathy"] = empathy_score(interview)
            if "professionalism" in wanted:
                out["professionalism"] = professionalism_score(interview)
        if "note_quality" in wanted:
            out["note_quality"] = note_quality_score(self._note_reading(case, chart))
        if "diagnostic_rigor" in wanted:
            out["diagnostic_rigor"] = diagnostic_rigor_score(self._diagnosis_reading(case, chart))
        if "treatment_appropriateness" in wanted:
            guideline, _ = self._case_view(case)
            out["treatment_appropriateness"] = treatment_score(read_plan(chart.treatment or "", guideline, case))
        return out


def support_concepts_of_chart(chart: Chart) -> frozenset[str]:
    """Concepts the patient's replies and the exam results state (not negated)."""
    out: set[str] = set()
    for text in list(chart.patient_replies) + [r for _, r in chart.exam_results]:
        out |= {m.concept_id for m in mentions(text) if not m.negated}
    return frozenset(out)


__all__ = [
    "OfflineJudge",
    "diagnostic_rigor_score",
    "empathy_score",
    "claim_error_weight",
    "note_error_points",
    "note_precision_cap",
    "note_quality_score",
    "note_structure",
    "note_accurate_fragment",
    "note_usable",
    "professionalism_score",
    "stage_missing",
    "plan_concordance",
    "plan_dose",
    "plan_education",
    "plan_follow_up",
    "plan_overreach",
    "plan_safety",
    "advised_points",
    "safety_cap",
    "treatment_score",
]
