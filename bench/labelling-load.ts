// Scripted annotators at the labelling desk over HTTP, shared by bench/labelling.ts (the load
// itself, timed) and bench/studio-pages.ts (the same load beside the pages it times).
import type { Database } from "../lib/db/open";
import { storeFor } from "../lib/store";
import { addUser } from "../lib/access/users";
import { createQueue } from "../lib/label/build";
import { makeRunPair } from "../lib/label/testing/run-pair";
import { machineTicks, threadCpu, threadCpuSplit } from "./proc-cpu";

const SIDES = ["left", "right", "tie", "both_bad"] as const;
const WARMUP_MS = 2000;

export interface LabellingSetup {
  queueId: number;
  tokens: string[];
}

/** Two runs of `pairs` tasks, `annotators` users and a queue of their pairs with `overlap`. */
export async function prepareLabelling(
  db: Database,
  options: { annotators: number; pairs: number; overlap: number; prefix?: string },
): Promise<LabellingSetup> {
  const store = storeFor(db.prisma);
  const prefix = options.prefix ?? "bench";
  const runs = await makeRunPair(store, { tasks: options.pairs, prefix });
  const names = Array.from({ length: options.annotators }, (_, i) => `${prefix}-annotator${i}`);
  const tokens: string[] = [];
  for (const name of names) tokens.push((await addUser(store, name, "annotator")).token);
  const queue = await createQueue(store, {
    name: prefix,
    source: { from: "runs", a: runs.a.name, b: runs.b.name },
    overlap: options.overlap,
    members: names,
  });
  return { queueId: queue.id, tokens };
}

export interface LoadResult {
  /** Which annotator (index into tokens) stored which pair, as the studio acknowledged. */
  acknowledged: Array<{ user: number; item: number }>;
  /** Label request → next pair in hand, sent in the timed window after its warm-up (ms). */
  timed: number[];
  /** The same, sent after it while draining. */
  draining: number[];
  /** GET /api/health, sent by the same clients in the window (ms). */
  health: number[];
  /** Labels and health requests sent in the window's first seconds, when everyone opens the desk at once (ms). */
  warmup: number[];
  warmupHealth: number[];
  refused: number;
  resets: number;
  labelledInWindow: number;
  /** CPU seconds the studio's threads (`studioPid`) spent from the sign-ins to the window's end. */
  cpuInWindow?: ReturnType<typeof threadCpuSplit>;
  /**
   * Over the same window: CPU seconds this process spent being the annotators and everything else it
   * drives (their HTTP, JSON and timers; on a real team that is other people's machines), and the
   * whole machine's busy share of all its cores (0-1).
   */
  clientCpuInWindow?: number;
  machineBusyInWindow?: number;
  elapsed: number;
}

/**
 * Every annotator signs in, then reads a pair for a random `think` ms and labels it, holding one
 * pair ahead as the page does, for `seconds`; with `drain`, on without pausing until the queue is
 * empty. Every tenth label in the window, the annotator also times a bare health request. The
 * window's first 2 s (a quarter of a shorter one) are the warm-up, timed apart.
 */
