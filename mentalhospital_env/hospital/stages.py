"""The stages of an encounter and which doctor action belongs to each.

An encounter walks through ``interview -> exams -> note -> diagnosis -> treatment`` and then ends.
The current stage is the stage of the last valid action (``interview`` before any). A stage may be
skipped; none is revisited. Asking and ordering exams may repeat within their stage; writing the
note, diagnosing and treating are done once, so after ``write_note`` only ``diagnose`` and ``treat``
are allowed, and ``treat`` ends the encounter (stage ``end``).
"""

from __future__ import annotations

from functools import cache

STAGES: tuple[str, ...] = ("interview", "exams", "note", "diagnosis", "treatment")
END = "end"
ALL_STAGES: tuple[str, ...] = STAGES + (END,)

#: The doctor actions, in stage order, and the stage each belongs to.
ACTION_NAMES: tuple[str, ...] = ("ask", "order_exams", "write_note", "diagnose", "treat")
ACTION_STAGE: dict[str, str] = dict(zip(ACTION_NAMES, STAGES))
#: Stages whose action may be taken more than once before moving on.
REPEATABLE_STAGES: frozenset[str] = frozenset({"interview", "exams"})

#: How each action is written in the text protocol, for messages that say what is allowed. The forms
#: name no real exam, category or disorder: they are shown in every case and must give nothing away.
ACTION_FORMS: dict[str, str] = {
    "ask": "<ask>one question or remark to the patient</ask>",
    "order_exams": "<order_exams>exam name; exam name</order_exams>",
    "write_note": "<write_note>the clinical note</write_note>",
    "diagnose": "<diagnose>categories: category id, category id | disorders: 1. ICD-10-CM code or name; 2. ...</diagnose>",
    "treat": "<treat>the treatment plan</treat>",
}


def stage_index(stage: str) -> int:
    """Position of a stage in ``ALL_STAGES``; ``ValueError`` naming the stages for an unknown one."""
    try:
        return ALL_STAGES.index(stage)
    except ValueError:
        raise ValueError(f"unknown stage {stage!r}; stages are {', '.join(ALL_STAGES)}") from None


@cache
def allowed_actions(stage: str) -> tuple[str, ...]:
    """The actions the doctor may take at ``stage``: later stages' actions, and the current one if it repeats."""
    here = stage_index(stage)
    out = []
    for name in ACTION_NAMES:
        there = STAGES.index(ACTION_STAGE[name])
        if there > here or (there == here and stage in REPEATABLE_STAGES):
            out.append(name)
    return tuple(out)


def stage_after(action_name: str) -> str:
    """The encounter's stage once ``action_name`` has been taken (``end`` after ``treat``)."""
    stage = ACTION_STAGE[action_name]
    return END if stage == STAGES[-1] else stage


@cache
def describe_allowed(stage: str) -> str:
    """A sentence naming what is allowed at ``stage``, with the text form of each action."""
    names = allowed_actions(stage)
    if not names:
        return "The encounter has ended; no action is allowed (reset to start a new one)."
    forms = "; ".join(ACTION_FORMS[n] for n in names)
    return f"Allowed now (stage {stage}): {', '.join(names)}. Forms: {forms}"
