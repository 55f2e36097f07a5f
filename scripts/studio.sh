#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, then serve the studio (migrations and
# the sample tasks are applied by `colbench serve` on an empty database). Extra args go to serve.
# Its last line is the studio's address and the time from here to serving.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${EPOCHREALTIME:-}" ]; then
  t=${EPOCHREALTIME/[.,]/}
  export COLBENCH_STARTED_AT=$((t / 1000))
else
  export COLBENCH_STARTED_AT=$(($(date +%s) * 1000))
fi
# What setup leaves for the background waits until the studio serves (scripts/setup-later.sh): setup
# leaves this file empty for the studio to fill; this shell's pid becomes the studio's with exec.
export COLBENCH_READY_FILE="${TMPDIR:-/tmp}/colbench-ready.$$"
export COLBENCH_STUDIO_PID=$$
echo "ColBench Studio: checking this machine (each step says what it did)"
bash scripts/setup.sh --first-page-first
# The studio's Node flags: cli/node-flags.ts says which and why.
exec node --max-semi-space-size=64 cli/bin.mjs serve "$@"
