"""The evaluation harness: run a doctor over a seeded suite of cases and write trustworthy result files.

``run_evaluation(doctor, spec, out_dir, workers=N)`` plays every (case, seed) episode of the spec and
writes, in ``out_dir``:

* ``episodes.jsonl``: one line per episode, in the spec's fixed episode order: the EpisodeRecord,
  its scores, the case's categories, and a ``timing`` object (the only part that differs between two
  runs of the same spec). Lines are appended atomically (one ``write`` of a whole line, flushed and
  synced), and only in order, so an interrupted run leaves a clean prefix.
* ``results.json``: the spec and its hash, the doctor, versions, git commit, and per metric the mean
  with standard error and 95% interval, overall and per diagnostic category. Written to a temporary
  file and renamed, so it is never half-written.

Run it again with the same arguments after a crash or Ctrl-C and it resumes: finished episodes are
kept, a torn last line is dropped and replayed, nothing is repeated or lost; a folder written by another
version of the library's data (``library`` on each line) is refused rather than mixed. Episodes run in parallel
worker processes when ``workers > 1``, many at once in one process with ``concurrency > 1`` (a served
doctor's requests in flight together: :mod:`mentalhospital_env.concurrency`), or on Ray actors with
``ray`` (:mod:`mentalhospital_env.distributed`); results are the same as with one worker, byte for byte
apart from ``timing``. Lines name the doctor by its identity (``roster.doctor_identity``: for the
``llm`` doctor, the model and its generation settings, never the URL), and an ``llm`` doctor's turns
(raw replies, refusals, HTTP attempts) are kept under ``doctor_log``.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from contextlib import ExitStack
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Sequence, TextIO

from mentalhospital_env.cases import Suite, load_suite
from mentalhospital_env.results import (
    BadLine,
    ResultsError,
    check_results,
    episode_line,
    file_digest,
    folder_lock,
    latest_rows,
    read_log,
    set_aside,
)
from mentalhospital_env.statistics import summarize

#: the study's ten columns (objective in 0..1, shown as percent; MentalEval in 1..5)
OBJECTIVE_METRICS: tuple[str, ...] = ("inter", "exam", "note", "cate", "diso")
SUBJECTIVE_METRICS: tuple[str, ...] = ("emp", "prof", "qual", "rigor", "app")
MAIN_METRICS: tuple[str, ...] = OBJECTIVE_METRICS + SUBJECTIVE_METRICS
#: the chief-complaint / mental-status breakdown of the study's table 3
BREAKDOWN_METRICS: tuple[str, ...] = ("inter_cc", "inter_ms", "note_cc", "note_ms")
#: beyond the study: note precision (claims about the patient the encounter contradicts or never raised, per
#: note, and the share of claims without such an error)
BEYOND_METRICS: tuple[str, ...] = ("note_errors", "note_precision")

EPISODES_FILE = "episodes.jsonl"
RESULTS_FILE = "results.json"


#: what a run does when an episode raises: ``stop`` (the default) ends the run with the episode's error;
#: ``record`` writes the episode as failed (with its error) and goes on; results.json counts the failed
#: episodes, and running the same command again retries them.
ON_ERROR_POLICIES: tuple[str, ...] = ("stop", "record")


class EvaluationError(ResultsError):
    """The evaluation cannot run or resume as asked (the message says why and what to do)."""


class EpisodeError(EvaluationError):
    """An episode raised: which one, and the error as text (so it crosses process boundaries whatever
    the original exception was)."""

    def __init__(self, case_id: str, seed: int, error: str):
        self.case_id, self.seed, self.error = case_id, seed, error
        super().__init__(f"episode {case_id}/seed {seed} failed: {error}")

    def __reduce__(self):  # type: ignore[override]
        return (type(self), (self.case_id, self.seed, self.error))


@dataclass(frozen=True)
class EvaluationSpec:
    """What is evaluated: the cases, seeds, patient, scorers and turn budget (not the doctor).

    ``suite`` is a bundled suite name or any case file or folder that CASES.md allows. The spec's
    hash covers these settings and the content of the suite, so two results with the same hash were
    produced on the same episodes.

    The default, and so the leaderboard's, is ``test-v2`` (480 cases from generator version 2, which
    pass the clinical audit with zero findings; issue 14). Figures on the earlier ``test`` suite
    (generator version 1) stay reproducible with ``suite="test"`` but carry a different spec hash;
    every results file names its suite and the generator version that wrote it (``suite_info``).
    """

    suite: str = "test-v2"
    seeds: tuple[int, ...] = (0,)
    case_ids: tuple[str, ...] | None = None
    limit: int | None = None
    patient_variant: str = "full"
    patient_backend: str = "offline"
    judge: str = "offline"
    matcher: str = "hashing"
    turn_budget: int = 40
    reward: str = "dense"
    #: the patient's topic reader (``fast`` or ``embedding``, see ``make_patient``); left out of :meth:`to_dict` (and
    #: so of the spec hash) while it is the default, so that results written before it existed keep their hash
    topic_reader: str = "fast"

    def __post_init__(self) -> None:
        if self.reward not in ("dense", "sparse"):
            raise EvaluationError(f"EvaluationSpec.reward must be 'dense' or 'sparse', got {self.reward!r}")
        if self.turn_budget < 1:
            raise EvaluationError(f"EvaluationSpec.turn_budget must be at least 1, got {self.turn_budget}")
        if not self.seeds:
            raise EvaluationError("EvaluationSpec.seeds must name at least one seed")
        from mentalhospital_env.rewards.embedders import embedder_spec_parts

        try:
            embedder_spec_parts(self.matcher)
        except ValueError as e:
            raise EvaluationError(f"EvaluationSpec.matcher: {e}") from None
        from mentalhospital_env.patient.embedding_reader import TOPIC_READERS

        if self.topic_reader not in TOPIC_READERS:
            raise EvaluationError(f"EvaluationSpec.topic_reader must be one of {TOPIC_READERS}, got {self.topic_reader!r}")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["seeds"] = list(self.seeds)
        out["case_ids"] = list(self.case_ids) if self.case_ids is not None else None
        if self.topic_reader == "fast":
            del out["topic_reader"]
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "EvaluationSpec":
        raw = dict(raw)
        raw["seeds"] = tuple(raw.get("seeds", (0,)))
        if raw.get("case_ids") is not None:
            raw["case_ids"] = tuple(raw["case_ids"])
        return cls(**raw)

    def load_suite(self) -> Suite:
        return _cached_suite(self.suite)

    def episodes(self) -> list[tuple[str, int]]:
        """The fixed episode order: for each seed, each selected case in suite order."""
        return self.episodes_of(self.load_suite())

    def episodes_of(self, suite: Suite) -> list[tuple[str, int]]:
        """:meth:`episodes` over a suite already loaded."""
        ids = list(suite.case_ids)
        if self.case_ids is not None:
            unknown = [c for c in self.case_ids if c not in suite]
            if unknown:
                raise EvaluationError(f"suite {self.suite!r} has no case(s) {', '.join(unknown)}")
            ids = [c for c in ids if c in set(self.case_ids)]
        if self.limit is not None:
            ids = ids[: self.limit]
        return [(cid, seed) for seed in self.seeds for cid in ids]

    @property
    def spec_hash(self) -> str:
        """A stable id: SHA-256 of the canonical settings and the selected cases' content (16 hex digits)."""
        return _spec_hash(self)


