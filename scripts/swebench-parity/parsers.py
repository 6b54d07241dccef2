#!/usr/bin/env python3
"""Record SWE-bench's own log readers on acilab's fixtures: src/parsers/fixtures/swebench-readers.json.

    python3 -X utf8 scripts/swebench-parity/parsers.py [--repo DIR] [--commit SHA]

For each fixture below, SWE-bench's reader for that kind of log (harness/log_parsers/python.py at
--commit, 5.0.2's release by default, extracted from --repo as main.py does) gives its status map;
src/parsers/swebench-readers.test.ts checks that acilab's readers give the same map on the same log.
Run by hand when SWE-bench's readers change; tests never run it (no SWE-bench checkout there).
"""

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

from main import RELEASE_5_0_2, load_swebench  # noqa: E402

FIXTURES = os.path.join(ROOT, "src", "parsers", "fixtures")
# fixture → SWE-bench's readers of it (acilab's name: SWE-bench's function).
CASES = {
    "sympy-bin-test.txt": {"sympy": "parse_log_sympy"},
    "sympy-bin-test-gold.txt": {"sympy": "parse_log_sympy"},
    "sympy-bin-test-errors.txt": {"sympy": "parse_log_sympy"},
    "django-runtests.txt": {"django": "parse_log_django"},
    "pytest-forms-rA.txt": {
        "pytest": "parse_log_pytest",
        "pytest-options": "parse_log_pytest_options",
        "pytest-v2": "parse_log_pytest_v2",
        "matplotlib": "parse_log_matplotlib",
        "seaborn": "parse_log_seaborn",
    },
    "pytest-forms-vv.txt": {
        "pytest-options": "parse_log_pytest_options",
        "pytest-v2": "parse_log_pytest_v2",
        "matplotlib": "parse_log_matplotlib",
        "seaborn": "parse_log_seaborn",
    },
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default="/work/.mirror/SWE-bench+SWE-bench/repo")
    ap.add_argument("--commit", default=RELEASE_5_0_2)
    args = ap.parse_args()
    out = {}
    with tempfile.TemporaryDirectory(prefix="swebench-src-") as src:
        _, _, version, commit = load_swebench(args.repo, args.commit, src)
        from swebench.harness.log_parsers import PARSER_REGISTRY

        for fixture, readers in CASES.items():
            with open(os.path.join(FIXTURES, fixture), encoding="utf-8") as f:
                log = f.read()
            out[fixture] = {ours: list(PARSER_REGISTRY[theirs](log, None).items()) for ours, theirs in readers.items()}
    doc = {
        "about": (
            f"SWE-bench {version}'s log readers (commit {commit}) on these fixtures, recorded by "
            "scripts/swebench-parity/parsers.py; do not edit by hand."
        ),
        "swebench_version": version,
        "readers": out,
    }
    path = os.path.join(FIXTURES, "swebench-readers.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=True)
        f.write("\n")
    print(f"wrote {path}: {sum(len(r) for r in out.values())} readings of {len(out)} fixtures")


if __name__ == "__main__":
    main()
