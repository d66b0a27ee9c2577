"""Episodes over a Ray cluster, for runs larger than one machine (``mentalhospital evaluate --ray``).

``run_on_ray(doctor, spec, todo, workers, address, emit)`` starts ``workers`` Ray actors (by default
one per CPU of the cluster), each holding what a worker process of the local pool holds (the
environment, the scorers, the doctor's factory, built once), and hands them the episodes of ``todo``,
two at a time each. Finished episodes come back as ``emit(index, line, scores)``, in any order; the
harness writes them in episode order exactly as for ``--workers``, so ``episodes.jsonl`` is the same
byte for byte apart from ``timing``, a resumed run continues after the last episode written, and a
killed run loses at most the episodes it had not written (they are played again on resume; none is
written twice).

The suite is loaded once by the driver and shipped to the actors, so the nodes need no copy of the
case files; they need this package installed (the same version: every line carries the library
fingerprint, and mixing versions is refused on resume). ``address`` is a cluster address
(``ray://head:10001`` or ``auto``); ``None`` starts a local Ray. Heavy scorers (sentence-transformer
matchers, LLM adjudicators and judges) are where a cluster pays off.

Needs ``ray`` (the ``ray`` extra). There is no RLlib extra: RLlib pins ``gymnasium==1.2.2`` and this
package needs the ``gymnasium>=1.0`` it resolves with (1.4 here); see docs/training.md.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from mentalhospital_env.evaluation import EvaluationError, EvaluationSpec

_THREAD_VARS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


class EpisodeActor:
    """One Ray actor: a worker of the evaluation (see :class:`mentalhospital_env.evaluation._Worker`)."""

    def __init__(self, doctor: str, spec_dict: dict[str, Any], suite: Any, on_error: str = "stop") -> None:
        for key, value in _THREAD_VARS.items():
            os.environ.setdefault(key, value)
        from mentalhospital_env import evaluation

        evaluation._init_worker(doctor, spec_dict, suite, on_error)

    def run(self, task: tuple[int, str, int]) -> tuple[int, str, dict[str, Any]]:
        from mentalhospital_env import evaluation

        return evaluation._run_task(task)


def run_on_ray(
    doctor: str,
    spec: EvaluationSpec,
    todo: list[tuple[int, str, int]],
    workers: int | None,
    address: str | None,
    emit: Callable[[int, str, dict[str, Any]], None],
    on_error: str = "stop",
) -> None:
    """Play ``todo`` on Ray actors; see the module doc."""
    try:
        import ray
    except ImportError:
        raise EvaluationError("--ray needs the ray package: pip install 'mentalhospital-env[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {
            "runtime_env": {"env_vars": dict(_THREAD_VARS)},
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
        }
        if address is None:
            options["num_cpus"] = max(1, workers or os.cpu_count() or 1)
        else:
            options["address"] = address
        ray.init(**options)
    running: dict[Any, Any] = {}
    previous = _stop_on_sigterm()
    try:
        n = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        n = max(1, min(n, len(todo)))
        suite = ray.put(spec.load_suite())
        actor_class = ray.remote(num_cpus=1)(EpisodeActor)
        actors = [actor_class.remote(doctor, spec.to_dict(), suite, on_error) for _ in range(n)]
        queue = iter(todo)

        def give(actor: Any) -> bool:
            task = next(queue, None)
            if task is None:
                return False
            running[actor.run.remote(task)] = actor
            return True

        for actor in actors:
            give(actor)
            give(actor)
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                actor = running.pop(ref)
                index, line, scores = ray.get(ref)
                emit(index, line, scores)
                give(actor)
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()  # the local Ray's processes end with the run, also on Ctrl-C or SIGTERM
        _restore_sigterm(previous)


def _stop_on_sigterm() -> Any:
    """SIGTERM raises KeyboardInterrupt during the run, so the local Ray is shut down (main thread only)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt("SIGTERM")

    return signal.signal(signal.SIGTERM, stop)


def _restore_sigterm(previous: Any) -> None:
    import signal
    import threading

    if previous is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, previous)
