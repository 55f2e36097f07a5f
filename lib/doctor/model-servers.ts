import { apiKeyFor } from "../colbench/server-spec";
import type { RunServer } from "../store/system";
import { part, type Part } from "./types";

/** Asks an OpenAI-compatible server for its models (GET BASE/models), as a run's first request would reach it. */
export async function checkModelServer(server: RunServer, timeoutMs = 5000): Promise<Part> {
  const name = `Model server ${server.baseUrl}`;
  const key = apiKeyFor({ baseUrl: server.baseUrl, model: server.models[0] ?? "", apiKeyEnv: server.apiKeyEnv });
  const base = { id: "model-server", name, required: false };
  const details = { baseUrl: server.baseUrl, models: server.models, runs: server.runs };
  let response: Response;
  try {
    response = await fetch(`${server.baseUrl}/models`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return part({
      ...base,
      status: "missing",
      summary: `unreachable (${cause}); runs ${server.runs.join(", ")} use it`,
      fix: "start it or check its address: the runs that name it cannot play (or resume) until it answers",
      details: { ...details, reachable: false },
    });
  }
  if (!response.ok) {
    return part({
      ...base,
      status: "degraded",
      summary: `answers HTTP ${response.status} to GET /models${response.status === 401 ? " (no or wrong API key)" : ""}`,
      fix:
        response.status === 401 || response.status === 403
          ? `set ${server.apiKeyEnv ?? "COLBENCH_API_KEY (or OPENAI_API_KEY)"}`
          : "check that the URL ends in /v1 of an OpenAI-compatible server",
      details: { ...details, reachable: true, status: response.status },
    });
  }
  let listed: string[] = [];
  try {
    const body = (await response.json()) as { data?: Array<{ id?: string }> };
    listed = (body.data ?? []).map((m) => String(m.id));
  } catch {
    // not the OpenAI list shape: reported below as no models listed
  }
  const absent = server.models.filter((m) => !listed.includes(m));
  return part({
    ...base,
    status: absent.length ? "degraded" : "ok",
    summary: `reachable; lists ${listed.length ? listed.slice(0, 6).join(", ") + (listed.length > 6 ? ` and ${listed.length - 6} more` : "") : "no models"}${absent.length ? `; not listed: ${absent.join(", ")}` : ""}`,
    fix: absent.length ? `serve ${absent.join(", ")} there, or run with a model it lists` : undefined,
    details: { ...details, reachable: true, listed },
  });
}
