import { Command, Option } from "commander";
import { addUser, LINK_DAYS, renewLink, ROLES, signInUrl } from "../../lib/access/users";
import type { Role } from "../../lib/store/access";
import { withDatabase } from "../database";
import { action, fail } from "../errors";

const DEFAULT_URL = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export function register(program: Command): void {
  const users = program.command("users").description("people who sign in to a shared studio, and their roles");
  users
    .command("add")
    .description("add a person and print their sign-in link (shown once; only its hash is kept)")
    .argument("<name>", "their name (letters, digits, . _ @ -)")
    .addOption(
      new Option("--role <role>", "admin, researcher (sees everything) or annotator (never sees hidden information)")
        .choices(ROLES)
        .makeOptionMandatory(),
    )
    .option("--url <base>", "the studio's address as they reach it", DEFAULT_URL)
    .option(
      "--expires-in <days>",
      `days the link stays good unless used (it works once; default ${LINK_DAYS}, or COLBENCH_LINK_DAYS)`,
    )
    .action(
      action(async (name: string, opts: { role: Role; url: string; expiresIn?: string }) => {
        const { user, token, expiresAt } = await withDatabase("users add", (store) =>
          addUser(store, name, opts.role, opts.expiresIn).catch((error: Error) => fail(error.message)),
        );
        console.log(
          `added ${user.name} (${user.role}); sign-in link: ${signInUrl(opts.url, token)}  (works once, until ${expiresAt.toISOString()})`,
        );
      }),
    );
  users
    .command("link")
    .description("make a new sign-in link for a person (their unused links stop working)")
    .argument("<name>")
    .option("--url <base>", "the studio's address as they reach it", DEFAULT_URL)
    .option("--expires-in <days>", `days the link stays good unless used (default ${LINK_DAYS}, or COLBENCH_LINK_DAYS)`)
    .action(
      action(async (name: string, opts: { url: string; expiresIn?: string }) => {
        const { user, token, expiresAt } = await withDatabase("users link", (store) =>
          renewLink(store, name, opts.expiresIn).catch((error: Error) => fail(error.message)),
        );
        console.log(
          `new sign-in link for ${user.name} (${user.role}): ${signInUrl(opts.url, token)}  (works once, until ${expiresAt.toISOString()})`,
        );
      }),
    );
  for (const [verb, disabled] of [
    ["disable", true],
    ["enable", false],
  ] as const) {
    users
      .command(verb)
      .description(
        disabled
          ? "stop a person signing in (their sessions end and their links stop working, for good)"
          : "let a disabled person sign in again (with a new link: `users link NAME`)",
      )
      .argument("<name>")
      .action(
        action(async (name: string) => {
          await withDatabase(`users ${verb}`, async (store) => {
            const user = (await store.users.list()).find((u) => u.name === name);
            if (!user) fail(`no user named "${name}"`);
            await store.users.setDisabled(user.id, disabled);
            console.log(`${name} ${disabled ? "disabled" : "enabled"}`);
          });
        }),
      );
  }
  users
    .command("list")
    .description("list people and their roles")
    .option("--json", "one JSON object per person")
    .action(
      action(async (opts: { json?: boolean }) => {
        await withDatabase("users list", async (store) => {
          const list = await store.users.list();
          for (const u of list)
            console.log(
              opts.json
                ? JSON.stringify(u)
                : `${String(u.id).padStart(4)}  ${u.name.padEnd(24)}  ${u.role.padEnd(10)}  ${u.disabled ? "disabled" : "enabled"}`,
            );
          if (!list.length && !opts.json)
            console.log("no users: a studio on 127.0.0.1 lets the person at the machine in as admin");
        });
      }),
    );
}
