"""Worker processes that end with their parent.

A worker of a process pool normally lives on when its parent is killed (``kill -9``, or ``SIGTERM``,
which ends a Python process without running its clean-up): it keeps its memory and the pool's
resource tracker alive. :func:`die_with_parent`, called first thing in a worker, ties the worker's
life to its parent's in two ways: on Linux the kernel sends it ``SIGKILL`` the moment the parent
ends (``prctl(PR_SET_PDEATHSIG)``, through ctypes), and on every system a daemon thread checks once
a second that the parent is still there (``os.getppid()`` changes when a process is orphaned). The
resource tracker reads from a pipe the workers and the parent hold open; once they are all gone it
reads end-of-file and exits by itself.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
#: seconds between two checks of the watch thread
WATCH_INTERVAL_S = 1.0


def die_with_parent(parent_pid: int) -> None:
    """Make this process end when the process ``parent_pid`` (its parent) ends."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl here: the watch thread still ends the worker
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid,), name="parent-watch", daemon=True).start()


def _watch(parent_pid: int) -> None:
    while True:
        time.sleep(WATCH_INTERVAL_S)
        if os.getppid() != parent_pid:
            os._exit(1)
