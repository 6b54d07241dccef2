#!/usr/bin/env python3
"""Compare acilab's `--rules swebench` verdicts with SWE-bench's own grading of the same logs.

    python3 -X utf8 scripts/swebench-parity/run_folder.py --instances lite.jsonl --run runs/grade/RUN/MODEL
        [--repo SWE-bench.git] [--commit SHA] [--acilab DIST]

For every instance folder of the run: SWE-bench's grading.py (5.0.2's release commit by default,
extracted from --repo into a temporary folder, as main.py does) reads test_output.txt with the log
parser SWE-bench names for the row's repository, and its verdict (found, resolution) and per-test
buckets (FAIL_TO_PASS / PASS_TO_PASS success and failure) are compared with acilab's report.json;
the whole status map is compared with acilab's `--rules swebench` reader of the same log (run through
node from --acilab's dist/). A run graded under acilab's default rules is compared through the
verdict `--rules swebench` gives its logs (computed here); its own hardened verdict is not compared. Empty predictions have no log: SWE-bench does not run them either, and
both say unresolved. Prints one line per difference and a count; exits 1 when any differ.

Run by hand after a grading run; tests never run it (no SWE-bench checkout there).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

from main import RELEASE_5_0_2, load_swebench  # noqa: E402

# The parser SWE-bench's harness names for each repository (MAP_REPO_TO_PARSER_PY).
PARSERS = {
    "astropy/astropy": "parse_log_astropy",
    "django/django": "parse_log_django",
    "matplotlib/matplotlib": "parse_log_matplotlib",
    "mwaskom/seaborn": "parse_log_seaborn",
    "pallets/flask": "parse_log_flask",
    "psf/requests": "parse_log_requests",
    "pydata/xarray": "parse_log_xarray",
    "pylint-dev/pylint": "parse_log_pylint",
    "pytest-dev/pytest": "parse_log_pytest",
    "scikit-learn/scikit-learn": "parse_log_scikit",
    "sphinx-doc/sphinx": "parse_log_sphinx",
    "sympy/sympy": "parse_log_sympy",
}

# acilab's reader of each, by its log_parser name (src/swebench/recipes/*.yaml).
ACILAB_PARSERS = {
    "astropy/astropy": "pytest-v2",
    "django/django": "django",
    "matplotlib/matplotlib": "matplotlib",
    "mwaskom/seaborn": "seaborn",
    "pallets/flask": "pytest",
    "psf/requests": "pytest-options",
    "pydata/xarray": "pytest",
    "pylint-dev/pylint": "pytest-options",
    "pytest-dev/pytest": "pytest",
    "scikit-learn/scikit-learn": "pytest-v2",
    "sphinx-doc/sphinx": "pytest-v2",
    "sympy/sympy": "sympy",
}

NODE_READER = """
import { readFileSync } from "node:fs";
const { gradeSwebenchLog } = await import(process.argv[1] + "/src/swebench/index.js");
const jobs = JSON.parse(readFileSync(0, "utf8"));
const out = {};
for (const j of jobs) {
  const v = gradeSwebenchLog(readFileSync(j.log, "utf8"), j.tests, j.parser);
  out[j.id] = { found: v.found, status_map: [...v.statusMap], tests_status: v.tests_status, resolved: v.resolved };
}
process.stdout.write(JSON.stringify(out));
"""


def as_list(value):
    return json.loads(value) if isinstance(value, str) else value


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", required=True)
    ap.add_argument("--run", required=True, help="the run's model folder: RUN_DIR/MODEL")
    ap.add_argument("--repo", default="/work/.mirror/SWE-bench+SWE-bench/repo")
    ap.add_argument("--commit", default=RELEASE_5_0_2)
    ap.add_argument("--acilab", default=os.path.join(ROOT, "dist"))
    args = ap.parse_args()

    rows = {}
    with open(args.instances, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                rows[r["instance_id"]] = r
    # Instance folders with a verdict (a run still going has some without).
    folders = sorted(
        d for d in os.listdir(args.run) if os.path.exists(os.path.join(args.run, d, "report.json"))
    )
    jobs = []
    for iid in folders:
        log = os.path.join(args.run, iid, "test_output.txt")
        if iid in rows and os.path.exists(log):
            row = rows[iid]
            tests = {"FAIL_TO_PASS": as_list(row["FAIL_TO_PASS"]), "PASS_TO_PASS": as_list(row["PASS_TO_PASS"])}
            jobs.append({"id": iid, "log": log, "parser": ACILAB_PARSERS[row["repo"]], "tests": tests})
    ours_maps = json.loads(
        subprocess.run(
            ["node", "--input-type=module", "-e", NODE_READER, args.acilab],
            input=json.dumps(jobs), capture_output=True, text=True, check=True,
        ).stdout
    )

    differences = []
    compared = {"graded": 0, "empty": 0, "unavailable": 0}
    resolved = {"acilab": 0, "swebench": 0}
    with tempfile.TemporaryDirectory(prefix="swebench-src-") as src:
        grading, TestSpec, version, commit = load_swebench(args.repo, args.commit, src)
        for iid in folders:
            with open(os.path.join(args.run, iid, "report.json"), encoding="utf-8") as f:
                ours = json.load(f)[iid]
            row = rows[iid]
            if ours["outcome"] == "environment_unavailable":
                compared["unavailable"] += 1
                continue
            log = os.path.join(args.run, iid, "test_output.txt")
            if not os.path.exists(log):
                # An empty patch: neither harness runs it; both call it unresolved.
                compared["empty"] += 1
                if ours["resolved"]:
                    differences.append(f"{iid}: no log, yet acilab says resolved")
                continue
            compared["graded"] += 1
            spec = TestSpec(
                instance_id=iid, image="none", eval_script_list=[], repo=row["repo"], version=row["version"],
                FAIL_TO_PASS=as_list(row["FAIL_TO_PASS"]), PASS_TO_PASS=as_list(row["PASS_TO_PASS"]),
                log_parser=PARSERS[row["repo"]], eval_type="pass_and_fail",
            )
            status_map, found = grading.get_logs_eval(spec, log)
            if found:
                refs = {"FAIL_TO_PASS": spec.FAIL_TO_PASS, "PASS_TO_PASS": spec.PASS_TO_PASS}
                report = grading.get_eval_tests_report(status_map, refs, eval_type=grading.EvalType.PASS_AND_FAIL)
                theirs_resolved = grading.get_resolution_status(report) == "RESOLVED_FULL"
            else:
                report, theirs_resolved = None, False
            # acilab's --rules swebench verdict on this log: the run's own report when it was graded
            # under those rules, else computed now from the log (a hardened run's log is the same run
            # for a runner acilab does not guard, with the canaries in it, which no list names).
            mine = ours_maps.get(iid)
            if ours.get("rules") != "swebench" and mine is not None:
                ours = {**ours, "resolved": mine["resolved"], "tests_status": mine["tests_status"]}
            resolved["swebench"] += theirs_resolved
            resolved["acilab"] += bool(ours["resolved"])
            if theirs_resolved != ours["resolved"]:
                differences.append(f"{iid}: resolved — SWE-bench {theirs_resolved}, acilab {ours['resolved']}")
            if mine is None or mine["found"] != found:
                differences.append(f"{iid}: log found — SWE-bench {found}, acilab {mine and mine['found']}")
            elif dict(mine["status_map"]) != status_map:
                a, b = dict(mine["status_map"]), status_map
                diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[:5]
                differences.append(f"{iid}: status maps differ at {diff}")
            if report is not None:
                for bucket in ("FAIL_TO_PASS", "PASS_TO_PASS"):
                    for side in ("success", "failure"):
                        if sorted(report[bucket][side]) != sorted(ours["tests_status"][bucket][side]):
                            differences.append(f"{iid}: {bucket}.{side} differs")
    for d in differences:
        print(d)
    print(
        f"SWE-bench {version} ({commit[:10]}) vs acilab on {args.run}: {compared['graded']} logs compared "
        f"(resolved: SWE-bench {resolved['swebench']}, acilab {resolved['acilab']}), "
        f"{compared['empty']} empty patches, {compared['unavailable']} unavailable; {len(differences)} differences"
    )
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
