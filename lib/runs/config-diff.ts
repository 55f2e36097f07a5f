// What differed between two runs, from their stored configs. It walks both configs' fields rather
// than listing them, so a benchmark's own options (frontend's embedder and render profile,
// math-hard's judge, whatever a new module records) appear without this file knowing them; the
// common fields get readable labels, the rest are shown by their keys.

export interface ConfigDiffRow {
  /** The field's path in the config ("sampling.temperature", "render.browser"); a model server's URLs add ".servers". */
  key: string;
  label: string;
  /** Each run's value as shown; "–" where that run's config has no such field. */
  a: string;
  b: string;
  differs: boolean;
  /** Why two values that read alike still differ (a prompt's text under one source), or what is shared. */
  note?: string;
}

const NOT_SET = "–";

/** Labels for the fields every run records (lib/colbench/run-config.ts) and the studio's own additions. */
const LABELS: Record<string, string> = {
  agent: "Agent",
  "agent.servers": "Agent's servers",
  simulator: "Simulator",
  "simulator.servers": "Simulator's servers",
  selector: "Task selector",
  limit: "Limit",
  taskIds: "Tasks",
  bestOf: "Best-of-k (samples per task)",
  "prompts.agent": "Agent's prompt",
  "prompts.simulator": "Simulator's prompt",
  "sampling.temperature": "Temperature",
  "sampling.maxTokens": "Tokens a turn, at most",
  "sampling.logprobs": "Log-probs",
  maxAgentTurns: "Agent turns, at most",
  messageChars: "Longest move from a seat (characters)",
  concurrency: "Episodes at once",
  giveUpSeconds: "Give up on a server after (s)",
  "prices.agent.prompt": "Agent's price, prompt ($ per M tokens)",
  "prices.agent.completion": "Agent's price, completion ($ per M tokens)",
  "prices.simulator.prompt": "Simulator's price, prompt ($ per M tokens)",
  "prices.simulator.completion": "Simulator's price, completion ($ per M tokens)",
  sweetTemplate: "Chat template (SWEET-RL)",
};

