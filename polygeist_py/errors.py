"""Diagnostics in clang's format: ``file:line:col: error: message``, the source line and a caret."""

from __future__ import annotations

# At most this many errors of one file are shown (clang itself stops after 20).
ERROR_LIMIT = 50


def render_diagnostic(severity: str, message: str, file: str | None, line: int = 0, col: int = 0,
                      text: str | None = None) -> str:
    """One diagnostic as clang prints it.

    Args:
        severity: 'error', 'warning' or 'note'.
        message: the text after the severity.
        file, line, col: 1-based position, or file=None for a diagnostic without one (``pgcc: error: ...``).
        text: the file's contents when it is not on disk (a program compiled from memory).
    Returns:
        ``file:line:col: severity: message`` plus the source line and a caret when the line can be read.
    """
    if not file:
        return f"pgcc: {severity}: {message}"
    head = f"{file}:{line}:{col}: {severity}: {message}"
    try:
        if text is None:
            with open(file, "rb") as f:
                data = f.read()
        else:
            data = text.encode("utf-8", errors="replace")
        if line < 1:
            return head
        raw = data.splitlines()[line - 1][:400]
    except (OSError, IndexError, ValueError):
        return head

    def shown(b: bytes) -> str:
        # clang's columns count bytes; invalid UTF-8 and control characters print as '?'
        return "".join(ch if ch == "\t" or (ch.isprintable() and ch != "\ufffd") else "?"
                       for ch in b.decode("utf-8", errors="replace"))

    caret = "".join(ch if ch == "\t" else " " for ch in shown(raw[: max(col - 1, 0)])) + "^"
    return f"{head}\n{shown(raw)}\n{caret}"


class CompileError(Exception):
    """An error in the user's program (parse error, unsupported construct, bad flag).

    Args:
        message: what is wrong, naming the construct.
        file, line, col: 1-based source position, or None when there is no position.
    """

    def __init__(self, message: str, file: str | None = None, line: int = 0, col: int = 0):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col

    def render(self, text: str | None = None) -> str:
        """Return the clang-style text: position, message, source line and caret. The source line comes from
        `text` when given (a program compiled from memory), else from the file."""
        return render_diagnostic("error", self.message, self.file, self.line, self.col, text)


class InternalError(CompileError):
    """A failure inside pgcc (a pass, the verifier, a tool, an exception), not in the user's program."""


class Diagnostics(CompileError):
    """Several diagnostics of one file (clang reports every parse error, up to :data:`ERROR_LIMIT`).

    Behaves as a CompileError at the first error (``message``/``file``/``line``/``col``); ``render`` prints
    them all in order, warnings and notes included, then ``N errors generated.``

    Args:
        diags: (severity, message, file, line, col) tuples in the order clang reported them; at least one
            has severity 'error'.
        truncated: more errors followed than were kept.
    """

    def __init__(self, diags: list[tuple], truncated: bool = False):
        first = next(d for d in diags if d[0] == "error")
        super().__init__(first[1], first[2], first[3], first[4])
        self.diags = diags
        self.truncated = truncated

    def render(self, text: str | None = None) -> str:
        out = [render_diagnostic(sev, msg, f, ln, col, text if f == self.file else None)
               for sev, msg, f, ln, col in self.diags]
        if self.truncated:
            out.append("pgcc: error: too many errors emitted, stopping now")
        n = sum(1 for d in self.diags if d[0] == "error")
        out.append(f"{n} error{'s' if n != 1 else ''} generated.")
        return "\n".join(out)


class LinkError(CompileError):
    """The system linker failed; ``render`` shows its own message followed by clang's summary line.

    Args:
        output: the linker's stderr (undefined references, missing libraries...).
        status: its exit status.
    """

    def __init__(self, output: str, status: int):
        super().__init__(f"linker command failed with exit code {status}")
        self.output = output

    def render(self, text: str | None = None) -> str:
        tail = f"pgcc: error: {self.message}"
        return f"{self.output}\n{tail}" if self.output else tail


class HostCompilerError(CompileError):
    """The host C++ compiler rejected the host half of a .cu file (nvcc's model); ``render`` shows its own
    diagnostics, which point into the .cu file, as nvcc shows them.

    Args:
        output: the host compiler's stderr.
    """

    def __init__(self, output: str):
        super().__init__("host compiler failed")
        self.output = output

    def render(self, text: str | None = None) -> str:
        return self.output or f"pgcc: error: {self.message}"


def error_at(cursor, message: str) -> CompileError:
    """A CompileError at a libclang cursor's location."""
    loc = cursor.location
    return CompileError(message, loc.file.name if loc.file else None, loc.line, loc.column)


def error_at_op(op, message: str) -> CompileError:
    """A CompileError at the source location an MLIR op carries (``loc("file":line:col)``; for an inlined op,
    ``loc(callsite("file":line:col at ...))``, the innermost position)."""
    import re

    m = re.search(r'"([^"]+)":(\d+):(\d+)', str(op.location))
    return CompileError(message, m.group(1), int(m.group(2)), int(m.group(3))) if m else CompileError(message)
