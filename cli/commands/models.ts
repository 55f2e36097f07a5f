import { Command } from "commander";
import { deleteCached, listCached, resolveCheckpoint, resolveModel } from "../../lib/hub";
import { action, fail } from "../errors";
import { formatBytes, hubProgress } from "../hub-progress";

// `colbench models`: the Hugging Face cache the studio shares with Python (HF_HOME, HF_HUB_CACHE),
// as the studio's Models page shows it.

export function register(program: Command): void {
  const models = program
    .command("models")
    .description("models and datasets in the Hugging Face cache the studio shares with Python (HF_HUB_CACHE)");

  models
    .command("list")
    .description("cached repositories with their size and revisions")
    .option("--json", "one JSON object per repository")
    .action(
      action(async (opts: { json?: boolean }) => {
        const { cacheDir, repos } = listCached();
        if (opts.json) {
          for (const repo of repos) console.log(JSON.stringify(repo));
          return;
        }
        console.log(`cache: ${cacheDir}`);
        if (!repos.length) console.log("(empty)");
        for (const repo of repos) {
          const revisions = repo.revisions
            .map(
              (r) => `${r.refs.length ? `${r.refs.join(",")}=` : ""}${r.commit.slice(0, 10)} (${r.files.length} files)`,
            )
            .join("  ");
          console.log(
            `${repo.id.padEnd(48)} ${formatBytes(repo.size).padStart(9)}${repo.partial ? ` + ${formatBytes(repo.partial)} partial` : ""}  ${revisions}`,
          );
        }
      }),
    );

  models
    .command("download")
    .description(
      "fetch a checkpoint into the cache ahead of use (config.json and safetensors weights, or the files named)",
    )
    .argument("<ref>", "hub id (owner/name[@revision], datasets/owner/name) or folder")
    .option("--file <path...>", "fetch exactly these files instead of a checkpoint's")
    .option("--tokenizer", "also the tokenizer's files")
    .action(
      action(async (ref: string, opts: { file?: string[]; tokenizer?: boolean }) => {
        const progress = hubProgress();
        try {
          const resolved = opts.file?.length
            ? await resolveModel(ref, { files: opts.file, onProgress: progress.onProgress })
            : await resolveCheckpoint(ref, { tokenizer: opts.tokenizer, onProgress: progress.onProgress });
          progress.stop();
          console.log(
            JSON.stringify({
              folder: resolved.folder,
              source: resolved.source,
              repo: resolved.repo,
              commit: resolved.commit,
              files: resolved.files,
              downloaded: resolved.downloaded,
            }),
          );
        } finally {
          progress.stop();
        }
      }),
    );

  models
    .command("delete")
    .description("remove a repository (every revision) from the cache")
    .argument("<id>", "owner/name, or datasets/owner/name")
    .action(
      action(async (id: string) => {
        const { removed, bytes } = deleteCached(id);
        if (!removed) fail(`${id} is not in the cache (${listCached().cacheDir})`);
        console.log(`removed ${id} (${formatBytes(bytes)})`);
      }),
    );
}
