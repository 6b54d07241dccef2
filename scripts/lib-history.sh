#!/usr/bin/env bash
# Edit a built-in library's history (tasks/libs/<lib>/history/*.patch) with ordinary git:
#   scripts/lib-history.sh checkout <lib> <dir>   rebuild the repository into <dir> (git am, as acilab does)
#   … commit, rebase -i, amend in <dir> …
#   scripts/lib-history.sh export <lib> <dir>     write <dir>'s commits back as the library's patches
# Then re-run `acilab tasks validate` for the library's tasks: their base numbers and test patches
# refer to this history.
set -euo pipefail
cmd=${1:-}; lib=${2:-}; dir=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
hist="$root/tasks/libs/$lib/history"
if [[ -z "$cmd" || -z "$lib" || -z "$dir" ]]; then
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2
fi
[[ -d "$hist" ]] || { echo "no library \"$lib\" (expected $hist)" >&2; exit 1; }
export GIT_COMMITTER_NAME=acilab GIT_COMMITTER_EMAIL=acilab@localhost
case "$cmd" in
  checkout)
    [[ -e "$dir" ]] && { echo "$dir exists; give a new folder" >&2; exit 1; }
    git init -q -b main "$dir"
    git -C "$dir" am -q --committer-date-is-author-date --keep-cr "$hist"/*.patch
    git -C "$dir" log --oneline | cat ;;
  export)
    rm -f "$hist"/*.patch
    git -C "$dir" format-patch -q --root --no-stat --no-signature --zero-commit -o "$hist"
    ls "$hist" ;;
  *) echo "unknown command \"$cmd\": use checkout or export" >&2; exit 2 ;;
esac
