# Sourced by setup.sh and setup-later.sh (not run): the installs they share and their step lines.
# Each install prints one line with what it did and its time; its tools' output goes to a log that is
# shown only when it fails.

now_ms() {
  if [ -n "${EPOCHREALTIME:-}" ]; then
    local t=${EPOCHREALTIME/[.,]/}
    echo $((t / 1000))
  else
    echo $(($(date +%s) * 1000))
  fi
}

# step NAME RESULT SINCE_MS
step() {
  local name=$1 result=$2 since=$3
  local ms=$(($(now_ms) - since))
  printf '  %-18s %s (%d.%d s)\n' "$name" "$result" $((ms / 1000)) $(((ms % 1000) / 100))
}

# failed WHAT LOG: the step's failure, with the end of its tools' output.
failed() {
  echo "  $1 failed; its output:" >&2
  tail -n 40 "$2" >&2
  exit 1
}

# The system packages this machine lacks, one per line: Chromium (renders, e2e), the PostgreSQL server
# (tests against a real server), Python 3 (the backend scoring sandbox) with numpy (three official
# backend tasks use it; without it they score 0, as they would in the benchmark's own scorer on such a
# machine), Firefox when asked for, and Mesa's EGL for WebGPU in Node without a GPU.
missing_system_packages() {
  local with_firefox=$1
  command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || [ -n "${COLBENCH_CHROMIUM:-}" ] || echo chromium
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || echo postgresql
  if ! command -v python3 >/dev/null 2>&1; then
    echo python3
    echo python3-numpy
  elif [ "$(command -v python3)" = /usr/bin/python3 ] && command -v apt-get >/dev/null 2>&1 &&
    ! python3 -c "import numpy" >/dev/null 2>&1; then
    # Only for Debian's own python3: its numpy package is of no use to another interpreter (pyenv,
    # a virtualenv, macOS's), which has its own way to install it.
    echo python3-numpy
  fi
  if [ "$with_firefox" = 1 ] && [ -z "${COLBENCH_FIREFOX:-}" ] && ! [ -x /usr/bin/firefox-esr ]; then
    if command -v apt-get >/dev/null 2>&1; then echo firefox-esr; else echo firefox; fi
  fi
  # Dawn's OpenGL ES backend on Mesa's software rasteriser (llvmpipe), reached through EGL without a
  # display: lib/gpu's tests and `colbench rank --critic-weights` on a machine without a GPU.
  if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    local pkg
    for pkg in libegl1 libegl-mesa0 libgl1-mesa-dri; do
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
    done
  fi
}

# download_system_packages LOG PACKAGE...: apt's downloads alone (what install then unpacks); nothing
# elsewhere. A failure is left for the install to report.
download_system_packages() {
  local log=$1
  shift
  command -v apt-get >/dev/null 2>&1 || return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --download-only -o DPkg::Lock::Timeout=300 "$@"; } >"$log" 2>&1 || true
}

# install_system_packages SINCE_MS LOG HOW PACKAGE...: HOW is the step line's note ("" or ", ...").
install_system_packages() {
  local t=$1 log=$2 how=$3
  shift 3
  if command -v apt-get >/dev/null 2>&1; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    # Waits for dpkg's lock rather than failing when another install holds it (unattended upgrades).
    { $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=300 "$@"; } >"$log" 2>&1 ||
      failed "apt-get install $*" "$log"
    # Debian starts a system-wide cluster on install; the tests start their own throwaway one.
    step "system packages" "installed $* (apt-get$how)" "$t"
  elif command -v brew >/dev/null 2>&1; then
    local pkg
    for pkg in "$@"; do
      case "$pkg" in
        chromium) brew install --cask chromium ;;
        python3-numpy) brew install numpy ;;
        firefox) brew install --cask firefox
          echo "set COLBENCH_FIREFOX=/Applications/Firefox.app/Contents/MacOS/firefox to render with it" ;;
        *) brew install "$pkg" ;;
      esac >>"$log" 2>&1 || failed "brew install $pkg" "$log"
    done
    step "system packages" "installed $* (Homebrew$how)" "$t"
  else
    echo "please install: $*" >&2
    exit 1
  fi
}

