import type { PipelineStep } from "../events/types";
import type { Store } from "../store";
import { SWEET_DEFAULTS } from "./defaults";
import { DEFAULT_RANK_SETTINGS } from "./rank-settings";

// Where a run's derived data came from: each start of a SWEET-RL step records the run, the servers
// (URL, never a key or a URL's user:password) and models, the chat template and its settings (N, seed,
// pool, order, ...) as a `SweetStep` row (lib/store/sweet-lineage.ts). Here: the record's shape, read
// back leniently from its JSON, in words for the panel and the CLI, the values the panel's forms start
// from, and what an export file says it was made from. Plain TypeScript, no Node: the panel imports it.

/** A model the step talked to: a server (URL, its replicas) or a model on the machine that ran the step. */
export interface ModelLineage {
  model: string;
  url?: string;
  replicas?: string[];
  /** Set when the model ran in the step's own process (`rank --critic-weights`), e.g. "webgpu". */
  device?: string;
}

export type StepVia = "studio" | "cli" | "queue";

/** What one start of a step was asked to do, and with what. */
export interface StepSettings {
  via: StepVia;
  /** candidates: the policy that sampled; rank: the critic that scored, and a policy that rescored. */
  policy?: ModelLineage;
  critic?: ModelLineage;
  /** The chat template's ref (a fallback's name, a hub id or a folder) the strings were written in. */
  template?: string;
  n?: number;
  fraction?: number;
  temperature?: number;
  maxTokens?: number;
  groundTruth?: boolean;
  sum?: boolean;
  /** pairs: the benchmark's rule. */
  rule?: string;
  pairsPerState?: number;
  seed?: number;
  pool?: string;
  order?: string;
  /** turn-pairs: the latest candidates and rank records when it drew (their ids). */
  from?: { candidates?: number; rank?: number };
}

export interface StepLineage extends StepSettings {
  /** The record's id. */
  id: number;
  step: PipelineStep;
  run: { id: number; name: string };
  /** When the step started (ISO). */
  at: string;
}

/** Each step's records, latest first (a step run more than once keeps every start). */
export type PipelineLineage = Record<PipelineStep, StepLineage[]>;

export const PIPELINE_STEPS: readonly PipelineStep[] = ["pairs", "candidates", "rank", "turn-pairs"];

export function emptyLineage(): PipelineLineage {
  return { pairs: [], candidates: [], rank: [], "turn-pairs": [] };
}

/** A server address as a record keeps it: no user, password, query or fragment. */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString().replace(/\/+$/, "");
  } catch {
    return url;
  }
}

