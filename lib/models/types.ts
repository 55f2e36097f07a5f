// Message shapes of the OpenAI chat API, as far as ColBench uses them.

export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string | ContentPart[];
}

export interface TokenLogprob {
  token: string;
  logprob: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  /** Ask for the log-probability of every generated token. */
  logprobs?: boolean;
  /** Stops the request and its retries (the caller no longer wants the answer). */
  signal?: AbortSignal;
}

export interface ChatResult {
  text: string;
  usage?: Usage;
  logprobs?: TokenLogprob[];
  /** Wall time of the successful request, and of all attempts including retries and waits. */
  latencyMs: number;
  totalMs: number;
  attempts: number;
}

export interface TextLogprobs {
  tokens: TokenLogprob[];
  /** Indices into tokens where the scored continuation starts (when a prefix was given). */
  continuationStart: number;
}
