import { Command, Option } from "commander";
import { addUser, renewLink, ROLES, signInUrl } from "../../lib/access/users";
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
    .addOption(new Option("--role <role>", "admin, researcher (sees everything) or annotator (never sees hidden information)").choices(ROLES).makeOptionMandatory())
    .option("--url <base>", "the studio's address as they reach it", DEFAULT_URL)
    .action(
      action(async (name: string, opts: { role: Role; url: string }) => {
        const { user, token } = await withDatabase("users add", (store) => addUser(store, name, opts.role).catch((error: Error) => fail(error.message)));
        console.log(`added ${user.name} (${user.role}); sign-in link: ${signInUrl(opts.url, token)}`);
      }),
    );
  users
    .command("link")
    .description("make a new sign-in link for a person (their old link stops working)")
    .argument("<name>")
    .option("--url <base>", "the studio's address as they reach it", DEFAULT_URL)
    .action(
      action(async (name: string, opts: { url: string }) => {
        const { user, token } = await withDatabase("users link", (store) => renewLink(store, name).catch((error: Error) => fail(error.message)));
        console.log(`new sign-in link for ${user.name} (${user.role}): ${signInUrl(opts.url, token)}`);
      }),
    );
  for (const [verb, disabled] of [["disable", true], ["enable", false]] as const) {
    users
      .command(verb)
      .description(disabled ? "stop a person signing in (their sessions end at once)" : "let a disabled person sign in again")
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
          for (const u of list) console.log(opts.json ? JSON.stringify(u) : `${String(u.id).padStart(4)}  ${u.name.padEnd(24)}  ${u.role.padEnd(10)}  ${u.disabled ? "disabled" : "enabled"}`);
          if (!list.length && !opts.json) console.log("no users: a studio on 127.0.0.1 lets the person at the machine in as admin");
        });
      }),
    );
}
