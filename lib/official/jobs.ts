import type { OfficialSplit } from "../benchmarks/official";
import type { Store } from "../store";
import { importOfficial, type OfficialFileResult } from "./import";
import { processSlot } from "../process-slot";

// The Tasks page's "import the official tasks" button: one import at a time in the server process
// (which owns the embedded database), its progress told to every open Tasks page.

export interface ImportState {
  state: "idle" | "downloading" | "importing" | "finished" | "failed";
  split?: OfficialSplit;
  /** downloading: the file being fetched and how far. */
  file?: string;
  received?: number;
  total?: number;
  /** importing: the file's benchmark and lines so far. */
  benchmark?: string;
  lines?: number;
  inserted?: number;
  results?: Array<
    Pick<OfficialFileResult, "benchmark" | "file" | "absent"> & {
      lines?: number;
      inserted?: number;
      existing?: number;
      bad?: number;
    }
  >;
  error?: string;
}

export class OfficialImports {
  private current: ImportState = { state: "idle" };
  private readonly listeners = new Set<(state: ImportState) => void>();
  private running: Promise<void> | null = null;
  private lastSent = 0;

  constructor(private readonly store: Store) {}

  status(): ImportState {
    return this.current;
  }

  subscribe(listener: (state: ImportState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(next: ImportState, force = true): void {
    this.current = next;
    // Bytes and lines arrive in bursts: at most five updates a second, every change of state.
    if (!force && Date.now() - this.lastSent < 200) return;
    this.lastSent = Date.now();
    for (const listener of this.listeners) listener(next);
  }

  start(split: OfficialSplit): void {
    if (this.running) throw new Error("an import of the official tasks is already running");
    this.tell({ state: "downloading", split });
    this.running = importOfficial(this.store, {
      split,
      onDownload: (p) =>
        this.tell({ state: "downloading", split, file: p.file, received: p.received, total: p.total }, p.done),
      onImport: (p) =>
        this.tell({ state: "importing", split, benchmark: p.benchmark, lines: p.lines, inserted: p.inserted }, false),
    })
      .then(({ results }) =>
        this.tell({
          state: "finished",
          split,
          results: results.map((r) => ({
            benchmark: r.benchmark,
            file: r.file,
            absent: r.absent,
            ...(r.summary
              ? {
                  lines: r.summary.lines,
                  inserted: r.summary.inserted,
                  existing: r.summary.existing,
                  bad: r.summary.lines - r.summary.valid,
                }
              : {}),
          })),
        }),
      )
      .catch((error: Error) => this.tell({ state: "failed", split, error: error.message }))
      .finally(() => (this.running = null));
  }

  async close(): Promise<void> {
    await this.running;
  }
}

const slot = processSlot<OfficialImports>("colbench.officialImports");

export function setOfficialImports(jobs: OfficialImports): void {
  slot.set(jobs);
}

export function getOfficialImports(): OfficialImports {
  return slot.need("no import jobs in this process: start the studio with `npx colbench serve`");
}
