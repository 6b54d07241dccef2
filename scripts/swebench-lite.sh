#!/usr/bin/env bash
# SWE-bench rows as published, graded and validated here end to end (docs/swebench.md), with the
# times of each step. Not a test: the sympy rows of Lite take about an hour on a 2-core machine.
#
#   scripts/swebench-lite.sh [--filter GLOB] [--repos DIR] [--out DIR] [--workers N] [--instances FILE]
#                            [--swebench-runs] [--validate-all]
#
# Steps (grading steps resume: a rerun skips what is done): gold and empty predictions graded;
# `tasks validate` (gold resolves, the base fails every FAIL_TO_PASS test), keeping its runs; then,
# when a SWE-bench checkout is at $SWEBENCH_REPO, SWE-bench's own grading.py reads every log and must
# give the verdicts and per-test statuses acilab's --rules swebench gives the same logs
# (scripts/swebench-parity/run_folder.py); then a "tests only" prediction (each row's own test patch,
# no fix), and its parity. With --swebench-runs the gold and tests-only predictions are also graded
# under --rules swebench (the same runs without canaries) and checked the same way.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
acilab=(node "$here/bin/acilab.js")
filter='sympy__*'
repos=${ACILAB_REPOS:-}
out=runs/swebench-lite
workers=2
instances="$here/../shared/swebench/lite.jsonl"
swebench_runs=0
validate_filter=
while [ $# -gt 0 ]; do
  case $1 in
    --validate-all) validate_filter='*'; shift ;;
    --swebench-runs) swebench_runs=1; shift ;;
    --filter) filter=$2; shift 2 ;;
    --repos) repos=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --instances) instances=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$repos" ] || { echo "give --repos DIR (or set ACILAB_REPOS): the folder holding OWNER+NAME/ repositories" >&2; exit 2; }
mkdir -p "$out"
common=(--instances "$instances" --repos "$repos" --filter "$filter" --out "$out" --workers "$workers")
tag=$(echo "$filter" | tr -c 'A-Za-z0-9' '-' | tr -s '-' | sed 's/^-//;s/-$//')

step() { # name, command…
  local name=$1; shift
  local start=$SECONDS
  echo "== $name"
  "$@" 2>&1 | tee "$out/$name.log" | tail -16
  echo "== $name: $((SECONDS - start)) s" | tee -a "$out/times.txt"
}

# The "tests only" prediction: each row's test patch as its patch (it changes tests, fixes nothing).
python3 - "$instances" "$out/tests-only.jsonl" <<'PY'
import json, sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as o:
    for line in f:
        if line.strip():
            r = json.loads(line)
            o.write(json.dumps({"instance_id": r["instance_id"], "model_name_or_path": "tests-only", "model_patch": r["test_patch"]}) + "\n")
PY

step "gold-$tag" "${acilab[@]}" grade "${common[@]}" --predictions gold --run-id "gold-$tag"
step "empty-$tag" "${acilab[@]}" grade "${common[@]}" --predictions empty --run-id "empty-$tag"
# Readiness, keeping every run (validate/gold/<id>, validate/base/<id>: the base with the test patch).
# --validate-all: every row of the file (each repository's readiness in one table), not only --filter's.
step "validate-$tag" "${acilab[@]}" tasks validate "$instances" --repos "$repos" --filter "${validate_filter:-$filter}" \
  --runs 1 --workers "$workers" --out "$out" || true
runs=("gold-$tag/gold" "empty-$tag/empty" "validate/gold" "validate/base")

swebench=${SWEBENCH_REPO:-/work/.mirror/SWE-bench+SWE-bench/repo}
parity() {
  [ -d "$swebench" ] || return 0
  for run in "$@"; do
    python3 -X utf8 "$here/scripts/swebench-parity/run_folder.py" --instances "$instances" --run "$out/$run" \
      --repo "$swebench" --acilab "$here/dist" | tail -3 | tee -a "$out/parity.txt" || true
  done
}
parity "${runs[@]}"

step "tests-only-$tag" "${acilab[@]}" grade "${common[@]}" --predictions "$out/tests-only.jsonl" --run-id "tests-only-$tag"
parity "tests-only-$tag/tests-only"
if [ "$swebench_runs" = 1 ]; then
  step "gold-swebench-$tag" "${acilab[@]}" grade "${common[@]}" --predictions gold --rules swebench --run-id "gold-swebench-$tag"
  step "tests-only-swebench-$tag" "${acilab[@]}" grade "${common[@]}" --predictions "$out/tests-only.jsonl" --rules swebench --run-id "tests-only-swebench-$tag"
  parity "gold-swebench-$tag/gold" "tests-only-swebench-$tag/tests-only"
fi
cat "$out/times.txt"
