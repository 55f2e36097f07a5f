import type { TextLogprobs } from "../../models/types";
import type { LogprobEngine } from "./engine";
import type { Encoded, ModelTokenizer } from "./tokenizer";

// Prompt scoring on this machine: a model runner (GPU or CPU) behind the calls the SWEET-RL steps
// make of a model server (lib/models/openai-client.ts: promptLogprobs, textLogprobs), with the same
// tokenisation (the whole text at once, special tokens as the tokenizer adds them) and the same rule
// for where a continuation starts (its first token that ends past the prefix's text). Texts that
// share a beginning share its tokens' work: it runs once, and every candidate attends to its cache.

export interface TokenScore {
  token: string;
  logprob: number | null;
}

export interface ContinuationScore {
  /** Every token of prefix + candidate; log-probs of prefix tokens are null unless asked for. */
  tokens: TokenScore[];
  /** Index in `tokens` of the candidate's first token. */
  continuationStart: number;
  /** Sum and mean of the continuation's token log-probs. */
  sum: number;
  mean: number;
}

const utf8 = new TextEncoder();

function commonPrefix(sequences: number[][]): number {
  if (!sequences.length) return 0;
  let n = Math.min(...sequences.map((s) => s.length));
  for (const s of sequences.slice(1)) {
    let i = 0;
    while (i < n && s[i] === sequences[0]![i]) i++;
    n = i;
  }
  return n;
}

export class LocalScorer {
  readonly spec: { model: string };
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly engine: LogprobEngine,
    readonly tokenizer: ModelTokenizer,
    model: string,
  ) {
    this.spec = { model };
  }

  /** One engine call at a time: its passes share buffers. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Runs token sequences that may share a beginning: the shared part (at most `shareAtMost` tokens)
   * once, then each sequence's rest. Per sequence: log-probs of every token (null for the first, and
   * for shared ones unless `prefixLogprobs`), and sum/mean over tokens [spanFrom, end).
   */
  private async run(
    sequences: Encoded[],
    options: { shareAtMost: number; prefixLogprobs: boolean; spanFrom?: number[] },
  ) {
    const ids = sequences.map((s) => s.ids);
    const shared = Math.min(commonPrefix(ids), options.shareAtMost);
    const prefix = ids[0]?.slice(0, shared) ?? [];
    const result = await this.exclusive(() =>
      this.engine.score({
        prefix,
        candidates: ids.map((s) => s.slice(shared)),
        prefixFrom: options.prefixLogprobs && shared > 1 ? 1 : Math.max(1, shared),
        spans: ids.map((s, i) => [Math.max(0, (options.spanFrom?.[i] ?? shared) - shared), s.length - shared]),
      }),
    );
    return sequences.map((s, i) => {
      const logprobs: Array<number | null> = s.ids.map((_, t) => {
        if (t === 0) return null;
        if (t < shared) return options.prefixLogprobs ? result.prefix[t - 1]! : null;
        const v = result.candidates[i]![t - shared]!;
        return Number.isNaN(v) ? null : v;
      });
      return { tokens: s.tokens.map((token, t) => ({ token, logprob: logprobs[t]! })), totals: result.totals[i]! };
    });
  }

  /**
   * The one call: the log-probs of each candidate's tokens after `prefix` (tokenised together, as a
   * server scores `prefix + candidate`), with their sum and mean.
   */
  async scoreContinuations(
    prefix: string,
    candidates: string[],
    options: { prefixLogprobs?: boolean } = {},
  ): Promise<ContinuationScore[]> {
    const prefixBytes = utf8.encode(prefix).length;
    const encoded = candidates.map((c) => this.tokenizer.encode(prefix + c));
    // A token that straddles the boundary belongs to the continuation; an empty candidate has none.
    const starts = encoded.map((e, i) => {
      if (!candidates[i]) return e.ids.length;
      const at = e.ends.findIndex((end) => end > prefixBytes);
      return at < 0 ? e.ids.length : at;
    });
    const runs = await this.run(encoded, {
      shareAtMost: Math.min(...starts),
      prefixLogprobs: options.prefixLogprobs ?? false,
      spanFrom: starts.map((s) => Math.max(1, s)),
    });
    return runs.map((r, i) => ({
      tokens: r.tokens,
      continuationStart: starts[i]!,
      sum: r.totals.sum,
      mean: r.totals.mean,
    }));
  }

  /** As OpenAICompatibleClient.promptLogprobs, for many prompts at once (every token but the first scored). */
  async promptLogprobsBatch(prompts: string[]): Promise<TokenScore[][]> {
    const encoded = prompts.map((p) => this.tokenizer.encode(p));
    const runs = await this.run(encoded, {
      shareAtMost: Math.min(...encoded.map((e) => Math.max(0, e.ids.length - 1))),
      prefixLogprobs: true,
    });
    return runs.map((r) => r.tokens);
  }

  async promptLogprobs(prompt: string): Promise<TokenScore[]> {
    return (await this.promptLogprobsBatch([prompt]))[0]!;
  }

  /**
   * As OpenAICompatibleClient.textLogprobs for each continuation of one prefix; the tokens listed
   * are the continuation's own (continuationStart 0), which is all the SWEET-RL steps read.
   */
  async textLogprobsBatch(prefix: string, continuations: string[]): Promise<TextLogprobs[]> {
    const scores = await this.scoreContinuations(prefix, continuations);
    return scores.map((s) => ({
      tokens: s.tokens
        .slice(s.continuationStart)
        .flatMap((t) => (t.logprob === null ? [] : [{ token: t.token, logprob: t.logprob }])),
      continuationStart: 0,
    }));
  }

  async textLogprobs(prefix: string, continuation = ""): Promise<TextLogprobs> {
    return (await this.textLogprobsBatch(prefix, [continuation]))[0]!;
  }

  dispose(): void {
    this.engine.dispose();
  }
}