# onnxruntime-node's CPU binaries ship inside its package; its post-install would only try to fetch
# CUDA ones from outside the registry, which fails offline.
export ONNXRUNTIME_NODE_INSTALL=skip
NPM_QUIET=(--no-audit --no-fund --no-update-notifier --loglevel=error)

# Written into node_modules by a first start that installed only what the first page needs; gone once
# the rest is installed.
FIRST_PAGE_MARK=node_modules/.colbench-first-page-only

# npm_install_all SINCE_MS LOG: the whole lock file, as `npm ci` does.
npm_install_all() {
  local t=$1 log=$2
  if npm ci "${NPM_QUIET[@]}" >"$log" 2>&1; then
    step "npm dependencies" "installed with npm ci" "$t"
  else
    # Should the lock file ever fall out of step with package.json (or lack a platform's optional
    # binary), say why in one line and install from it the forgiving way instead of printing npm's errors.
    local why
    why=$(grep -m1 -E 'npm (error|ERR!) [A-Za-z]' "$log" | sed -E 's/^npm (error|ERR!) //' | cut -c1-160 || true)
    npm install --no-save "${NPM_QUIET[@]}" >"$log" 2>&1 || failed "npm install" "$log"
    step "npm dependencies" "installed with npm install (npm ci refused the lock file: ${why:-see npm ci})" "$t"
  fi
}

# How many packages npm's summary line says it added.
npm_added() {
  sed -nE 's/^added ([0-9]+) packages?.*/\1/p' "$1" | tail -n 1
}

# npm_install_first_page SINCE_MS LOG: only what building and serving the studio needs
# (scripts/first-page-deps.mjs), installed with `npm ci` in a staging folder, in two closed parts side by
# side where there are two cores, then moved into place.
npm_install_first_page() {
  local t=$1 log=$2 stage=.first-page-install counts parts=1 part pids=() i=0 installed
  [ "$(nproc 2>/dev/null || echo 1)" -lt 2 ] || parts=2
  rm -rf "$stage"
  counts=$(node scripts/first-page-deps.mjs "$stage" "$parts") || failed "scripts/first-page-deps.mjs" /dev/null
  # No install scripts: the Prisma client is generated in place next; @prisma/engines' post-install only
  # tries to download Prisma's native schema engine, which nothing here runs (migrations use the
  # WebAssembly one): 3.4 of npm's 40 s on a fresh machine; esbuild finds its platform package without
  # its own.
  for part in "$stage"/part-*; do
    (cd "$part" && npm ci --ignore-scripts "${NPM_QUIET[@]}") >"$log.${part##*-}" 2>&1 &
    pids+=($!)
  done
  for part in "$stage"/part-*; do
    if ! wait "${pids[$i]}"; then
      rm -rf "$stage"
      cat "$log".* >"$log"
      rm -f "$log".*
      failed "npm ci (the first page's packages, ${part##*/})" "$log"
    fi
    i=$((i + 1))
  done
  rm -f "$log".*
  installed=$(node scripts/first-page-deps.mjs --merge "$stage") || failed "merging the first page's packages" /dev/null
  rm -rf node_modules
  mv "$stage/node_modules" node_modules
  rm -rf "$stage"
  echo "$counts" >"$FIRST_PAGE_MARK"
  step "npm dependencies" "installed the first page's $installed packages with npm ci ($parts at once; the rest follows)" "$t"
}

# npm_install_rest SINCE_MS LOG HOW: what the first start left out. `npm install` with the lock file
# only adds what is missing; no install script runs (a studio build may be reading the generated
# Prisma client meanwhile, and none of the packages left out needs its script on Linux).
npm_install_rest() {
  local t=$1 log=$2 how=$3
  npm install --no-save --ignore-scripts "${NPM_QUIET[@]}" >"$log" 2>&1 || failed "npm install (the rest)" "$log"
  rm -f "$FIRST_PAGE_MARK"
  # Nothing the Prisma client is generated from changed (Prisma came with the first page's packages),
  # though node_modules' own lock file is now newer than the client.
  [ ! -f lib/db/generated/client.ts ] || touch lib/db/generated/client.ts
  local added
  added=$(npm_added "$log")
  if [ -n "$added" ]; then
    step "npm dependencies" "installed the other $added packages with npm install$how" "$t"
  else
    step "npm dependencies" "the rest was already there (npm install added nothing$how)" "$t"
  fi
}
