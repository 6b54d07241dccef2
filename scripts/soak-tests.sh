#!/usr/bin/env bash
# The suite under load: RUNS full runs of `vitest run` back to back while a busy loop spins on every
# core (stress-ng --cpu N when installed, else one `yes` per core), so a test that only passes on an
# idle machine shows up here rather than in CI. Prints each run's wall time and failures, and exits 1
# if any run failed. Each run's JSON report is kept in OUT (default: a temporary folder).
#   scripts/soak-tests.sh [RUNS=3] [OUT]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
out=${2:-$(mktemp -d -t acilab-soak-XXXXXX)}
mkdir -p "$out"
cores=$(nproc)

hog_pids=()
stop_hog() { ((${#hog_pids[@]})) && kill "${hog_pids[@]}" 2>/dev/null; wait 2>/dev/null; }
trap stop_hog EXIT INT TERM
if command -v stress-ng >/dev/null 2>&1; then
  stress-ng --cpu "$cores" --quiet &
  hog_pids+=($!)
  hog="stress-ng --cpu $cores"
else
  for ((i = 0; i < cores; i++)); do
    yes >/dev/null &
    hog_pids+=($!)
  done
  hog="$cores × yes"
fi
echo "soak: $runs full runs under load ($hog); reports in $out"

failed=0
printf '%-4s %-8s %-7s %-7s %-7s\n' run wall_s passed failed skipped
for ((r = 1; r <= runs; r++)); do
  start=$(date +%s)
  npx vitest run --reporter=json --outputFile="$out/run-$r.json" >"$out/run-$r.log" 2>&1
  status=$?
  wall=$(($(date +%s) - start))
  read -r passed fails skipped < <(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(r.numPassedTests, r.numFailedTests, r.numPendingTests + r.numTodoTests);
  ' "$out/run-$r.json" 2>/dev/null || echo "? ? ?")
  printf '%-4s %-8s %-7s %-7s %-7s\n' "$r" "$wall" "$passed" "$fails" "$skipped"
  if [[ $status -ne 0 ]]; then
    failed=$((failed + 1))
    grep -E "FAIL|×" "$out/run-$r.log" | head -20 | sed 's/^/     /'
  fi
done
stop_hog
if ((failed > 0)); then
  echo "soak: $failed of $runs runs failed (logs in $out)"
  exit 1
fi
echo "soak: $runs of $runs runs passed under load"
