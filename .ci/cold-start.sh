#!/usr/bin/env bash
# The quick start's first command as a new user meets it, measured inside this machine: a Debian root
# made with debootstrap (minbase: no Chromium, no PostgreSQL, no Python, an empty npm cache), given
# only what any machine here has before our command (this machine's Node and npm, its certificate
# authorities, npm and proxy settings), and this checkout's files; .ci/first-start.sh runs in it.
# Its lines are prefixed "cold". Needs root and apt (debootstrap is installed when missing); without
# them it says so and measures nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "cold start: $*"; }
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  say "not measured (needs root and apt for a scratch Debian root)"
  exit 0
fi
command -v debootstrap >/dev/null 2>&1 ||
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } >/dev/null 2>&1 ||
  { say "not measured (debootstrap could not be installed)"; exit 0; }
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
# This machine's own mirror (deb822 .sources or one-line lists; comments skipped), else Debian's.
mirror=$({
  grep -hsE '^\s*URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
  grep -hsE '^\s*deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'
} | grep -v security | head -n 1 || true)
root=$(mktemp -d /var/tmp/colbench-cold.XXXXXX)
mounted=()
cleanup() {
  local m
  for m in "${mounted[@]}"; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf "$root"
}
trap cleanup EXIT

debootstrap --variant=minbase --include=ca-certificates "$suite" "$root" "${mirror:-http://deb.debian.org/debian}" >"$root.log" 2>&1 ||
  { tail -n 20 "$root.log"; rm -f "$root.log"; say "not measured (debootstrap failed)"; exit 0; }
rm -f "$root.log"
# Node and npm as this machine has them (the README's only prerequisite).
npm_dir=$(dirname "$(dirname "$(realpath "$(command -v npm)")")")
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules"
cp "$(realpath "$(command -v node)")" "$root/usr/local/bin/node"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# This network's certificate authorities and npm settings, as on any machine here.
cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
chroot "$root" update-ca-certificates >/dev/null 2>&1 || true
for f in /etc/npmrc "$(npm prefix -g)/etc/npmrc"; do
  [ -f "$f" ] && mkdir -p "$root$(dirname "$f")" && cp "$f" "$root$f"
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/root/colbench"
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$root/root/colbench"
# A container may refuse mounts or chroot: then nothing is measured, and CI goes on to the warm start.
for m in proc sys dev dev/pts; do
  case "$m" in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sys "$root/sys" ;;
    *) mount --bind "/$m" "$root/$m" ;;
  esac 2>/dev/null || { say "not measured (this machine refuses to mount /$m in a scratch root)"; exit 0; }
  mounted=("$m" "${mounted[@]}")
done
mount -t tmpfs tmpfs "$root/dev/shm" && mounted=(dev/shm "${mounted[@]}")
chroot "$root" true 2>/dev/null || { say "not measured (chroot is refused here)"; exit 0; }

pass=(HOME=/root PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
  COLBENCH_CI_PORT="${COLBENCH_COLD_PORT:-3998}")
for v in NODE_EXTRA_CA_CERTS http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
  [ -n "${!v:-}" ] && pass+=("$v=${!v}")
done
chroot "$root" env -i "${pass[@]}" bash -c "cd /root/colbench && bash .ci/first-start.sh" 2>&1 | sed 's/^/cold /'
