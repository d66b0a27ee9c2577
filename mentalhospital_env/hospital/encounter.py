"""The encounter: one episode of the clinic as a plain state machine, independent of Gymnasium.

Stages run ``interview -> exams -> note -> diagnosis -> treatment`` (see :mod:`.stages`): any may be
skipped, none revisited; ``treat`` ends the encounter (``terminated``). Every action the doctor sends
counts as one turn of the budget, valid or not, so an episode always ends: when the budget is spent
before the treatment, the encounter is ``truncated``.

An invalid action (unparseable, ambiguous, empty, out of stage) never raises and leaves the clinical
state unchanged (stage, chart, the patient, what was disclosed); it costs the shaper's invalid-action
penalty (``RewardConfig.invalid_action_penalty`` for the library's shaper) and its observation says
what was wrong and what is allowed now. Only the turn counter and the chart's count of invalid
actions move.

Rewards come from the shaper (:class:`.roles.ShaperLike`): each step's ``reward`` is the shaper's
weighted sum and ``components`` its named raw components (``None`` for a score that could not be
computed); at the end the shaper's ``finish`` payment is added to the last step.

The doctor sees on walking in only what a clinician would: age, sex, setting and who is present (and, where
the record says, whether they can give the history and when they join).
"""

from __future__ import annotations

import json
import inspect
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from itertools import groupby
from operator import itemgetter
from typing import Any

from mentalhospital_env.cases import Case
from mentalhospital_env.rewards.chart import Chart, Turn

from .actions import (
    Action,
    ActionError,
    Ask,
    Diagnose,
    NameAmbiguity,
    OrderExams,
    Treat,
    Vocabulary,
    WriteNote,
    default_vocabulary,
    MAX_ACTION_TEXT,
    parse_action,
    readable_action,
)
from .record import EpisodeRecord, StepRecord
from .roles import NoReward, NoRewards, PatientLike, RewardLike, ShaperLike
from .stages import ACTION_FORMS, END, STAGES, stage_after

#: The result shown for an exam the case does not list.
UNREMARKABLE = "unremarkable (not on file)"

#: How the walk-in names each setting (readers of the walk-in text map it back with this).
SETTING_PLACES = {
    "outpatient": "Outpatient clinic",
    "inpatient": "Inpatient ward",
    "emergency": "Emergency department",
}
_SETTING_PLACES = SETTING_PLACES  # the old private name, still read by agents/ppo.py


@dataclass(frozen=True)
class EncounterSettings:
    """How an encounter runs.

    ``turn_budget``: every action the doctor sends counts as one turn. ``rewards_at_end``: call the
    shaper only when the encounter ends, with exactly the calls it would have had after each action,
    in order (a run of asks in one ``on_asks`` call where the shaper has it): every step before pays 0
    and the last step pays the episode's total and reports each component's total. The return is the
    same as with rewards paid as earned; what is saved is the scorers' time during the episode, and
    the fixed cost of matching each reply on its own (evaluation, throughput).
    """

    turn_budget: int = 40
    rewards_at_end: bool = False

    def __post_init__(self) -> None:
        if (
            isinstance(self.turn_budget, bool)
            or not isinstance(self.turn_budget, int)
            or self.turn_budget < 1
        ):
            raise ValueError(f"turn_budget must be a positive integer, got {self.turn_budget!r}")
        if not isinstance(self.rewards_at_end, bool):
            raise ValueError(f"rewards_at_end must be true or false, got {self.rewards_at_end!r}")  # noqa: TRY004

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class StepOutcome:
    """What one step produced: the text the doctor sees, where the encounter stands, and the reward.

    ``components`` are the named reward components summed into ``reward``; ``action`` is the parsed
    action (``None`` for an invalid one, whose :class:`ActionError` is ``error``); ``fact_ids`` the
    case facts the patient disclosed in this step and ``reply`` the patient's reply object itself.
    """

    text: str
    stage: str
    turn: int
    reward: float
    components: Mapping[str, float | None]
    terminated: bool
    truncated: bool
    action: Action | None = None
    error: ActionError | None = None
    fact_ids: tuple[str, ...] = ()
    reply: Any = None

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


