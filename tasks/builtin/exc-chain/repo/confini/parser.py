"""Turn configuration text into sections of raw string values.

The syntax is the common INI subset:

* ``[section]`` starts a section (names may contain dots, keys may not:
  ``${section.key}`` references rely on it); keys before the first header go into the
  section named by DEFAULT_SECTION;
* ``key = value`` or ``key: value``; keys are case-insensitive and stored
  lower-cased, values are stripped of surrounding whitespace;
* a value in double quotes keeps its whitespace and understands the escapes
  ``\\"``, ``\\\\``, ``\\n`` and ``\\t``;
* lines starting with ``#`` or ``;`` are comments, as are blank lines.
"""

import re

from confini.errors import ParseError

DEFAULT_SECTION = "default"

_HEADER = re.compile(r"\[\s*([A-Za-z0-9_.\-]+)\s*\]$")
_KEY = re.compile(r"[A-Za-z0-9_\-]+$")
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def unquote(text, line):
    """Decode a double-quoted value (quotes included) into its string."""
    out = []
    chars = iter(text[1:-1])
    for ch in chars:
        if ch != "\\":
            out.append(ch)
            continue
        nxt = next(chars, None)
        if nxt is None:
            raise ParseError("unterminated quoted value", line)
        if nxt not in _ESCAPES:
            raise ParseError(f"unknown escape \\{nxt} in quoted value", line)
        out.append(_ESCAPES[nxt])
    return "".join(out)


def parse(text):
    """Parse text into ``{section: {key: (value, line)}}``.

    Raises ParseError for a malformed header, a line without '=' or ':', an
    empty key, an unterminated quoted value, or a key defined twice in the
    same section.
    """
    sections = {DEFAULT_SECTION: {}}
    current = sections[DEFAULT_SECTION]
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            match = _HEADER.match(line)
            if match is None:
                raise ParseError(f"malformed section header {line!r}", number)
            current = sections.setdefault(match.group(1).lower(), {})
            continue
        positions = [i for i in (line.find("="), line.find(":")) if i >= 0]
        if not positions:
            raise ParseError(f"expected 'key = value', got {line!r}", number)
        split = min(positions)
        key = line[:split].strip().lower()
        value = line[split + 1 :].strip()
        if not _KEY.match(key):
            raise ParseError(f"invalid key {key!r}", number)
        if key in current:
            raise ParseError(f"duplicate key {key!r}", number)
        if value.startswith('"'):
            if len(value) < 2 or not value.endswith('"'):
                raise ParseError("unterminated quoted value", number)
            value = unquote(value, number)
        current[key] = (value, number)
    return sections
