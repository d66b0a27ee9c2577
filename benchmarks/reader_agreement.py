"""How well the exam's lints agree with a reader (issue 13): the reader-labelled replies of
``benchmarks/data/patient_exam/reader/labels.jsonl`` against :class:`exam_grading.Lints`.

    python benchmarks/reader_agreement.py              # both halves, per flag
    python benchmarks/reader_agreement.py --show held_out
    python benchmarks/reader_agreement.py --blind      # the stop-24 blind readers' codes
    python benchmarks/reader_agreement.py --blind --show-blind unnatural

Each labelled reply carries the reader's flags (``off_subject``, ``stock_tail``,
``medical_history``, ``record_voice``); each lint finding maps to one flag by its name. Per flag and
half, the table gives true positives, false positives, false negatives, precision and recall, and
the share of replies where the reader and the lints agree on that flag. The ``tune`` half was read
while writing the lints; the ``held_out`` half was not, and its figures are the estimate.

``--blind`` scores the lints against codes nobody writing the lints made: two blind readers coded
every reply of six whole interviews (stop 24; ``reader/blind/``: ``blind-*.txt`` transcripts,
``codes-*.jsonl`` one code per turn, fine / unnatural / not answering / wrong, with a reason;
``records-*.txt`` the records they read). The files are frozen copies. Per reader code the table
gives how many replies any lint flags: recall on ``unnatural`` and ``wrong``, false flags on
``fine``. Both readers' codes were read while writing the stop-25 lints (tacked on, fragments,
self-contradiction, templates): these figures are a tuning set's, not a held-out estimate.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exam_grading import DATA, Lints  # noqa: E402

LABELS = DATA / "reader" / "labels.jsonl"
BLIND = DATA / "reader" / "blind"
CODES = ("fine", "unnatural", "not answering", "wrong")
_HEADER = re.compile(r"===== (\S+) transcript (\S+)\s*$")
_DOCTOR = re.compile(r"\s*(\d+) D: (.*)$")
_PATIENT = re.compile(r"\s+P: (.*)$")
FLAGS = ("off_subject", "stock_tail", "medical_history", "record_voice")
PREFIX = {"off subject": "off_subject", "stock tail": "stock_tail", "medical history": "medical_history", "record voice": "record_voice"}


def flags_of(findings: list[str]) -> set[str]:
    out = set()
    for f in findings:
        head = f.split(":", 1)[0]
        if head in PREFIX:
            out.add(PREFIX[head])
    return out


def load_cases(rows: list[dict]) -> dict[str, dict]:
    from mentalhospital_env.cases import load_suite

    cases: dict[str, dict] = {}
    for suite in sorted({r["suite"] for r in rows}):
        wanted = {r["case_id"] for r in rows if r["suite"] == suite}
        cases.update({c.case_id: c.to_dict() for c in load_suite(suite).cases if c.case_id in wanted})
    return cases


def parse_transcripts(text: str) -> list[dict]:
    """The turns of a blind transcript file: ``===== RECORD transcript X`` opens an interview, ``N D:``
    is the doctor's turn N and the ``P:`` line after it the patient's reply. Other lines are skipped."""
    turns: list[dict] = []
    record = transcript = None
    pending: dict | None = None
    for line in text.splitlines():
        if m := _HEADER.match(line):
            record, transcript, pending = m.group(1), m.group(2), None
        elif (m := _DOCTOR.match(line)) and record is not None:
            pending = {"record": record, "transcript": transcript, "turn": int(m.group(1)), "doctor": m.group(2).strip()}
        elif (m := _PATIENT.match(line)) and pending is not None:
            turns.append({**pending, "patient": m.group(1).strip()})
            pending = None
    return turns


def parse_records(text: str) -> dict[str, dict]:
    """The records the blind readers read, as the grader's case dicts: ``===== RECORD id`` opens one,
    ``[section.sub] text`` is a field of its ``ehr``."""
    cases: dict[str, dict] = {}
    case: dict | None = None
    for line in text.splitlines():
        if m := re.match(r"===== RECORD (\S+)", line):
            case = cases.setdefault(m.group(1), {"case_id": m.group(1), "ehr": {}})
        elif (m := re.match(r"\[([\w.]+)\] (.*)$", line)) and case is not None:
            case["ehr"][m.group(1)] = m.group(2)
    return cases


def load_blind(folder: Path = BLIND) -> tuple[list[dict], dict[str, dict]]:
    """Every coded reply of the blind readers, with its doctor's question and patient's reply."""
    rows: list[dict] = []
    cases: dict[str, dict] = {}
    for codes in sorted(folder.glob("codes-*.jsonl")):
        tag = codes.stem.split("-", 1)[1]
        turns = {(t["record"], t["transcript"], t["turn"]): t for t in parse_transcripts((folder / f"blind-{tag}.txt").read_text(encoding="utf-8"))}
        cases.update(parse_records((folder / f"records-{tag}.txt").read_text(encoding="utf-8")))
        for line in codes.read_text(encoding="utf-8").splitlines():
            if line.strip():
                c = json.loads(line)
                rows.append({**turns[(c["record"], c["transcript"], c["turn"])], "code": c["code"], "note": c.get("note", ""), "reader": tag})
    return rows, cases


def blind_table(rows: list[dict]) -> str:
    """Per reader code: replies, replies any lint flags, and that share."""
    lines = [f"{'reader code':<15}{'replies':>8}{'flagged':>9}{'share %':>9}"]
    for code in CODES:
        part = [r for r in rows if r["code"] == code]
        hit = sum(bool(r["found"]) for r in part)
        lines.append(f"{code:<15}{len(part):>8}{hit:>9}{100 * hit / max(1, len(part)):>9.1f}")
    bad = [r for r in rows if r["code"] in ("unnatural", "wrong")]
    lines.append(f"{'unnat.+wrong':<15}{len(bad):>8}{sum(bool(r['found']) for r in bad):>9}{100 * sum(bool(r['found']) for r in bad) / max(1, len(bad)):>9.1f}")
    kinds: dict[str, list[int]] = {}
    for r in rows:
        for head in sorted({f.split(":", 1)[0] for f in r["found"]}):
            kinds.setdefault(head, [0, 0])[r["code"] == "fine"] += 1
    lines.append("by lint (flags on not-fine / on fine): " + "; ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(kinds.items())))
    return "\n".join(lines)


def blind_main(folder: Path, show: str | None) -> int:
    rows, cases = load_blind(folder)
    lints = Lints()
    said: dict[tuple[str, str, str], list[str]] = {}
    for r in sorted(rows, key=lambda r: r["turn"]):  # each transcript's earlier replies (repeated_earlier, stop 61)
        key = (r["reader"], r["record"], r["transcript"])
        r["found"] = lints.check(r["patient"], r["doctor"], cases[r["record"]], earlier=said.get(key, []))
        said[key] = [*said.get(key, []), r["patient"]]
    print(f"blind readers: {len(rows)} coded replies ({folder})")
    for reader in sorted({r["reader"] for r in rows}):
        print(f"\nreader {reader}")
        print(blind_table([r for r in rows if r["reader"] == reader]))
    print("\nboth readers")
    print(blind_table(rows))
    if show:
        print()
        for r in rows:
            if r["code"] == show and (bool(r["found"]) == (show == "fine")):
                print(f"[{r['reader']} {r['record']} {r['transcript']}{r['turn']}] {r['code']}: {r['note']}\n  D: {r['doctor']}\n  P: {r['patient']}")
                for f in r["found"]:
                    print(f"    - {f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--show", choices=("tune", "held_out"), help="print every disagreement of this half")
    ap.add_argument("--blind", action="store_true", help="score the lints on the blind readers' codes instead")
    ap.add_argument("--blind-folder", type=Path, default=BLIND)
    ap.add_argument("--show-blind", choices=CODES, help="with --blind: print the misses of this code (flagged fine replies for 'fine')")
    args = ap.parse_args(argv)
    if args.blind:
        return blind_main(args.blind_folder, args.show_blind)
    rows = [json.loads(line) for line in args.labels.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = load_cases(rows)
    lints = Lints()
    for r in rows:
        r["found"] = lints.check(r["patient"], r["doctor"], cases[r["case_id"]])
        r["lint_flags"] = flags_of(r["found"])
    print(f"reader agreement: {len(rows)} labelled replies ({args.labels})")
    print(f"{'half':<9}{'flag':<17}{'reader':>7}{'lints':>7}{'tp':>5}{'fp':>5}{'fn':>5}{'prec.':>7}{'recall':>8}{'agree':>8}")
    for half in ("tune", "held_out"):
        part = [r for r in rows if r["split"] == half]
        for flag in (*FLAGS, "any"):
            def has(r, key):
                return bool(r[key]) if flag == "any" else flag in r[key]
            reader = [has(r, "flags") for r in part]
            lint = [bool(r["lint_flags"]) if flag == "any" else flag in r["lint_flags"] for r in part]
            tp = sum(a and b for a, b in zip(reader, lint))
            fp = sum(b and not a for a, b in zip(reader, lint))
            fn = sum(a and not b for a, b in zip(reader, lint))
            agree = sum(a == b for a, b in zip(reader, lint))
            prec = f"{tp / (tp + fp):.2f}" if tp + fp else "-"
            rec = f"{tp / (tp + fn):.2f}" if tp + fn else "-"
            print(f"{half:<9}{flag:<17}{sum(reader):>7}{sum(lint):>7}{tp:>5}{fp:>5}{fn:>5}{prec:>7}{rec:>8}{agree:>5}/{len(part)}")
        # the reader's whole-reply code against the grader's lints (any lint at all)
        bad = [r["verdict"] != "fine" for r in part]
        any_lint = [bool(r["found"]) for r in part]
        print(f"{half:<9}{'not fine/any lint':<17}{sum(bad):>7}{sum(any_lint):>7}{sum(a and b for a, b in zip(bad, any_lint)):>5}"
              f"{sum(b and not a for a, b in zip(bad, any_lint)):>5}{sum(a and not b for a, b in zip(bad, any_lint)):>5}"
              f"{'':>15}{sum(a == b for a, b in zip(bad, any_lint)):>5}/{len(part)}")
    if args.show:
        print()
        for r in rows:
            if r["split"] != args.show:
                continue
            if set(r["flags"]) != r["lint_flags"]:
                print(f"[{r['n']}] {r['case_id']} reader {sorted(r['flags'])} lints {sorted(r['lint_flags'])}\n  D: {r['doctor']}\n  P: {r['patient']}")
                for f in r["found"]:
                    print(f"    - {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
