"""The parity corpus: logs with their FAIL_TO_PASS / PASS_TO_PASS lists.

`real_cases` runs real pytest; `written_cases` are hand-written logs for shapes real pytest does not
print on demand (forged lines, broken markers, other runners' summaries, odd whitespace).
"""

import projects as p

START = ">>>>> Start Test Output"
END = ">>>>> End Test Output"
EXIT = ">>>>> Test Exit Code"
CMD = "pytest --no-header -rA --tb=no -p no:cacheprovider"
M = "tests/test_mix.py::"
FIX = "tests/test_fix.py::test_fix"
OTHER = "tests/test_fix.py::test_other"


def swebench_shape(output, code, command=CMD + " tests"):
    """A log the way SWE-bench's eval script (run under `set -uxo pipefail`) leaves it."""
    return "\n".join(
        [
            "+ source /opt/miniconda3/bin/activate",
            "+ conda activate testbed",
            "+ cd /testbed",
            "+ git checkout 0123abc tests/test_mix.py",
            "Updated 0 paths from 0123abc",
            "+ git apply -v -",
            "Checking patch tests/test_mix.py...",
            "Applied patch tests/test_mix.py cleanly.",
            f"+ : '{START}'",
            f"+ {command}",
            output.rstrip("\n"),
            f"+ SWEBENCH_TEST_EXIT_CODE={code}",
            f"+ : '{END}'",
            f"+ echo '{EXIT}: {code}'",
            f"{EXIT}: {code}",
            "+ git checkout 0123abc tests/test_mix.py",
            "Updated 1 path from 0123abc",
            "",
        ]
    )


def bare_shape(output, code):
    """The same markers printed as plain lines, as acilab's grader writes them."""
    tail = [] if code is None else [f"{EXIT}: {code}"]
    return "\n".join([START, output.rstrip("\n"), END, *tail, ""])


def case(name, about, source, log, f2p, p2p, eval_type="pass_and_fail"):
    return {
        "name": name,
        "about": about,
        "source": source,
        "parser": "pytest",
        "eval_type": eval_type,
        "log": log,
        "FAIL_TO_PASS": f2p,
        "PASS_TO_PASS": p2p,
    }


