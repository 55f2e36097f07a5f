import { z } from "zod";

/** Where a model lives: an OpenAI-compatible base URL (ending in /v1) and a model name. */
export interface ServerSpec {
  baseUrl: string;
  model: string;
  /** Name of the environment variable holding the API key (the key itself is never stored). */
  apiKeyEnv?: string;
  /** More servers of the same model (replicas): requests go to the least loaded of all of them. */
  replicas?: string[];
}

export const serverSpecSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }),
  model: z.string().min(1),
  apiKeyEnv: z.string().optional(),
  replicas: z.array(z.url({ protocol: /^https?$/ })).optional(),
});

/**
 * Parses `URL#MODEL` (e.g. `http://localhost:8000/v1#meta-llama/Llama-3.1-8B-Instruct`), or
 * `URL,URL,…#MODEL` for replicas of one model.
 */
export function parseServerSpec(text: string, what = "server"): ServerSpec {
  const hash = text.lastIndexOf("#");
  if (hash <= 0 || hash === text.length - 1) {
    throw new Error(`${what}: expected URL#MODEL, e.g. http://localhost:8000/v1#my-model (got "${text}")`);
  }
  const urls = text
    .slice(0, hash)
    .split(",")
    .map((u) => u.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  const model = text.slice(hash + 1);
  const [baseUrl, ...replicas] = urls;
  const parsed = serverSpecSchema.safeParse({
    baseUrl,
    model,
    ...(replicas.length ? { replicas: [...new Set(replicas)].filter((u) => u !== baseUrl) } : {}),
  });
  if (!parsed.success)
    throw new Error(`${what}: "${urls.join(",")}" is not an http(s) URL${urls.length > 1 ? " list" : ""}`);
  return parsed.data;
}

/** Every server of a spec: its own and its replicas. */
export function serverUrls(spec: ServerSpec): string[] {
  return [spec.baseUrl, ...(spec.replicas ?? [])];
}

export function formatServerSpec(spec: ServerSpec): string {
  return `${serverUrls(spec).join(",")}#${spec.model}`;
}

/** The key for a server: its own variable if named, else COLBENCH_API_KEY, else OPENAI_API_KEY. */
export function apiKeyFor(spec: ServerSpec, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (spec.apiKeyEnv) return env[spec.apiKeyEnv];
  return env.COLBENCH_API_KEY ?? env.OPENAI_API_KEY;
}
