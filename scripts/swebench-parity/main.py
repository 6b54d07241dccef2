#!/usr/bin/env python3
"""Record SWE-bench's own verdicts on the parity corpus: src/swebench/fixtures/swebench-parity.json.

    python3 scripts/swebench-parity/main.py [--repo DIR] [--commit SHA] [--python PY ...] [--out FILE]

--repo is a git repository of SWE-bench (a bare mirror works); its `swebench/` package at --commit
(5.0.2's release commit by default) is extracted into a temporary folder and imported from there.
Two imports that have nothing to do with grading are stubbed, because their dependencies are not
installed here: `swebench/harness/__init__.py` (it eagerly imports docker_utils, reporting and
modal_eval, i.e. docker and modal) is replaced by an empty file, and `unidiff` (swebench/utils.py
imports its PatchSet for patch handling; the log parsers only take `ansi_escape` from that module) is
an empty stand-in. Everything the verdict depends on — grading.py, log_parsers, constants, types —
runs unmodified. Each --python (default: every python3 here with pytest) runs the real-pytest cases.

Run by hand when SWE-bench's grading changes; tests never run it (no SWE-bench checkout there).
"""

import argparse
import glob
import json
import locale
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the repository

import cases  # noqa: E402
import projects  # noqa: E402

RELEASE_5_0_2 = "490635b"


def load_swebench(repo, commit, into):
    archive = subprocess.run(["git", "-C", repo, "archive", commit, "swebench"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", into], input=archive.stdout, check=True)
    with open(os.path.join(into, "swebench", "harness", "__init__.py"), "w") as f:
        f.write("# emptied by scripts/swebench-parity/main.py: grading needs none of its imports\n")
    with open(os.path.join(into, "unidiff.py"), "w") as f:
        f.write("PatchSet = None  # stand-in: grading never builds a PatchSet\n")
    sys.path.insert(0, into)
    from swebench import __version__
    from swebench.harness import grading
    from swebench.types import TestSpec

    full = subprocess.run(["git", "-C", repo, "rev-parse", commit], check=True, capture_output=True, text=True)
    return grading, TestSpec, __version__, full.stdout.strip()


def verdict(grading, TestSpec, c, folder):
    path = os.path.join(folder, c["name"] + ".txt")
    # newline="" writes the text byte for byte; SWE-bench reads it back in text mode itself.
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(c["log"])
    spec = TestSpec(
        instance_id="parity__case-1",
        image="none",
        eval_script_list=[],
        repo="parity/case",
        version="1.0",
        FAIL_TO_PASS=c["FAIL_TO_PASS"],
        PASS_TO_PASS=c["PASS_TO_PASS"],
        log_parser="parse_log_pytest",
        eval_type=c["eval_type"],
    )
    status_map, found = grading.get_logs_eval(spec, path)
    result = {"found": found, "status_map": list(status_map.items())}
    if found:
        refs = {"FAIL_TO_PASS": c["FAIL_TO_PASS"], "PASS_TO_PASS": c["PASS_TO_PASS"]}
        report = grading.get_eval_tests_report(status_map, refs, eval_type=grading.EvalType(c["eval_type"]))
        result["tests_status"] = report
        result["resolution"] = grading.get_resolution_status(report)
    else:
        result["tests_status"] = None
        result["resolution"] = None
    result["resolved"] = result["resolution"] == "RESOLVED_FULL"
    return result


def pythons_with_pytest():
    found = []
    for py in ["/usr/bin/python3", sys.executable, *glob.glob("/usr/local/bin/python3")]:
        real = os.path.realpath(py)
        if real in (os.path.realpath(f) for f in found) or not os.path.exists(py):
            continue
        if subprocess.run([py, "-m", "pytest", "--version"], capture_output=True).returncode == 0:
            found.append(py)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default="/work/.mirror/SWE-bench+SWE-bench/repo")
    ap.add_argument("--commit", default=RELEASE_5_0_2)
    ap.add_argument("--python", action="append", help="a python3 with pytest (repeatable)")
    ap.add_argument("--out", default=os.path.join(ROOT, "src", "swebench", "fixtures", "swebench-parity.json"))
    args = ap.parse_args()
    if locale.getpreferredencoding(False).lower().replace("-", "") != "utf8":
        sys.exit("run with python3 -X utf8: SWE-bench opens logs in the locale's encoding")

    with tempfile.TemporaryDirectory(prefix="swebench-src-") as src, tempfile.TemporaryDirectory() as logs:
        grading, TestSpec, version, commit = load_swebench(args.repo, args.commit, src)
        pythons = args.python or pythons_with_pytest()
        if not pythons:
            sys.exit("no python3 with pytest here: pass --python")
        corpus = [c for py in pythons for c in cases.real_cases(py)] + cases.written_cases()
        names = [c["name"] for c in corpus]
        if len(set(names)) != len(names):
            sys.exit("two cases share a name")
        for c in corpus:
            c["swebench"] = verdict(grading, TestSpec, c, logs)

    fixture = {
        "about": (
            "SWE-bench's own verdicts on a corpus of logs, for src/swebench/swebench-rules-parity.test.ts. "
            f"Produced by scripts/swebench-parity/main.py running SWE-bench {version}'s grading.py "
            f"(commit {commit}: get_logs_eval with parse_log_pytest, get_eval_tests_report, "
            "get_resolution_status) unmodified; real-pytest cases ran "
            + ", ".join(projects.pytest_version(py) for py in pythons)
            + ". Regenerate with that script; do not edit by hand."
        ),
        "swebench_version": version,
        "swebench_commit": commit,
        "cases": corpus,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(fixture, f, indent=1, ensure_ascii=True)
        f.write("\n")
    counts = {}
    for c in corpus:
        key = c["swebench"]["resolution"] or "not found"
        counts[key] = counts.get(key, 0) + 1
    print(f"wrote {args.out}: {len(corpus)} cases, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