@dataclass(frozen=True)
class ClinicalState:
    """The part of an encounter an action can change (everything but the turn counter and invalid count)."""

    stage: str
    chart: Chart
    ended: bool


def walk_in_text(case: Case) -> str:
    """What a clinician sees on walking in: the setting, the patient's age and sex, who is present.

    Nothing else of the case is used, so nothing of the diagnosis, the record or the checkpoints can
    show through.
    """
    d = case.demographics
    adult = d.age >= 18
    person = {"female": "woman" if adult else "girl", "male": "man" if adult else "boy"}.get(d.sex, "person")
    present = who_is_present(case)
    place = SETTING_PLACES.get(case.setting, case.setting)
    company = f", accompanied by {present}" if present else ", alone"
    # what the person present can give and when they join, where the record says ("His daughter can give the
    # history.", "His wife will join for the later part of the interview ..."): what the clinic tells the doctor
    from mentalhospital_env.patient.informant import walk_in_role

    role = walk_in_role(case, present) if present else ""
    return f"{place}. A {d.age}-year-old {person} is here to see you{company}." + (f" {role}" if role else "")


_INFORMANT_HEAD = re.compile(r"^[^,;:.()\[\]\-\u2013\u2014]*")
#: an informant field that opens by saying nobody came (uw-012: "None in the room; she came alone. Her partner ... gave
#: collateral history by telephone the day before") is a patient seen alone, not one "accompanied by another person"
_NOBODY_PRESENT = re.compile(r"^(?:none|nobody|no one|no-one|alone|unaccompanied|came alone|seen alone)\b", re.I)
_FAMILY = (
    "mother",
    "father",
    "parents",
    "parent",
    "wife",
    "husband",
    "partner",
    "spouse",
    "son",
    "daughter",
    "sister",
    "brother",
    "girlfriend",
    "boyfriend",
    "fiance",
    "fiancee",
    "aunt",
    "uncle",
    "niece",
    "nephew",
    "cousin",
    "grandmother",
    "grandfather",
    "grandparents",
    "foster carer",
    "foster parent",
    "foster mother",
    "foster father",
    "guardian",
    "friend",
    "carer",
    "caregiver",
    "flatmate",
    "roommate",
    "colleague",
    "family member",
)
_OTHERS = (
    "care home nurse",
    "nurse",
    "support worker",
    "social worker",
    "case manager",
    "key worker",
    "police officer",
    "paramedic",
    "teacher",
    "interpreter",
)


def who_is_present(case: Case) -> str | None:
    """Who came with the patient, as a relation only (``"her mother"``, ``"a nurse"``), or ``None``.

    The informant's free text is never shown as written: only the first relation it names, from a
    fixed list, is; nothing else the text says (what they worry about, why they came) shows through.
    """
    informant = case.effective_persona.informant
    if not informant:
        return None
    if _NOBODY_PRESENT.match(informant.strip()):
        return None
    head = _INFORMANT_HEAD.match(informant.strip())
    text = " ".join((head.group(0) if head else "").lower().split())
    pronoun = {"female": "her", "male": "his"}.get(case.demographics.sex, "their")
    found: list[tuple[int, int, str]] = []
    for relations, form in ((_FAMILY, pronoun), (_OTHERS, "a")):
        for relation in relations:
            m = re.search(rf"\b{re.escape(relation)}s?\b", text)
            if m is not None:
                found.append(
                    (
                        m.start(),
                        -len(relation),
                        f"{form} {relation}"
                        + (
                            "s"
                            if form != "a" and m.group(0).endswith("s") and not relation.endswith("s")
                            else ""
                        ),
                    )
                )
    if not found:
        return "another person"
    return min(found)[2]


def protocol_text(turn_budget: int) -> str:
    """The rules of the encounter, as shown to the doctor at the start."""
    forms = " ".join(ACTION_FORMS.values())
    return (
        "You are the psychiatrist. Stages: interview -> exams -> note -> diagnosis -> treatment; any may be "
        "skipped, none revisited; the treatment ends the encounter. One action per turn: "
        f"{forms} You have {turn_budget} turns."
    )


