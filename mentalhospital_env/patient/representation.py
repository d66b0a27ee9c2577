"""The representation skill (persona, rapport, wording), now the decide and say rooms.

:class:`RepresentationSkill` is kept for the patient's variants and old imports: it holds the
persona and the rapport of :mod:`.decide` and the :class:`~.say.Speaker` of :mod:`.say`, and
passes each call to the room that does it.
"""

from __future__ import annotations

import random

from mentalhospital_env.cases import Case

from .decide import PersonaProfile, Rapport, focus, load_styles, partial, persona_for
from .reading import stable_seed
from .recall import AnswerPlan, FactIndex, IndexedFact
from .say import LayRenderer, Speaker, Voice, lay_renderer, load_denials, load_phrases, plain_reply

__all__ = [
    "LayRenderer",
    "PersonaProfile",
    "Rapport",
    "RepresentationSkill",
    "Speaker",
    "Voice",
    "lay_renderer",
    "load_denials",
    "load_phrases",
    "load_styles",
    "persona_for",
    "plain_reply",
    "stable_seed",
]


class RepresentationSkill:
    """Persona, rapport and wording: turns an :class:`AnswerPlan` into what this patient would say."""

    def __init__(self, case: Case, index: FactIndex, seed: int | None = None, lay: LayRenderer | None = None):
        self.case = case
        self.index = index
        self.persona = persona_for(case)
        self.rapport = Rapport(self.persona.guardedness)
        self.speaker = Speaker(case, index, self.persona, lay)
        self.reset(seed)

    @property
    def lay(self) -> LayRenderer:
        return self.speaker.lay

    @property
    def voice(self) -> Voice:
        return self.speaker.voice

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed
        self.speaker.reset()
        self.rapport.reset()

    # -- decide --------------------------------------------------------------------------------------

    def hear(self, utterance: str) -> str | None:
        return self.rapport.hear(utterance)

    def may_disclose(self, fact: IndexedFact) -> bool:
        return self.rapport.allows(fact.sensitive)

    def partial(self, plan: AnswerPlan) -> tuple[AnswerPlan, bool]:
        return partial(plan, self.persona)

    def focus(self, plan: AnswerPlan, similarity: float = 0.2) -> AnswerPlan:
        return focus(plan, self.persona, self.index, similarity)

    # -- say -----------------------------------------------------------------------------------------

    def render(self, plan: AnswerPlan, rng: random.Random, tone: str | None, partial: bool) -> str:
        return self.speaker.render(plan, rng, tone, partial)

    def self_contained(self, fact: IndexedFact, text: str) -> str:
        return self.speaker.self_contained(fact, text)
