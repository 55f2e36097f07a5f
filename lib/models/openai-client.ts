import { z } from "zod";
import { serverLimiter, type Limiter } from "./limiter";
import { apiKeyFor, formatServerSpec, serverUrls, type ServerSpec } from "../colbench/server-spec";
import { serverPool, type ServerPool } from "./server-pool";
import { breakerFor, DEFAULT_GIVE_UP_MS, outageEvents, type Outage } from "./breaker";
import type { ServerFailure } from "../colbench/failure";
import type { ChatRequest, ChatResult, TextLogprobs, TokenLogprob, Usage } from "./types";
import { notALogprob, promptSpan, SpanProblem, tokensSpell, type PromptToken } from "./prompt-span";

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
  /** Ends every request of this client, waiting ones included (a step stopped during an outage). */
  signal?: AbortSignal;
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
        index: z.number().optional(),
        text: z.string().nullish(),
        finish_reason: z.string().nullish(),
        logprobs: z
          .object({
            tokens: z.array(z.string()),
            token_logprobs: z.array(z.number().nullable()),
            text_offset: z.array(z.number()).nullish(),
          })
          .nullish(),
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
const takesServerOut = (error: unknown) =>
  error instanceof ModelServerError && error.retryable && (error.status === undefined || error.status >= 500);

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
  private readonly options: Required<Omit<ClientOptions, "apiKey" | "fetch" | "signal">>;
  private readonly apiKey: string | undefined;
  private readonly fetch: typeof fetch;
  private readonly signal: AbortSignal | undefined;

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
    this.signal = options.signal;
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
    const { json, latencyMs, totalMs, attempts } = await this.post(
      "/chat/completions",
      body,
      chatSchema,
      request.signal,
    );
    const choice = json.choices[0]!;
    const logprobs: TokenLogprob[] | undefined = choice.logprobs?.content?.map((t) => ({
      token: t.token,
      logprob: t.logprob,
    }));
    return { text: choice.message.content, usage: toUsage(json.usage), logprobs, latencyMs, totalMs, attempts };
  }

  /**
   * N samples of the next assistant message with their token log-probs (one request, `n`), as
   * SWEET-RL's candidates are drawn: whatever the server's sampling settings, each comes back with
   * the log-probs the sampling policy gave its own tokens.
   */
  async sample(
    request: Omit<ChatRequest, "logprobs">,
    n: number,
  ): Promise<Array<{ text: string; logprobs: TokenLogprob[] }>> {
    const body: Record<string, unknown> = {
      model: this.spec.model,
      messages: request.messages,
      stream: false,
      n,
      logprobs: true,
    };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    const { json } = await this.post("/chat/completions", body, chatSchema, request.signal);
    if (json.choices.length !== n)
      throw this.incomplete("/chat/completions", `asked for ${n} samples, got ${json.choices.length}`);
    return json.choices.map((choice, i) => {
      const content = choice.logprobs?.content;
      if (!content || (content.length === 0 && choice.message.content.length > 0))
        throw this.incomplete(
          "/chat/completions",
          `sample ${i} came without the log-probs of its tokens (logprobs: true was sent)`,
        );
      this.checkSample(
        "/chat/completions",
        i,
        choice.message.content,
        content.map((t) => t.token),
        content.map((t) => t.logprob),
      );
      return { text: choice.message.content, logprobs: content.map((t) => ({ token: t.token, logprob: t.logprob })) };
    });
  }

  /**
   * N samples continuing a prompt string (the published sampler's way: vLLM's generate on the
   * prompt as the policy saw it), through the completions endpoint, each with its tokens' log-probs
   * (vLLM includes the end-of-sequence token's when a sample ends on it; its text does not).
   */
  async sampleText(
    prompt: string,
    n: number,
    options: { temperature?: number; maxTokens?: number } = {},
  ): Promise<Array<{ text: string; logprobs: TokenLogprob[] }>> {
    const body: Record<string, unknown> = {
      model: this.spec.model,
      prompt,
      n,
      logprobs: 0,
      add_special_tokens: false,
      stream: false,
    };
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    const { json } = await this.post("/completions", body, completionSchema);
    if (json.choices.length !== n)
      throw this.incomplete("/completions", `asked for ${n} samples, got ${json.choices.length}`);
    const ordered = [...json.choices].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((choice, i) => {
      const lp = choice.logprobs;
      if (!lp || typeof choice.text !== "string")
        throw this.incomplete(
          "/completions",
          `sample ${i} came without ${lp ? "its text" : "the log-probs of its tokens (logprobs: 0 was sent)"}`,
        );
      const nulls = lp.token_logprobs.filter((v) => typeof v !== "number").length;
      if (nulls || lp.token_logprobs.length !== lp.tokens.length)
        throw this.incomplete(
          "/completions",
          `sample ${i}: ${nulls} of its ${lp.tokens.length} tokens have no log-prob`,
        );
      this.checkSample("/completions", i, choice.text, lp.tokens, lp.token_logprobs);
      return { text: choice.text, logprobs: lp.tokens.map((token, t) => ({ token, logprob: lp.token_logprobs[t]! })) };
    });
  }

  /** How long a request waits out an outage before it gives up. */
  get giveUpMs(): number {
    return this.options.giveUpMs;
  }

  /**
   * Tells `listener` when this client's server stops answering (a refused connection, a timeout, an
   * HTTP 5xx: the first failure, not the give-up) and when it answers again (null), while requests
   * wait and retry. Returns how to stop listening.
   */
  watchOutages(listener: (outage: Outage | null) => void): () => void {
    const onChange = (server: string, outage: Outage | null) => {
      if (server === this.spec.baseUrl) listener(outage);
    };
    outageEvents.on("change", onChange);
    return () => outageEvents.off("change", onChange);
  }

  /** A sample's log-probs must cover its whole text, each a log-probability. */
  private checkSample(path: string, i: number, text: string, tokens: string[], logprobs: Array<number | null>): void {
    if (!tokensSpell(text, tokens)) {
      const covered = tokens.join("");
      throw this.incomplete(
        path,
        `sample ${i}: its ${tokens.length} scored tokens spell ${covered.length} characters, not its text of ${text.length} (the log-probs cover part of the sample)`,
      );
    }
    const wrong = notALogprob(logprobs);
    if (wrong)
      throw this.incomplete(
        path,
        `sample ${i}: token ${wrong.at} has the log-prob ${wrong.value}, which no probability has (log-probs are at most 0)`,
      );
  }

  /** A scoring answer that does not cover what was asked: never retried, never stored. */
  private incomplete(path: string, what: string): ModelServerError {
    const server = formatServerSpec(this.spec);
    return new ModelServerError(`${server} ${path}: incomplete answer: ${what}`, false, undefined, {
      server,
      path,
      cause: `incomplete answer: ${what}`,
    });
  }

  /**
   * The prompt's tokens, each with its log-prob and its start in the prompt, through the completions
   * endpoint's echo; the answer must cover the prompt exactly (lib/models/prompt-span.ts). The prompt
   * is sent as it is (add_special_tokens false): the chat template already wrote any BOS it wants.
   */
  async scorePrompt(prompt: string): Promise<PromptToken[]> {
    const { json } = await this.post(
      "/completions",
      {
        model: this.spec.model,
        prompt,
        echo: true,
        max_tokens: 1,
        logprobs: 1,
        temperature: 0,
        add_special_tokens: false,
      },
      completionSchema,
    );
    const choice = json.choices[0]!;
    if (!choice.logprobs)
      throw this.incomplete("/completions", "logprobs is null (the server did not score the prompt)");
    try {
      return promptSpan(
        prompt,
        choice.logprobs && { ...choice.logprobs, text: choice.text },
        json.usage?.prompt_tokens,
      );
    } catch (error) {
      if (error instanceof SpanProblem) throw this.incomplete("/completions", error.message);
      throw error;
    }
  }

  /** Every prompt token with its log-prob (the first has none) and its start in the prompt. */
  async promptLogprobs(prompt: string): Promise<PromptToken[]> {
    return this.scorePrompt(prompt);
  }

  /**
   * Log-probabilities of the tokens of `prefix + continuation` as the model scores them, via the
   * completions endpoint with echo (as vLLM offers it). The first token has none and is dropped; a
   * token that straddles the boundary (" The" after "question.") belongs to the continuation.
   */
  async textLogprobs(prefix: string, continuation = ""): Promise<TextLogprobs> {
    const scored = await this.scorePrompt(prefix + continuation);
    const tokens: TokenLogprob[] = [];
    let continuationStart = -1;
    scored.forEach((t, i) => {
      const end = i + 1 < scored.length ? scored[i + 1]!.start : prefix.length + continuation.length;
      if (continuationStart < 0 && continuation && end > prefix.length) continuationStart = tokens.length;
      if (t.logprob !== null) tokens.push({ token: t.token, logprob: t.logprob });
    });
    return { tokens, continuationStart: continuationStart < 0 ? tokens.length : continuationStart };
  }

  private async post<T>(
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    requestSignal?: AbortSignal,
  ): Promise<{ json: T; latencyMs: number; totalMs: number; attempts: number }> {
    const signal =
      requestSignal && this.signal ? AbortSignal.any([requestSignal, this.signal]) : (requestSignal ?? this.signal);
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
            : new ModelServerError(`${formatServerSpec(this.spec)}: ${(error as Error).message}`, true, undefined, {
                server: formatServerSpec(this.spec),
                path,
                cause: (error as Error).message,
              });
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
    // The outage began when the server first stopped answering, maybe long before this request came
    // (a request that arrives past the give-up time fails at once): that is what the reason must say. The
    // breaker's start is the one every request of the outage shares (this request's own first failure can be
    // a millisecond earlier than the breaker recorded it); without a breaker, this request's own.
    const downSince = outage ? (breaker?.outage?.since ?? outageSince!) : null;
    const why = outage
      ? `gave up after ${attempts} attempts, ${(elapsedMs / 1000).toFixed(1)} s of outage`
      : `gave up after ${attempts} attempts, ${(elapsedMs / 1000).toFixed(1)} s`;
    throw new ModelServerError(`${lastError.message} (${why})`, false, lastError.status, {
      ...(lastError.failure ?? { server: formatServerSpec(this.spec), path, cause: lastError.message }),
      attempts,
      elapsedMs,
      ...(downSince !== null
        ? { downSince: new Date(downSince).toISOString(), downMs: Math.max(0, Date.now() - downSince) }
        : {}),
    });
  }

  private async once<T>(
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    baseUrl = this.spec.baseUrl,
    signal?: AbortSignal,
  ): Promise<T> {
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
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)])
          : AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason =
        (error as Error).name === "TimeoutError"
          ? `no answer within ${this.options.timeoutMs} ms`
          : networkCause(error as Error);
      throw new ModelServerError(`${where}: ${reason}`, true, undefined, { server, path, cause: reason });
    }
    const text = await response.text();
    if (!response.ok) {
      const retryable = response.status === 429 || response.status >= 500;
      const error = new ModelServerError(
        `${where}: HTTP ${response.status}: ${text.slice(0, 300)}`,
        retryable,
        response.status,
        {
          server,
          path,
          status: response.status,
          cause: `HTTP ${response.status}`,
        },
      );
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
      throw new ModelServerError(`${where}: the answer is not JSON: ${text.slice(0, 120)}`, true, response.status, {
        server,
        path,
        status: response.status,
        cause: "the answer is not JSON",
      });
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