class Encounter:
    """One episode over one case: the doctor's actions in, the patient's replies, results and rewards out.

    ``patient`` answers questions (see :class:`.roles.PatientLike`); ``shaper`` turns actions into
    named reward components (:class:`.roles.ShaperLike`, none when omitted); ``vocabulary`` resolves
    exam and disorder names (the bundled knowledge base by default). Call :meth:`reset` before the
    first :meth:`step`.
    """

    def __init__(
        self,
        case: Case,
        patient: PatientLike,
        shaper: ShaperLike | None = None,
        settings: EncounterSettings | None = None,
        vocabulary: Vocabulary | None = None,
        record_settings: Mapping[str, Any] | None = None,
    ):
        self.case = case
        self.patient = patient
        self.shaper: ShaperLike = shaper if shaper is not None else NoRewards()
        self.settings = settings or EncounterSettings()
        self.vocabulary = vocabulary
        self._record_settings = dict(record_settings or {})
        self._exams_on_file = self._index_exams()
        self._seed: int | None = None
        self._started = False
        self._stage = STAGES[0]
        self._turn = 0
        self._chart = Chart()
        self._ended = False
        self._terminated = False
        self._truncated = False
        self._steps: list[StepRecord] = []
        self._owed: list[tuple[str, tuple[Any, ...]]] = []
        self._walk_in = ""

    # ------------------------------------------------------------------------------ state

    @property
    def stage(self) -> str:
        return self._stage

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def chart(self) -> Chart:
        return self._chart

    @property
    def ended(self) -> bool:
        return self._ended

    @property
    def disclosed(self) -> frozenset[str]:
        """Ids of the case facts the patient has disclosed so far."""
        return self._chart.disclosed_fact_ids

    def clinical_state(self) -> ClinicalState:
        """Stage, chart (invalid-action count set aside) and whether the encounter has ended."""
        return ClinicalState(self._stage, replace(self._chart, invalid_actions=0), self._ended)

    def parse(self, source: Any) -> Action | ActionError:
        """What :meth:`step` would make of ``source`` now, without taking it."""
        return parse_action(source, self._stage, self._vocab())

    def record(self) -> EpisodeRecord:
        """The episode so far (or complete) as an :class:`EpisodeRecord`."""
        settings = {**self.settings.to_dict(), **self._record_settings}
        return EpisodeRecord(
            case_id=self.case.case_id,
            seed=self._seed,
            settings=settings,
            walk_in=self._walk_in,
            steps=tuple(self._steps),
            chart=self._chart,
            scores=None,
            terminated=self._terminated,
            truncated=self._truncated,
        )

    # ------------------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None) -> StepOutcome:
        """Start the encounter again (the patient too) and return the walk-in observation."""
        self._seed = seed
        self.patient.reset(seed)
        self.shaper.reset()
        self._owed = []
        self._started = True
        self._stage = STAGES[0]
        self._turn = 0
        self._chart = Chart()
        self._ended = self._terminated = self._truncated = False
        self._steps = []
        if not self._walk_in:  # the same every episode of this case
            self._walk_in = f"{walk_in_text(self.case)}\n{protocol_text(self.settings.turn_budget)}"
        return StepOutcome(self._walk_in, self._stage, 0, 0.0, {}, False, False)

    def step(self, source: Any, refusal: ActionError | None = None) -> StepOutcome:
        """Take one doctor action (protocol text, a mapping or an :class:`Action`); never raises for bad input.

        ``refusal`` refuses ``source`` for a reason found by the caller (a menu index out of range,
        say): it counts as an invalid action with that error.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        # Read the action once, as plain data, before anything is applied: a mapping that raises, or is
        # too deep or too big, is an invalid action, and the record keeps exactly what was parsed.
        original, source = source, readable_action(source)
        if self._ended:
            err = parse_action(source, END, self._vocab())
            assert isinstance(err, ActionError)
            return StepOutcome(
                f"Invalid action: {err.message}",
                END,
                self._turn,
                0.0,
                {},
                self._terminated,
                self._truncated,
                None,
                err,
            )
        parsed = refusal if refusal is not None else parse_action(source, self._stage, self._vocab())
        action_text = _action_text(original if isinstance(original, str) else source)
        self._turn += 1
        if isinstance(parsed, ActionError):
            self._chart = replace(self._chart, invalid_actions=self._chart.invalid_actions + 1)
            payment = self._pay("on_invalid", parsed.problem)
            text, reply = f"Invalid action: {parsed.message}", None
        else:
            text, reply, payment = self._apply(parsed)
        reward, components = float(payment.reward), dict(payment.components)
        terminated = self._stage == END
        truncated = not terminated and self._turn >= self.settings.turn_budget
        if terminated or truncated:
            self._ended = True
            self._terminated, self._truncated = terminated, truncated
            if truncated:
                self._stage = END
                text += "\nThe turn budget is spent; the encounter is over."
            for owed in self._settle():
                reward += float(owed.reward)
                _add(components, owed.components)
            final = self.shaper.finish(self._chart)
            reward += float(final.reward)
            _add(components, final.components)
        self._steps.append(
            StepRecord(
                turn=self._turn,
                action_text=action_text,
                action=parsed.to_dict() if not isinstance(parsed, ActionError) else None,
                error=parsed.message if isinstance(parsed, ActionError) else None,
                problem=parsed.problem if isinstance(parsed, ActionError) else None,
                observation=text,
                stage=self._stage,
                reward=reward,
                components=dict(components),
            )
        )
        return StepOutcome(
            text,
            self._stage,
            self._turn,
            reward,
            components,
            terminated,
            truncated,
            None if isinstance(parsed, ActionError) else parsed,
            parsed if isinstance(parsed, ActionError) else None,
            tuple(reply.fact_ids) if reply is not None else (),
            reply,
        )

    # ------------------------------------------------------------------------------ actions

    def _apply(self, action: Action) -> tuple[str, Any, RewardLike]:
        chart = self._chart
        reply = None
        if isinstance(action, Ask):
            reply = self.patient.respond(action.utterance)
            speaker = "informant" if getattr(reply, "speaker", "patient") == "informant" else "patient"
            added = getattr(reply, "added", "") or ""  # the person present's correction after the patient's reply
            # the patient seen without the person who came with them, on this turn (after it asked them out, or back)
            alone = bool(getattr(self.patient, "seen_alone", False))
            turn = Turn(action.utterance, reply.text, tuple(reply.fact_ids), speaker, added, alone)
            self._chart = replace(chart, turns=chart.turns + (turn,))
            # who answered goes to a shaper whose on_ask takes it (the library's: an informant's "he" is the
            # patient); any other shaper is called as before
            extra = (speaker,) if _takes_speaker(self.shaper) else ()
            payment = self._pay("on_ask", turn.doctor, turn.patient, turn.fact_ids, *extra)
            text = f"{_speaker_label(self.patient, reply)}: {reply.text}"
            if added:
                informant = getattr(self.patient, "informant", None)
                text += f"\n{informant.label if informant is not None else 'Relative'}: {added}"
        elif isinstance(action, OrderExams):
            already = set(chart.exams or ())
            new = [name for name in action.exams if name not in already]
            results = tuple((name, self._exam_result(name)) for name in new)
            self._chart = replace(
                chart, exams=tuple(chart.exams or ()) + tuple(new), exam_results=chart.exam_results + results
            )
            payment = self._pay("on_exams", self._chart.exams or (), self._chart.exam_results)
            lines = [f"- {name}: {result}" for name, result in results]
            lines += [f"- {name}: already reported above" for name in action.exams if name in already]
            text = "Exam results:\n" + "\n".join(lines)
        elif isinstance(action, WriteNote):
            self._chart = replace(chart, note=action.note)
            payment = self._pay("on_note", action.note)
            text = "Note recorded. Next: diagnose, then treat."
        elif isinstance(action, Diagnose):
            self._chart = replace(chart, categories=action.categories, disorders=action.disorders)
            payment = self._pay("on_diagnosis", action.categories, action.disorders)
            text = "Diagnosis recorded. Next: treat."
        else:
            assert isinstance(action, Treat)
            self._chart = replace(chart, treatment=action.plan)
            payment = self._pay("on_treatment", action.plan)
            text = "Treatment plan recorded. The encounter is over."
        self._stage = stage_after(action.name)
        return text, reply, payment

    def _pay(self, hook: str, *args: Any) -> RewardLike:
        """The shaper's payment for an action now, or nothing now and the call kept for the end."""
        if self.settings.rewards_at_end:
            self._owed.append((hook, args))
            return NoReward()
        return getattr(self.shaper, hook)(*args)

    def _settle(self) -> list[RewardLike]:
        """The payments owed for the episode (``rewards_at_end``), in order: the shaper's calls as they
        would have come, except that a run of asks goes to its ``on_asks`` in one call when it has one
        (the same payments; its scorers' fixed cost paid once a run, not once a question)."""
        owed, self._owed = self._owed, []
        on_asks = getattr(self.shaper, "on_asks", None)
        payments: list[RewardLike] = []
        for name, run in groupby(owed, key=itemgetter(0)):
            calls = [args for _name, args in run]
            if name == "on_ask" and len(calls) > 1 and callable(on_asks):
                payments.extend(on_asks(calls))
            else:
                payments.extend(getattr(self.shaper, name)(*args) for args in calls)
        return payments

    def _vocab(self) -> Vocabulary:
        if self.vocabulary is None:
            self.vocabulary = default_vocabulary()
        return self.vocabulary

    def _index_exams(self) -> dict[str, str]:
        """Lower-case exam names (as listed, and as the catalog names them) -> result on file."""
        index: dict[str, str] = {}
        for exam in self.case.exams:
            index.setdefault(exam.name.strip().lower(), exam.result)
        self._exam_aliases_done = False
        return index

    def _exam_result(self, name: str) -> str:
        if not self._exam_aliases_done:
            vocab = self._vocab()
            for exam in self.case.exams:
                try:
                    canonical = vocab.exam(exam.name)
                except NameAmbiguity:
                    canonical = None
                if canonical:
                    self._exams_on_file.setdefault(canonical.strip().lower(), exam.result)
            self._exam_aliases_done = True
        return self._exams_on_file.get(name.strip().lower(), UNREMARKABLE)


