"""The synthetic case generator: realistic psychiatric EHR cases from the knowledge base.

* ``generate_case(rng, case_id)``: one case mapping (CASES.md), checked by the loader and by
  :func:`mentalhospital_env.cases.consistency.check_case`; a draw that fails is redrawn.
* ``generate_cases(n, seed, prefix="case")``: ``n`` cases, deterministic under ``seed``. When ``n``
  is at least twice the number of disorders, every disorder is principal at least once and the rest
  follow the service weights; otherwise principals are drawn by service weight.
* ``write_cases(out, n, seed)``: the same as JSON Lines to a path or ``"-"`` (standard output);
  ``mentalhospital cases generate`` calls it.

Generated cases carry their facts (with the patient's lay words and the sensitive flag) but, by
default, not their checkpoints: the loader derives checkpoints from the facts with the grouping of
``cases/derive.py``, which is exactly what the generator would write, and leaving them out halves
the size of a suite file. ``with_checkpoints=True`` writes them anyway.

Each case gets its own random stream, seeded by ``(seed, index)``, and the principal disorders are
planned from ``(seed, n)``: the same seed and ``n`` always give byte-identical output.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any, Sequence

from ..errors import CaseError
from ..loader import validate_case
from ..reference import ClinicalReference
from .composer import GENERATOR_NAME, GENERATOR_VERSION, CaseComposer, CompositionError

MAX_ATTEMPTS = 30

__all__ = [
    "GENERATOR_NAME",
    "GENERATOR_VERSION",
    "GenerationError",
    "case_line",
    "generate_case",
    "generate_cases",
    "plan_principals",
    "write_cases",
]


class GenerationError(RuntimeError):
    """No valid, consistent case could be drawn (names the case id and the last problems found)."""


_COMPOSERS: dict[int, tuple[ClinicalReference, CaseComposer]] = {}


def _composer(reference: ClinicalReference | None) -> tuple[ClinicalReference, CaseComposer]:
    ref = reference if reference is not None else ClinicalReference.bundled()
    found = _COMPOSERS.get(id(ref))
    if found is None or found[0] is not ref:
        found = (ref, CaseComposer(ref))
        _COMPOSERS[id(ref)] = found
    return found


def generate_case(
    rng: random.Random,
    case_id: str,
    *,
    principal: str | None = None,
    reference: ClinicalReference | None = None,
    with_checkpoints: bool = False,
) -> dict[str, Any]:
    """One synthetic case as a JSON-ready mapping that passes the loader and the consistency checks.

    ``principal`` fixes the principal disorder's ICD-10-CM code; ``reference`` replaces the bundled
    knowledge base (tests pass a small one); ``with_checkpoints`` writes the derived checkpoints into
    the mapping.
    """
    from ..consistency import check_case

    ref, composer = _composer(reference)
    problems: list[str] = []
    for _ in range(MAX_ATTEMPTS):
        try:
            raw = composer.compose(rng, case_id, principal)
        except CompositionError as e:
            problems = [str(e)]
            continue
        try:
            case = validate_case(raw, where=case_id)
        except CaseError as e:  # a composer bug: never hand out a case the loader refuses
            raise GenerationError(f"generated case {case_id!r} breaks the case format: {e}") from e
        problems = check_case(case, ref)
        if not problems:
            if with_checkpoints:
                raw["checkpoints"] = case.checkpoints.to_dict()
                raw["source"] = raw.pop("source")  # keep the key order of CASES.md
            return raw
    raise GenerationError(f"no consistent case {case_id!r} in {MAX_ATTEMPTS} draws; last problems: {'; '.join(problems)}")


def plan_principals(n: int, seed: int, reference: ClinicalReference | None = None) -> list[str]:
    """The principal disorder of each of ``n`` cases: every disorder at least once when ``n`` allows
    (two cases per disorder or more), the rest in proportion to service weight, in seeded order."""
    _, composer = _composer(reference)
    codes, weights = list(composer.codes), list(composer.weights)
    if n < 2 * len(codes):  # drawn one by one from the seed alone: a longer run extends a shorter one
        rng = random.Random(f"principals:{seed}")
        return rng.choices(codes, weights=weights, k=n)
    rng = random.Random(f"principals:{seed}:{n}")
    total = sum(weights)
    spare = n - len(codes)
    shares = [spare * w / total for w in weights]
    counts = [1 + int(s) for s in shares]
    remainders = sorted(range(len(codes)), key=lambda i: (-(shares[i] - int(shares[i])), codes[i]))
    for i in remainders[: n - sum(counts)]:
        counts[i] += 1
    plan = [c for c, k in zip(codes, counts) for _ in range(k)]
    rng.shuffle(plan)
    return plan


def generate_cases(
    n: int,
    seed: int,
    prefix: str = "case",
    *,
    reference: ClinicalReference | None = None,
    principals: Sequence[str] | None = None,
    with_checkpoints: bool = False,
) -> list[dict[str, Any]]:
    """``n`` synthetic cases with ids ``<prefix>-0001`` ..., deterministic under ``seed``."""
    if n < 0:
        raise ValueError("n must be zero or more")
    plan = list(principals) if principals is not None else plan_principals(n, seed, reference)
    width = max(4, len(str(n)))
    out = []
    for i in range(n):
        case_id = f"{prefix}-{i + 1:0{width}d}"
        rng = random.Random(f"case:{seed}:{i}")
        raw = generate_case(rng, case_id, principal=plan[i], reference=reference, with_checkpoints=with_checkpoints)
        raw["source"] = {**raw["source"], "seed": seed, "index": i}
        out.append(raw)
    return out


def case_line(case: dict[str, Any]) -> str:
    """One case as a JSON Lines line (compact, key order kept, UTF-8 text)."""
    return json.dumps(case, ensure_ascii=False, separators=(",", ":"))


def write_cases(out: str | Path, n: int, seed: int, prefix: str = "case") -> int:
    """Write ``n`` cases as JSON Lines to ``out`` (a path, or ``"-"`` for standard output); returns ``n``."""
    cases = generate_cases(n, seed, prefix)
    text = "".join(case_line(c) + "\n" for c in cases)
    if str(out) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(out).write_text(text, encoding="utf-8")
    return len(cases)
