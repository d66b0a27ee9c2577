"""Rebuild the bundled generated suites from their fixed seeds and generator versions.

``python -m mentalhospital_env.cases.generator.suites dev`` rewrites ``cases/suites/dev.jsonl``.
``dev`` and ``test`` are generator version 1 (kept so that earlier results stay reproducible);
``dev-v2`` and ``test-v2`` are version 2, written to pass the clinical audit with zero findings.
The frozen suites (``test``, ``test-v2``, ``dev-v2``) are pinned by SHA-256 in
``tests/test_suites.py``: rebuilding one is a deliberate act (``--force``) that must come with a new
checksum and a note in the change log.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from ..loader import bundled_suite_path
from . import case_line, generate_cases

# name -> (seed, number of cases); the seeds differ, so no case of one suite is drawn from the
# random stream of a case of another.
SUITE_SEEDS: dict[str, tuple[int, int]] = {
    "dev": (20261129, 240), "test": (20261130, 480), "dev-v2": (20261201, 240), "test-v2": (20261202, 480),
}
# name -> generator version
SUITE_VERSIONS: dict[str, int] = {"dev": 1, "test": 1, "dev-v2": 2, "test-v2": 2}
FROZEN = ("test", "test-v2", "dev-v2")


def suite_text(name: str) -> str:
    """The JSON Lines text of a generated bundled suite, as the generator writes it today."""
    seed, n = SUITE_SEEDS[name]
    cases = generate_cases(n, seed, prefix=name, version=SUITE_VERSIONS[name])
    return "".join(case_line(c) + "\n" for c in cases)


def build_suite(name: str, *, force: bool = False) -> Path:
    """Write a generated bundled suite; refuses a frozen one unless ``force``."""
    if name not in SUITE_SEEDS:
        raise ValueError(f"{name!r} is not a generated suite; choose from {', '.join(SUITE_SEEDS)}")
    if name in FROZEN and not force:
        raise PermissionError(f"suite {name!r} is frozen; pass --force and update its checksum in tests/test_suites.py")
    path = bundled_suite_path(name)
    path.write_text(suite_text(name), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+", choices=sorted(SUITE_SEEDS))
    parser.add_argument("--force", action="store_true", help="also rebuild frozen suites")
    args = parser.parse_args(argv)
    for name in args.names:
        path = build_suite(name, force=args.force)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"{name}: {path} sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
