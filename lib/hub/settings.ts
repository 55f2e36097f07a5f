import { readFileSync } from "node:fs";
import path from "node:path";
import { getHFHubCachePath, HUB_URL } from "@huggingface/hub";
import { userCacheDir } from "../paths";

// The environment Python's huggingface_hub reads, read the same way, so that weights a researcher
// already has from transformers or vLLM are found where they are and nothing is fetched twice.

export interface HubSettings {
  /** HF_ENDPOINT, default https://huggingface.co (no trailing slash). */
  endpoint: string;
  /** HF_HUB_CACHE, else HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub. */
  cacheDir: string;
  /** HF_HUB_OFFLINE: never ask the hub, use only what the cache holds. */
  offline: boolean;
  /** HF_TOKEN, else the token file `huggingface-cli login` writes. */
  token?: string;
}

/** huggingface_hub's truthy spellings of a boolean variable. */
function isTrue(value: string | undefined): boolean {
  return value !== undefined && ["1", "ON", "YES", "TRUE"].includes(value.trim().toUpperCase());
}

function hfHome(): string {
  return process.env.HF_HOME ?? path.join(userCacheDir(), "huggingface");
}

function tokenFromFile(): string | undefined {
  try {
    return readFileSync(process.env.HF_TOKEN_PATH ?? path.join(hfHome(), "token"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The settings in effect now, from the process environment, with `overrides` on top. */
export function hubSettings(overrides: Partial<HubSettings> = {}): HubSettings {
  const token = process.env.HF_TOKEN?.trim() || process.env.HUGGING_FACE_HUB_TOKEN?.trim() || tokenFromFile();
  return {
    endpoint: (process.env.HF_ENDPOINT?.trim() || HUB_URL).replace(/\/+$/, ""),
    cacheDir: getHFHubCachePath(),
    offline: isTrue(process.env.HF_HUB_OFFLINE),
    token,
    ...overrides,
  };
}
