"""The integrity of a results folder: one writer at a time, a checksum on every episode line, and
readers that either get the truth or are told exactly what is wrong.

* :func:`folder_lock`: an exclusive ``fcntl`` lock on ``DIR/.lock`` for the whole of a run; a second
  evaluation into the same folder is refused at once. The kernel drops the lock when the holder
  exits or is killed, so a crash never leaves the folder locked.
* :func:`episode_line`: an ``episodes.jsonl`` line with its ``checksum`` (SHA-256 of the line's other
  content, canonical JSON). A line edited by hand or damaged on disk no longer matches. The checksum
  is not a signature: whoever rewrites a line and recomputes its checksum is not caught here, but the
  file's digest in ``results.json`` still changes.
* :func:`read_log`: every line of an ``episodes.jsonl``, each either a good row or a :class:`BadLine`
  naming its line number and what is wrong (not UTF-8, not JSON, not an object, nested too deeply,
  checksum mismatch, no checksum); good lines after a bad one are kept. A torn last line (no newline:
  a write cut short) is reported apart.
* :func:`check_results`: whether a ``results.json`` can be trusted: its keys, its ``complete`` flag,
  and (when the episodes are beside it) that the episodes file is the one it was computed from, with
  no bad line and no episode twice.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

LOCK_FILE = ".lock"
REJECTED_FILE = "episodes.rejected.jsonl"
CHECKSUM_KEY = "checksum"
#: the keys every ``results.json`` has (a file without one of them is refused, not half-read)
RESULTS_KEYS = ("doctor", "spec", "spec_hash", "n_episodes", "complete", "metrics")


class ResultsError(RuntimeError):
    """A results folder cannot be used as asked (locked, damaged, inconsistent); the message says
    which file, which line and what to do. :class:`~mentalhospital_env.evaluation.EvaluationError`
    derives from it."""


# ------------------------------------------------------------------------------------------- lock


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold ``folder/.lock`` exclusively (non-blocking) for the duration; refuse if another process holds it."""
    import fcntl

    path = folder / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "another process"
            raise ResultsError(
                f"{folder} is in use by another evaluation (pid {holder}); wait for it to finish or use another --out folder"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


# ---------------------------------------------------------------------------------------- lines


def _canonical(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def episode_line(row: dict[str, Any]) -> str:
    """The ``episodes.jsonl`` line of ``row`` (no newline): canonical JSON with its checksum."""
    body = {k: v for k, v in row.items() if k != CHECKSUM_KEY}
    return _canonical({**body, CHECKSUM_KEY: _digest(_canonical(body))})


@dataclass(frozen=True)
class BadLine:
    """A line that cannot be trusted: its number (from 1), what is wrong, and its bytes."""

    lineno: int
    problem: str
    raw: bytes = field(repr=False)

    def __str__(self) -> str:
        return f"line {self.lineno}: {self.problem}"


@dataclass
class EpisodeLog:
    """An ``episodes.jsonl`` read line by line: good rows with their line numbers, bad lines, a torn tail."""

    path: Path
    rows: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    bad: list[BadLine] = field(default_factory=list)
    torn: bytes = b""

    def describe_bad(self, limit: int = 10) -> str:
        shown = "; ".join(str(b) for b in self.bad[:limit])
        more = f"; and {len(self.bad) - limit} more" if len(self.bad) > limit else ""
        return f"{self.path}: {len(self.bad)} bad line(s): {shown}{more}"


def _check_row(line: bytes) -> dict[str, Any] | str:
    """The row of one line, or what is wrong with it."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"not UTF-8 ({e.reason} at byte {e.start})"
    try:
        row = json.loads(text)
    except RecursionError:
        return "nested too deeply to read"
    except ValueError as e:
        return f"not valid JSON ({getattr(e, 'msg', e)})"
    if not isinstance(row, dict):
        return f"not an episode object (a JSON {type(row).__name__})"
    stored = row.pop(CHECKSUM_KEY, None)
    if stored is None:
        return "no checksum (written by hand or by an older version)"
    try:
        expected = _digest(_canonical(row))
    except (ValueError, RecursionError):
        return "nested too deeply to check"
    if stored != expected:
        return "checksum mismatch: the line was changed after it was written"
    return row


def read_log(path: Path) -> EpisodeLog:
    """Every line of ``path``, split on ``\\n`` only and read one at a time; a good line after a bad one
    is still good."""
    log = EpisodeLog(Path(path))
    with open(path, "rb") as f:
        for lineno, line in enumerate(f, 1):
            if not line.endswith(b"\n"):
                log.torn = line
                break
            if not line.strip():
                continue
            checked = _check_row(line[:-1])
            if isinstance(checked, str):
                log.bad.append(BadLine(lineno, checked, line[:-1]))
            else:
                log.rows.append((lineno, checked))
    return log


def episode_key(row: dict[str, Any]) -> tuple[Any, Any]:
    return (row.get("case_id"), row.get("seed"))


def latest_rows(log: EpisodeLog) -> tuple[dict[tuple[Any, Any], dict[str, Any]], list[str], list[int]]:
    """The row standing for each episode, the inconsistencies found, and the line numbers of the
    copies that do not stand.

    A failed episode may be followed by its retry (the retry stands); an episode that succeeded twice
    is an inconsistency (two runs wrote into one folder), as is a failure after a success.
    """
    standing: dict[tuple[Any, Any], tuple[int, dict[str, Any]]] = {}
    problems: list[str] = []
    extra: list[int] = []
    for lineno, row in log.rows:
        key = episode_key(row)
        before = standing.get(key)
        if before is not None and not before[1].get("failed"):
            problems.append(f"{log.path}: episode {key[0]}/seed {key[1]} appears twice (lines {before[0]} and {lineno})")
            extra.append(lineno)
            continue
        standing[key] = (lineno, row)
    return {k: r for k, (_, r) in standing.items()}, problems, extra


def file_digest(path: Path) -> str:
    """SHA-256 (32 hex digits) of a file's complete lines (a torn tail is not part of the record)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for line in f:
            if line.endswith(b"\n"):
                digest.update(line)
    return digest.hexdigest()[:32]


def set_aside(path: Path, bad: list[BadLine], keep: list[int]) -> Path:
    """Move ``bad`` lines to ``episodes.rejected.jsonl`` beside ``path`` and rewrite ``path`` with the
    lines numbered in ``keep`` only (atomically: a temporary file renamed over it)."""
    rejected = path.with_name(REJECTED_FILE)
    with open(rejected, "ab") as f:
        for b in bad:
            f.write(b.raw.rstrip(b"\n") + b"\n")
        f.flush()
        os.fsync(f.fileno())
    wanted = set(keep)
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "wb") as f:
        for lineno, line in enumerate(lines, 1):
            if lineno in wanted:
                f.write(line + b"\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return rejected


# -------------------------------------------------------------------------------------- results


@dataclass
class ResultsCheck:
    """What :func:`check_results` found: ``problems`` make the results untrustworthy; ``incomplete``
    says the run did not finish (or has failed episodes): readable, but to be flagged."""

    problems: list[str] = field(default_factory=list)
    incomplete: str | None = None


def _number(x: Any) -> bool:
    return x is None or (isinstance(x, (int, float)) and not isinstance(x, bool))


def _count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _summary_problem(summary: Any) -> str | None:
    """What is wrong with one metric's summary (``{"mean", "se", "ci95", "n"}``), or ``None``."""
    if summary is None:
        return None
    if not isinstance(summary, dict):
        return "must be an object"
    for key in ("mean", "se"):
        if not _number(summary.get(key)):
            return f"{key} must be a number or null"
    ci = summary.get("ci95")
    if ci is not None and not (isinstance(ci, list) and len(ci) == 2 and all(_number(x) for x in ci)):
        return "ci95 must be two numbers"
    return None


def check_results(results: Any, path: Path, episodes_file: str) -> ResultsCheck:
    """Check a parsed ``results.json`` read from ``path`` (and the episodes beside it, when present)."""
    check = ResultsCheck()
    folder = path.parent
    if not isinstance(results, dict):
        check.problems.append(f"{path} is not a results object (a JSON {type(results).__name__})")
        return check
    missing = [k for k in RESULTS_KEYS if k not in results]
    if missing:
        check.problems.append(f"{path} lacks {', '.join(missing)}: not a results file of this library")
        return check
    if not isinstance(results["metrics"], dict) or not isinstance(results["spec"], dict):
        check.problems.append(f"{path}: 'metrics' and 'spec' must be objects")
        return check
    if not _count(results["n_episodes"]) or not isinstance(results["complete"], bool):
        check.problems.append(f"{path}: 'n_episodes' must be a count and 'complete' true or false")
        return check
    for metric, summary in results["metrics"].items():
        problem = _summary_problem(summary)
        if problem:
            check.problems.append(f"{path}: metrics.{metric} {problem}")
            return check
    failed = results.get("n_failed") or 0
    if results.get("complete") is not True:
        expected = results.get("n_expected")
        of = f" of {expected}" if isinstance(expected, int) else ""
        check.incomplete = f"incomplete: {results['n_episodes']}{of} episodes" + (f", {failed} failed" if failed else "")
    episodes = folder / episodes_file
    if not episodes.exists():
        return check
    log = read_log(episodes)
    if log.bad:
        check.problems.append(log.describe_bad())
    standing, duplicates, _ = latest_rows(log)
    check.problems.extend(duplicates[:10])
    stored = results.get("episodes_sha256")
    if stored is None:
        check.problems.append(f"{path} has no episodes_sha256: written by an older version; run the evaluation again to rewrite it")
    elif stored != file_digest(episodes):
        check.problems.append(
            f"{episodes} is not the file {path} was computed from (changed since); "
            "run the evaluation again with the same arguments to recompute it"
        )
    good = sum(1 for r in standing.values() if not r.get("failed"))
    if not log.bad and not duplicates and good != results["n_episodes"]:
        check.problems.append(f"{path} says {results['n_episodes']} episodes, {episodes} holds {good}")
    return check


__all__ = [
    "BadLine",
    "EpisodeLog",
    "ResultsCheck",
    "ResultsError",
    "check_results",
    "episode_line",
    "file_digest",
    "folder_lock",
    "latest_rows",
    "read_log",
    "set_aside",
]