export async function runAnnotators(
  url: string,
  setup: LabellingSetup,
  options: { seconds: number; think: [number, number]; drain: boolean; alive: () => boolean; studioPid?: number },
): Promise<LoadResult> {
  const pid = options.studioPid;
  const cpuAtStart = pid ? threadCpu(pid) : [];
  let cpuInWindow: LoadResult["cpuInWindow"];
  const cookies: string[] = [];
  for (const token of setup.tokens) {
    // A sign-in link only asks to confirm; the confirming POST starts the session.
    const response = await fetch(`${url}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${encodeURIComponent(token)}`,
      redirect: "manual",
    });
    cookies.push(response.headers.get("set-cookie")!.split(";")[0]!);
  }
  const acknowledged: LoadResult["acknowledged"] = [];
  const timed: number[] = [];
  const draining: number[] = [];
  const health: number[] = [];
  const warmup: number[] = [];
  const warmupHealth: number[] = [];
  let refused = 0;
  let resets = 0;
  let labelledInWindow = 0;
  const start = performance.now();
  const deadline = start + options.seconds * 1000;
  const [low, high] = options.think;
  // Everyone opens the desk in the same second (sign-in, two pairs, the first label, cold routes):
  // that burst is timed apart, as the warm-up, so the window's figures are the reading pace.
  const warm = start + Math.min(WARMUP_MS, (options.seconds * 1000) / 4);
  let clientCpuInWindow: number | undefined;
  let machineBusyInWindow: number | undefined;
  const clientAtStart = process.cpuUsage();
  const machineAtStart = machineTicks();
  const windowTimer = setTimeout(() => {
    if (pid) cpuInWindow = threadCpuSplit(pid, cpuAtStart, threadCpu(pid));
    const client = process.cpuUsage(clientAtStart);
    clientCpuInWindow = (client.user + client.system) / 1e6;
    const machine = machineTicks();
    const busy = machine.busy - machineAtStart.busy;
    machineBusyInWindow =
      busy / (busy + machine.idle - machineAtStart.idle + machine.steal - machineAtStart.steal || 1);
  }, options.seconds * 1000);

  // A connection the server closed as the client reused it (keep-alive) is tried again: every
  // desk request may be sent twice (a label sent again is recognised and stored once).
  const post = async <T>(cookie: string, action: string, body: unknown): Promise<{ status: number; json: T }> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`${url}/api/queues/${setup.queueId}/${action}`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: response.status, json: (await response.json()) as T };
      } catch (error) {
        if (!options.alive()) throw new Error(`the studio died: ${(error as Error).message}`);
        if (attempt >= 3) throw error;
        resets++;
      }
    }
  };

  type Pair = { itemId: number };
  await Promise.all(
    cookies.map(async (cookie, user) => {
      let current = (await post<{ pair: Pair | null }>(cookie, "next", { holding: [] })).json.pair;
      let ahead = current
        ? (await post<{ pair: Pair | null }>(cookie, "next", { holding: [current.itemId] })).json.pair
        : null;
      for (let n = 0; current; n++) {
        const inWindow = performance.now() < deadline;
        if (!inWindow && !options.drain) break;
        if (inWindow) await new Promise((r) => setTimeout(r, low + Math.random() * (high - low)));
        const t0 = performance.now();
        const { status, json } = await post<{ next: Pair | null }>(cookie, "labels", {
          itemId: current.itemId,
          side: SIDES[Math.floor(Math.random() * 4)],
          ms: 1000,
          holding: ahead ? [ahead.itemId] : [],
        });
        const took = performance.now() - t0;
        (t0 < warm ? warmup : t0 < deadline ? timed : draining).push(took);
        if (status === 200) {
          acknowledged.push({ user, item: current.itemId });
          if (t0 < deadline) labelledInWindow++;
        } else refused++;
        current = ahead ?? json.next ?? null;
        ahead = ahead ? (json.next ?? null) : null;
        if (current && !ahead)
          ahead = (await post<{ pair: Pair | null }>(cookie, "next", { holding: [current.itemId] })).json.pair;
        if (n % 10 === 0 && performance.now() < deadline) {
          const h0 = performance.now();
          const ok = await fetch(`${url}/api/health`)
            .then((r) => r.text())
            .then(
              () => true,
              () => false,
            );
          if (ok) (h0 < warm ? warmupHealth : health).push(performance.now() - h0);
        }
      }
    }),
  );
  clearTimeout(windowTimer);
  return {
    acknowledged,
    timed,
    draining,
    health,
    warmup,
    warmupHealth,
    refused,
    resets,
    labelledInWindow,
    cpuInWindow,
    clientCpuInWindow,
    machineBusyInWindow,
    elapsed: (performance.now() - start) / 1000,
  };
}

export const percentile = (xs: number[], q: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

export const describeTimes = (xs: number[]) =>
  `p50 ${percentile(xs, 0.5).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms, p99 ${percentile(xs, 0.99).toFixed(1)} ms (n=${xs.length})`;
