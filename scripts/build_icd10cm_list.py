"""Rebuild mentalhospital_env/knowledge/data/icd10cm_codes.txt.gz, the ICD-10-CM code list cases are checked against.

The codes come from the CMS/CDC ICD-10-CM tabular list (a US government work, public domain) as packaged
by ``simple-icd-10-cm`` (``pip install simple-icd-10-cm``; only this script needs it). Every category,
subcategory and code of the tabular list is kept (chapters and blocks are not codes); one code a line,
with dots, after a header line naming the release.

    python scripts/build_icd10cm_list.py
"""

from __future__ import annotations

import gzip
import re
from importlib import metadata
from pathlib import Path

import simple_icd_10_cm as cm

OUT = Path(__file__).resolve().parent.parent / "mentalhospital_env" / "knowledge" / "data" / "icd10cm_codes.txt.gz"
SHAPE = re.compile(r"[A-Z][0-9][0-9A-Z](?:\.[0-9A-Z]{1,4})?\Z")


def main() -> None:
    # chapters ("5") and blocks ("F30-F39") fail the shape; a code that is its own block (F99) is kept
    codes = sorted({c for c in cm.get_all_codes(with_dots=True) if SHAPE.match(c)})
    header = f"# ICD-10-CM tabular list codes (CMS/CDC, public domain), from simple-icd-10-cm {metadata.version('simple-icd-10-cm')}"
    data = "\n".join([header, *codes]) + "\n"
    OUT.write_bytes(gzip.compress(data.encode("ascii"), mtime=0))
    print(f"{len(codes)} codes -> {OUT}")


if __name__ == "__main__":
    main()
