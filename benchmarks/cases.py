"""Case throughput: load+validate of a 10,000-case JSON Lines file, and generation.

    python benchmarks/cases.py                 # 10,000 cases loaded, 300 generated
    python benchmarks/cases.py --load 20000 --generate 1000

The load file is built from the bundled ``test`` suite, its cases repeated under new ids until it
holds ``--load`` cases (they are generated cases; generating 10,000 fresh ones would only make the
benchmark slow). Both figures are printed per wall-clock second and per CPU second of this process:
on a shared machine the CPU figure is the one that stands for "one core". Targets: 5,000 cases/s
loaded, 200 cases/s generated.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from mentalhospital_env.cases import load_suite
from mentalhospital_env.cases.generator import case_line, generate_cases
from mentalhospital_env.cases.loader import bundled_suite_path

LOAD_TARGET = 5000.0
GENERATE_TARGET = 200.0


def build_load_file(path: Path, n: int) -> int:
    """Write ``n`` generated cases (the bundled test suite repeated under fresh ids); returns bytes."""
    lines = bundled_suite_path("test").read_text(encoding="utf-8").splitlines()
    out = []
    for i in range(n):
        case = json.loads(lines[i % len(lines)])
        case["case_id"] = f"bench-{i:06d}"
        out.append(json.dumps(case, ensure_ascii=False, separators=(",", ":")))
    text = "\n".join(out) + "\n"
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=int, default=10_000, help="cases in the load file (default 10,000)")
    parser.add_argument("--generate", type=int, default=300, help="cases to generate (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="load runs; the best is reported (default 3)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl"
        size = build_load_file(path, args.load)
        best = None
        for _ in range(args.repeat):
            suite, wall, cpu = timed(lambda: load_suite(path))
            assert len(suite) == args.load
            if best is None or cpu < best[1]:
                best = (wall, cpu)
        wall, cpu = best
        print(f"load+validate: {args.load} cases, {size / 1e6:.1f} MB, {size / args.load / 1e3:.1f} kB/case")
        print(f"  {args.load / wall:8.0f} cases/s wall   {args.load / cpu:8.0f} cases/s CPU   (target {LOAD_TARGET:.0f})")

    generate_cases(20, seed=99, prefix="warm")  # load the knowledge base and warm the caches
    cases, wall, cpu = timed(lambda: generate_cases(args.generate, seed=12345, prefix="bench"))
    assert len(cases) == args.generate
    json_bytes = sum(len(case_line(c)) for c in cases)
    print(f"generate (with loader and consistency checks): {args.generate} cases, {json_bytes / args.generate / 1e3:.1f} kB/case")
    print(f"  {args.generate / wall:8.0f} cases/s wall   {args.generate / cpu:8.0f} cases/s CPU   (target {GENERATE_TARGET:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
