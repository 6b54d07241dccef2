/**
 * The Python lint worker, run as `python3 -I -c <this>`: one request per line on stdin
 * (`{"id", "name", "source"}`), one reply per line on stdout (`{"id", "issues": [[row, col, code, message]]}`
 * or `{"id", "error"}`), after a greeting line saying whether pyflakes imported.
 *
 * It reproduces `flake8 --isolated --select=F821,F822,F831,E111,E112,E113,E999,E902` (flake8 5,
 * pyflakes 2.5, pycodestyle 2.10) without a process per file and without the unselected checks flake8
 * runs anyway (~0.9 s for 3,000 lines): ast.parse for E999, pyflakes' Checker for the three F codes, the
 * C tokenizer's logical lines for E111-E113, and flake8's noqa rules. It only parses: nothing in the
 * checked source is imported or run. python-parity.test.ts holds it to real flake8.
 */
export const PYTHON_WORKER_SOURCE = String.raw`
import ast
import collections
import gc
import io
import json
import os
import platform
import re
import select
import sys
import tokenize
import warnings

try:
    import pyflakes
    import pyflakes.checker
except Exception as e:  # reported in the greeting so the caller can fall back and say why
    sys.stdout.write(json.dumps({"ready": False, "error": f"{type(e).__name__}: {e}"}) + "\n")
    sys.stdout.flush()
    sys.exit(0)

# Parse warnings (invalid escapes, "is" with a literal) would pile up on stderr for the life of the worker.
warnings.simplefilter("ignore")

if hasattr(pyflakes.checker, "_collect_type_comments"):
    _collect_type_comments = pyflakes.checker._collect_type_comments

    def _type_comments(tree, tokens):
        # Without tokens the answer is empty, but pyflakes 2 walks the whole tree first: ~25% of its time.
        return _collect_type_comments(tree, tokens) if tokens else collections.defaultdict(list)

    pyflakes.checker._collect_type_comments = _type_comments

PYFLAKES_CODES = {"UndefinedName": "F821", "UndefinedExport": "F822", "DuplicateArgument": "F831"}
# flake8 5's noqa patterns (flake8/defaults.py), applied the way flake8/violation.py applies them.
NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.I)
NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)
NOQA_HINT = re.compile(r"# noqa", re.I)
# pyflakes reads "# type:" comments from the token stream; without one, tokens change nothing.
TYPE_COMMENT_HINT = re.compile(r"#\s*type:")
# Types that never start or end a logical line with code: comment-only lines get E114-E116 (not selected).
NOT_CODE = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def read_lines(source):
    """The lines flake8 would read from this text saved as UTF-8 (FileProcessor.read_lines, strip_utf_bom)."""
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: Node writes them as U+FFFD
        data = re.sub("[\ud800-\udfff]", "\ufffd", source).encode("utf-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        lines = io.TextIOWrapper(io.BytesIO(data), encoding).readlines()
    except (SyntaxError, UnicodeError):
        lines = io.TextIOWrapper(io.BytesIO(data), "latin-1").readlines()
    if lines and lines[0][:1] == "\ufeff":
        lines[0] = lines[0][1:]
    elif lines and lines[0][:3] == "\xef\xbb\xbf":
        lines[0] = lines[0][3:]
    return lines


def py_tokens(lines):
    return tokenize.generate_tokens(iter(lines).__next__)


def code_tokens(source, lines):
    """(type, text, row, col) of every token. The C tokenizer is ~10x faster; on 3.11 it is private."""
    if sys.version_info[:2] == (3, 11):
        import _tokenize

        for text, kind, row, _, col, _, _ in _tokenize.TokenizerIter(source):
            yield kind, text, row, col
    else:
        for kind, text, (row, col), _, _ in py_tokens(lines):
            yield kind, text, row, col


def indentation(source, lines, report):
    """E111-E113 as flake8 reports them: pycodestyle's indentation() on each logical line with code."""
    previous_indent, previous_colon, start, last = 0, False, None, None
    for kind, text, row, col in code_tokens(source, lines):
        if kind == tokenize.NEWLINE:
            if start is None:
                continue
            indent = len(lines[start[0] - 1][: start[1]].expandtabs(8))
            if indent % 4:
                report("E111", start[0], start[1], "indentation is not a multiple of 4")
            if previous_colon and indent <= previous_indent:
                report("E112", start[0], start[1], "expected an indented block")
            elif not previous_colon and indent > previous_indent:
                report("E113", start[0], start[1], "unexpected indentation")
            previous_indent, previous_colon, start = indent, last == ":", None
        elif kind not in NOT_CODE:
            start = start or (row, col)
            last = text


def parse(text):
    try:
        return ast.parse(text)
    except ValueError as e:  # null bytes on 3.11, where flake8 5 crashes: raise what 3.12 raises
        raise SyntaxError(str(e), ("<unknown>", 1, 0, "", 1, 0)) from None


def syntax_position(e):
    """flake8's FileChecker._extract_syntax_information."""
    token = ()
    if len(e.args) > 1 and e.args[1] and len(e.args[1]) > 2:
        token = e.args[1]
        row, column = token[1:3]
    elif isinstance(e, tokenize.TokenError) and len(e.args) == 2 and len(e.args[1]) == 2:
        row, column = e.args[1]
    else:
        row, column = 1, 0
    if column and column > 0 and token and isinstance(e, SyntaxError) and len(token) == 4:
        # Python <= 3.9: 1-based columns, and the "line" may hold several physical lines.
        if token[3] is not None:
            physical = token[3].rstrip("\n").split("\n")
            row -= len(physical) - 1
            column = min(column, len(physical[0]))
        column -= 1
    return row or 1, column or 0


def noqa_lines(lines):
    """flake8's FileProcessor._noqa_line_mapping: a "# noqa" anywhere in a multi-line token covers all its lines."""
    try:
        tokens = list(py_tokens(lines))
    except (tokenize.TokenError, SyntaxError):
        return {}
    mapping, low, high = {}, len(lines) + 2, -1
    for kind, _, (start, _), (end, _), _ in tokens:
        if kind == tokenize.ENDMARKER:
            break
        low, high = min(low, start), max(high, end)
        if kind in (tokenize.NL, tokenize.NEWLINE):
            mapping.update(dict.fromkeys(range(low, high + 1), "".join(lines[low - 1 : high])))
            low, high = len(lines) + 2, -1
    if high != -1:
        mapping.update(dict.fromkeys(range(low, high + 1), "".join(lines[low - 1 : high])))
    return mapping


def suppressed(code, line):
    match = NOQA_INLINE.search(line)
    if match is None:
        return False
    if match.group("codes") is None:
        return True
    codes = [c.strip() for c in re.split(r"[,\s]", match.group("codes")) if c.strip()]
    return code in codes or code.startswith(tuple(codes))


def lint(source, name):
    """[row, column, code, message] as "flake8 --isolated --select=<the guardrail's codes>" prints them."""
    lines = read_lines(source)
    if any(NOQA_FILE.match(line) for line in lines):
        return []
    results = []

    def report(code, row, col, message):
        results.append((row, col, code, message))

    text = "".join(lines)
    try:
        tree = parse(text)
        file_tokens = list(py_tokens(lines)) if TYPE_COMMENT_HINT.search(text) else ()
        checker = pyflakes.checker.Checker(tree, filename=name, withDoctest=False, file_tokens=file_tokens)
        for m in checker.messages:
            code = PYFLAKES_CODES.get(type(m).__name__)
            if code:
                report(code, m.lineno, getattr(m, "col", 0), m.message % m.message_args)
        indentation(text, lines, report)
    except (SyntaxError, tokenize.TokenError) as e:
        code = "E902" if isinstance(e, tokenize.TokenError) else "E999"
        row, col = syntax_position(e)
        report(code, row, col, f"{type(e).__name__}: {e.args[0]}")
    results.sort(key=lambda r: (r[0], r[1]))
    if results and NOQA_HINT.search(text):
        mapping = noqa_lines(lines)

        def physical(row):
            return lines[row - 1] if 0 < row <= len(lines) else ""

        results = [r for r in results if not suppressed(r[2], mapping.get(r[0], physical(r[0])))]
    return [[row, (col or 0) + 1, code, message] for row, col, code, message in results]


# A lint leaves ~10 tracked objects per source line, all in cycles (pyflakes links each node to its
# parent), and collecting them costs ~40% of the lint itself. So the collector is off during a lint
# and runs once stdin has been quiet for IDLE_SECONDS: a model takes seconds per turn, so that wait is
# free. Requests that come back to back (scripts, benchmarks) collect inline once OWED_OBJECTS_MAX are
# owed: ~15 MB, three or four lints of a 3,000-line file, so that such a pause stays short (~30 ms).
IDLE_SECONDS = 0.02
OWED_OBJECTS_MAX = 100_000
# Fewer objects than this are not worth a collection of their own.
OWED_OBJECTS_MIN = 1_000


def requests():
    """Lines from stdin, collecting garbage whenever none is waiting."""
    fd, buffered = sys.stdin.fileno(), b""
    while True:
        while b"\n" not in buffered:
            if gc.get_count()[0] > OWED_OBJECTS_MIN and not select.select([fd], [], [], IDLE_SECONDS)[0]:
                gc.collect()
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            buffered += chunk
        line, buffered = buffered.split(b"\n", 1)
        yield line
        if gc.get_count()[0] > OWED_OBJECTS_MAX:
            gc.collect()


def main():
    out = sys.stdout
    gc.freeze()  # what start-up made lives as long as the worker: never scan it again
    gc.disable()
    hello = {"ready": True, "pyflakes": pyflakes.__version__, "python": platform.python_version()}
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for raw in requests():
        request = {}
        try:
            request = json.loads(raw)
            reply = {"id": request["id"], "issues": lint(request["source"], request["name"])}
        except Exception as e:  # a checker bug answers this request with an error; the worker lives on
            reply = {"id": request.get("id"), "error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


main()
`;
