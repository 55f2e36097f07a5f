import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

// What a user may write wherever weights or data are taken: a folder, or a hub repository with an
// optional revision, as transformers and vLLM accept them.
//
//   ./checkpoints/clip             a folder (anything that exists on disk is one, as in transformers)
//   openai/clip-vit-base-patch32   a model on the hub, branch main
//   meta-llama/Llama-3.1-8B-Instruct@main     a model at a branch, tag or commit
//   datasets/facebook/collaborative_agent_bench@cf3526d…   a dataset

export type RepoType = "model" | "dataset";

export interface HubRepo {
  type: RepoType;
  /** owner/name (or a bare name, for the hub's oldest models). */
  name: string;
  /** A branch, tag or 40-character commit; "main" when none is given. */
  revision: string;
}

export type Ref = { kind: "folder"; path: string } | ({ kind: "hub" } & HubRepo);

const NAME = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;
const REVISION = /^[\w.\/-]+$/;

/** How a repository is named in messages and in the studio: `datasets/owner/name` or `owner/name`. */
export function repoLabel(repo: Pick<HubRepo, "type" | "name">): string {
  return repo.type === "dataset" ? `datasets/${repo.name}` : repo.name;
}

export function parseRef(ref: string, defaultType: RepoType = "model"): Ref {
  const trimmed = ref.trim();
  if (!trimmed)
    throw new Error("empty model or dataset reference: give a folder or a hub id such as openai/clip-vit-base-patch32");
  const expanded = trimmed.startsWith("~/") ? path.join(homedir(), trimmed.slice(2)) : trimmed;
  if (existsSync(expanded) || /^(\.{1,2}|~)?\//.test(trimmed) || trimmed === "." || trimmed === "..") {
    return { kind: "folder", path: path.resolve(expanded) };
  }
  return { kind: "hub", ...parseHubId(trimmed, defaultType) };
}

/** A hub id with an optional revision, never taken for a folder (for deleting from the cache, say). */
export function parseHubId(id: string, defaultType: RepoType = "model"): HubRepo {
  let rest = id.trim().replace(/^hf:\/\//, "");
  let type = defaultType;
  const typed = /^(models|datasets)\/(.+)$/.exec(rest);
  if (typed) {
    type = typed[1] === "datasets" ? "dataset" : "model";
    rest = typed[2]!;
  }
  const at = rest.indexOf("@");
  const name = at < 0 ? rest : rest.slice(0, at);
  const revision = at < 0 ? "main" : rest.slice(at + 1);
  if (!NAME.test(name) || name.includes("..")) {
    throw new Error(
      `"${id}" is neither an existing folder nor a hub id (owner/name, optionally @revision; datasets/owner/name for a dataset)`,
    );
  }
  if (!revision || !REVISION.test(revision) || revision.split("/").includes(".."))
    throw new Error(`"${id}": bad revision "${revision}"`);
  return { type, name, revision };
}
