"""What the encounter needs from the patient and from the reward shaper, as small protocols.

The encounter depends on these shapes only, so any simulated patient (the library's skill-augmented
one, another simulator, a test double) and any reward shaper can take part in an episode. The
library's own ``patient.Patient`` and ``rewards.shaping.RewardShaper`` fit them as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from mentalhospital_env.rewards.chart import Chart


@runtime_checkable
class PatientReplyLike(Protocol):
    """A patient's reply: the words said and the ids of the case facts they disclosed."""

    text: str
    fact_ids: Sequence[str]


@runtime_checkable
class PatientLike(Protocol):
    """A simulated patient: answers one doctor utterance at a time; ``reset`` starts a new encounter."""

    def respond(self, utterance: str) -> PatientReplyLike: ...

    def reset(self, seed: int | None = None) -> None: ...


class RewardLike(Protocol):
    """One payment: ``reward`` (the weighted sum) and ``components`` (each named component, raw; ``None`` = not scored)."""

    reward: float
    components: Mapping[str, float | None]


@runtime_checkable
class ShaperLike(Protocol):
    """A reward shaper: one hook per doctor action, and ``finish`` once when the encounter ends.

    The encounter calls ``on_exams`` with every exam ordered so far and every result shown, and
    ``on_invalid`` for each malformed or out-of-stage action (the invalid-action penalty is the
    shaper's to set). ``finish`` runs when the encounter ends clinically or runs out of turns.

    A shaper may also have ``on_asks(asks)``, taking a run of asks as ``(utterance, reply, fact_ids)``
    triples and returning the payments ``on_ask`` would make one by one: with ``rewards_at_end`` the
    encounter settles each run of asks through it in one call (the library's shaper matches the
    replies together there). Without it every ask goes to ``on_ask``.

    A shaper whose ``on_ask`` has a ``speaker`` parameter is also told who answered (``"patient"``, or
    ``"informant"`` when the relative or carer present did; the library's shaper reads an informant's reply in
    the patient's frame), as a fourth argument, and its ``on_asks`` then takes ``(utterance, reply, fact_ids,
    speaker)``; any other shaper is called as before.
    """

    def reset(self) -> None: ...

    def on_ask(self, utterance: str, reply: str, fact_ids: Sequence[str] = ()) -> RewardLike: ...

    def on_exams(self, names: Sequence[str], results: Sequence[tuple[str, str]] = ()) -> RewardLike: ...

    def on_note(self, note: str) -> RewardLike: ...

    def on_diagnosis(self, categories: Sequence[str], disorders: Sequence[str]) -> RewardLike: ...

    def on_treatment(self, plan: str) -> RewardLike: ...

    def on_invalid(self, reason: str = "") -> RewardLike: ...

    def finish(self, chart: Chart | None = None) -> RewardLike: ...


@dataclass(frozen=True)
class NoReward:
    """A payment of nothing."""

    reward: float = 0.0
    components: Mapping[str, float | None] = field(default_factory=dict)


class NoRewards:
    """A shaper that pays nothing: the encounter alone, for tools that only need the chart."""

    def reset(self) -> None:
        return None

    def on_ask(self, utterance: str, reply: str, fact_ids: Sequence[str] = ()) -> NoReward:
        return NoReward()

    def on_exams(self, names: Sequence[str], results: Sequence[tuple[str, str]] = ()) -> NoReward:
        return NoReward()

    def on_note(self, note: str) -> NoReward:
        return NoReward()

    def on_diagnosis(self, categories: Sequence[str], disorders: Sequence[str]) -> NoReward:
        return NoReward()

    def on_treatment(self, plan: str) -> NoReward:
        return NoReward()

    def on_invalid(self, reason: str = "") -> NoReward:
        return NoReward()

    def finish(self, chart: Chart | None = None) -> NoReward:
        return NoReward()