#: the fixed default leaderboard spec: the frozen ``test`` suite, seed 0, offline patient and scorers
LEADERBOARD_SPEC = EvaluationSpec()


_SUITES: dict[str, Suite] = {}


def preload_suite(source: str, suite: Suite) -> None:
    """Use ``suite`` for every spec naming ``source`` in this process (instead of reading it): how a
    worker process or a Ray actor is handed the content its parent hashed."""
    _SUITES[source] = suite


def _cached_suite(source: str) -> Suite:
    """The suite named ``source``, loaded once per process (a worker is handed its parent's copy, so
    every episode is scored against the content the spec hash was taken from)."""
    suite = _SUITES.get(source)
    if suite is None:
        if len(_SUITES) >= 8:
            _SUITES.pop(next(iter(_SUITES)))
        suite = _SUITES[source] = load_suite(source)
    return suite


@lru_cache(maxsize=32)
def _spec_hash(spec: EvaluationSpec) -> str:
    return _spec_hash_with(spec, spec.load_suite())


def _spec_hash_with(spec: EvaluationSpec, suite: Suite) -> str:
    """The spec hash over ``suite``'s content (the report checks a suite found on disk with it)."""
    digest = hashlib.sha256()
    digest.update(json.dumps(spec.to_dict(), sort_keys=True).encode())
    for cid in dict.fromkeys(cid for cid, _ in spec.episodes_of(suite)):
        digest.update(json.dumps(suite[cid].to_dict(), sort_keys=True).encode())
    return digest.hexdigest()[:16]


