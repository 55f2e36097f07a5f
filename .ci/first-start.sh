#!/usr/bin/env bash
# `npm run studio` on this machine, as a new user runs it, against an empty data folder: prints its step
# lines, then how long until the first page answered; then how long until what the first start left for
# the background was installed too (its lines come with the first start's); then the same once more (the
# second start).
# Exits non-zero, with the studio's output, when it does not serve within 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(mktemp -d)
port=${COLBENCH_CI_PORT:-3999}
trap 'rm -rf "$data"' EXIT

now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

start_once() {
  local label=$1 out pid started first
  out=$(mktemp)
  started=$(now_ms)
  COLBENCH_DATA=$data bash scripts/studio.sh --port "$port" >"$out" 2>&1 &
  pid=$!
  # The studio prints its address once it listens; the first page is asked for right after.
  until grep -q "ColBench Studio on http" "$out"; do
    if ! kill -0 "$pid" 2>/dev/null || [ $(($(now_ms) - started)) -gt 600000 ]; then
      cat "$out" >&2
      echo "$label: the studio did not serve (output above)" >&2
      kill "$pid" 2>/dev/null || true
      return 1
    fi
    sleep 0.2
  done
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$port/" || { cat "$out" >&2; echo "$label: the first page did not answer" >&2; kill "$pid"; return 1; }
  first=$(now_ms)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  # Background installs (scripts/setup-later.sh) hold the setup lock until they are done.
  flock .setup.lock true
  all=$(now_ms)
  cat "$out"
  printf '%s: first page after %d.%d s\n' "$label" $(((first - started) / 1000)) $((((first - started) % 1000) / 100))
  if [ $((all - first)) -gt 1000 ]; then
    printf '%s: everything installed after %d.%d s\n' "$label" $(((all - started) / 1000)) $((((all - started) % 1000) / 100))
  fi
  rm -f "$out"
}

start_once "first start"
start_once "second start"
