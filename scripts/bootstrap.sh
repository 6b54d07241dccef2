#!/usr/bin/env bash
# Installs what acilab needs on a fresh Debian machine, and nothing when it is all there already.
set -euo pipefail

need=()
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v flake8 >/dev/null 2>&1 || need+=(flake8)
/usr/bin/python3 -c "import pyflakes" >/dev/null 2>&1 || need+=(python3-pyflakes) # the lint worker's checker
/usr/bin/python3 -c "import pytest" >/dev/null 2>&1 || need+=(python3-pytest)
# Environments (acilab env): venvs made from Debian's Python offline need venv/ensurepip, and the
# tests build a wheel and an editable install with Debian's pip, setuptools and wheel.
/usr/bin/python3 -c "import venv, ensurepip" >/dev/null 2>&1 || need+=(python3-venv)
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
/usr/bin/python3 -c "import setuptools, wheel" >/dev/null 2>&1 || need+=(python3-setuptools python3-wheel)
command -v git >/dev/null 2>&1 || need+=(git)
command -v patch >/dev/null 2>&1 || need+=(patch)
command -v prlimit >/dev/null 2>&1 || need+=(util-linux)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v runsc >/dev/null 2>&1 || need+=(runsc) # optional: gVisor, reported by acilab doctor
# Computer use: Debian's Chromium (playwright-core drives it; no browser download), an X11 desktop
# (Xvfb + matchbox WM + xdotool; x11-apps brings xwd and the xcalc test app), fonts for set-of-mark.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
command -v matchbox-window-manager >/dev/null 2>&1 || need+=(matchbox-window-manager)
command -v xcalc >/dev/null 2>&1 || need+=(x11-apps)
[[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]] || need+=(fonts-dejavu-core)
# Scale-out (acilab worker, --redis): tests start their own redis-server; the TLS test makes its
# certificate with openssl.
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
# acilab agent: its interactive test drives a real terminal session in tmux.
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# The parsers' live captures run the real go test and cargo test on small projects (offline).
command -v go >/dev/null 2>&1 || need+=(golang-go)
{ command -v cargo >/dev/null 2>&1 || [[ -x $HOME/.cargo/bin/cargo ]]; } || need+=(cargo)
# better-sqlite3 (the experiment store) is compiled by npm ci: no prebuilt binary can be downloaded here.
{ command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1; } || need+=(build-essential)

if ((${#need[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]] && ! command -v sudo >/dev/null 2>&1; then
    echo "bootstrap: missing Debian packages: ${need[*]} — run as root or: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
  echo "bootstrap: installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# inotify instances: the search index keeps one per watched checkout, Chromium and vitest's workers
# more; Debian's default of 128 per user runs out when the suite's browsers and indexes overlap.
if [[ $(id -u) -eq 0 && $(cat /proc/sys/fs/inotify/max_user_instances 2>/dev/null || echo 1024) -lt 1024 ]]; then
  sysctl -qw fs.inotify.max_user_instances=1024 || echo "bootstrap: could not raise fs.inotify.max_user_instances (the search index falls back to plain rg when it runs out)" >&2
fi

# npm ci when node_modules is missing or older than the lockfile.
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bootstrap: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