# ------------------------------------------------------------------------------------------ episodes


@dataclass
class _Worker:
    """Per-process state, built once and reused across episodes: the environment, the scoring
    configuration and the doctor's factory (looking a doctor up among the installed entry points
    costs milliseconds, so it is not done per episode)."""

    doctor: str
    spec: EvaluationSpec
    on_error: str = "stop"
    env: Any = None
    scoring: Any = None
    factory: Any = None
    argument: str | None = None
    identity: str | None = None

    def prepare(self) -> None:
        """Build the environment, the scorers and the doctor's factory (once)."""
        from mentalhospital_env.roster import doctor_factory, doctor_identity

        if self.env is None:
            self.env = make_env(self.spec)
            self.scoring = scoring_config(self.spec)
            self.factory, self.argument = doctor_factory(self.doctor)
            self.identity = doctor_identity(self.doctor)

    def failed(self, case_id: str, seed: int, exc: Exception) -> dict[str, Any]:
        """The run's ``on_error`` policy for an episode that raised ``exc``: an :class:`EpisodeError` naming the
        episode and the cause (``stop``), or its failed ``episodes.jsonl`` row (``record``), with a fresh
        environment for the next episode (one that raised may have left this one mid-step)."""
        from mentalhospital_env.roster import doctor_identity

        error = f"{type(exc).__name__}: {exc}"
        if self.on_error != "record":
            raise EpisodeError(case_id, seed, error) from exc
        self.env = make_env(self.spec)
        identity = self.identity or doctor_identity(self.doctor)  # what resuming compares lines against
        return failed_row(identity, self.spec, case_id, seed, error)


_WORKER: _Worker | None = None


def _init_worker(doctor: str, spec_dict: dict[str, Any], suite: Suite | None = None, on_error: str = "stop", parent_pid: int | None = None) -> None:
    global _WORKER
    if parent_pid is not None:  # a pool worker: end with the parent, whatever kills it
        from mentalhospital_env.lifeline import die_with_parent

        die_with_parent(parent_pid)
    spec = EvaluationSpec.from_dict(spec_dict)
    if suite is not None:
        _SUITES[spec.suite] = suite  # the parent's loaded suite, never the file read again
    _WORKER = _Worker(doctor, spec, on_error)


def _run_task(task: tuple[int, str, int]) -> tuple[int, str, dict[str, Any]]:
    """One episode: its index, its ``episodes.jsonl`` line, and its scores for the progress bar.

    An episode that raises ends the run (``on_error="stop"``, as an :class:`EpisodeError` naming the
    episode and the cause) or is written as failed (``"record"``)."""
    assert _WORKER is not None, "worker not initialised"
    index, case_id, seed = task
    try:
        row = run_episode(_WORKER.doctor, _WORKER.spec, case_id, seed, worker=_WORKER)
    except Exception as e:  # noqa: BLE001  (any doctor, patient or scorer failure)
        row = _WORKER.failed(case_id, seed, e)
    return index, episode_line(row), row["scores"]


def failed_row(doctor: str, spec: EvaluationSpec, case_id: str, seed: int, error: str) -> dict[str, Any]:
    """The ``episodes.jsonl`` line of an episode that raised (``on_error="record"``)."""
    case = spec.load_suite()[case_id]
    return {
        "case_id": case_id,
        "seed": seed,
        "doctor": doctor,
        "spec_hash": spec.spec_hash,
        "library": library_fingerprint(),
        "principal_category": _principal_category(case),
        "categories": list(case.diagnosis.categories),
        "failed": True,
        "error": error[:2000],
        "scores": {},
        "record": None,
        "timing": {"started": round(time.time(), 3), "seconds": 0.0},
    }


def make_env(spec: EvaluationSpec) -> Any:
    """The text environment for this spec (``MentalHospital-v0``)."""
    import gymnasium

    import mentalhospital_env.registration  # noqa: F401  (registers the ids)

    from mentalhospital_env.rewards.shaping import RewardConfig

    reward = RewardConfig.dense() if spec.reward == "dense" else RewardConfig.sparse_terminal()
    return gymnasium.make(
        "MentalHospital-v0",
        suite=spec.load_suite(),
        patient_variant=spec.patient_variant,
        patient_backend=spec.patient_backend,
        turn_budget=spec.turn_budget,
        reward_config=reward,
        topic_reader=spec.topic_reader,
    )


