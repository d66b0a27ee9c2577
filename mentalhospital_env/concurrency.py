"""Many episodes at once in one process, so that a served doctor sees many requests in flight.

``run_concurrently(doctor, spec, todo, concurrency, emit)`` plays the episodes of ``todo`` with at
most ``concurrency`` under way at once, each in its own environment, on one asyncio event loop. A
doctor with an ``aact`` coroutine (the ``llm`` doctor) awaits its model there, so while one episode
waits for its reply the others step, score, and send their own requests; a doctor without one acts
synchronously. Each finished episode is handed to ``emit(index, line, scores)`` as soon as it is
scored, in any order; the harness (``evaluation.run_evaluation(..., concurrency=N)``) writes them
in episode order, so the results are the same, byte for byte apart from ``timing``, as one episode at
a time.

Time goes where the waiting is: with a server answering in 200 ms, 40 episodes at concurrency 16
take about a tenth of the time they take one at a time (``benchmarks/llm_evaluation.py``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from mentalhospital_env.evaluation import EvaluationSpec, _Worker, episode_row, make_env
from mentalhospital_env.results import episode_line


async def _play(slot: _Worker, case_id: str, seed: int) -> dict[str, Any]:
    env = slot.env
    started = time.time()
    t0 = time.perf_counter()
    policy = slot.factory(slot.argument)
    observation, info = env.reset(seed=seed, options={"case_id": case_id})
    policy.reset(observation, info)
    aact = getattr(policy, "aact", None)
    terminated = truncated = False
    while not (terminated or truncated):
        action = await aact(observation, info) if aact is not None else policy.act(observation, info)
        observation, _reward, terminated, truncated, info = env.step(action)
        await asyncio.sleep(0)  # let the other episodes send their requests between steps
    return episode_row(slot, case_id, seed, env, policy, started, t0)


async def _run(
    doctor: str, spec: EvaluationSpec, todo: list[tuple[int, str, int]], concurrency: int,
    emit: Callable[[int, str, dict[str, Any]], None], on_error: str,
) -> None:
    first = _Worker(doctor, spec, on_error)
    first.prepare()
    slots: asyncio.Queue[_Worker] = asyncio.Queue()
    slots.put_nowait(first)
    for _ in range(min(concurrency, len(todo)) - 1):
        # each slot has its own environment (episodes under way keep their own state); the doctor's
        # factory, scorers and identity are shared
        slots.put_nowait(_Worker(doctor, spec, on_error, env=make_env(spec), scoring=first.scoring, factory=first.factory, argument=first.argument, identity=first.identity))

    async def one(index: int, case_id: str, seed: int) -> None:
        slot = await slots.get()
        try:
            row = await _play(slot, case_id, seed)
        except Exception as e:  # noqa: BLE001  (any doctor, patient or scorer failure: the run's --on-error policy)
            row = slot.failed(case_id, seed, e)
        finally:
            slots.put_nowait(slot)
        emit(index, episode_line(row), row["scores"])

    tasks = [asyncio.ensure_future(one(*task)) for task in todo]
    try:
        for finished in asyncio.as_completed(tasks):
            await finished  # the first failure stops the run; the finished episodes are written
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def run_concurrently(
    doctor: str,
    spec: EvaluationSpec,
    todo: list[tuple[int, str, int]],
    concurrency: int,
    emit: Callable[[int, str, dict[str, Any]], None],
    on_error: str = "stop",
) -> None:
    """Play ``todo`` (``(index, case_id, seed)`` triples) with ``concurrency`` episodes at once; see the module doc."""
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    asyncio.run(_run(doctor, spec, todo, concurrency, emit, on_error))
