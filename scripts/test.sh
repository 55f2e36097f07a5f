#!/usr/bin/env bash
# Quick start, command 2: every test. The house's habits first (Prettier's format, then ESLint's rules, which
# read the build's route types: a finding fails the run but does not hide the tests' results), then unit and
# integration tests (Vitest: PGlite and a throwaway PostgreSQL server, the Python sandbox, Chromium renders,
# runs against a scripted model server), then e2e (Playwright driving Debian's Chromium against the freshly
# built studio).
set -euo pipefail
cd "$(dirname "$0")/.."
# Firefox too: the second render engine's tests run, they do not skip.
bash scripts/setup.sh --no-build --with-firefox
# The studio's own build is reused when nothing it reads changed since (the stamp scripts/setup.sh keeps;
# CI's first start has just made it): it was built without a type check, so the types are checked here,
# which costs a third of a build.
if node scripts/build-stamp.mjs --current; then
  npm run --silent typecheck
else
  npx next build >/dev/null
  node scripts/build-stamp.mjs --record
fi
reports=$(mktemp -d)
status=0
npm run --silent format:check || status=$?
npm run --silent lint || status=$?
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || status=$?
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json || status=$?
node scripts/test-summary.mjs "$reports/vitest.json" "$reports/playwright.json"
rm -rf "$reports"
exit "$status"