/** Fields read with another (the prompt sources go with the prompts), or the same for both runs by construction. */
const SKIPPED = new Set(["benchmark", "promptSources"]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function isServer(v: unknown): v is { baseUrl: string; model: string; replicas?: string[]; apiKeyEnv?: string } {
  return isObject(v) && typeof v.baseUrl === "string" && typeof v.model === "string";
}

function scalar(v: unknown): string {
  if (v === undefined || v === null) return NOT_SET;
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  if (Array.isArray(v) && v.every((x) => !isObject(x) && !Array.isArray(x))) return v.map(scalar).join(", ");
  return JSON.stringify(v);
}

/** Where two texts first part, as a person would look for it. */
function firstDifferentLine(a: string, b: string): number {
  const [la, lb] = [a.split("\n"), b.split("\n")];
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  return i + 1;
}

function row(key: string, a: string, b: string, note?: string, differs = a !== b): ConfigDiffRow {
  return { key, label: LABELS[key] ?? key, a, b, differs, ...(note ? { note } : {}) };
}

/** A side (or a benchmark's judge): the model, and its servers on a row of their own. */
function serverRows(key: string, a: unknown, b: unknown): ConfigDiffRow[] {
  const who = (v: unknown) =>
    isServer(v) ? v.model : isObject(v) && v.human === true ? "a person, in a seat" : scalar(v);
  const servers = (v: unknown) =>
    isServer(v)
      ? [v.baseUrl, ...(v.replicas ?? [])].join(", ") + (v.apiKeyEnv ? ` (key from $${v.apiKeyEnv})` : "")
      : NOT_SET;
  return [row(key, who(a), who(b)), row(`${key}.servers`, servers(a), servers(b))];
}

function promptRow(side: "agent" | "simulator", a: Json, b: Json): ConfigDiffRow {
  const text = (c: Json) => (isObject(c.prompts) && typeof c.prompts[side] === "string" ? c.prompts[side] : null);
  const source = (c: Json) => {
    const s = isObject(c.promptSources) ? c.promptSources[side] : undefined;
    return s === undefined ? NOT_SET : s === "default" ? "the studio's own" : scalar(s);
  };
  const [ta, tb] = [text(a), text(b)];
  const shown = (c: Json, t: string | null) =>
    t === null ? NOT_SET : `${source(c)} (${t.length.toLocaleString("en")} characters)`;
  const differs = ta !== tb;
  // One source can hold two texts (a file edited between runs, or the studio's own prompt changed).
  const note =
    differs && ta !== null && tb !== null ? `the texts differ from line ${firstDifferentLine(ta, tb)}` : undefined;
  return row(`prompts.${side}`, shown(a, ta), shown(b, tb), note, differs);
}

function taskRow(a: Json, b: Json): ConfigDiffRow {
  const ids = (c: Json) =>
    Array.isArray(c.taskIds) ? (c.taskIds as unknown[]).filter((x): x is number => typeof x === "number") : null;
  const [ia, ib] = [ids(a), ids(b)];
  const count = (x: number[] | null) => (x === null ? NOT_SET : `${x.length} task${x.length === 1 ? "" : "s"}`);
  if (!ia || !ib) return row("taskIds", count(ia), count(ib));
  const inB = new Set(ib);
  const shared = ia.filter((id) => inB.has(id)).length;
  const same = shared === ia.length && shared === ib.length;
  return row("taskIds", count(ia), count(ib), same ? undefined : `${shared} in common`, !same);
}

function templateRow(a: unknown, b: unknown): ConfigDiffRow {
  const ref = (v: unknown) => (isObject(v) && typeof v.ref === "string" ? v.ref : scalar(v));
  const differs = JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
  const note = differs && ref(a) === ref(b) ? "same name, different template text or tokens" : undefined;
  return row("sweetTemplate", ref(a), ref(b), note, differs);
}

/** Every leaf under a key, both runs' keys in the order first met (a's, then those only b has). */
function walk(key: string, a: unknown, b: unknown): ConfigDiffRow[] {
  if (isServer(a) || isServer(b)) return serverRows(key, a, b);
  if (isObject(a) || isObject(b)) {
    const [oa, ob] = [isObject(a) ? a : {}, isObject(b) ? b : {}];
    const keys = [...new Set([...Object.keys(oa), ...Object.keys(ob)])];
    return keys.flatMap((k) => walk(`${key}.${k}`, oa[k], ob[k]));
  }
  return [row(key, scalar(a), scalar(b))];
}

/** The common fields first, in the order a person reads a run; then everything else, as stored. */
const ORDER = [
  "agent",
  "simulator",
  "selector",
  "limit",
  "taskIds",
  "bestOf",
  "prompts",
  "sampling",
  "maxAgentTurns",
  "sweetTemplate",
];

/**
 * Both runs' settings side by side, each row marked where they differ. Configs that are not objects
 * (runs imported from trajectory files record none) read as empty: every field shows "–" for them.
 */
export function configDiff(configA: unknown, configB: unknown): ConfigDiffRow[] {
  const [a, b] = [isObject(configA) ? configA : {}, isObject(configB) ? configB : {}];
  const present = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !SKIPPED.has(k));
  // A limit is shown even where neither run had one: "no limit" is part of what was run.
  const keys = [
    ...ORDER.filter((k) => present.includes(k) || k === "limit"),
    ...present.filter((k) => !ORDER.includes(k)),
  ];
  return keys.flatMap((key): ConfigDiffRow[] => {
    switch (key) {
      case "agent":
      case "simulator":
        return serverRows(key, a[key], b[key]);
      case "limit": {
        // null: made without one; absent: made before runs recorded their limit.
        const limit = (c: Json) =>
          c.limit === null
            ? "none"
            : c.limit === undefined
              ? Object.keys(c).length
                ? "not recorded"
                : NOT_SET
              : scalar(c.limit);
        return [row("limit", limit(a), limit(b))];
      }
      case "taskIds":
        return [taskRow(a, b)];
      case "prompts":
        return [promptRow("agent", a, b), promptRow("simulator", a, b)];
      case "sweetTemplate":
        return [templateRow(a[key], b[key])];
      default:
        return walk(key, a[key], b[key]);
    }
  });
}

/** The labels of the rows that differ, for a one-line summary. */
export function differences(rows: ConfigDiffRow[]): string[] {
  return rows.filter((r) => r.differs).map((r) => r.label);
}