def scoring_config(spec: EvaluationSpec) -> Any:
    """The scorers of this spec: the named embedder with the offline clinical adjudicator, and the judge."""
    from mentalhospital_env.rewards.matching import MatcherConfig
    from mentalhospital_env.rewards.scoring import ScoringConfig

    matcher = None if spec.matcher == "hashing" else MatcherConfig(embedder=spec.matcher)
    return ScoringConfig(matcher=matcher, judge=spec.judge)


def flat_scores(scores: Any) -> dict[str, Any]:
    """A ``Scores`` as the flat dict of ``episodes.jsonl``: the ten columns, the CC/MS breakdown, the details."""
    out = scores.to_dict()
    breakdown = out.get("breakdown", {})
    for stage, short in (("interview", "inter"), ("note", "note")):
        groups = breakdown.get(stage, {})
        out[f"{short}_cc"] = groups.get("chief_complaint")
        out[f"{short}_ms"] = groups.get("mental_status")
    precision = (out.get("details") or {}).get("note_precision")  # None when there is no note
    out["note_errors"] = precision.get("errors") if precision else None
    out["note_precision"] = precision.get("precision") if precision else None
    return out


def run_episode(doctor: str, spec: EvaluationSpec, case_id: str, seed: int, *, worker: _Worker | None = None) -> dict[str, Any]:
    """Play one episode and score it; returns the ``episodes.jsonl`` line as a dict."""
    worker = worker or _Worker(doctor, spec)
    worker.prepare()
    env = worker.env
    started = time.time()
    t0 = time.perf_counter()
    policy = worker.factory(worker.argument)
    observation, info = env.reset(seed=seed, options={"case_id": case_id})
    policy.reset(observation, info)
    terminated = truncated = False
    while not (terminated or truncated):
        action = policy.act(observation, info)
        observation, _reward, terminated, truncated, info = env.step(action)
    return episode_row(worker, case_id, seed, env, policy, started, t0)


def episode_row(worker: _Worker, case_id: str, seed: int, env: Any, policy: Any, started: float, t0: float) -> dict[str, Any]:
    """The ``episodes.jsonl`` line of a finished episode: the record, its scores, the doctor's turn log."""
    from mentalhospital_env.rewards.scoring import score_chart

    spec = worker.spec
    record = env.unwrapped.episode_record()
    case = spec.load_suite()[case_id]
    scores = score_chart(case, record.chart, worker.scoring)
    row = {
        "case_id": case_id,
        "seed": seed,
        "doctor": worker.identity,
        "spec_hash": spec.spec_hash,
        "library": library_fingerprint(),
        "principal_category": _principal_category(case),
        "categories": list(case.diagnosis.categories),
        "scores": flat_scores(scores),
        "record": record.to_dict(),
        "timing": {"started": round(started, 3), "seconds": round(time.perf_counter() - t0, 4)},
    }
    log = getattr(policy, "turn_log", None)
    if callable(log):
        row["doctor_log"] = log()
    return row


def _principal_category(case: Any) -> str:
    from mentalhospital_env.knowledge.codes import category_of_code

    return category_of_code(case.diagnosis.principal.code) or case.diagnosis.categories[0]


# ------------------------------------------------------------------------------------- the run itself


