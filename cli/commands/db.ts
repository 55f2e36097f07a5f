import { Command } from "commander";
import { withDatabase } from "../database";
import { action } from "../errors";

export function register(program: Command): void {
  const db = program.command("db").description("manage the studio database");
  db.command("migrate")
    .description("apply pending migrations (the studio also does this at start)")
    .action(
      action(async () => {
        await withDatabase("db migrate", async (_store, database) => {
          const applied = database.applied;
          console.log(
            applied.length
              ? `applied ${applied.length} migration(s) to ${database.kind} at ${database.location}: ${applied.join(", ")}`
              : `${database.kind} at ${database.location} is up to date`,
          );
        });
      }),
    );
  db.command("seed")
    .description("load the project's sample tasks into an empty database (the studio does this at first start)")
    .action(
      action(async () => {
        await withDatabase("db seed", async (store) => {
          const seeded = await store.tasks.seedSamplesIfEmpty();
          console.log(seeded.length ? `seeded ${seeded.reduce((n, s) => n + s.inserted, 0)} sample tasks` : "the database already has tasks; nothing seeded");
        });
      }),
    );
}
