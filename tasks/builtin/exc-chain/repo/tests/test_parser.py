import pytest

from confini import ParseError, loads
from confini.parser import DEFAULT_SECTION, parse


def test_sections_keys_and_line_numbers():
    sections = parse("a = 1\n\n[Server]\nPort = 80\n")
    assert sections[DEFAULT_SECTION] == {"a": ("1", 1)}
    assert sections["server"] == {"port": ("80", 4)}


def test_colon_separator_and_value_containing_separators():
    sections = parse("[s]\nurl = http://host:80/x\ntime: 10:30\n")
    assert sections["s"]["url"][0] == "http://host:80/x"
    assert sections["s"]["time"][0] == "10:30"


def test_comments_and_blank_lines_are_skipped():
    sections = parse("# comment\n; another\n\n[s]\n  # indented comment\nk = v\n")
    assert sections["s"] == {"k": ("v", 6)}


def test_quoted_values_keep_whitespace_and_decode_escapes():
    sections = parse('[s]\nk = "  two\\tparts \\"q\\" \\\\ "\n')
    assert sections["s"]["k"][0] == '  two\tparts "q" \\ '


def test_repeated_header_continues_the_section():
    sections = parse("[s]\na = 1\n[t]\n[s]\nb = 2\n")
    assert set(sections["s"]) == {"a", "b"}


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("[s\nk = v", 1, "malformed section header"),
        ("[s]\njust words", 2, "expected 'key = value'"),
        ("[s]\n= v", 2, "invalid key"),
        ("[s]\nk = 1\nK = 2", 3, "duplicate key"),
        ('[s]\nk = "open', 2, "unterminated quoted value"),
        ('[s]\nk = "ends in backslash\\"', 2, "unterminated quoted value"),
        ('[s]\nk = "bad \\q escape"', 2, "unknown escape"),
    ],
    ids=[
        "bad-header",
        "no-separator",
        "empty-key",
        "duplicate-key",
        "open-quote",
        "escaped-closing-quote",
        "unknown-escape",
    ],
)
def test_parse_errors_carry_the_line(text, line, fragment):
    with pytest.raises(ParseError) as info:
        loads(text)
    assert info.value.line == line
    assert fragment in str(info.value)
    assert str(info.value).endswith(f"(line {line})")
