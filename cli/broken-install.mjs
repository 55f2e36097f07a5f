// What a failure to load the CLI means, in words with a fix (plain JavaScript: it must work when
// nothing else of the install does). Used by bin.mjs.

import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** Set by scripts/setup.sh while a first start has installed only the first page's packages. */
const FIRST_PAGE_MARK = path.join(root, "node_modules", ".colbench-first-page-only");

/** How to get a missing package: wait for the first start's background install, or install it all. */
function packageFix() {
  return fs.existsSync(FIRST_PAGE_MARK)
    ? "the first start installs it in the background after the first page; `npm run setup` waits for that (or installs it)"
    : `run \`npm ci\` in ${root}`;
}

/** The missing or broken part behind an import failure, or null when it is not recognised. */
export function brokenInstall(error) {
  const message = String(error?.message ?? error);
  const code = error?.code;
  if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND" || /Cannot find (module|package)/.test(message)) {
    const pkg = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
    // A package missing for the generated client (its @prisma/client) names lib/db/generated as the
    // importer: the package is what is missing, not the client.
    const bare = pkg && !pkg.startsWith(".") && !path.isAbsolute(pkg) && !/^file:/.test(pkg);
    if (!bare && /db[\\/]generated/.test(message)) {
      return {
        what: "Database client",
        summary:
          "the generated Prisma client (lib/db/generated) is missing, e.g. after a failed `npm install` postinstall",
        fix: "run `npm run prisma:generate` (or `npm ci`, which runs it)",
      };
    }
    if (bare) {
      return {
        what: "Node packages",
        summary: `the package ${pkg
          .split(/[\\/]/)
          .slice(0, pkg.startsWith("@") ? 2 : 1)
          .join("/")} is not installed (node_modules is missing or incomplete)`,
        fix: packageFix(),
      };
    }
    return {
      what: "the studio's code",
      summary: `a file is missing: ${message.split("\n")[0]}`,
      fix: "run `git status` and `git checkout -- .` to restore the checkout, then `npm ci`",
    };
  }
  if (error instanceof SyntaxError || /Transform failed|Expected|Unexpected/.test(message)) {
    return {
      what: "the studio's code",
      summary: `does not compile: ${message.split("\n")[0]}`,
      fix: "run `git status` for local changes that break the build (`npm run typecheck` names the file and line)",
    };
  }
  return null;
}

/** One line with its fix; for doctor, in the report's layout with the Node line it can still check. */
export function printBroken(found, asDoctor) {
  if (!asDoctor) {
    process.stderr.write(`colbench: ${found.what}: ${found.summary}\ncolbench: fix: ${found.fix}\n`);
    return;
  }
  const rows = [
    ["ok", "Node.js", `${process.version} at ${process.execPath}`],
    ["missing", found.what, found.summary, found.fix],
  ];
  const width = Math.max(...rows.map((r) => r[1].length));
  const lines = [];
  for (const [status, name, summary, fix] of rows) {
    lines.push(`${status.padEnd(8)}  ${name.padEnd(width)}  ${summary}`);
    if (fix) lines.push(`${" ".repeat(10 + width + 2)}fix: ${fix}`);
  }
  lines.push(`The studio cannot work without: ${found.what} (see the fix above; the other checks run once it loads).`);
  if (process.argv.includes("--json")) {
    const parts = rows.map(([status, name, summary, fix]) => ({
      id: name === "Node.js" ? "node" : "install",
      name,
      status,
      required: true,
      summary,
      ...(fix ? { fix } : {}),
      details: {},
    }));
    console.log(JSON.stringify({ version: 1, ok: false, parts, at: new Date().toISOString(), tookMs: 0 }, null, 2));
  } else console.log(lines.join("\n"));
}
