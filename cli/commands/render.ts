import { readFileSync, writeFileSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import {
  BROWSERS,
  PROFILE_NAMES,
  profileLabel,
  type BrowserName,
  type ProfileName,
} from "../../lib/colbench/render-profile";
import { RenderPool } from "../../lib/scoring/frontend/render";
import { action } from "../errors";

// `colbench render IN.html --out OUT.png`: one page through the render pool, offline, as the
// frontend scorer sees it.

interface RenderCommandOptions {
  out: string;
  width?: number;
  viewportHeight?: number;
  deadline?: number;
  cache: boolean;
  profile?: ProfileName;
  browser?: BrowserName;
  placeholderPhoto?: string;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

export function register(program: Command): void {
  program
    .command("render")
    .description("render an HTML page to a full-page PNG, offline (prints a JSON summary)")
    .argument("<in>", "HTML file")
    .requiredOption("--out <file>", "PNG to write")
    .addOption(
      new Option(
        "--profile <name>",
        "render profile: paper (the published scorer's screenshot, default) or studio-1280 (the studio's earlier 1280x800)",
      ).choices(PROFILE_NAMES),
    )
    .addOption(
      new Option(
        "--browser <engine>",
        "render engine: chromium (default) or firefox (Firefox ESR; scripts/setup.sh --with-firefox)",
      ).choices(BROWSERS),
    )
    .option(
      "--placeholder-photo <file>",
      "the published placeholder photo (picsum.photos/id/48); default $COLBENCH_PLACEHOLDER_PHOTO, else generated stand-ins",
    )
    .option("--width <px>", "viewport width (overrides the profile's)", positiveInt)
    .option("--viewport-height <px>", "viewport height, what 100vh means (overrides the profile's)", positiveInt)
    .option("--deadline <ms>", "time allowed for loading and scripts", positiveInt)
    .option("--no-cache", "neither read nor write renders in <data>/renders")
    .action(
      action(async (file: string, opts: RenderCommandOptions) => {
        const html = readFileSync(file, "utf8");
        const pool = await RenderPool.start({
          cache: opts.cache,
          ...(opts.profile ? { profile: opts.profile } : {}),
          ...(opts.browser ? { browser: opts.browser } : {}),
          ...(opts.placeholderPhoto ? { placeholderPhoto: opts.placeholderPhoto } : {}),
        });
        // Said where a person running it sees it: whether the page could have reached the network.
        process.stderr.write(`renderer isolation: ${pool.isolation.describe}\n`);
        process.stderr.write(`render profile: ${profileLabel(pool.profile)} (${pool.browserVersion})\n`);
        try {
          const settings = {
            ...(opts.width ? { width: opts.width } : {}),
            ...(opts.viewportHeight ? { viewportHeight: opts.viewportHeight } : {}),
          };
          const r = await pool.render(html, { settings, ...(opts.deadline ? { deadlineMs: opts.deadline } : {}) });
          writeFileSync(opts.out, r.png);
          const { id, status, width, height, aborted, blocked, cached, profile } = r;
          console.log(
            JSON.stringify({
              id,
              status,
              width,
              height,
              profile,
              browser: pool.browserVersion,
              aborted,
              blocked,
              cached,
              ...(r.error ? { error: r.error } : {}),
            }),
          );
          if (status !== "ok") process.exitCode = 1;
        } finally {
          await pool.close();
        }
      }),
    );
}
