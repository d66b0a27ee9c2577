"""The ``re`` module with its compiled patterns kept (``from mentalhospital_env.knowledge import rx as re``).

The generator and the audit match thousands of distinct patterns read from the data files (review.json,
joins.json, story.json, ...), more than ``re``'s own cache of 512 holds, so the standard module kept
recompiling them: stop 41's profile of version 2 generation found 13% of its time in ``re._compile``. Here
every pattern is compiled once (a bounded LRU far larger than the data's patterns; its cap follows
``MENTALHOSPITAL_MEMO_SCALE`` like every memo of the library, since a few patterns are built from the texts an
episode meets and a long run must level off) and the module-level functions keep ``re``'s signatures and results.
"""

from __future__ import annotations

import re as _re
from functools import lru_cache
from re import *  # noqa: F401,F403  (flags, escape, error, Pattern, Match)
from re import Match, Pattern, RegexFlag, error, escape  # noqa: F401

from .language import memo_size

_KEPT = memo_size(32768)


@lru_cache(maxsize=_KEPT)
def compile(pattern, flags=0):  # noqa: A001
    return _re.compile(pattern, flags)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)