def _read_done(path: Path, doctor: str, spec_hash: str, expected: list[tuple[str, int]]) -> set[tuple[str, int]]:
    """The episodes of the spec already finished in ``episodes.jsonl`` (failed ones are not: they are retried).

    A torn last line (a crash in the middle of a write) is cut off. Lines from another doctor or spec,
    of episodes outside this spec, or scored by another version of the library's data
    (:func:`library_fingerprint`) mean the folder belongs to another run: refuse and change nothing.
    Lines that cannot be trusted (damaged, edited: see :mod:`mentalhospital_env.results`) and second
    copies of an episode are set aside in ``episodes.rejected.jsonl``, named on stderr, and replayed;
    every good line, before or after them, is kept.
    """
    if not path.exists():
        return set()
    log = read_log(path)
    if log.torn:
        with open(path, "r+b") as f:
            f.truncate(path.stat().st_size - len(log.torn))
            f.flush()
            os.fsync(f.fileno())
    wanted = set(expected)
    rows = [(n, r) for n, r in log.rows] + [(b.lineno, _lenient(b.raw)) for b in log.bad]
    for n, row in sorted(rows, key=lambda x: x[0]):
        if not isinstance(row, dict):
            continue
        if row.get("doctor") != doctor or row.get("spec_hash") != spec_hash:
            raise EvaluationError(
                f"{path} holds episodes of doctor {row.get('doctor')!r} with spec {row.get('spec_hash')!r}, "
                f"not {doctor!r} with spec {spec_hash!r}: use another --out folder"
            )
        if (row.get("case_id"), row.get("seed")) not in wanted:
            raise EvaluationError(f"{path}:{n}: episode {row.get('case_id')}/{row.get('seed')} is not an episode of this spec")
        if row.get("library") != library_fingerprint():
            raise EvaluationError(
                f"{path}:{n}: episode {row.get('case_id')}/{row.get('seed')} was scored by library data "
                f"{row.get('library')!r}, this installation is {library_fingerprint()!r} (another version of the "
                "lexicon, the scorers or the doctors): resuming would mix two versions in one results file; "
                "use another --out folder, or move this one away and run again"
            )
    standing, _, copies = latest_rows(log)
    if log.bad or copies:
        lines = path.read_bytes().split(b"\n")
        aside = sorted(list(log.bad) + [BadLine(n, "a second copy of an episode", lines[n - 1]) for n in copies], key=lambda b: b.lineno)
        keep = [n for n, _ in log.rows if n not in set(copies)]
        rejected = set_aside(path, aside, keep)
        print(
            f"{path}: set aside {len(aside)} line(s) in {rejected.name} and kept {len(keep)}: "
            + "; ".join(str(b) for b in aside[:10])
            + ("; ..." if len(aside) > 10 else "")
            + " (their episodes are played again)",
            file=sys.stderr,
        )
    return {k for k, r in standing.items() if not r.get("failed")}


