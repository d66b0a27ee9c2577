"""What the encounter needs from the patient and from the reward shaper, as small protocols.

The encounter depends on these shapes only, so any simulated patient (the library's skill-augmented
one, another simulator, a test double) and any reward shaper can take part in an episode.
"""

from __future__ import annotations

from typing import Mapping, Protocol, Sequence, runtime_checkable

from mentalhospital_env.rewards.chart import Chart, Turn


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


@runtime_checkable
class ShaperLike(Protocol):
    """A reward shaper: after each valid action, named reward components (summed into the reward).

    Hooks receive the chart as it stands after the action. ``on_end`` runs once, when the encounter
    ends clinically or runs out of turns, and may return terminal components (scores of the chart).
    """

    def reset(self) -> None: ...

    def on_ask(self, turn: Turn, chart: Chart) -> Mapping[str, float]: ...

    def on_exams(self, ordered: Sequence[str], chart: Chart) -> Mapping[str, float]: ...

    def on_note(self, note: str, chart: Chart) -> Mapping[str, float]: ...

    def on_diagnosis(self, categories: Sequence[str], disorders: Sequence[str], chart: Chart) -> Mapping[str, float]: ...

    def on_treatment(self, plan: str, chart: Chart) -> Mapping[str, float]: ...

    def on_end(self, chart: Chart, truncated: bool) -> Mapping[str, float]: ...


class NoRewards:
    """A shaper that gives no reward components: the encounter alone, for tools that only need the chart."""

    def reset(self) -> None:
        return None

    def on_ask(self, turn: Turn, chart: Chart) -> Mapping[str, float]:
        return {}

    def on_exams(self, ordered: Sequence[str], chart: Chart) -> Mapping[str, float]:
        return {}

    def on_note(self, note: str, chart: Chart) -> Mapping[str, float]:
        return {}

    def on_diagnosis(self, categories: Sequence[str], disorders: Sequence[str], chart: Chart) -> Mapping[str, float]:
        return {}

    def on_treatment(self, plan: str, chart: Chart) -> Mapping[str, float]:
        return {}

    def on_end(self, chart: Chart, truncated: bool) -> Mapping[str, float]:
        return {}