def real_cases(python):
    version = p.pytest_version(python)
    mix = {"tests/test_mix.py": p.MIX}
    ra, ra_code = p.run(python, mix, ["--no-header", "-rA", "--tb=no", "tests"])
    v, v_code = p.run(python, mix, ["-v", "-rA", "--tb=no", "tests"])
    colour, colour_code = p.run(python, mix, ["--no-header", "-rA", "--tb=no", "--color=yes", "tests"])
    quiet, quiet_code = p.run(python, {"tests/test_mix.py": "def test_a():\n    pass\n"}, ["--tb=no", "tests"])
    coll = {**mix, "tests/test_coll.py": p.COLLECTION_ERROR}
    cont, cont_code = p.run(
        python, coll, ["--no-header", "-rA", "--tb=no", "--continue-on-collection-errors", "tests"]
    )
    stop, stop_code = p.run(python, coll, ["--no-header", "-rA", "--tb=no", "tests"])
    fix = {"tests/test_fix.py": p.FIX}
    after_v, after_v_code = p.run(
        python, {**fix, "conftest.py": p.DESELECT + p.at_exit(f"{FIX} PASSED")}, ["--no-header", "-rA", "--tb=no", "tests"]
    )
    after_s, after_s_code = p.run(
        python, {**fix, "conftest.py": p.DESELECT + p.at_exit(f"PASSED {FIX}")}, ["--no-header", "-rA", "--tb=no", "tests"]
    )
    decoy, decoy_code = p.run(
        python,
        {**fix, "conftest.py": p.at_exit(f"PASSED {FIX}", "FAILED tests/test_decoy.py::test_decoy - assert 0")},
        ["--no-header", "-rA", "--tb=no", "tests"],
    )
    exit0, exit0_code = p.run(
        python, {**fix, "conftest.py": p.at_exit(f"PASSED {FIX}", f"{EXIT}: 0")}, ["--no-header", "-rA", "--tb=no", "tests"]
    )
    captured, captured_code = p.run(
        python, {"tests/test_fix.py": p.PAST_CAPTURE, "conftest.py": p.DESELECT}, ["--no-header", "-rA", "tests"]
    )
    honest_fix, honest_fix_code = p.run(python, fix, ["--no-header", "-rA", "--tb=no", "tests"])

    src = f"{version}, real run"
    tag = version.split()[-1]
    ok = [M + "test_pass", M + "TestK::test_m"]
    return [
        case(f"rA-resolved-{tag}", "-rA log, every expected test passes", src, swebench_shape(ra, ra_code),
             [M + "test_pass", M + "test_xfail"], ok),
        case(f"rA-unresolved-{tag}", "-rA log, the FAIL_TO_PASS test fails (message holds ' - ')", src,
             swebench_shape(ra, ra_code), [M + "test_fail"], ok),
        case(f"rA-partial-{tag}", "one of two FAIL_TO_PASS tests passes: RESOLVED_PARTIAL", src,
             bare_shape(ra, ra_code), [M + "test_pass", M + "test_fail"], ok),
        case(f"rA-skip-has-no-id-{tag}", "-rA prints skips as 'SKIPPED [1] file:line', so a skipped "
             "PASS_TO_PASS test is missing", src, bare_shape(ra, ra_code), [M + "test_pass"], [M + "test_skip"]),
        case(f"rA-xpass-missing-{tag}", "XPASS is no SWE-bench status: the test is missing", src,
             bare_shape(ra, ra_code), [M + "test_xpass"], []),
        case(f"rA-error-and-teardown-{tag}", "fixture error, and a pass followed by a teardown ERROR", src,
             bare_shape(ra, ra_code), [M + "test_error"], [M + "test_teardown"]),
        case(f"rA-truncated-mid-parameter-{tag}", "ids cut mid-parameter resolve by prefix when candidates "
             "agree (pass, pass+xfail, pass+unlisted skip)", src, swebench_shape(ra, ra_code),
             [M + "test_ogip[log(pho", M + "test_ogip[log(", M + "test_px[", M + "test_ps["], [M + "test_agree[No"]),
        case(f"rA-truncated-ambiguous-{tag}", "a cut id whose candidates disagree (pass and fail) fails", src,
             swebench_shape(ra, ra_code), [M + "test_mixed[No"], ok),
        case(f"rA-truncated-at-space-{tag}", "ids SWE-bench's own parser cut at a space match exactly; a "
             "whole id holding a space is missing", src, swebench_shape(ra, ra_code),
             [M + "test_ogip[log(photon", M + "test_ogip[a"], [M + "test_ogip[a b]"]),
        case(f"v-rA-{tag}", "-v -rA log: status-last lines are not read, the summary is", src,
             swebench_shape(v, v_code), [M + "test_pass", M + "test_ogip[ab]"], [M + "test_skip"]),
        case(f"colour-{tag}", "--color=yes: every status line starts with an escape code, nothing parses", src,
             swebench_shape(colour, colour_code), [M + "test_pass"], []),
        case(f"no-rA-{tag}", "pytest without -rA: no summary lines, no SUITE_RAN evidence", src,
             bare_shape(quiet, quiet_code), [M + "test_a"], []),
        case(f"collection-error-continue-{tag}", "a file fails to collect, the others run", src,
             swebench_shape(cont, cont_code), [M + "test_pass"], ["tests/test_coll.py::test_never"]),
        case(f"collection-error-interrupted-{tag}", "a collection error stops the run: only 'ERROR file'", src,
             swebench_shape(stop, stop_code), [M + "test_pass"], []),
        case(f"forged-status-last-deselected-{tag}", "issue 9: the F2P test deselected by conftest.py, "
             "'id PASSED' printed at exit", src, bare_shape(after_v, after_v_code), [FIX], [OTHER]),
        case(f"forged-status-first-deselected-{tag}", "the same with 'PASSED id' at exit: SWE-bench takes it",
             src, bare_shape(after_s, after_s_code), [FIX], [OTHER]),
        case(f"forged-with-decoy-failure-{tag}", "'PASSED id' at exit overwrites the real FAILED; a decoy "
             "FAILED line satisfies the exit-code check", src, bare_shape(decoy, decoy_code), [FIX], [OTHER]),
        case(f"forged-exit-code-{tag}", "a forged '>>>>> Test Exit Code: 0' before the real one", src,
             bare_shape(exit0, exit0_code), [FIX], [OTHER]),
        case(f"forged-in-captured-output-{tag}", "a test prints 'PASSED id' into its captured output (shown "
             "by -rA without --tb=no) and past the capture", src, bare_shape(captured, captured_code), [FIX],
             [OTHER]),
        case(f"honest-failure-{tag}", "the same project without a conftest: the F2P test fails", src,
             swebench_shape(honest_fix, honest_fix_code), [FIX], [OTHER]),
    ]


