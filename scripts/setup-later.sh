#!/usr/bin/env bash
# What a first start installs once the studio is on its way to serving: scripts/setup.sh starts this in
# the background, at the lowest CPU priority, so the build and the first page do not wait for it. It
# downloads first, then waits for the studio to serve before it unpacks and writes (on a fresh machine
# npm's and dpkg's writes beside the studio's start made it 17 s instead of 7): the studio fills
# COLBENCH_READY_FILE once it listens (cli/commands/serve.ts), and if the studio (COLBENCH_STUDIO_PID)
# is gone first, it goes on. It holds the setup lock (.setup.lock, on the descriptor it inherits) until
# it is done; a later setup waits for it, or says it is still under way. Prints its step line when done.
#
#   scripts/setup-later.sh system PACKAGE...   the system packages the first page does not need
#   scripts/setup-later.sh npm                 the npm packages the first page does not need
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=setup-steps.sh
source scripts/setup-steps.sh

log=$(mktemp "${TMPDIR:-/tmp}/colbench-setup-later.XXXXXX")
# A failure here comes after the studio started: say how to finish by hand as well.
trap 'rc=$?; rm -f "$log"; [ $rc -eq 0 ] || echo "  (the studio runs without it; \`npm run setup\` tries again)" >&2' EXIT
wait_for_studio() {
  local ready=${COLBENCH_READY_FILE:-} pid=${COLBENCH_STUDIO_PID:-} waited=0
  [ -n "$ready" ] || return 0
  while [ -f "$ready" ] && [ ! -s "$ready" ] && [ $waited -lt 3000 ]; do
    [ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
    waited=$((waited + 1))
  done
  rm -f "$ready"
}

t=$(now_ms)
what=$1
shift
case "$what" in
  system)
    download_system_packages "$log" "$@"
    wait_for_studio
    install_system_packages "$t" "$log" ", in the background" "$@"
    ;;
  npm)
    wait_for_studio
    npm_install_rest "$t" "$log" ", in the background"
    ;;
  *)
    echo "scripts/setup-later.sh: unknown part $what (use system or npm)" >&2
    exit 2
    ;;
esac