/** What a record says of a model client: its server's URL(s) when it has one (a `ServerSpec`). */
export function modelLineage(
  spec: { model: string; baseUrl?: string; replicas?: string[] },
  device?: string,
): ModelLineage {
  return {
    model: spec.model,
    ...(spec.baseUrl ? { url: publicUrl(spec.baseUrl) } : {}),
    ...(spec.replicas?.length ? { replicas: spec.replicas.map(publicUrl) } : {}),
    ...(device ? { device } : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const bool = (v: unknown) => (typeof v === "boolean" ? v : undefined);

function modelOf(v: unknown): ModelLineage | undefined {
  if (!isObject(v) || typeof v.model !== "string") return undefined;
  const replicas = Array.isArray(v.replicas) ? v.replicas.filter((r): r is string => typeof r === "string") : [];
  return {
    model: v.model,
    ...(str(v.url) ? { url: str(v.url) } : {}),
    ...(replicas.length ? { replicas } : {}),
    ...(str(v.device) ? { device: str(v.device) } : {}),
  };
}

/**
 * A stored record read back: the fields it has of the known kinds, nothing else (a record written by
 * a later version with more fields still reads). The step, run and time come from the row.
 */
export function readLineage(row: {
  id: number;
  step: string;
  createdAt: Date | string;
  runId: number;
  runName: string;
  lineage: unknown;
}): StepLineage | null {
  if (!PIPELINE_STEPS.includes(row.step as PipelineStep)) return null;
  const l = isObject(row.lineage) ? row.lineage : {};
  const via = str(l.via);
  const from = isObject(l.from) ? { candidates: num(l.from.candidates), rank: num(l.from.rank) } : undefined;
  const out: StepLineage = {
    id: row.id,
    step: row.step as PipelineStep,
    run: { id: row.runId, name: row.runName },
    at: new Date(row.createdAt).toISOString(),
    via: via === "studio" || via === "queue" ? via : "cli",
    policy: modelOf(l.policy),
    critic: modelOf(l.critic),
    template: str(l.template),
    n: num(l.n),
    fraction: num(l.fraction),
    temperature: num(l.temperature),
    maxTokens: num(l.maxTokens),
    groundTruth: bool(l.groundTruth),
    sum: bool(l.sum),
    rule: str(l.rule),
    pairsPerState: num(l.pairsPerState),
    seed: num(l.seed),
    pool: str(l.pool),
    order: str(l.order),
    ...(from && (from.candidates !== undefined || from.rank !== undefined)
      ? {
          from: {
            ...(from.candidates !== undefined ? { candidates: from.candidates } : {}),
            ...(from.rank !== undefined ? { rank: from.rank } : {}),
          },
        }
      : {}),
  };
  for (const key of Object.keys(out) as Array<keyof StepLineage>) if (out[key] === undefined) delete out[key];
  return out;
}

/** `URL[,REPLICA…]#MODEL`, as the forms and `--policy`/`--critic` take it; a model on the step's machine by its name. */
export function serverText(m: ModelLineage): string {
  return m.url ? `${[m.url, ...(m.replicas ?? [])].join(",")}#${m.model}` : m.model;
}

const modelWords = (m: ModelLineage) => (m.url ? serverText(m) : `${m.model} on ${m.device ?? "this machine"}`);

/** A record as short phrases, in the order a person reads them: who made it, then with what. */
export function describeLineage(l: StepLineage): string[] {
  const parts: string[] = [`run ${l.run.name}`];
  if (l.policy) parts.push(`${l.step === "rank" ? "policy rescored by" : "policy"} ${modelWords(l.policy)}`);
  if (l.critic) parts.push(`critic ${modelWords(l.critic)}`);
  if (l.template) parts.push(`template ${l.template}`);
  if (l.n !== undefined) parts.push(`n ${l.n} per turn`);
  if (l.temperature !== undefined) parts.push(`temperature ${l.temperature}`);
  if (l.maxTokens !== undefined) parts.push(`max ${l.maxTokens} tokens`);
  if (l.fraction !== undefined && l.fraction !== 1) parts.push(`first ${l.fraction} of the episodes`);
  if (l.rule) parts.push(`rule ${l.rule}`);
  if (l.groundTruth !== undefined) parts.push(l.groundTruth ? "with the final answer" : "without the final answer");
  if (l.sum !== undefined) parts.push(l.sum ? "summed log-probs" : "mean log-probs");
  if (l.pairsPerState !== undefined) parts.push(`${l.pairsPerState} pairs per turn`);
  if (l.seed !== undefined) parts.push(`seed ${l.seed}`);
  if (l.pool) parts.push(`pool ${l.pool}`);
  if (l.order) parts.push(`order ${l.order}`);
  parts.push(
    `${l.via === "queue" ? "queued" : `from the ${l.via === "cli" ? "CLI" : "studio"}`} ${l.at.slice(0, 16).replace("T", " ")} UTC`,
  );
  return parts;
}

/** What each step's form starts with: the latest record's settings, else the published defaults. */
export interface StepFormDefaults {
  pairs: { groundTruth: boolean };
  candidates: { server: string; n: number };
  rank: { server: string; groundTruth: boolean };
  "turn-pairs": { pairsPerState: number; seed: number; pool: string; order: string };
}

export function formDefaults(lineage: PipelineLineage): StepFormDefaults {
  const [pairs] = lineage.pairs;
  const [candidates] = lineage.candidates;
  const [rank] = lineage.rank;
  const [turnPairs] = lineage["turn-pairs"];
  return {
    pairs: { groundTruth: pairs?.groundTruth ?? false },
    candidates: {
      server: candidates?.policy?.url ? serverText(candidates.policy) : "",
      n: candidates?.n ?? SWEET_DEFAULTS.n,
    },
    rank: {
      server: rank?.critic?.url ? serverText(rank.critic) : "",
      groundTruth: rank?.groundTruth ?? DEFAULT_RANK_SETTINGS.groundTruth,
    },
    "turn-pairs": {
      pairsPerState: turnPairs?.pairsPerState ?? SWEET_DEFAULTS.pairsPerState,
      seed: turnPairs?.seed ?? SWEET_DEFAULTS.seed,
      pool: turnPairs?.pool ?? SWEET_DEFAULTS.pool,
      order: turnPairs?.order ?? SWEET_DEFAULTS.order,
    },
  };
}

/** The steps whose records say what a file's lines were made from. */
const STEPS_OF_FORMAT: Record<string, PipelineStep[]> = {
  "openrlhf-critic": ["pairs"],
  "published-frontend-critic": ["pairs"],
  "openrlhf-policy": ["candidates", "rank", "turn-pairs"],
  "trl-dpo": ["candidates", "rank", "turn-pairs"],
};

/**
 * What an export file says it was made from: the run, the format, the template its strings are written
 * in, and each step's latest record behind its lines (turn pairs: the candidates and ranking they drew
 * from, as the turn-pairs record names them when it can). Trajectory files come from the run alone.
 */
export function exportLineage(
  run: { id: number; name: string },
  format: string,
  template: string,
  lineage: PipelineLineage,
): { run: { id: number; name: string }; format: string; template: string; steps: StepLineage[] } {
  const turnPairs = lineage["turn-pairs"][0];
  const pick = (step: PipelineStep): StepLineage | undefined => {
    const wanted = step === "candidates" || step === "rank" ? turnPairs?.from?.[step] : undefined;
    return (wanted !== undefined ? lineage[step].find((l) => l.id === wanted) : undefined) ?? lineage[step][0];
  };
  const steps = (STEPS_OF_FORMAT[format] ?? []).map(pick).filter((l): l is StepLineage => Boolean(l));
  return { run: { id: run.id, name: run.name }, format, template, steps };
}

/** Records a start of `step` on the run; the record as it reads back. */
export async function recordStep(
  store: Store,
  runId: number,
  step: PipelineStep,
  settings: StepSettings,
): Promise<StepLineage> {
  const row = await store.sweet.recordStep(
    runId,
    step,
    JSON.parse(JSON.stringify(settings)) as Record<string, unknown>,
  );
  return readLineage(row)!;
}

/** A run's records by step, latest first. */
export async function loadLineage(store: Store, runId: number): Promise<PipelineLineage> {
  const lineage = emptyLineage();
  for (const row of await store.sweet.steps(runId)) {
    const l = readLineage(row);
    if (l) lineage[l.step].push(l);
  }
  return lineage;
}
