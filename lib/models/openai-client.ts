import { z } from "zod";
import { serverLimiter, type Limiter } from "./limiter";
import { apiKeyFor, formatServerSpec, serverUrls, type ServerSpec } from "../colbench/server-spec";
import { serverPool, type ServerPool } from "./server-pool";
import { breakerFor, DEFAULT_GIVE_UP_MS } from "./breaker";
import type { ServerFailure } from "../colbench/failure";
import type { ChatRequest, ChatResult, TextLogprobs, TokenLogprob, Usage } from "./types";

export type ModelServerFailure = ServerFailure;

export class ModelServerError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly failure?: ModelServerFailure,
  ) {
    super(message);
  }
}

/** The reason a fetch threw, down to the system error (undici says only "fetch failed"). */
function networkCause(error: Error): string {
  if (error.name === "TimeoutError") return error.message;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message ?? cause?.code ?? error.message;
}

export interface ClientOptions {
  /** Per request attempt. */
  timeoutMs?: number;
  /** Further attempts after the first for answers that are not an outage: 429 and malformed bodies. */
  maxRetries?: number;
  backoffMs?: number;
  /**
   * An outage (no connection, a timeout, HTTP 5xx) is waited out, not counted in attempts: requests
   * wait on the server's breaker (lib/models/breaker.ts) and fail only once it has been down this long.
   */
  giveUpMs?: number;
  /** Requests in flight to this server at once, shared by every client of the same base URL. */
  concurrency?: number;
  apiKey?: string;
  fetch?: typeof fetch;
}

const usageSchema = z
  .object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() })
  .passthrough()
  .nullish();

const chatSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string() }),
        logprobs: z
          .object({ content: z.array(z.object({ token: z.string(), logprob: z.number() })).nullish() })
          .nullish(),
      }),
    )
    .min(1),
  usage: usageSchema,
});

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        logprobs: z.object({
          tokens: z.array(z.string()),
          token_logprobs: z.array(z.number().nullable()),
          text_offset: z.array(z.number()).optional(),
        }),
      }),
    )
    .min(1),
  usage: usageSchema,
});

function toUsage(raw: z.infer<typeof usageSchema>): Usage | undefined {
  if (!raw) return undefined;
  return { promptTokens: raw.prompt_tokens ?? 0, completionTokens: raw.completion_tokens ?? 0 };
}

/** A replica that could not be reached, timed out or answered 5xx is taken out of its pool for a while. */
const takesServerOut = (error: unknown) => error instanceof ModelServerError && error.retryable && (error.status === undefined || error.status >= 500);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * A client for any OpenAI-compatible server (vLLM, OpenAI, Ollama, TGI): chat completions with
 * text and image parts, and prompt log-probabilities through the completions endpoint's echo.
 */
export class OpenAICompatibleClient {
  private readonly limiter: Limiter;
  /** Replicas: each request to the least loaded server that is up (concurrency is per server). */
  private readonly pool: ServerPool | null;
  private readonly options: Required<Omit<ClientOptions, "apiKey" | "fetch">>;
  private readonly apiKey: string | undefined;
  private readonly fetch: typeof fetch;

