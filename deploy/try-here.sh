#!/usr/bin/env bash
# Tries the lab recipe on one machine where systemd is not PID 1 (containers, CI): runs the two
# units' ExecStart lines as written (their WorkingDirectory and EnvironmentFile, paths moved into a
# scratch folder), Caddy with deploy/Caddyfile as a plain process, and a throwaway PostgreSQL, then
# checks the studio through the proxy. Needs: a built studio (npm run build), Debian's postgresql and
# caddy packages. Ports: BASE (default 4640) .. BASE+4.
#   bash deploy/try-here.sh            # prints what it saw; exits non-zero on the first failed check
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-4640}
pg_port=$base http_port=$((base + 1)) studio_port=$((base + 2)) https_port=$((base + 3)) admin_port=$((base + 4))
site=colbench.test
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
tmp=$(mktemp -d /tmp/colbench-try-XXXXXX)
chmod 755 "$tmp"; chown postgres "$tmp"
pids=()
say() { printf '%s\n' "$*"; }
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -f "$tmp/pg/postmaster.pid" ] && runuser -u postgres -- "$pgbin/pg_ctl" -D "$tmp/pg" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { say "FAILED: $*"; for f in "$tmp"/*.log; do say "--- $f"; tail -20 "$f"; done; exit 1; }

# PostgreSQL: a cluster of its own, password authentication as a lab server would have.
install -d -o postgres "$tmp/pg"
echo -n lab-secret > "$tmp/pwfile"; chmod 644 "$tmp/pwfile"
runuser -u postgres -- "$pgbin/initdb" -D "$tmp/pg" -U colbench --pwfile="$tmp/pwfile" --auth=scram-sha-256 -E UTF8 --no-locale >/dev/null
runuser -u postgres -- "$pgbin/pg_ctl" -D "$tmp/pg" -w -l "$tmp/pg.log" -o "-p $pg_port -k $tmp/pg -c listen_addresses=127.0.0.1" start >/dev/null
PGPASSWORD=lab-secret "$pgbin/psql" -h 127.0.0.1 -p "$pg_port" -U colbench -d postgres -qc "CREATE DATABASE colbench" || fail "create database"
say "postgresql: $("$pgbin/postgres" --version) on 127.0.0.1:$pg_port"

# The env file, from the example with this machine's paths and ports.
sed -e "s#postgresql://colbench:CHANGE-ME@127.0.0.1:5432/colbench#postgresql://colbench:lab-secret@127.0.0.1:$pg_port/colbench#" \
    -e "s#/var/lib/colbench#$tmp/data#g" -e "s#^COLBENCH_ALLOWED_HOSTS=.*#COLBENCH_ALLOWED_HOSTS=$site#" \
    -e "s#^COLBENCH_PORT=.*#COLBENCH_PORT=$studio_port#" -e "s#^COLBENCH_WORKER_CONCURRENCY=.*#COLBENCH_WORKER_CONCURRENCY=2#" \
    "$root/deploy/colbench.env.example" > "$tmp/colbench.env"
mkdir -p "$tmp/data"

# A unit's ExecStart as systemd would run it: its WorkingDirectory, its EnvironmentFile, ${VAR}s from it.
run_unit() { # unit-file log-name [sed expression applied to ExecStart]
  local unit=$1 log=$2 edit=${3:-}
  local dir exec
  dir=$(sed -n 's/^WorkingDirectory=//p' "$unit" | sed "s#/opt/colbench-studio#$root#")
  exec=$(sed -n 's/^ExecStart=//p' "$unit")
  [ -n "$edit" ] && exec=$(sed "$edit" <<<"$exec")
  (
    set -a; . "$tmp/colbench.env"; set +a
    cd "$dir"
    exec env -i PATH=/usr/bin:/bin HOME="$tmp" $(grep -v '^#' "$tmp/colbench.env" | grep = | xargs) bash -c "exec $(eval echo "\"$exec\"")"
  ) > "$tmp/$log.log" 2>&1 &
  pids+=($!)
  say "$log: $(eval "set -a; . $tmp/colbench.env; echo \"$exec\"")"
}
# The schedule is shortened from 6h so that one scheduled backup happens while this runs.
run_unit "$root/deploy/colbench-studio.service" studio 's/--backup-every 6h/--backup-every 15s/'
for i in $(seq 1 120); do curl -sf "http://127.0.0.1:$studio_port/api/health" >/dev/null 2>&1 && break; sleep 1; done
curl -sf "http://127.0.0.1:$studio_port/api/health" >/dev/null || fail "the studio did not start"
grep -m1 "ColBench Studio on" "$tmp/studio.log" | sed 's/^/  /'
run_unit "$root/deploy/colbench-worker@.service" worker

# Caddy as a process, with the Caddyfile as written and this machine's names and ports.
(
  export CADDY_ADMIN=localhost:$admin_port CADDY_HTTP_PORT=$http_port CADDY_HTTPS_PORT=$https_port
  export COLBENCH_SITE=$site:$https_port COLBENCH_UPSTREAM=127.0.0.1:$studio_port XDG_DATA_HOME=$tmp/caddy XDG_CONFIG_HOME=$tmp/caddy
  exec caddy run --config "$root/deploy/Caddyfile" --adapter caddyfile
) > "$tmp/caddy.log" 2>&1 &
pids+=($!)
proxied=(curl -s --resolve "$site:$https_port:127.0.0.1" --cacert "$tmp/caddy/caddy/pki/authorities/local/root.crt")
for i in $(seq 1 60); do [ -f "$tmp/caddy/caddy/pki/authorities/local/root.crt" ] && "${proxied[@]}" -f "https://$site:$https_port/api/health" >/dev/null 2>&1 && break; sleep 1; done
say "caddy: $(caddy version | cut -d' ' -f1), https://$site:$https_port -> 127.0.0.1:$studio_port"

health=$("${proxied[@]}" -f "https://$site:$https_port/api/health") || fail "health through the proxy"
say "through the proxy (TLS verified against Caddy's local CA): GET /api/health -> $health"
issuer=$(echo | openssl s_client -connect "127.0.0.1:$https_port" -servername "$site" 2>/dev/null | openssl x509 -noout -issuer)
say "  certificate $issuer"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: evil.example' "http://127.0.0.1:$studio_port/api/health")
say "a foreign Host straight at the studio: $code"
[ "$code" = 421 ] || fail "expected 421 for a foreign Host"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$http_port/api/health" -H "Host: $site:$http_port")
say "plain HTTP to the proxy: $code (Caddy redirects to HTTPS)"

# A person signs in through the proxy: the session cookie must be Secure (X-Forwarded-Proto, --trust-proxy).
link=$(cd "$root" && set -a && . "$tmp/colbench.env" && set +a && node cli/bin.mjs users add ann --role annotator --url "https://$site:$https_port" | grep -o 'https://[^ ]*')
token=${link##*token=}
"${proxied[@]}" -f -o /dev/null "$link" || fail "the sign-in link through the proxy"
cookie=$("${proxied[@]}" -D - -o /dev/null -X POST -H "Origin: https://$site:$https_port" --data-urlencode "token=$token" "https://$site:$https_port/signin" | grep -i '^set-cookie:' | tr -d '\r')
say "sign-in through the proxy: $cookie" | sed -E 's/(colbench_session=)[^;]+/\1…/'
grep -qi 'secure' <<<"$cookie" || fail "the session cookie is not Secure behind HTTPS"

# Compression is the proxy's: pages come gzipped through it, never from the studio itself, and an event
# stream passes through as sent.
session=$(sed -E 's/^[Ss]et-[Cc]ookie: *([^;]+).*/\1/' <<<"$cookie")
enc=$("${proxied[@]}" -o /dev/null -D - -H 'Accept-Encoding: gzip' -b "$session" "https://$site:$https_port/annotate" | grep -i '^content-encoding:' | tr -d '\r' || true)
say "a page through the proxy: ${enc:-no Content-Encoding}"
grep -qi 'gzip' <<<"$enc" || fail "the proxy did not compress a page"
enc=$(curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' -H "Host: $site" -b "$session" "http://127.0.0.1:$studio_port/annotate" | grep -i '^content-encoding:' | tr -d '\r' || true)
say "the same page straight from the studio: ${enc:-no Content-Encoding}"
[ -z "$enc" ] || fail "the studio compressed its own answer"
events=$("${proxied[@]}" -N --max-time 3 -D - -H 'Accept-Encoding: gzip' -b "$session" "https://$site:$https_port/api/events" || true)
say "the event stream through the proxy: $(grep -i '^content-type:' <<<"$events" | tr -d '\r'), $(grep -i '^content-encoding:' <<<"$events" | tr -d '\r' || echo 'no Content-Encoding')"
grep -qi 'text/event-stream' <<<"$events" || fail "no event stream through the proxy"
grep -qi '^content-encoding:' <<<"$events" && fail "the proxy compressed the event stream"

# The worker says it is alive in the Worker table.
for i in $(seq 1 30); do
  workers=$(PGPASSWORD=lab-secret "$pgbin/psql" -h 127.0.0.1 -p "$pg_port" -U colbench -d colbench -Atc 'SELECT count(*) FROM "Worker"' 2>/dev/null || echo 0)
  [ "$workers" -ge 1 ] && break; sleep 1
done
say "workers heard from: $workers"
[ "$workers" -ge 1 ] || fail "no worker row"

# The scheduled backup, restored into a new folder.
for i in $(seq 1 60); do ls "$tmp/data/backups/"colbench-*.backup.gz >/dev/null 2>&1 && break; sleep 1; done
file=$(ls "$tmp/data/backups/"colbench-*.backup.gz 2>/dev/null | head -1)
[ -n "$file" ] || fail "no scheduled backup"
say "scheduled backup: $(basename "$file") ($(stat -c %s "$file") bytes)"
(cd "$root" && COLBENCH_DATA="$tmp/restored" DATABASE_URL= node cli/bin.mjs db restore "$file" --into "$tmp/restored") | sed 's/^/  /'

for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
pids=()
say "stopped with SIGTERM: $(grep -h 'closing the database' "$tmp/studio.log" | head -1)"
say "all checks passed"
