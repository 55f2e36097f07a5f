#!/usr/bin/env bash
# Installs whatever this machine lacks to run and test the studio, then builds it.
# Safe to run again: each step checks first and says what it did, with its time, on one line.
# Usage: scripts/setup.sh [--no-build] [--with-firefox]
#   --with-firefox (or COLBENCH_WITH_FIREFOX=1): also Firefox ESR, the second render engine
#   (`--browser firefox`); the tests ask for it, the studio does not need it.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
with_firefox=${COLBENCH_WITH_FIREFOX:-0}
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --with-firefox) with_firefox=1 ;;
    *) echo "scripts/setup.sh: unknown option $arg (use --no-build, --with-firefox)" >&2; exit 2 ;;
  esac
done

now_ms() {
  if [ -n "${EPOCHREALTIME:-}" ]; then
    local t=${EPOCHREALTIME/[.,]/}
    echo $((t / 1000))
  else
    echo $(($(date +%s) * 1000))
  fi
}
setup_started=$(now_ms)
# One line per step: what it found or did, and how long it took.
step() {
  local name=$1 result=$2 since=$3
  local ms=$(($(now_ms) - since))
  printf '  %-18s %s (%d.%d s)\n' "$name" "$result" $((ms / 1000)) $(((ms % 1000) / 100))
}
# Output of the noisy tools goes here, and is shown only when a step fails.
log=$(mktemp "${TMPDIR:-/tmp}/colbench-setup.XXXXXX")
trap 'rm -f "$log"' EXIT
failed() {
  echo "  $1 failed; its output:" >&2
  tail -n 40 "$log" >&2
  exit 1
}

t=$(now_ms)
read -r node_version node_ok < <(node -p 'const [a, b] = process.versions.node.split(".").map(Number); `${process.versions.node} ${a > 20 || (a === 20 && b >= 9)}`' 2>/dev/null || echo "none false")
if [ "$node_ok" != "true" ]; then
  echo "ColBench Studio needs Node.js >= 20.9 (found: $node_version)" >&2
  exit 1
fi
step "Node.js" "$node_version" "$t"

# System packages run beside the npm install and the build (none of which needs them): on a fresh
# machine apt's download and unpacking overlap npm's, and their step line is printed when they end.
apt_log=$(mktemp "${TMPDIR:-/tmp}/colbench-setup-apt.XXXXXX")
apt_out=$(mktemp "${TMPDIR:-/tmp}/colbench-setup-apt-out.XXXXXX")
trap 'rm -f "$log" "$apt_log" "$apt_out"' EXIT
failed_apt() {
  echo "  $1 failed; its output:" >&2
  tail -n 40 "$apt_log" >&2
  exit 1
}
system_packages() {
  local t=$1
  trap - EXIT
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
  if [ "$with_firefox" = 1 ] && [ -z "${COLBENCH_FIREFOX:-}" ] && ! [ -x /usr/bin/firefox-esr ]; then
    if command -v apt-get >/dev/null 2>&1; then missing+=(firefox-esr); else missing+=(firefox); fi
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
      { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; } >"$apt_log" 2>&1 || failed_apt "apt-get install ${missing[*]}"
      # Debian starts a system-wide cluster on install; the tests start their own throwaway one.
      step "system packages" "installed ${missing[*]} (apt-get)" "$t"
    elif command -v brew >/dev/null 2>&1; then
      for pkg in "${missing[@]}"; do
        case "$pkg" in
          chromium) brew install --cask chromium ;;
          python3-numpy) brew install numpy ;;
          firefox) brew install --cask firefox
            echo "set COLBENCH_FIREFOX=/Applications/Firefox.app/Contents/MacOS/firefox to render with it" ;;
          *) brew install "$pkg" ;;
        esac >>"$apt_log" 2>&1 || failed_apt "brew install $pkg"
      done
      step "system packages" "installed ${missing[*]} (Homebrew)" "$t"
    else
      echo "please install: ${missing[*]}" >&2
      exit 1
    fi
  else
    step "system packages" "chromium, postgresql, python3$([ "$with_firefox" = 1 ] && echo ", firefox") present" "$t"
  fi
}
system_packages "$(now_ms)" >"$apt_out" 2>&1 &
apt_pid=$!
# Prints the system packages' step line (or their failure) once they are done.
join_system_packages() {
  if wait "$apt_pid"; then
    cat "$apt_out"
  else
    cat "$apt_out" >&2
    exit 1
  fi
}

# npm dependencies, reinstalled only when the lock file changed since the last install.
t=$(now_ms)
installed=""
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # onnxruntime-node's CPU binaries ship inside its package; its post-install would only try to fetch
  # CUDA ones from outside the registry, which fails offline.
  export ONNXRUNTIME_NODE_INSTALL=skip
  installed=yes
  if npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
    step "npm dependencies" "installed with npm ci" "$t"
  else
    # Should the lock file ever fall out of step with package.json (or lack a platform's optional
    # binary), say why in one line and install from it the forgiving way instead of printing npm's errors.
    why=$(grep -m1 -E 'npm (error|ERR!) [A-Za-z]' "$log" | sed -E 's/^npm (error|ERR!) //' | cut -c1-160 || true)
    npm install --no-audit --no-fund --no-save --loglevel=error >"$log" 2>&1 || failed "npm install"
    step "npm dependencies" "installed with npm install (npm ci refused the lock file: ${why:-see npm ci})" "$t"
  fi
else
  step "npm dependencies" "up to date with package-lock.json" "$t"
fi

t=$(now_ms)
if [ -n "$installed" ] && [ -f lib/db/generated/client.ts ] && [ lib/db/generated/client.ts -nt prisma/schema.prisma ]; then
  # The install's post-install step has just generated it.
  touch lib/db/generated/client.ts
  step "Prisma client" "generated by the install" "$t"
elif [ ! -f lib/db/generated/client.ts ] || [ prisma/schema.prisma -nt lib/db/generated/client.ts ] || [ node_modules/.package-lock.json -nt lib/db/generated/client.ts ]; then
  npm run --silent prisma:generate >"$log" 2>&1 || failed "prisma generate"
  touch lib/db/generated/client.ts
  step "Prisma client" "generated" "$t"
else
  step "Prisma client" "up to date with prisma/schema.prisma" "$t"
fi

if [ "$build" = 1 ]; then
  # A build stamp keyed on what `next build` reads: an unchanged checkout starts without rebuilding.
  t=$(now_ms)
  stamp=$(node scripts/build-stamp.mjs)
  if [ -f .next/BUILD_ID ] && [ "$(cat .next/colbench-build-stamp 2>/dev/null)" = "$stamp" ]; then
    step "studio build" "up to date with the sources" "$t"
  else
    # Types are checked by `npm test` (and `npm run typecheck`), not on the way to the first page.
    COLBENCH_BUILD_SKIP_TYPES=1 npx next build >"$log" 2>&1 || failed "next build"
    echo "$stamp" >.next/colbench-build-stamp
    step "studio build" "built" "$t"
  fi
fi
join_system_packages
step "setup" "done" "$setup_started"
