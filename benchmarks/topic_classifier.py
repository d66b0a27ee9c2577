"""The patient's *understand* room against hand-labelled doctor utterances (issue 13).

``benchmarks/data/interview_topics.jsonl`` holds doctor utterances, each labelled by hand with the
interview topics it asks about (multi-label; taxonomy in
``benchmarks/data/interview_topics_taxonomy.json``), the relative it asks about where it asks about
a relative's history, and, for follow-ups, the previous doctor turn as ``context``. This script runs
``mentalhospital_env.patient.understanding.understand(utterance, context)`` on each and reports
per-topic precision, recall and F1, their macro average over topics, the share of utterances whose
topic set is exactly right, and the accuracy of the relative.

    python benchmarks/topic_classifier.py               # table, target macro-F1 >= 0.9
    python benchmarks/topic_classifier.py --show 30     # the first 30 utterances it got wrong
    python benchmarks/topic_classifier.py --half odd    # the table of one half only

Protocol: cue phrases and rules are tuned on the *even* half only (0-based line index 0, 2, 4 ...: the
file's 1st, 3rd, 5th ... utterance); the *odd* half is held out. Macro-F1 is printed for both halves and
for all lines, every run. The odd half has been read in earlier stops, so it is no longer unseen:
``benchmarks/data/interview_topics_heldout.jsonl`` (181 utterances, psychiatrist and LLM-doctor
phrasing, texting, compound questions, reflections before questions) was written and committed before
the understand room was tuned at stop 21; its errors were read and tuned on at stop 22, so the honest
held-out figure was that of ``interview_topics_heldout22.jsonl`` (177 utterances, written and labelled
before any run at stop 22) until stop 28 read its errors and tuned on it (``--labels
benchmarks/data/interview_topics_heldout22.jsonl --show N``); stop 24's ``interview_topics_heldout24.jsonl``
(130) is unread, and stop 28's ``interview_topics_heldout28.jsonl`` (203 utterances, written, labelled and
committed before any run on it) was the honest held-out figure until stop 29 read its errors and tuned on it;
stop 29's ``interview_topics_heldout29.jsonl`` (296 utterances, written, labelled and committed before any run on
it) is the honest held-out figure now. All are printed every run; listing a set's errors with ``--labels ...
--show N`` makes it tuned-on, so write a new set before tuning on it.

``--reader embedding`` scores the opt-in sentence-embedding reader (``make_patient(case, topic_reader="embedding")``,
stop 36; fitted by ``scripts/fit_embedding_topic_reader.py`` on every set up to heldout35) the same way:

    python benchmarks/topic_classifier.py --reader embedding --labels benchmarks/data/interview_topics_heldout35.jsonl

Stop 30 added a learned topic model beside the cues (``scripts/fit_topic_model.py``); the shipped one is fitted
on every set here, so these figures are fitted ones; ``--cues-only`` scores the cues alone, and ``python
scripts/fit_topic_model.py --estimate`` gives the model's honest figure (leave-one-set-out: each set scored by a
model fitted on the others). From stop 31 the model is also fitted on heldout30 and on
``interview_topics_train31.jsonl`` (453 utterances written for fitting only), and from stop 32 on heldout31 (its
figure, 0.741 with the model and 0.708 with cues alone, was taken first), and from stop 34 on heldout32 and heldout33
(heldout33's figure, 0.695 with the model and 0.679 with cues alone, was taken at stop 33; its errors were read and the
cues tuned on it at stop 34, the even lines first: odd lines 0.656 -> 0.670 from the even lines' tuning alone), and from
stop 35 on heldout34 (its figure, 0.697 with the model, was taken at stop 34). heldout35's figure (0.668 with the
model, 0.657 with cues alone) was taken at stop 35, heldout36's (0.782 with the model, 0.760 with cues alone; the
opt-in embedding reader 0.807) at stop 36, heldout37's (0.838 with the model, 0.821 with cues alone; the embedding reader
0.856) at stop 37; stop 38 read heldout37's errors and tuned the cues on it, the even lines first (odd lines 0.842 ->
0.840 from the even lines' tuning alone), then the odd lines. heldout35 to heldout37 were not in the topic model's fitting until stop 40.
heldout38's figure (0.814 with the model, 0.793 with cues alone; the embedding reader 0.828) was taken at stop 38,
heldout39's (0.810 with the model, 0.798 with cues alone; the embedding reader 0.832) at stop 39. From stop 40 the
model is fitted on every set here up to heldout39, so every figure this script prints but heldout40's is a fitted one: the honest
figures are leave-one-set-out over heldout31 to heldout39 (``python scripts/fit_topic_model.py --estimate --topics``,
each set scored by a model fitted on all the others). heldout40's figure (0.770 with the model, 0.767 with cues alone; the
embedding reader 0.789) was taken at stop 40, heldout41's (0.722; the embedding reader 0.758) at stop 41, heldout42's
(0.690; the embedding reader 0.733) at stop 42, heldout43's (0.711; the embedding reader 0.737) at stop 43, heldout44's
(0.718; the embedding reader 0.729) at stop 44, heldout45's (0.705; the embedding reader 0.715) at stop 45, heldout46's
(0.758 at base, 0.827 with stop 46's reader; the embedding reader 0.751) at stop 46; stop 47's fresh set
(``interview_topics_heldout47.jsonl``), written by others, which the fitting scripts refuse by number. Stop 45 moved heldout41 to heldout43 (development data since the stops after
they were written) into the topic model's fitting (``NEWEST_READ`` 43; the combination and its thresholds unchanged) and
kept heldout44 out as its check: heldout44 0.718 -> 0.744 from the refit alone (macro precision 0.805 -> 0.823, recall
0.670 -> 0.701). Two psychiatrists labelling heldout44 blind agree at 0.913, so the target is human agreement. The embedding
reader was not refitted at stop 45 (still fitted up to heldout35). Stop 45 also measured, and did not ship, a learned
reader that decides alone (one logistic regression over the stems, the cue topics as features, and the question's and
previous turn's vectors from the static table distilled from the Universal Sentence Encoder at stop 44; a topic at 0.5,
no cue override; about 0.1 ms a question on top of the stems): heldout44 0.759 (the same probabilities through the
cue-first combination 0.724; the refitted fast reader 0.744); left out of its fitting in turn, heldout36 to heldout43
read 0.867, 0.918, 0.881, 0.856, 0.818, 0.790, 0.747, 0.754 (mean 0.829) against the fast recipe's 0.840, 0.929, 0.855,
0.842, 0.813, 0.760, 0.721, 0.730 (mean 0.811; cue-first over the new probabilities 0.806). The embedding reader reads
heldout44 at 0.729.
Stop 46 shipped that reader as THE topic reader of the patient (``understand``'s default ``fast`` reader;
``data/topic_model.json`` in the format ``mentalhospital-topic-reader/1``, fitted by ``scripts/fit_topic_model.py`` on
every set here up to heldout44): the cue phrases are its features, never a decision beside it, and the cue-first
combination (``combine``'s add, veto and confirm bars, the follow model) no longer reads the default reader's questions
(the opt-in embedding reader still mends the cues with them). heldout45 (stop 45's fresh set, never fitted on, never
listed) was its check, and heldout46 (stop 46's, being written elsewhere) is fresh: the fitting script refuses both by
name. Leave-one-set-out over heldout36..44 (heldout41's fold unfinished): mean macro-F1 0.847 against 0.809 for the
cue-first recipe (stop 45's folds), 7 of 8 sets; heldout45 0.705 -> 0.781 (macro precision 0.808 -> 0.844, recall 0.654
-> 0.746). The reader reads at 0.2 (chosen leave-one-set-out: out of its fitting it is under-confident) under two rules
kept from the cue-first reading (``understanding.settled``). heldout45's errors were listed and read at stop 46: it is
development data now.
Stop 47 refitted the reader on every set up to heldout45 (C 1, vectors x 3 and the bar 0.2 kept: x 6 won
leave-one-set-out on four folds but carried the previous turn's topic into changes of subject; C 0.3 lost; per-topic
bars gained nothing nested) and read an open phrase that points back at the previous turn, or is one arm of an
alternative, as no open question ("And how long do they tend to go on for?" after the panic attacks keeps panic).
heldout46 (stop 46's set, never fitted, never used to choose) was its check: 0.827 -> 0.839 (macro precision 0.873 ->
0.888, recall 0.801 -> 0.810; x 6 would have read 0.841); heldout47 (stop 47's, being written elsewhere) is fresh.
Stop 48 read heldout47's errors (development data from stop 48) and did not refit: the reader refitted with heldout46
moved in read heldout47 at 0.831 -> 0.831 (precision 0.860 -> 0.855, recall 0.822 -> 0.825) and read sleep beside mania
in the decreased-need-for-sleep screen, which the labelled sets file under mania alone (8 of 10), so it stays fitted up
to heldout45 and heldout46 stays unfitted. Stop 48 added cue phrases checked on the development sets before use (the
psychotropic drug names as medication, 59 of 62 labelled utterances; "i'll write to" as closing, 15 of 15; and nine
more) and read a question the reader reads empty with the cues' topics it gives 0.1 or more
(``understanding.EMPTY_FLOOR``): heldout47 0.831 -> 0.853 (cues 0.850, 16 readings changed, 13 made exact, none
broken; the rule 5 changed, 3 made exact), heldout46 (never fitted) 0.839 -> 0.842; heldout48 (stop 48's, written
elsewhere) is fresh and refused by name.
Stop 51 refitted the reader on every set up to heldout50 (C 1, vectors x 3, the bar 0.2 kept, chosen by
leave-one-set-out over heldout46..50: heldout46 0.845 -> 0.856, heldout47 0.862 -> 0.869, heldout48 0.912 -> 0.914,
heldout49 0.825 -> 0.840, heldout50 0.788 -> 0.804, each left out of its own fitting, against stop 47's reader), after
reading heldout50's even half (cue mends: heldout50 even 0.771 -> 0.780, odd 0.768 -> 0.768 with stop 47's reader);
every figure this script prints is now a fitted one, and heldout51 (stop 51's, written elsewhere) is refused by name.
Stop 52 refitted the reader on every set up to heldout51 at C 3 (C 1 before; vectors x 3 and the bar 0.2 kept), chosen by
leave-one-set-out over the newest sets: C 1 -> C 3 heldout47 0.870 -> 0.877, heldout48 0.909 -> 0.917, heldout51 0.751
-> 0.756 (each left out of its own fitting, heldout51 in the others'), heldout49 0.840 -> 0.844 and heldout50 0.804 ->
0.815 at stop 51; after reading heldout51's even half (cue mends: heldout51 even 0.711 -> 0.816, odd 0.753 -> 0.754
with stop 51's reader). Every figure this script prints is a fitted one; the fitting scripts refuse heldout52 (stop
52's, written elsewhere) by name.
Stop 53 refitted the reader on every set up to heldout52 (C 3, vectors x 3, the bar 0.2, CARRY_ABOVE 0.85 kept: no CPU
on the shared machine for a grid; left out of its own fitting, heldout52 in the others', heldout51 read 0.756 -> 0.790),
after reading heldout52's even half (cue mends, stop 52's reader: heldout52 even 0.862 -> 0.899, odd 0.853 -> 0.853).
Every figure this script prints is a fitted one; the fitting scripts refuse heldout53 (stop 53's, written elsewhere)
by name.
Stop 54 refitted the reader on every set up to heldout53 (heldout54, stop 54's fresh set, read 0.864 with it at stop
54's end; odd half 0.852). Stop 55 refitted it on every set up to heldout54; every figure this script prints is a
fitted one, and the fitting scripts refuse heldout55 (stop 55's, written elsewhere) by name. Stop 56's fresh set,
heldout56, is refused by name too; heldout55 (0.836 with stop 55's reader) is development data from stop 56.
Stop 42 changed how the reader combines and reads context, not its phrases:
the model adds a topic at 0.3 where the cues heard no topic of substance and at 0.5 beside one, the complaint and its
frame at 0.7 as before (``scripts/fit_topic_model.py`` ADD_ALONE_ABOVE, ADD_ABOVE, ADD_FRAME_ABOVE), and a follow model
(``scripts/fit_follow_model.py``, ``data/follow_model.json``) decides whether a question leans on the previous turn;
both chosen by leave-one-set-out over heldout31-39 (0.811 -> 0.822), then checked on heldout40 (0.783 -> 0.793) and
heldout41 (0.722 -> 0.735; the embedding reader 0.758 -> 0.760).
Stop 43 moved heldout40 into the topic model's fitting (``NEWEST_READ`` 40; heldout41 and heldout42 kept out as its
check) and let the model carry a topic of the previous turn to a question with no subject of its own where it reads that
topic at 0.7 or more (``combine.add_before_above``): heldout41 0.735 -> 0.740, heldout42 0.708 -> 0.711 (the refit alone
0.740 and 0.709). A reader over static word vectors distilled from MiniLM (one vector a word, 21,719 words, averaged per
question) beside the stems was tried and not shipped: +0.001 to +0.004 on the check sets, for a 16 MB table.

If the room does not exist yet, the script says so and exits with status 2: no numbers are made up.

``--facts`` scores the other side of the taxonomy, where the record's facts are filed (stop 24):
``benchmarks/data/fact_topics.jsonl`` holds 264 facts of 12 records (handwritten, tests/data user letters,
test-v2), each labelled by hand with the interview topics it answers, written from the fact's text before
the filing was looked at. Four records (``split: heldout``) are never tuned on. It prints micro and macro
precision and recall per split for the filing (``Fact.topics``, or ``record_topics`` on a fact without
them, as the patient's recall reads it) and for the topics recall's index finally files a fact under.

    python benchmarks/topic_classifier.py --facts            # both splits
    python benchmarks/topic_classifier.py --facts --show 40  # the fitting splits' misfiled facts
    python benchmarks/topic_classifier.py --facts --per-topic  # each topic's precision and recall

Stop 31 added ``fact_topics_train31.jsonl`` (234 sentences of 7 other records, split ``train31``, labelled the
same way and committed before any run) and a learned filing model fitted on it and the ``tune`` split
(``scripts/fit_fact_topic_model.py``); ``heldout`` stays out of its fitting. A line "record_topics on the
sentence" scores the filing function on the labelled text itself, without the compiler's splitting between.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
#: The held-out sets in the order they were written, each with what has been done with it since: a set whose errors
#: were listed (``--labels PATH --show N``) was tuned on; the newest is the honest figure. All are printed every run.
HELD_OUT_SETS: list[tuple[Path, str]] = [
    (DATA / "interview_topics_heldout.jsonl", "stop 21's: written before tuning at stop 21, read and tuned on at stop 22"),
    (DATA / "interview_topics_heldout22.jsonl", "stop 22's (177: time questions, double questions, informants, child "
     "wording): written and labelled before any run, read and tuned on at stop 28"),
    (DATA / "interview_topics_heldout24.jsonl", "stop 24's (130): written and labelled before any run, never tuned on by cues, "
     "in the topic model's fitting"),
    (DATA / "interview_topics_heldout28.jsonl", "stop 28's (203): written and labelled before any run, read and tuned on at "
     "stop 29"),
    (DATA / "interview_topics_heldout29.jsonl", "stop 29's (296): written and labelled before any run, read at stop 30, in "
     "the topic model's fitting"),
    (DATA / "interview_topics_heldout30.jsonl", "stop 30's (307, by a writer who read no code): never tuned on by cues, in "
     "the topic model's fitting from stop 31"),
    (DATA / "interview_topics_heldout31.jsonl", "stop 31's (340, by a writer who read no code, committed alone before any "
     "run): never tuned on by cues; its figure taken at stop 31 (0.741), in the topic model's fitting from stop 32"),
    (DATA / "interview_topics_heldout32.jsonl", "stop 32's (420, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 32, read at stop 33, in the topic model's fitting from stop 34"),
    (DATA / "interview_topics_heldout33.jsonl", "stop 33's (426, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 33 (0.695), read and tuned on at stop 34 (even half first), in the topic model's "
     "fitting from stop 34"),
    (DATA / "interview_topics_heldout34.jsonl", "stop 34's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 34 (0.697), in the topic model's fitting from stop 35"),
    (DATA / "interview_topics_heldout35.jsonl", "stop 35's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 35 (0.668), never tuned on by cues"),
    (DATA / "interview_topics_heldout36.jsonl", "stop 36's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 36 (0.782; the embedding reader 0.807), never tuned on"),
    (DATA / "interview_topics_heldout37.jsonl", "stop 37's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 37 (0.838, cues alone 0.821; the embedding reader 0.856), read and tuned on by cues "
     "at stop 38, even half first (odd lines 0.842 -> 0.840 from the even lines' tuning alone), not in the topic model's "
     "fitting"),
    (DATA / "interview_topics_heldout38.jsonl", "stop 38's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 38 (0.814; cues alone 0.793; the embedding reader 0.828), not in the topic model's "
     "fitting"),
    (DATA / "interview_topics_heldout39.jsonl", "stop 39's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 39 (0.810; cues alone 0.798; the embedding reader 0.832), in the topic model's "
     "fitting from stop 40"),
    (DATA / "interview_topics_heldout40.jsonl", "stop 40's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 40 (0.770; cues alone 0.767; the embedding reader 0.789; 0.783 after stop 40's "
     "merge), development data from stop 41"),
    (DATA / "interview_topics_heldout41.jsonl", "stop 41's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 41 (0.722; the embedding reader 0.758); its errors read by root cause at stop 42 (no "
     "phrase tuned on them; the combination threshold and the follow model chosen on heldout31-39), in the topic model's "
     "fitting from stop 45"),
    (DATA / "interview_topics_heldout42.jsonl", "stop 42's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 42 (0.690; the embedding reader 0.733; 0.708 after stop 42's merge), development "
     "data from stop 43, in the topic model's fitting from stop 45"),
    (DATA / "interview_topics_heldout43.jsonl", "stop 43's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 43 (0.711; the embedding reader 0.737; 0.716 after stop 43's merge), development "
     "data from stop 44, in the topic model's fitting from stop 45"),
    (DATA / "interview_topics_heldout44.jsonl", "stop 44's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 44 (0.718; the embedding reader 0.729), never tuned on: stop 45's check (0.744 after "
     "stop 45's refit), development data from stop 46, in the topic reader's fitting from stop 46"),
    (DATA / "interview_topics_heldout45.jsonl", "stop 45's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 45 (0.688 at base, 0.705 after stop 45's refit; the embedding reader 0.715); stop "
     "46's check, never in a model's fitting (0.705 with stop 45's reader, 0.781 with stop 46's); development data "
     "from stop 47, in the topic reader's fitting from stop 47"),
    (DATA / "interview_topics_heldout46.jsonl", "stop 46's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 46 (0.758 at base, 0.827 with stop 46's reader; the embedding reader 0.751); stop "
     "47's check, never in a model's fitting (0.839 with stop 47's reader); development data from stop 48, in the topic "
     "reader's fitting from stop 51"),
    (DATA / "interview_topics_heldout47.jsonl", "stop 47's (460, by a writer who read no code, committed alone before any "
     "run): its figure taken at stop 47 (0.820 at base, 0.831 with stop 47's reader), its errors read and cue phrases "
     "tuned on it at stop 48 (0.853), in the topic reader's fitting from stop 51"),
    (DATA / "interview_topics_heldout48.jsonl", "stop 48's (460, by a writer who read no code, committed alone before any "
     "run; 40 stock questions repeat an earlier set word for word): its figure taken at stop 48 (0.855 at base, 0.856 "
     "with stop 48's reader), its errors read and cue phrases and the bare-follow-up carry (understanding.CARRY_BARE) "
     "tuned on it at stop 49 (0.907), in the topic reader's fitting from stop 51"),
    (DATA / "interview_topics_heldout49.jsonl", "stop 49's (460, by a writer who read no code, committed alone before any "
     "run; 34 stock questions repeat an earlier set word for word): its figure taken at stop 49 (0.804 at base, 0.806 "
     "with stop 49's reader), its errors read from stop 50, in the topic reader's fitting from stop 51"),
    (DATA / "interview_topics_heldout50.jsonl", "stop 50's (460, by a writer who read no code, committed alone before any "
     "run; no utterance repeats an earlier set): its figure taken at stop 50 (0.787 at base, 0.788 with stop 50's "
     "reader), its even half's errors read at stop 51, in the topic reader's fitting from stop 51 (0.804 left out of "
     "it, fitted on the rest)"),
    (DATA / "interview_topics_heldout51.jsonl", "stop 51's (460, by a writer who read no code, committed alone before any "
     "run; no utterance repeats an earlier set): its figure taken at stop 51 (0.722 at base, 0.751 with stop 51's "
     "reader), its even half's errors read at stop 52, in the topic reader's fitting from stop 52 (0.756 left out of it "
     "at C 3, fitted on the rest)"),
    (DATA / "interview_topics_heldout52.jsonl", "stop 52's (460, by a writer who read no code, committed alone before any "
     "run; no utterance repeats an earlier set): its figure taken at stop 52's end (0.865 with stop 52's reader), its "
     "even half's errors read at stop 53, in the topic reader's fitting from stop 53"),
    (DATA / "interview_topics_heldout53.jsonl", "stop 53's (460, by a writer who read no code, committed alone before any "
     "run; no utterance repeats an earlier set): its figure taken at stop 53's end (0.824 with stop 53's reader; odd half "
     "0.802), its even half's errors read at stop 54, in the topic reader's fitting from stop 54"),
    (DATA / "interview_topics_heldout54.jsonl", "stop 54's (460, by a writer who read no code, committed alone before any "
     "run; no utterance repeats an earlier set): its figure taken at stop 54's end (0.864 with stop 54's reader; odd half "
     "0.852), its even half's errors read at stop 55, in the topic reader's fitting from stop 55"),
    (DATA / "interview_topics_heldout55.jsonl", "stop 55's (460, by a writer who read no code, committed alone before any "
     "run; no utterance repeats an earlier set): its figure taken at stop 55 (0.833 at base, 0.836 with stop 55's "
     "reader), development data from stop 56"),
    (DATA / "interview_topics_heldout56.jsonl", "stop 56's (460, by a writer who read no code, committed alone before any "
     "run; no utterance repeats an earlier set): never tuned on, never in the topic model's fitting; the honest figure"),
]
TARGET_MACRO_F1 = 0.9
#: A second reader's labels of a held-out set, written blind (the utterances and the taxonomy only, never the first
#: writer's labels or any code) by another psychiatrist-writer: how far two careful people agree is the ceiling the
#: target is held against. Stop 45: heldout44 relabelled blind; two readers agree at macro-F1 0.913 (exact topic set
#: 81.3 %), so the target of 0.9 is at human agreement, not above it.
SECOND_READERS: list[tuple[Path, Path]] = [
    (DATA / "interview_topics_heldout44.jsonl", DATA / "topic_agreement" / "heldout44_second_reader.jsonl"),
]


def readers_agreement(first: list[dict], second: list[dict]) -> tuple[float, float]:
    """Macro-F1 (the first reader's labels as gold) and the share of utterances given the same topic set by two readers
    of the same utterances, in the same order."""
    if [r["id"] for r in first] != [r["id"] for r in second]:
        raise ValueError("the two readers' files do not hold the same utterances in the same order")
    gold = [set(r["topics"]) for r in first]
    other = [set(r["topics"]) for r in second]
    table = scores(gold, other)
    exact = sum(g == o for g, o in zip(gold, other)) / len(gold)
    return sum(s["f1"] for s in table.values()) / len(table), exact
#: the newest held-out set in the shipped topic model's fitting (scripts/fit_topic_model.py NEWEST_READ)
NEWEST_FITTED = 54
#: the newest held-out set in the opt-in embedding reader's fitting (scripts/fit_embedding_topic_reader.py NEWEST_READ)
NEWEST_FITTED_EMBEDDING = 35


def load_labels(path: Path) -> list[dict]:
    tax = json.loads((DATA / "interview_topics_taxonomy.json").read_text(encoding="utf-8"))
    ids = {t for group in tax["groups"].values() for t in group}
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        unknown = [t for t in row["topics"] if t not in ids]
        if unknown:
            raise SystemExit(f"{path.name}:{n}: unknown topic ids {unknown}")
        if row.get("relative") not in (None, *tax["relatives"]):
            raise SystemExit(f"{path.name}:{n}: unknown relative {row['relative']!r}")
        rows.append(row)
    return rows


def scores(gold: list[set[str]], pred: list[set[str]]) -> dict[str, dict[str, float]]:
    topics = sorted(set().union(*gold))
    out = {}
    for t in topics:
        tp = sum(1 for g, p in zip(gold, pred) if t in g and t in p)
        fp = sum(1 for g, p in zip(gold, pred) if t not in g and t in p)
        fn = sum(1 for g, p in zip(gold, pred) if t in g and t not in p)
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        out[t] = {"precision": prec, "recall": rec, "f1": f1, "support": tp + fn}
    return out


FACT_LABELS = DATA / "fact_topics.jsonl"
#: stop 31's fitting data for the filing: 234 sentences of 7 other records, labelled the same way (split ``train31``)
FACT_LABELS_31 = DATA / "fact_topics_train31.jsonl"
#: stop 32's: 342 sentences of ten more records (six handwritten, three dev, one test-v2; split ``train32``)
FACT_LABELS_32 = DATA / "fact_topics_train32.jsonl"
FACT_LABEL_FILES = (FACT_LABELS, FACT_LABELS_31, FACT_LABELS_32)
#: where the labelled records live: a suite name, or a file under the repository
FACT_SOURCES = {"hw-": "handwritten", "test-v2-": "test-v2", "dev-": "dev"}
ROOT = Path(__file__).resolve().parent.parent


def _norm(text: str) -> str:
    return " ".join("".join(c.lower() if c.isalnum() else " " for c in text).split())


def _fact_cases(records: set[str]) -> dict:
    from mentalhospital_env.cases import load_case, load_suite
    from mentalhospital_env.cases.errors import CaseError

    cases = {}
    for prefix, suite in FACT_SOURCES.items():
        if any(r.startswith(prefix) for r in records):
            cases.update({c.case_id: c for c in load_suite(suite) if c.case_id in records})
    for path in sorted((ROOT / "tests" / "data").glob("*.json")):
        try:
            case = load_case(path)
        except CaseError:
            continue  # a file of several cases or fixtures (narcolepsy_records.json), not one record
        if case.case_id in records:
            cases[case.case_id] = case
    return cases


def fact_filing(show: int = 0, per_topic: bool = False) -> int:
    """Precision and recall of where a record's facts are filed, against the hand labels: micro figures per
    split, and with ``per_topic`` each topic's precision and recall on every split together and on the
    held-out split alone."""
    from mentalhospital_env.patient.recall import FactIndex
    from mentalhospital_env.patient.understanding import record_topics

    rows = [json.loads(line) for path in FACT_LABEL_FILES if path.exists()
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = _fact_cases({r["record"] for r in rows})
    filed: dict[str, dict[tuple[str, str], tuple]] = {}
    indexed: dict[str, dict[tuple[str, str], tuple]] = {}
    for rid, case in cases.items():
        filed[rid] = {(f.section, f.text): tuple(f.topics or record_topics(f.section, f"{f.text} {f.patient_says or ''}"))
                      for f in case.facts}
        indexed[rid] = {(e.fact.section, e.fact.text): tuple(e.topics) for e in FactIndex(case).facts}

    def topics_of(table: dict[tuple[str, str], tuple], row: dict) -> set[str] | None:
        # a labelled fact the compiler now splits or joins otherwise: the topics of every compiled fact of
        # its section that holds it or lies within it
        if (row["section"], row["text"]) in table:
            return set(table[row["section"], row["text"]])
        key = _norm(row["text"])
        hits = [ts for (sec, t), ts in table.items()
                if sec == row["section"] and _norm(t) and (_norm(t) in key or key in _norm(t))]
        return set().union(*hits) if hits else None

    def sentence(row: dict) -> set[str]:
        # the filing function alone, on the labelled sentence as written (no compiler between)
        return set(record_topics(row["section"], row["text"]))

    splits = [s for s in ("tune", "train31", "train32", "heldout") if any(r["split"] == s for r in rows)]
    for split in splits:
        part = [r for r in rows if r["split"] == split]
        print(f"\n{split}: {len(part)} facts of {len({r['record'] for r in part})} records")
        for name, tables in (("filed (compile/record_topics)", filed), ("indexed (recall)", indexed),
                             ("record_topics on the sentence", None)):
            gold, pred, missing = [], [], 0
            for r in part:
                got = sentence(r) if tables is None else topics_of(tables[r["record"]], r)
                if got is None:
                    missing += 1
                    got = set()
                gold.append(set(r["topics"]))
                pred.append(got)
            tp = sum(len(g & p) for g, p in zip(gold, pred))
            fp = sum(len(p - g) for g, p in zip(gold, pred))
            fn = sum(len(g - p) for g, p in zip(gold, pred))
            table = scores(gold, pred)
            print(f"  {name:<31} micro precision {tp / max(1, tp + fp):.3f}  recall {tp / max(1, tp + fn):.3f}  "
                  f"macro-F1 {sum(s['f1'] for s in table.values()) / len(table):.3f}  exact {sum(g == p for g, p in zip(gold, pred))}"
                  f"/{len(part)}  wrong extra topics {fp}  missed {fn}  unmatched {missing}")
    if per_topic:
        for title, part in (("all splits", rows), ("heldout split", [r for r in rows if r["split"] == "heldout"])):
            gold = [set(r["topics"]) for r in part]
            pred = [topics_of(filed[r["record"]], r) or set() for r in part]
            table = scores(gold, pred)
            extra = {t: sum(1 for g, p in zip(gold, pred) if t in p and t not in g) for t in table}
            print(f"\nper topic, filed (compile/record_topics), {title} ({len(part)} facts)")
            print(f"{'topic':<24}{'precision':>11}{'recall':>9}{'F1':>8}{'support':>9}{'wrong':>7}")
            for t, s in sorted(table.items(), key=lambda kv: kv[1]["f1"]):
                print(f"{t:<24}{s['precision']:>11.3f}{s['recall']:>9.3f}{s['f1']:>8.3f}{s['support']:>9d}{extra[t]:>7d}")
            unlabelled = sorted({t for p in pred for t in p} - set(table))
            if unlabelled:
                print("filed but never labelled: " + ", ".join(
                    f"{t} ({sum(1 for p in pred if t in p)})" for t in unlabelled))
    if show:
        print("\ntuned splits, filed topics that differ from the labels:")
        shown = 0
        for r in rows:
            if r["split"] == "heldout":
                continue
            got = topics_of(filed[r["record"]], r) or set()
            if got != set(r["topics"]) and shown < show:
                shown += 1
                print(f"- {r['record']} {r['id']}: {r['text'][:110]}\n    gold {sorted(r['topics'])}  extra "
                      f"{sorted(got - set(r['topics']))}  missed {sorted(set(r['topics']) - got)}")
    return 0


#: stop 48: doctor questions that change the subject, each after a question on another subject (40 written by hand from
#: the taxonomy before any run; two dropped after the first run as no change of subject on a second reading: "...about
#: any of this?" points back, and "need to be thinner" after weight loss goes on with it): the labelled sets hold few,
#: and the reader, fitted on follow-ups that nearly all keep the previous topic, carries it ("How have you been
#: sleeping lately?" after a question about drink read alcohol). Stop 48 measured a higher carry bar (0.8) for a
#: question that points back at nothing: 7 -> 5 of the 40 carried, but 10 labelled follow-ups of heldout43..45 that
#: rightly keep the previous topic lost it ("Did anyone in the family know you were using?" after heroin): not shipped
SUBJECT_CHANGES = DATA / "subject_changes48.jsonl"


def subject_changes(show: int = 0) -> int:
    """``--changes``: how many changes of subject read a topic of the previous turn that the question does not ask
    (the previous turn read alone), and how many miss a topic asked."""
    from mentalhospital_env.patient.understanding import understand

    rows = load_labels(SUBJECT_CHANGES)
    carried = missed = 0
    for r in rows:
        got = set(understand(r["utterance"], r["context"]).topics)
        stray = (got & set(understand(r["context"]).topics)) - set(r["topics"])
        miss = set(r["topics"]) - got
        carried += bool(stray)
        missed += bool(miss)
        if (stray or miss) and show > 0:
            show -= 1
            print(f"- {r['utterance']}  [after: {r['context']}]\n    gold {sorted(r['topics'])}  got {sorted(got)}")
    print(f"{len(rows)} changes of subject: the previous turn's topic taken in {carried} "
          f"({100 * carried / len(rows):.0f}%), a topic asked missed in {missed}")
    return 0


def main(argv: list[str] | None = None) -> int:
    from mentalhospital_env.patient.embedding_reader import TOPIC_READERS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", action="store_true", help="score where record facts are filed (fact_topics.jsonl)")
    ap.add_argument("--per-topic", action="store_true", help="with --facts: each topic's precision and recall")
    ap.add_argument("--labels", type=Path, default=DATA / "interview_topics.jsonl")
    ap.add_argument("--cues-only", action="store_true", help="score the cue phrases alone, without the topic model")
    ap.add_argument(
        "--reader", choices=TOPIC_READERS, default="fast",
        help="the topic reader scored: fast (default, the cues and the stem model) or embedding (the opt-in "
        "sentence-embedding reader, make_patient(topic_reader='embedding'); needs the embed extra)",
    )
    ap.add_argument("--show", type=int, default=0, help="print this many utterances with a wrong topic set")
    ap.add_argument(
        "--half", choices=("all", "even", "odd"), default="all",
        help="which lines the per-topic table and --show cover (even: tuned on; odd: held out)",
    )
    ap.add_argument("--changes", action="store_true", help="how often a change of subject takes the previous turn's "
                    "topic (subject_changes48.jsonl)")
    args = ap.parse_args(argv)
    if args.facts:
        return fact_filing(args.show, args.per_topic)
    if args.changes:
        return subject_changes(args.show)
    rows = load_labels(args.labels)
    try:
        from mentalhospital_env.patient.understanding import cue_reading, understand
    except ImportError as err:
        print(
            f"The patient's understand room is missing ({err}): "
            "mentalhospital_env.patient.understanding.understand(utterance, context) does not exist in this "
            f"checkout. {len(rows)} hand-labelled utterances are ready; no scores can be given."
        )
        return 2
    if args.cues_only:
        understand = cue_reading
    elif args.reader == "embedding":
        from functools import partial

        from mentalhospital_env.patient.embedding_reader import check_topic_reader

        try:
            check_topic_reader("embedding")
        except ImportError as err:
            print(err)
            return 2
        understand = partial(understand, reader="embedding")

    def macro_f1(part: list[dict], read=None) -> float:
        read = read or understand
        g = [set(r["topics"]) for r in part]
        p = [set(read(r["utterance"], r.get("context")).topics) for r in part]
        t = scores(g, p)
        return sum(s["f1"] for s in t.values()) / len(t)

    halves = {name: macro_f1(part) for name, part in (("even", rows[0::2]), ("odd", rows[1::2]), ("all", rows))}
    held_out = {path: macro_f1(load_labels(path)) for path, _ in HELD_OUT_SETS if path.exists()}
    rows = {"all": rows, "even": rows[0::2], "odd": rows[1::2]}[args.half]
    gold, pred, rel_gold, rel_pred, wrong = [], [], [], [], []
    for row in rows:
        u = understand(row["utterance"], row.get("context"))
        g, p = set(row["topics"]), set(u.topics)
        gold.append(g)
        pred.append(p)
        if row.get("relative"):
            rel_gold.append(row["relative"])
            rel_pred.append(getattr(u, "relative", None))
        if g != p:
            wrong.append((row, p))
    table = scores(gold, pred)
    macro = sum(s["f1"] for s in table.values()) / len(table)
    macro_p = sum(s["precision"] for s in table.values()) / len(table)
    macro_r = sum(s["recall"] for s in table.values()) / len(table)
    exact = sum(g == p for g, p in zip(gold, pred)) / len(rows)
    print(
        f"understand() on {len(rows)} hand-labelled utterances ({args.half} lines; "
        f"{sum(1 for r in rows if r.get('context'))} with context)\n"
    )
    print(f"{'topic':<24}{'precision':>11}{'recall':>9}{'F1':>8}{'support':>9}")
    for t, s in sorted(table.items(), key=lambda kv: kv[1]["f1"]):
        print(f"{t:<24}{s['precision']:>11.3f}{s['recall']:>9.3f}{s['f1']:>8.3f}{s['support']:>9d}")
    print(f"\nmacro precision {macro_p:.3f}, macro recall {macro_r:.3f}, macro-F1 {macro:.3f} "
          f"(target >= {TARGET_MACRO_F1}: {'met' if macro >= TARGET_MACRO_F1 else 'MISSED'})")
    print(
        f"macro-F1 of {args.labels.name} by half: even (tuned on) {halves['even']:.3f}, odd (held out) {halves['odd']:.3f}, "
        f"all {halves['all']:.3f} (target >= {TARGET_MACRO_F1} on the held-out half: "
        f"{'met' if halves['odd'] >= TARGET_MACRO_F1 else 'MISSED'})"
    )
    for path, about in HELD_OUT_SETS:
        if path in held_out:
            print(
                f"macro-F1 on {path.name} ({about}): {held_out[path]:.3f} "
                f"(target >= {TARGET_MACRO_F1}: {'met' if held_out[path] >= TARGET_MACRO_F1 else 'MISSED'})"
            )
    if not args.cues_only and args.reader == "embedding":
        print(
            "the embedding reader (mentalhospital_env/patient/data/embedding_topic_reader.json) was fitted on the sets "
            f"above up to heldout{NEWEST_FITTED_EMBEDDING} and on stop 31's training set, so their figures are fitted "
            "ones. Its honest figure (leave-one-set-out, beside the fast reader's): "
            "python scripts/fit_embedding_topic_reader.py --estimate"
        )
    elif not args.cues_only:
        sets = [args.labels] + [p for p in held_out if p != args.labels]
        print(
            "the shipped topic reader (mentalhospital_env/patient/data/topic_model.json) was fitted on the sets above "
            f"up to heldout{NEWEST_FITTED} and on stop 31's training set, so their figures are fitted ones (the later "
            "sets' are not); cues alone: "
            + ", ".join(f"{p.stem.replace('interview_topics', '') or 'main'} {macro_f1(load_labels(p), cue_reading):.3f}" for p in sets)
            + ". The model's honest figure (leave-one-set-out, each set scored by a model fitted without it): "
            "python scripts/fit_topic_model.py --estimate"
        )
    print(f"exact topic set: {100 * exact:.1f}% of utterances")
    for first, second in SECOND_READERS:
        if first.exists() and second.exists():
            agree, same = readers_agreement(load_labels(first), load_labels(second))
            print(
                f"two readers of {first.name} (the second labelled blind): macro-F1 {agree:.3f}, exact topic set "
                f"{100 * same:.1f}%: the human ceiling (understand() on the same set: {macro_f1(load_labels(first)):.3f})"
            )
    if rel_gold:
        acc = sum(a == b for a, b in zip(rel_gold, rel_pred)) / len(rel_gold)
        print(f"relative named correctly: {100 * acc:.1f}% of {len(rel_gold)} utterances about a relative")
    for row, p in wrong[: args.show]:
        ctx = f"  [after: {row['context']}]" if row.get("context") else ""
        print(f"- {row['utterance']}{ctx}\n    gold {sorted(row['topics'])}  got {sorted(p)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