def _add(components: dict[str, float | None], more: Mapping[str, float | None]) -> None:
    """Add a payment's components to a step's: ``None`` (not scored) only where neither has a number."""
    for key, value in more.items():
        have = components.get(key)
        if value is None:
            components.setdefault(key, None)
        else:
            components[key] = (have or 0.0) + float(value)


def _action_text(source: Any) -> str:
    """The action as the doctor sent it, as text: strings as they are, mappings as JSON."""
    if isinstance(source, str):
        if len(source) > MAX_ACTION_TEXT:  # refused unread: keep its head and its size, not megabytes
            return f"{source[:1000]}... ({len(source)} characters, refused as too long)"
        return source
    if isinstance(source, ActionError):  # unreadable: say why instead of what
        return f"<unreadable action: {source.message}>"
    if isinstance(source, Mapping):  # plain data from readable_action: bounded depth and size
        try:
            return json.dumps(source, ensure_ascii=False, default=lambda o: f"<{type(o).__name__}>")
        except (TypeError, ValueError, RecursionError):
            return f"<{type(source).__name__}>"
    to_text = getattr(source, "to_text", None)
    if callable(to_text):
        return str(to_text())
    try:
        return repr(source)
    except Exception:  # noqa: BLE001  (a hostile __repr__ must not crash an episode)
        return f"<{type(source).__name__}>"


def _takes_speaker(shaper: Any) -> bool:
    """Whether ``shaper.on_ask`` has a ``speaker`` parameter (remembered per class)."""
    kind = type(shaper)
    known = _SPEAKER_AWARE.get(kind)
    if known is None:
        try:
            known = "speaker" in inspect.signature(shaper.on_ask).parameters
        except (TypeError, ValueError, AttributeError):
            known = False
        _SPEAKER_AWARE[kind] = known
    return known


_SPEAKER_AWARE: dict[type, bool] = {}


def _speaker_label(patient: Any, reply: Any) -> str:
    """Who the doctor hears: "Patient", or the relative present when they answered ("Mother (Helen)"),
    so that a parent's "I had postnatal depression" is never read as the child's."""
    if getattr(reply, "speaker", "patient") != "informant":
        return "Patient"
    informant = getattr(patient, "informant", None)
    return informant.label if informant is not None else "Relative"
