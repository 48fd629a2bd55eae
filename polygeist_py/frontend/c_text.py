"""A scanner over C source text for the few places that read it directly (a `for` header inside a macro's
definition, clang's printing of an asm statement): the characters that are code, with their bracket depth,
skipping comments and string and character literals."""

from __future__ import annotations


def code_chars(text: str, start: int = 0, depth: int = 0, brackets: str = "()"):
    """Yield (offset, character, depth) for each character of `text` from `start` that is code (outside
    `/* */` and `//` comments and `"..."`/`'...'` literals, escapes honoured). `brackets` is a string of
    opening then closing brackets of equal length ("()" or "([)]"); depth counts the open ones around the
    character: an opening bracket is reported at the depth outside it, a closing one at the depth after it."""
    half = len(brackets) // 2
    opens, closes = brackets[:half], brackets[half:]
    i = start
    while i < len(text):
        ch = text[i]
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        if ch in "\"'":
            j = i + 1
            while j < len(text) and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if ch in closes:
            depth -= 1
        yield i, ch, depth
        if ch in opens:
            depth += 1
        i += 1