def _lenient(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return None


def _append(handle: TextIO, line: str) -> None:
    handle.write(line + "\n")
    handle.flush()
    os.fsync(handle.fileno())


class _Progress:
    """A one-line progress bar on stderr with the running means of the main metrics."""

    def __init__(self, total: int, done: int, enabled: bool, stream: TextIO = sys.stderr):
        self.total, self.done, self.enabled, self.stream = total, done, enabled, stream
        self.sums: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.t0 = time.perf_counter()
        self.start_done = done

    def update(self, scores: dict[str, Any]) -> None:
        self.done += 1
        for key in MAIN_METRICS:
            value = scores.get(key)
            if value is not None:
                self.sums[key] = self.sums.get(key, 0.0) + value
                self.counts[key] = self.counts.get(key, 0) + 1
        if not self.enabled:
            return
        tty = self.stream.isatty() if hasattr(self.stream, "isatty") else False
        step = max(1, self.total // 10)
        if not tty and self.done % step and self.done != self.total:
            return  # in a log file, one line per tenth of the run instead of a redrawn bar
        elapsed = time.perf_counter() - self.t0
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 20
        filled = int(width * self.done / max(1, self.total))
        means = " ".join(
            f"{k}={self.sums[k] / self.counts[k] * (100 if k in OBJECTIVE_METRICS else 1):.{1 if k in OBJECTIVE_METRICS else 2}f}"
            for k in MAIN_METRICS
            if self.counts.get(k)
        )
        line = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} eta {eta:4.0f}s {means}"
        self.stream.write(f"\r{line}" if tty else f"{line}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and hasattr(self.stream, "isatty") and self.stream.isatty():
            self.stream.write("\n")
            self.stream.flush()


def run_evaluation(
    doctor: str,
    spec: EvaluationSpec = LEADERBOARD_SPEC,
    out_dir: str | os.PathLike[str] = "results",
    *,
    workers: int = 1,
    concurrency: int = 1,
    ray: str | bool | None = None,
    progress: bool = True,
    on_error: str = "stop",
) -> dict[str, Any]:
    """Evaluate ``doctor`` (a roster name such as ``scripted``) on ``spec``; returns ``results.json``'s content.

    The folder is locked for the run (a second evaluation into it is refused). ``on_error`` is one of
    :data:`ON_ERROR_POLICIES`: ``stop`` (default) ends the run at the first episode that raises, with an
    :class:`EpisodeError` naming it; ``record`` writes it as failed and goes on.

    ``workers`` processes play episodes in parallel; ``concurrency`` episodes are played at once in
    one process, their doctors' requests in flight together (for doctors served over HTTP: see
    :mod:`mentalhospital_env.concurrency`). The two do not combine. ``ray`` plays them on Ray actors
    instead of processes (``True`` or ``"local"`` for a local Ray, else a cluster address; ``workers``
    actors, or one per cluster CPU when ``workers`` is 1): see :mod:`mentalhospital_env.distributed`.
    Results are the same, byte for byte apart from ``timing``, whatever the choice.
    """
    if on_error not in ON_ERROR_POLICIES:
        raise EvaluationError(f"on_error must be one of {', '.join(ON_ERROR_POLICIES)}, got {on_error!r}")
    if concurrency < 1:
        raise EvaluationError(f"concurrency must be at least 1, got {concurrency}")
    if concurrency > 1 and (workers > 1 or ray):
        raise EvaluationError("--concurrency plays episodes at once in one process; it does not combine with --workers or --ray")
    out = Path(out_dir)
    suite = spec.load_suite()  # loaded once: the hash, this process and every worker use this content
    expected = spec.episodes()
    spec_hash = spec.spec_hash
    with ExitStack() as stack:
        try:
            out.mkdir(parents=True, exist_ok=True)
            stack.enter_context(folder_lock(out))
        except OSError as e:
            raise EvaluationError(f"cannot use {out} as the results folder: {e.strerror or e}") from None
        except ResultsError as e:
            raise EvaluationError(str(e)) from None
        try:
            return _run_locked(doctor, spec, suite, out, expected, spec_hash, workers, concurrency, ray, progress, on_error)
        except OSError as e:
            where = getattr(e, "filename", None) or out
            raise EvaluationError(f"cannot write the results in {out}: {e.strerror or e} ({where})") from None


def _run_locked(
    doctor: str, spec: EvaluationSpec, suite: Suite, out: Path, expected: list[tuple[str, int]], spec_hash: str,
    workers: int, concurrency: int, ray: str | bool | None, progress: bool, on_error: str,
) -> dict[str, Any]:
    episodes_path = out / EPISODES_FILE
    from mentalhospital_env.roster import doctor_identity

    identity = doctor_identity(doctor)
    done = _read_done(episodes_path, identity, spec_hash, expected)
    todo = [(i, cid, seed) for i, (cid, seed) in enumerate(expected) if (cid, seed) not in done]
    bar = _Progress(len(expected), len(expected) - len(todo), progress)
    with open(episodes_path, "a", encoding="utf-8") as handle:
        try:
            if ray and todo:
                from mentalhospital_env.distributed import run_on_ray

                address = None if ray is True or ray == "local" else str(ray)
                _run_in_order(
                    todo, lambda emit: run_on_ray(doctor, spec, todo, workers if workers > 1 else None, address, emit, on_error), handle, bar
                )
            elif concurrency > 1 and len(todo) > 1:
                from mentalhospital_env.concurrency import run_concurrently

                _run_in_order(todo, lambda emit: run_concurrently(doctor, spec, todo, concurrency, emit, on_error), handle, bar)
            elif workers <= 1 or len(todo) <= 1:
                _init_worker(doctor, spec.to_dict(), suite, on_error)
                for task in todo:
                    _, line, scores = _run_task(task)
                    _append(handle, line)
                    bar.update(scores)
            else:
                _run_parallel(doctor, spec, suite, todo, workers, handle, bar, on_error)
        finally:
            bar.close()
    results = summarize_episodes(episodes_path, spec, identity)
    write_json_atomic(out / RESULTS_FILE, results)
    return results


def _run_in_order(todo: list[tuple[int, str, int]], run: Any, handle: TextIO, bar: _Progress) -> None:
    """Call ``run(emit)``, which reports finished episodes as ``emit(index, line, scores)`` in any
    order; write them strictly in the order of ``todo``."""
    pending: dict[int, tuple[str, dict[str, Any]]] = {}
    order = [index for index, _, _ in todo]
    state = {"position": 0}

    def emit(index: int, line: str, scores: dict[str, Any]) -> None:
        pending[index] = (line, scores)
        while state["position"] < len(order) and order[state["position"]] in pending:
            line_, scores_ = pending.pop(order[state["position"]])
            _append(handle, line_)
            bar.update(scores_)
            state["position"] += 1

    run(emit)


def _run_parallel(
    doctor: str, spec: EvaluationSpec, suite: Suite, todo: list[tuple[int, str, int]], workers: int, handle: TextIO,
    bar: _Progress, on_error: str,
) -> None:
    """Run episodes in worker processes (handed the loaded suite; each ends with this process);
    write finished ones strictly in the order of ``todo``."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    pending: dict[int, tuple[str, dict[str, Any]]] = {}
    order = [index for index, _, _ in todo]
    position = 0
    queue = iter(todo)
    initargs = (doctor, spec.to_dict(), suite, on_error, os.getpid())
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=initargs) as pool:
        running: set[Future] = set()
        try:
            for task in _take(queue, workers * 2):
                running.add(pool.submit(_run_task, task))
            while running:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    index, line, scores = future.result()
                    pending[index] = (line, scores)
                while position < len(order) and order[position] in pending:
                    line, scores = pending.pop(order[position])
                    _append(handle, line)
                    bar.update(scores)
                    position += 1
                for task in _take(queue, len(finished)):
                    running.add(pool.submit(_run_task, task))
        except BaseException:
            for future in running:
                future.cancel()
            raise


def _take(iterator: Iterator[Any], n: int) -> list[Any]:
    out = []
    for _ in range(n):
        try:
            out.append(next(iterator))
        except StopIteration:
            break
    return out


# ---------------------------------------------------------------------------------------- summaries


def read_episodes(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The finished episodes of an ``episodes.jsonl``, in file order (failed ones and a torn last line
    left out). A damaged or edited line, or an episode written twice, raises :class:`EvaluationError`
    naming the lines: such a file is never half-read."""
    log = read_log(Path(path))
    standing, duplicates, _ = latest_rows(log)
    if log.bad or duplicates:
        problems = ([log.describe_bad()] if log.bad else []) + duplicates[:10]
        raise EvaluationError(
            " | ".join(problems) + ". Run the evaluation again with the same arguments to set these lines aside and replay them"
        )
    rows = {id(r) for r in standing.values()}
    return [r for _, r in log.rows if id(r) in rows and not r.get("failed")]


def summarize_episodes(path: Path, spec: EvaluationSpec, doctor: str) -> dict[str, Any]:
    """``results.json``'s content from the episodes file (episodes in the spec's order; failed ones counted apart)."""
    log = read_log(path)
    standing, duplicates, _ = latest_rows(log)
    if log.bad or duplicates:
        raise EvaluationError(" | ".join(([log.describe_bad()] if log.bad else []) + duplicates[:10]))
    expected = spec.episodes()
    ordered = [standing[key] for key in expected if key in standing]
    failed = [r for r in ordered if r.get("failed")]
    rows = [r for r in ordered if not r.get("failed")]
    metrics = {m: summarize(r["scores"].get(m) for r in rows).to_dict() for m in MAIN_METRICS + BREAKDOWN_METRICS + BEYOND_METRICS}
    by_category: dict[str, dict[str, Any]] = {}
    for category in sorted({r["principal_category"] for r in rows}):
        subset = [r for r in rows if r["principal_category"] == category]
        by_category[category] = {
            "n": len(subset),
            **{m: summarize(r["scores"].get(m) for r in subset).to_dict() for m in MAIN_METRICS},
        }
    suite_path = Path(spec.suite)
    return {
        "doctor": doctor,
        "spec": spec.to_dict(),
        "spec_hash": spec.spec_hash,
        "suite_info": suite_info(spec),
        "n_episodes": len(rows),
        "n_expected": len(expected),
        "n_failed": len(failed),
        "failed": [{"case_id": r["case_id"], "seed": r["seed"], "error": r.get("error")} for r in failed],
        "complete": len(rows) == len(expected),
        "episodes_sha256": file_digest(path),
        "suite_path": str(suite_path.resolve()) if suite_path.exists() else None,
        "metrics": metrics,
        "by_category": by_category,
        "versions": versions(),
        "library": library_fingerprint(),
        "git_commit": git_commit(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def suite_info(spec: EvaluationSpec) -> dict[str, Any]:
    """Which suite a result was measured on: its name, size and the generator version that wrote it
    (``"hand-written"`` for records written by hand, ``"mixed"`` when a file holds several)."""
    suite = spec.load_suite()
    found: set[str] = set()
    for case in suite:
        source = dict(case.source or {})
        if "version" in source and source.get("generator"):
            found.add(f"generator v{source['version']}")
        elif source.get("author"):
            found.add("hand-written")
        else:
            found.add("unknown")
    kind = found.pop() if len(found) == 1 else "mixed"
    return {"name": spec.suite, "cases": len(suite), "version": kind, "label": f"{spec.suite} ({kind}, {len(suite)} cases)"}


def versions() -> dict[str, str | None]:
    """Versions of Python and of the packages that shape the results."""
    from importlib import metadata

    out: dict[str, str | None] = {"python": platform.python_version()}
    for dist in ("mentalhospital-env", "gymnasium", "pettingzoo", "numpy", "torch", "transformers", "sentence-transformers"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


def git_commit() -> str | None:
    """The commit of the source tree this package runs from, when it is a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


#: the packages whose data files shape an episode: the clinic's knowledge, the patient, the hospital's
#: menu, the case generator (bundled suites excluded: the cases are in the spec hash), the scorers and the
#: built-in doctors. ``rewards`` and ``agents`` are hashed as their own packages whatever the install layout.
_DATA_PACKAGES = ("mentalhospital_env", "mentalhospital_env.rewards", "mentalhospital_env.agents")
_NOT_DATA = {"__pycache__", "suites", "rewards", "agents"}


@lru_cache(maxsize=1)
def library_fingerprint() -> str:
    """What scored an episode: SHA-256 (16 hex digits) of the package version and of every JSON data
    file the library ships (lexicon, cues, presentations, exams, drugs, menu, rubrics, thresholds, the
    scripted clinician's plan; not the case suites, which the spec hash covers).

    Written on every episode line and in ``results.json``; resuming a run into a folder whose episodes
    carry another fingerprint is refused, so one results file never mixes two versions of the scorers.
    A change to code alone, within one version, is not seen here: ``results.json`` records the git commit.
    """
    from importlib import metadata, resources

    digest = hashlib.sha256()
    try:
        digest.update(metadata.version("mentalhospital-env").encode())
    except metadata.PackageNotFoundError:
        digest.update(b"unknown-version")

    def walk(node: Any, prefix: str) -> Iterator[tuple[str, Any]]:
        for child in node.iterdir():
            if child.is_dir():
                if child.name not in _NOT_DATA:
                    yield from walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith((".json", ".jsonl")):
                yield f"{prefix}{child.name}", child

    files = sorted(
        (name, node) for package in _DATA_PACKAGES for name, node in walk(resources.files(package), f"{package}/")
    )
    for name, node in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256(node.read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_json_atomic(path: Path, payload: Any) -> None:
    """Write JSON to a temporary file beside ``path`` and rename it over ``path``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(payload, f, indent=2, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_results(path: str | os.PathLike[str], *, allow_incomplete: bool = True) -> dict[str, Any]:
    """A ``results.json`` (or the folder holding one), checked before it is used.

    A file that is not a results object, or that does not match the ``episodes.jsonl`` beside it (a
    damaged or edited line, an episode twice, another episode count or digest), raises
    :class:`EvaluationError` saying what and where. An incomplete run (``complete`` false: interrupted,
    or failed episodes) is returned with ``"_incomplete"`` set to a short description, which the tables
    and the report show; ``allow_incomplete=False`` refuses it instead.
    """
    p = Path(path)
    if p.is_dir():
        p = p / RESULTS_FILE
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise EvaluationError(f"no results file at {p}") from None
    except OSError as e:
        raise EvaluationError(f"cannot read {p}: {e.strerror}") from None
    try:
        results = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise EvaluationError(f"{p} is not UTF-8 text ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise EvaluationError(f"{p} is not valid JSON: {e.msg} at line {e.lineno}") from None
    except (ValueError, RecursionError):
        raise EvaluationError(f"{p} is not a results file (nested too deeply or a number too long)") from None
    check = check_results(results, p, EPISODES_FILE)
    if check.problems:
        raise EvaluationError(f"{p} cannot be trusted: " + " | ".join(check.problems))
    if check.incomplete:
        if not allow_incomplete:
            raise EvaluationError(f"{p}: {check.incomplete}; finish the run (run the same command again) before using it")
        results["_incomplete"] = check.incomplete
    return results


def with_overrides(spec: EvaluationSpec, **changes: Any) -> EvaluationSpec:
    """A copy of ``spec`` with the given fields changed (``None`` values are ignored)."""
    return replace(spec, **{k: v for k, v in changes.items() if v is not None})


__all__: Sequence[str] = (
    "BEYOND_METRICS",
    "BREAKDOWN_METRICS",
    "EpisodeError",
    "EvaluationError",
    "ON_ERROR_POLICIES",
    "EvaluationSpec",
    "LEADERBOARD_SPEC",
    "MAIN_METRICS",
    "OBJECTIVE_METRICS",
    "SUBJECTIVE_METRICS",
    "library_fingerprint",
    "load_results",
    "suite_info",
    "read_episodes",
    "run_episode",
    "run_evaluation",
    "with_overrides",
)
