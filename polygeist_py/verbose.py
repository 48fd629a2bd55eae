"""`-v` and `-###` (as gcc's): the stages of a compilation and the external commands it runs, on stderr.

With -v each stage is listed as it starts (``pgcc: stage: GROUP: NAME``, the phases of time_report.py) and each
external command as it is started (`` /path/to/opt -O3 ...``), then the compilation goes on. Commands are seen
through Python's ``subprocess.Popen`` audit event (PEP 578), so that every command pgcc starts is listed, whichever
module starts it. With -### the driver lists the same stages and commands without running anything
(driver.dry_run), each argument of a command in double quotes, as gcc -### prints them.
"""

from __future__ import annotations

import shlex
import sys

from . import time_report

# Phases that are checks or repeats inside a stage rather than stages of their own.
NOT_STAGES = ("verifier",)

_stream = None
_audit_installed = False


def start(stream=None) -> None:
    """List stages and commands on `stream` (the current sys.stderr) until stop()."""
    global _stream, _audit_installed
    _stream = stream or sys.stderr  # the real stderr, not the compile cache's recording of diagnostics
    time_report.add_listener(_on_phase)
    if not _audit_installed:  # an audit hook cannot be removed: it stays silent while _stream is None
        sys.addaudithook(_on_audit)
        _audit_installed = True


def stop() -> None:
    """Stop listing (start's counterpart)."""
    global _stream
    _stream = None
    time_report.remove_listener(_on_phase)


def stage_line(name: str, group: str) -> str:
    """How -v and -### name a stage."""
    return f"pgcc: stage: {group}: {name}"


def command_line(argv, quoted: bool = False) -> str:
    """A command as gcc -v (`quoted` False: shell words) or gcc -### (every argument in double quotes) prints
    it, after one space."""
    argv = [str(a) for a in argv]
    if quoted:
        return " " + " ".join('"' + a.replace("\\", "\\\\").replace('"', '\\"') + '"' for a in argv)
    return " " + shlex.join(argv)


def _on_phase(name: str, group: str) -> None:
    if _stream is None or not group or group == "subprocesses" or name in NOT_STAGES:
        return  # imports and the subprocess phases (their commands are printed instead)
    print(stage_line(name, group), file=_stream, flush=True)


def _on_audit(event: str, args) -> None:
    if event != "subprocess.Popen" or _stream is None:
        return
    argv = args[1]
    print(command_line([argv] if isinstance(argv, (str, bytes)) else argv), file=_stream, flush=True)
