"""Diagnostics in clang's format: ``file:line:col: error: message``, the source line and a caret."""

from __future__ import annotations


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
        if not self.file:
            return f"pgcc: error: {self.message}"
        head = f"{self.file}:{self.line}:{self.col}: error: {self.message}"
        try:
            if text is None:
                with open(self.file, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            if self.line < 1:
                return head
            src = text.splitlines()[self.line - 1]
        except (OSError, IndexError):
            return head
        caret = "".join(ch if ch == "\t" else " " for ch in src[: max(self.col - 1, 0)]) + "^"
        return f"{head}\n{src}\n{caret}"


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
