// Models and datasets by name: a folder, or a Hugging Face hub id resolved through the cache
// Python's huggingface_hub shares. Consumers call resolveModel(ref, { files }) and read a folder.
export {
  probeModel,
  resolveDataset,
  resolveModel,
  type Availability,
  type FileProgress,
  type ResolveOptions,
  type Resolved,
} from "./resolve";
export { HubError, isHubError, type HubErrorCode } from "./errors";
export { parseRef, repoLabel, type HubRepo, type Ref, type RepoType } from "./ref";
export { hubSettings, type HubSettings } from "./settings";
export { resolveCheckpoint, TOKENIZER_FILES, type Checkpoint } from "./checkpoint";
export { deleteCached, listCached, type CachedRepo, type CachedRevision } from "./cache";
export { formatBytes } from "./bytes";