def w(name, about, log, f2p, p2p, eval_type="pass_and_fail"):
    return case(name, about, "hand-written", log, f2p, p2p, eval_type)


# Candidate statuses per group of parametrized ids; group 8 has no candidates at all.
TRUNCATED_GROUPS = [
    (1, ["PASSED", "XFAIL"]),
    (2, ["FAILED", "ERROR"]),
    (3, ["SKIPPED", "SKIPPED"]),
    (4, ["XFAIL", "SKIPPED"]),
    (5, ["ERROR", "SKIPPED"]),
    (6, ["SKIPPED", "ERROR"]),
    (7, ["PASSED"]),
]


def written_cases():
    a, b = "t.py::test_a", "t.py::test_b"
    both = f"PASSED {a}\nPASSED {b}\n"
    return [
        w("results-outside-markers", "empty between the markers, results before them: whole-log fallback",
          f"PASSED {a}\n{START}\n{END}\n{EXIT}: 0\n", [a], []),
        w("results-inside-and-outside", "results inside the markers win; the ones outside are not read",
          f"FAILED {a}\n{START}\nPASSED {a}\n{END}\n{EXIT}: 0\n", [a], []),
        w("no-start-marker", "no start marker: not found", f"PASSED {a}\n{END}\n{EXIT}: 0\n", [a], []),
        w("no-end-marker", "no end marker: not found", f"{START}\nPASSED {a}\n{EXIT}: 0\n", [a], []),
        w("end-before-start", "end marker first: the slice runs from the start marker to the log's end",
          f"{END}\nFAILED {b}\n{START}\nPASSED {a}\n{EXIT}: 0\n", [a], []),
        w("two-start-markers", "a second start marker ends the slice", f"{START}\nPASSED {a}\n{START}\n"
          f"FAILED {a}\n{END}\n{EXIT}: 0\n", [a], []),
        w("early-end-marker", "a test prints the end marker early: later real results are ignored",
          f"{START}\nPASSED {a}\nFAILED t.py::decoy\n{END}\nFAILED {a}\n{END}\n{EXIT}: 1\n", [a], []),
        w("patch-apply-failed", "a failure marker anywhere voids the log",
          f">>>>> Patch Apply Failed\n{START}\n{both}{END}\n{EXIT}: 0\n", [a], [b]),
        w("tests-timed-out", "timeout marker after the run", f"{START}\n{both}{END}\n{EXIT}: 0\n"
          ">>>>> Tests Timed Out\n", [a], [b]),
        w("tests-errored-printed-by-test", "a test printing '>>>>> Tests Errored' voids an honest run",
          f"{START}\n>>>>> Tests Errored\n{both}{END}\n{EXIT}: 0\n", [a], [b]),
        w("reset-failed", "reset failure marker", f">>>>> Reset Failed\n{START}\n{both}{END}\n", [a], [b]),
        w("exit-code-mismatch", "exit 1 with no FAILED/ERROR: rejected as forged",
          f"{START}\n{both}{END}\n{EXIT}: 1\n", [a], [b]),
        w("exit-code-nonzero-with-failure", "exit 1 backed by a FAILED line is an ordinary failing run",
          f"{START}\n{both}FAILED t.py::test_c\n{END}\n{EXIT}: 1\n", [a], [b]),
        w("exit-code-zero-with-failure", "exit 0 with a FAILED line: no check", f"{START}\nPASSED {a}\n"
          f"FAILED {b}\n{END}\n{EXIT}: 0\n", [a], [b]),
        w("exit-code-missing", "no recorded exit code: the cross-check is skipped", f"{START}\n{both}{END}\n",
          [a], [b]),
        w("exit-code-unicode-digit", "'\u0661' is a digit to Python's int(): exit 1, rejected",
          f"{START}\n{both}{END}\n{EXIT}: \u0661\n", [a], [b]),
        w("exit-code-newline", "\\s* in the exit-code pattern spans a newline", f"{START}\n{both}{END}\n"
          f"{EXIT}:\n 2\n", [a], [b]),
        w("exit-code-negative-zero", "'-0' is zero", f"{START}\n{both}{END}\n{EXIT}: -0\n", [a], [b]),
        w("exit-code-weird-status", "exit 1 and only an 'ERROR:' status, which is neither FAILED nor ERROR",
          f"{START}\nERROR: {a}\n{END}\n{EXIT}: 1\n", [a], []),
        w("empty-no-evidence", "nothing parsed, no runner summary: not found", f"{START}\ncollected 0 items\n"
          f"========== no tests ran in 0.01s ==========\n{END}\n{EXIT}: 5\n", [a], []),
        w("suite-ran-karma-fail-only", "karma-style summary, fail_only: absent F2P tests succeed",
          f"{START}\nExecuted 1339 of 1346 (skipped 7) SUCCESS\n{END}\n{EXIT}: 0\n", [a], [b], "fail_only"),
        w("suite-ran-karma-pass-and-fail", "the same under pass_and_fail: absent tests fail",
          f"{START}\nExecuted 1339 of 1346 (skipped 7) SUCCESS\n{END}\n{EXIT}: 0\n", [a], [b]),
        w("suite-ran-zero-count", "'Executed 0 of 0' is no evidence", f"{START}\nExecuted 0 of 0 DISCONNECTED\n"
          f"{END}\n{EXIT}: 1\n", [a], [], "fail_only"),
        w("suite-ran-mocha", "mocha's '12 passing', exit 1 with an empty map is not cross-checked",
          f"{START}\n  12 passing (3s)\n{END}\n{EXIT}: 1\n", [a], [], "fail_only"),
        w("suite-ran-tap-line-start", "'# tests 4' counts only at a line start", f"{START}\n# tests 4\n{END}\n",
          [a], [], "fail_only"),
        w("suite-ran-tap-indented", "'  # tests 4' does not", f"{START}\n  # tests 4\n{END}\n", [a], [],
          "fail_only"),
        w("suite-ran-tap-after-u2028", "U+2028 is no line break to Python's re.M", f"{START}\nx\u2028# tests 4\n"
          f"{END}\n", [a], [], "fail_only"),
        w("suite-ran-jest-nbsp", "'Tests:' then a no-break space: Python's \\s matches it",
          f"{START}\nTests:\u00a03 passed, 3 total\n{END}\n", [a], [], "fail_only"),
        w("suite-ran-jest-bom", "'Tests:' then U+FEFF: JavaScript's \\s would match, Python's does not",
          f"{START}\nTests:\ufeff3 passed\n{END}\n", [a], [], "fail_only"),
        w("suite-ran-test-suites", "jest's 'Test Suites: 1 failed, 2 total'", f"{START}\nTest Suites: 1 failed, "
          f"1 passed, 2 total\n{END}\n", [a], [], "fail_only"),
        w("suite-ran-jasmine", "jasmine's '658 specs, 0 failures'", f"{START}\n658 specs, 0 failures\n{END}\n",
          [a], [], "fail_only"),
        w("suite-ran-openlayers", "\"': ok\" at a line end", f"{START}\n'render case': ok\n{END}\n", [a], [],
          "fail_only"),
        w("suite-ran-openlayers-not-at-end", "\"': ok\" mid-line is no evidence", f"{START}\n'case': ok, more\n"
          f"{END}\n", [a], [], "fail_only"),
        w("fail-only-statuses", "fail_only: FAILED fails, ERROR and missing succeed, no prefix matching",
          f"{START}\nFAILED {a}\nERROR {b}\nPASSED t.py::test_p[x1]\n{END}\n{EXIT}: 1\n",
          [a, b, "t.py::test_gone"], ["t.py::test_p[x"], "fail_only"),
        w("status-suffix-lands-nowhere", "'PASSEDX' is kept as a status that neither passes nor fails, so the "
          "test is in neither list and the empty ratio counts as 1", f"{START}\nPASSEDX {a}\nPASSED {b}\n{END}\n"
          f"{EXIT}: 0\n", [a], [b]),
        w("duplicate-id-last-wins", "a later line overwrites the status", f"{START}\nPASSED {a}\nFAILED {a}\n"
          f"PASSED {b}\n{END}\n{EXIT}: 1\n", [a], [b]),
        w("failed-dash-in-id", "FAILED lines lose every ' - ', cutting ids that hold one",
          f"{START}\nFAILED t.py::test_x[a - b] - boom - more\nPASSED {a}\n{END}\n{EXIT}: 1\n",
          ["t.py::test_x[a"], [a]),
        w("skip-summary-and-skip-id", "'SKIPPED [1] file:line' is skipped; 'SKIPPED id' is recorded",
          f"{START}\nSKIPPED [1] t.py:3: later\nSKIPPED [\u0663] t.py:4: unicode count\nSKIPPED {a}\nPASSED {b}\n"
          f"{END}\n{EXIT}: 0\n", [b], [a, "[1]"]),
        w("skipped-f2p-fails", "a skipped FAIL_TO_PASS test is a failure", f"{START}\nSKIPPED {a}\nPASSED {b}\n"
          f"{END}\n{EXIT}: 0\n", [a], [b]),
        w("progress-artifact-kept", "'PASSED [100%]' records the id '[100%]'", f"{START}\nPASSED [100%]\n{END}\n"
          f"{EXIT}: 0\n", ["[100%]"], []),
        w("indented-and-colour", "an indented or coloured status line does not count",
          f"{START}\n  PASSED {a}\n\x1b[32mPASSED\x1b[0m {b}\nPASSED t.py::test_c\n{END}\n{EXIT}: 0\n", [a, b], []),
        w("whitespace-kinds", "nbsp, tab and \\x1f split like spaces; U+FEFF does not",
          f"{START}\nPASSED\u00a0{a}\nPASSED\t{b}\nPASSED\x1ft.py::test_c\nPASSED\ufefft.py::test_d\n{END}\n"
          f"{EXIT}: 0\n", [a, b, "t.py::test_c"], ["t.py::test_d"]),
        w("carriage-return-starts-a-line", "text mode turns a lone \\r into a line break, so a status after "
          "one counts", f"{START}\ncollecting ... \rPASSED {a}\r\nPASSED {b}\r\n{END}\r\n{EXIT}: 0\r\n", [a], [b]),
        w("truncated-p2p-skip-first-then-fail", "a cut P2P id over SKIPPED then FAILED: the candidates agree "
          "on 'not passing', the first (SKIPPED) decides, the test is kept",
          f"{START}\nSKIPPED t.py::test_p[x1]\nFAILED t.py::test_p[x2]\nPASSED {a}\n{END}\n{EXIT}: 1\n",
          [a], ["t.py::test_p[x"]),
        w("truncated-p2p-fail-first-then-skip", "the same candidates in the other order: the test fails",
          f"{START}\nFAILED t.py::test_p[x2]\nSKIPPED t.py::test_p[x1]\nPASSED {a}\n{END}\n{EXIT}: 1\n",
          [a], ["t.py::test_p[x"]),
        w("truncated-pass-and-skip", "a cut id over a pass and a skip disagrees: it fails in both lists",
          f"{START}\nPASSED t.py::test_p[x1]\nSKIPPED t.py::test_p[x2]\nPASSED {a}\n{END}\n{EXIT}: 0\n",
          ["t.py::test_p[x"], [a, "t.py::test_p["]),
        w("truncated-matrix", "cut ids over every mix of candidate statuses, in both lists",
          f"{START}\n" + "".join(f"{st} t.py::g{g}[a{i}]\n" for g, sts in TRUNCATED_GROUPS for i, st in enumerate(sts))
          + f"{END}\n{EXIT}: 1\n", [f"t.py::g{g}[a" for g in range(1, 9)], [f"t.py::g{g}[a" for g in range(1, 9)]),
        w("truncated-not-pytest", "any name with an unclosed '[' is prefix-matched, not only pytest ids",
          f"{START}\nPASSED handles_[foo_bar]\nPASSED {a}\n{END}\n{EXIT}: 0\n", ["handles_[foo"], [a]),
        w("surplus-bracket-exact", "a surplus ']' is no truncation: exact match only",
          f"{START}\nPASSED t.py::x]-and-more\n{END}\n{EXIT}: 0\n", ["t.py::x]"], []),
        w("empty-lists", "no expected tests: both ratios are 1, resolved", f"{START}\n{both}{END}\n{EXIT}: 0\n",
          [], []),
        w("duplicate-expected", "an id listed twice is bucketed twice", f"{START}\nPASSED {a}\nFAILED {b}\n{END}\n"
          f"{EXIT}: 1\n", [a, a, b], []),
    ]
