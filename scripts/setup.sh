#!/usr/bin/env bash
# Installs whatever this machine lacks to run and test the studio, then builds it.
# Safe to run again: each step checks first. Usage: scripts/setup.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

need_node_major=20
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt "$need_node_major" ]; then
  echo "ColBench Studio needs Node.js >= 20.9 (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# System packages: Chromium (renders, e2e), PostgreSQL server (tests against a real server),
# Python 3 (the backend scoring sandbox) with numpy (three official backend tasks use it; without it
# they score 0, as they would in the benchmark's own scorer on such a machine).
missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || [ -n "${COLBENCH_CHROMIUM:-}" ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || missing+=(postgresql)
if ! command -v python3 >/dev/null 2>&1; then
  missing+=(python3 python3-numpy)
elif [ "$(command -v python3)" = /usr/bin/python3 ] && command -v apt-get >/dev/null 2>&1 &&
  ! python3 -c "import numpy" >/dev/null 2>&1; then
  # Only for Debian's own python3: its numpy package is of no use to another interpreter (pyenv,
  # a virtualenv, macOS's), which has its own way to install it.
  missing+=(python3-numpy)
fi
# WebGPU in Node without a GPU (lib/gpu: tests, `colbench rank --critic-weights`): Dawn's OpenGL ES
# backend on Mesa's software rasteriser (llvmpipe), reached through EGL without a display.
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
  for pkg in libegl1 libegl-mesa0 libgl1-mesa-dri; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "installing ${missing[*]} (apt-get)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    # Debian starts a system-wide cluster on install; the tests start their own throwaway one.
  elif command -v brew >/dev/null 2>&1; then
    say "installing ${missing[*]} (Homebrew)"
    for pkg in "${missing[@]}"; do
      case "$pkg" in
        chromium) brew install --cask chromium ;;
        python3-numpy) brew install numpy ;;
        *) brew install "$pkg" ;;
      esac
    done
  else
    echo "please install: ${missing[*]}" >&2
    exit 1
  fi
fi

# npm dependencies, reinstalled only when the lock file changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies"
  # onnxruntime-node's CPU binaries ship inside its package; its post-install would only try to fetch
  # CUDA ones from outside the registry, which fails offline.
  export ONNXRUNTIME_NODE_INSTALL=skip
  # The registry mirror reachable here lacks other platforms' optional binaries (@next/swc-darwin-*,
  # @tailwindcss/oxide-win32-*), so the lock file cannot list them and `npm ci` may call it out of
  # sync; `npm install` from the same lock file then installs the same versions.
  if ! npm ci --no-audit --no-fund; then
    say "npm ci refused the lock file; installing from it with npm install"
    npm install --no-audit --no-fund --no-save
  fi
fi
npm run --silent prisma:generate >/dev/null

if [ "${1:-}" != "--no-build" ]; then
  say "building the studio"
  npx next build >/dev/null
fi
say "ready"