  constructor(
    readonly spec: ServerSpec,
    options: ClientOptions = {},
  ) {
    this.options = {
      timeoutMs: options.timeoutMs ?? 300_000,
      maxRetries: options.maxRetries ?? 4,
      backoffMs: options.backoffMs ?? 500,
      giveUpMs: options.giveUpMs ?? DEFAULT_GIVE_UP_MS,
      concurrency: options.concurrency ?? 64,
    };
    this.apiKey = options.apiKey ?? apiKeyFor(spec);
    this.fetch = options.fetch ?? fetch;
    this.limiter = serverLimiter(spec.baseUrl, this.options.concurrency);
    this.pool = spec.replicas?.length ? serverPool(serverUrls(spec), this.options.concurrency) : null;
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    const body: Record<string, unknown> = {
      model: this.spec.model,
      messages: request.messages,
      stream: false,
    };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.stop?.length) body.stop = request.stop;
    if (request.logprobs) body.logprobs = true;
    const { json, latencyMs, totalMs, attempts } = await this.post("/chat/completions", body, chatSchema, request.signal);
    const choice = json.choices[0]!;
    const logprobs: TokenLogprob[] | undefined = choice.logprobs?.content?.map((t) => ({ token: t.token, logprob: t.logprob }));
    return { text: choice.message.content, usage: toUsage(json.usage), logprobs, latencyMs, totalMs, attempts };
  }

  /**
   * N samples of the next assistant message with their token log-probs (one request, `n`), as
   * SWEET-RL's candidates are drawn: whatever the server's sampling settings, each comes back with
   * the log-probs the sampling policy gave its own tokens.
   */
  async sample(request: Omit<ChatRequest, "logprobs">, n: number): Promise<Array<{ text: string; logprobs: TokenLogprob[] }>> {
    const body: Record<string, unknown> = { model: this.spec.model, messages: request.messages, stream: false, n, logprobs: true };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    const { json } = await this.post("/chat/completions", body, chatSchema, request.signal);
    return json.choices.map((choice) => ({ text: choice.message.content, logprobs: (choice.logprobs?.content ?? []).map((t) => ({ token: t.token, logprob: t.logprob })) }));
  }

  /** Every prompt token with its log-prob (the first has none), through the completions endpoint's echo. */
  async promptLogprobs(prompt: string): Promise<Array<{ token: string; logprob: number | null }>> {
    const { json } = await this.post("/completions", { model: this.spec.model, prompt, echo: true, max_tokens: 1, logprobs: 1, temperature: 0 }, completionSchema);
    const lp = json.choices[0]!.logprobs;
    // One generated token follows the prompt's; the usage count tells them apart.
    const count = Math.min(json.usage?.prompt_tokens ?? lp.tokens.length - 1, lp.tokens.length);
    return lp.tokens.slice(0, count).map((token, i) => ({ token, logprob: lp.token_logprobs[i] ?? null }));
  }

  /**
   * Log-probabilities of the tokens of `prefix + continuation` as the model scores them, via the
   * completions endpoint with echo (as vLLM offers it). The first token has none and is dropped.
   */
  async textLogprobs(prefix: string, continuation = ""): Promise<TextLogprobs> {
    const prompt = prefix + continuation;
    const { json } = await this.post(
      "/completions",
      { model: this.spec.model, prompt, echo: true, max_tokens: 1, logprobs: 1, temperature: 0 },
      completionSchema,
    );
    const lp = json.choices[0]!.logprobs;
    // max_tokens 1 adds one generated token after the prompt's; the usage count tells them apart.
    const promptTokens = json.usage?.prompt_tokens ?? lp.tokens.length - 1;
    const tokens: TokenLogprob[] = [];
    let continuationStart = -1;
    const count = Math.min(promptTokens, lp.tokens.length);
    for (let i = 0; i < count; i++) {
      // A token that straddles the boundary (" The" after "question.") belongs to the continuation.
      const end = i + 1 < count ? lp.text_offset?.[i + 1] : prompt.length;
      if (continuationStart < 0 && continuation && end !== undefined && end > prefix.length) continuationStart = tokens.length;
      const logprob = lp.token_logprobs[i];
      if (logprob === null || logprob === undefined) continue;
      tokens.push({ token: lp.tokens[i]!, logprob });
    }
    return { tokens, continuationStart: continuationStart < 0 ? tokens.length : continuationStart };
  }

  private async post<T>(
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    signal?: AbortSignal,
  ): Promise<{ json: T; latencyMs: number; totalMs: number; attempts: number }> {
    const started = performance.now();
    // Replicas have their pool to route around a server that is out; one server has its breaker.
    const breaker = this.pool ? null : breakerFor(this.spec.baseUrl);
    let lastError: ModelServerError | undefined;
    let outageSince: number | null = null;
    let tries = 0;
    let attempts = 0;
    for (;;) {
      signal?.throwIfAborted();
      const giveUpAt = (breaker?.outage?.since ?? outageSince ?? Infinity) + this.options.giveUpMs;
      const probe = breaker ? await breaker.admit(signal, giveUpAt) : false;
      if (Date.now() >= giveUpAt && lastError) break;
      let retryAfterMs: number | undefined;
      attempts++;
      try {
        const attemptStart = performance.now();
        const json = this.pool
          ? await this.pool.run((baseUrl) => this.once(path, body, schema, baseUrl, signal), takesServerOut)
          : await this.limiter.run(() => this.once(path, body, schema, this.spec.baseUrl, signal));
        breaker?.succeeded(probe);
        return { json, latencyMs: performance.now() - attemptStart, totalMs: performance.now() - started, attempts };
      } catch (error) {
        if (signal?.aborted) {
          breaker?.abandoned(probe);
          throw signal.reason ?? error;
        }
        lastError =
          error instanceof ModelServerError
            ? error
            : new ModelServerError(`${formatServerSpec(this.spec)}: ${(error as Error).message}`, true, undefined, { server: formatServerSpec(this.spec), path, cause: (error as Error).message });
        if (!lastError.retryable) {
          // It answered (a 4xx): up, whatever it thought of the request.
          if (lastError.status !== undefined) breaker?.succeeded(probe);
          else breaker?.abandoned(probe);
          throw lastError;
        }
        retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
        if (takesServerOut(lastError)) {
          // An outage: waited out on the breaker until the give-up time, whatever the attempts.
          outageSince ??= Date.now();
          if (breaker) {
            breaker.failed(lastError.failure?.cause ?? lastError.message, probe);
            continue;
          }
        } else {
          breaker?.succeeded(probe);
          if (++tries > this.options.maxRetries) break;
        }
      }
      const backoff = this.options.backoffMs * 2 ** Math.min(tries, 10) * (0.5 + Math.random() / 2);
      await sleep(Math.min(retryAfterMs ?? backoff, 30_000), signal);
    }
    const elapsedMs = Math.round(performance.now() - started);
    const outage = outageSince !== null && takesServerOut(lastError);
    const why = outage ? `gave up after ${attempts} attempts, ${(elapsedMs / 1000).toFixed(1)} s of outage` : `gave up after ${attempts} attempts, ${(elapsedMs / 1000).toFixed(1)} s`;
    throw new ModelServerError(`${lastError!.message} (${why})`, false, lastError!.status, {
      ...(lastError!.failure ?? { server: formatServerSpec(this.spec), path, cause: lastError!.message }),
      attempts,
      elapsedMs,
    });
  }

  private async once<T>(path: string, body: unknown, schema: z.ZodType<T>, baseUrl = this.spec.baseUrl, signal?: AbortSignal): Promise<T> {
    const server = this.pool ? `${baseUrl}#${this.spec.model}` : formatServerSpec(this.spec);
    const where = `${server} ${path}`;
    let response: Response;
    try {
      response = await this.fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]) : AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason = (error as Error).name === "TimeoutError" ? `no answer within ${this.options.timeoutMs} ms` : networkCause(error as Error);
      throw new ModelServerError(`${where}: ${reason}`, true, undefined, { server, path, cause: reason });
    }
    const text = await response.text();
    if (!response.ok) {
      const retryable = response.status === 429 || response.status >= 500;
      const error = new ModelServerError(`${where}: HTTP ${response.status}: ${text.slice(0, 300)}`, retryable, response.status, {
        server,
        path,
        status: response.status,
        cause: `HTTP ${response.status}`,
      });
      const retryAfter = Number(response.headers.get("retry-after"));
      if (Number.isFinite(retryAfter) && response.headers.has("retry-after")) {
        Object.assign(error, { retryAfterMs: retryAfter * 1000 });
      }
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ModelServerError(`${where}: the answer is not JSON: ${text.slice(0, 120)}`, true, response.status, { server, path, status: response.status, cause: "the answer is not JSON" });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ModelServerError(
        `${where}: malformed answer (${issue?.path.join(".") || "body"}: ${issue?.message}): ${text.slice(0, 120)}`,
        true,
        response.status,
        { server, path, status: response.status, cause: "malformed answer" },
      );
    }
    return parsed.data;
  }
}
