#!/usr/bin/env bash
# The run queue on one machine, in one command: a throwaway PostgreSQL on 127.0.0.1, the studio, three
# `colbench worker` processes and the scripted model server (a test double: deterministic replies,
# 300 ms each), then a 60-episode run enqueued from the terminal. Open the printed address and watch the
# run page's Workers panel and any running episode. Ctrl-C stops everything and removes the database.
#
#   bash scripts/cluster-demo.sh [--port 3000] [--seconds N]   (--seconds: stop by itself after N s)
set -euo pipefail
cd "$(dirname "$0")/.."
port=3000
seconds=0
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "usage: bash scripts/cluster-demo.sh [--port 3000] [--seconds N]" >&2; exit 2 ;;
  esac
done

[ -d .next ] || { echo "cluster-demo: the studio is not built; run npm run build (or npm run setup) first" >&2; exit 1; }
bin=${COLBENCH_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bin/initdb" ] || bin=$(dirname "$(command -v initdb || echo /nonexistent/initdb)")
[ -x "$bin/initdb" ] || { echo "cluster-demo: PostgreSQL server binaries not found: run npm run setup, or set COLBENCH_PG_BIN" >&2; exit 1; }

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
scratch=$(mktemp -d /tmp/colbench-cluster-XXXXXX)
pids=()
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  trap - EXIT INT TERM
  echo "cluster-demo: stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  as_pg "$bin/pg_ctl" -D "$scratch/pg" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT INT TERM

# PostgreSQL refuses to run as root: the cluster belongs to the postgres user then.
if [ "$(id -u)" = 0 ]; then chmod 755 "$scratch"; chown postgres: "$scratch"; fi
pg_port=$(free_port)
as_pg "$bin/initdb" -D "$scratch/pg" -U colbench --auth=trust -E UTF8 --no-locale >/dev/null
as_pg "$bin/pg_ctl" -D "$scratch/pg" -w -l "$scratch/pg.log" -o "-p $pg_port -k $scratch -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
export DATABASE_URL="postgresql://colbench@127.0.0.1:$pg_port/postgres"
export COLBENCH_DATA="$scratch/data"
echo "cluster-demo: PostgreSQL on 127.0.0.1:$pg_port ($scratch)"

models_port=$(free_port)
node --import tsx e2e/fixtures/scripted-model-server.ts --port "$models_port" --tasks samples/backend.jsonl --reply-ms 300 >"$scratch/models.log" 2>&1 &
pids+=($!)
models="http://127.0.0.1:$models_port/v1"

node --max-semi-space-size=64 cli/bin.mjs serve --port "$port" >"$scratch/studio.log" 2>&1 &
pids+=($!)
until grep -q "ColBench Studio on" "$scratch/studio.log" 2>/dev/null; do
  kill -0 "${pids[-1]}" 2>/dev/null || { cat "$scratch/studio.log" >&2; exit 1; }
  sleep 0.5
done
echo "cluster-demo: studio on http://127.0.0.1:$port"

for i in 1 2 3; do
  node cli/bin.mjs worker --concurrency 4 >"$scratch/worker-$i.log" 2>&1 &
  pids+=($!)
done
for i in 1 2 3; do until grep -q ready "$scratch/worker-$i.log" 2>/dev/null; do sleep 0.3; done; done
echo "cluster-demo: three workers ready (logs in $scratch)"

node cli/bin.mjs run --benchmark backend --tasks all --limit 12 --best-of 5 --name cluster-demo --detach \
  --agent "$models#ask-then-answer" --simulator "$models#simulator"
echo "cluster-demo: open http://127.0.0.1:$port/runs and the run \"cluster-demo\"; start more workers elsewhere with"
echo "  DATABASE_URL=$DATABASE_URL npx colbench worker"
if [ "$seconds" -gt 0 ]; then
  sleep "$seconds"
  node cli/bin.mjs runs 2>/dev/null | grep cluster-demo || true
else
  echo "cluster-demo: Ctrl-C to stop"
  wait "${pids[1]}"
fi
