"""A progress line on stderr for a translation unit that takes more than a few seconds, when stderr is a terminal
(a 50,000-line file compiles for minutes; without it pgcc looks hung).

After ``PGCC_PROGRESS_AFTER`` seconds (default 3) a line ``pgcc: compiling FILE: N s (STAGE)`` appears and is
rewritten in place every half second with the stage running now (the phases of time_report.py); it is erased
when the unit is done, so that what the compilation prints (diagnostics, -v) is unchanged. Nothing is shown when
stderr is not a terminal (make logs, pipes, tests).
"""

from __future__ import annotations

import os
import sys
import threading
import time

from . import time_report

DEFAULT_AFTER = 3.0
INTERVAL = 0.5


class Progress:
    """Context manager around the compilation of one unit (`path`, a string). `stream`: where to write (the
    current sys.stderr, used only when it is a terminal)."""

    def __init__(self, path: str, stream=None):
        self.path = path
        self.stream = stream or sys.stderr
        self.stage = "starting"
        self.shown = False
        self._done = threading.Event()
        self._thread = None
        self._lock = threading.Lock()

    def __enter__(self):
        try:
            tty = self.stream.isatty()
            after = float(os.environ.get("PGCC_PROGRESS_AFTER", DEFAULT_AFTER))
        except (AttributeError, ValueError, OSError):
            return self
        if tty:
            self._start = time.monotonic()
            time_report.add_listener(self._on_phase)
            self._thread = threading.Thread(target=self._run, args=(after,), daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread is None:
            return False
        self._done.set()
        self._thread.join()
        time_report.remove_listener(self._on_phase)
        with self._lock:
            if self.shown:
                self.stream.write("\r\033[K")  # erase the line: the terminal shows what it showed before
                self.stream.flush()
        return False

    def _on_phase(self, name: str, group: str) -> None:
        if group and group != "subprocesses":
            self.stage = name
        elif group == "subprocesses":
            self.stage = f"running {name}"

    def _run(self, after: float) -> None:
        if self._done.wait(after):
            return
        while True:
            with self._lock:
                if self._done.is_set():
                    return
                elapsed = time.monotonic() - self._start
                self.stream.write(f"\rpgcc: compiling {self.path}: {elapsed:.0f} s ({self.stage})\033[K")
                self.stream.flush()
                self.shown = True
            if self._done.wait(INTERVAL):
                return
