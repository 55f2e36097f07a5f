import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "../../../e2e/fixtures/scripted-model-server";
import type { EpisodeOutcome, TurnRecord } from "../../colbench/episode";
import type { HiddenTask } from "../../colbench/roles";
import { ModelServerError, OpenAICompatibleClient } from "../../models/openai-client";
import { JUDGE_ATTEMPTS } from "./judge";
import { BOXED_CHECK_NAME, openMathHardScorer, mathHardRuntime } from "./runtime";
import { chatHistory, responseOf } from "./simulator";
import { MATH_HARD_DESCRIPTION } from "./task";

// The scorer against model servers: a scripted judge answering in vLLM's chat-completion shape
// (its answers set by each test), and the project's scripted model server for answers that are no verdict.

let judgeAnswer = "";
let lastPrompt = "";
let judge: Server;
let judgeUrl = "";
let scripted: ScriptedServer;

beforeAll(async () => {
  judge = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request = JSON.parse(body) as { model: string; messages: Array<{ content: string }>; temperature?: number };
      lastPrompt = request.messages.at(-1)!.content;
      const answer = JSON.stringify({
        id: "chatcmpl-judge",
        object: "chat.completion",
        created: 0,
        model: request.model,
        choices: [
          { index: 0, message: { role: "assistant", content: judgeAnswer }, logprobs: null, finish_reason: "stop" },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
      res.writeHead(200, { "content-type": "application/json" }).end(answer);
    });
  });
  await new Promise<void>((resolve) => judge.listen(0, "127.0.0.1", resolve));
  judgeUrl = `http://127.0.0.1:${(judge.address() as AddressInfo).port}/v1`;
  scripted = await startScriptedServer();
});

afterAll(async () => {
  await new Promise((resolve) => judge.close(resolve));
  await scripted.close();
});

const task: HiddenTask = {
  benchmark: "math-hard",
  problemDescription: MATH_HARD_DESCRIPTION,
  hiddenInformation: "What is $2+3$?",
  groundTruth: "Adding, $2+3=\\boxed{5}$.",
  testCases: null,
};

function outcome(answer: string): EpisodeOutcome {
  const turns: TurnRecord[] = [
    { index: 0, role: "simulator", content: "help me add two numbers" },
    { index: 1, role: "agent", content: "Which two?" },
    { index: 2, role: "simulator", content: "2 and 3" },
    { index: 3, role: "agent", content: answer },
    { index: 4, role: "simulator", content: "[[TERMINATE CHAT]]" },
  ];
  return { turns, answer, answerRenderId: null, agentTurns: 2, waitMs: 0 };
}

describe("the math-hard scorer", () => {
  it("rewards the judge's accuracy and records its thought, its answer and MATH's boxed check", async () => {
    const scorer = await openMathHardScorer({ judge: { baseUrl: judgeUrl, model: "judge-model" } });
    judgeAnswer = 'Evaluation:\n{"thought": "The final answer 5 matches.", "accuracy": 1}';
    const right = await scorer.score(task, outcome("So it is $\\boxed{5}$."));
    expect(right).toEqual({
      reward: 1,
      details: {
        accuracy: 1,
        thought: "The final answer 5 matches.",
        judge: `${judgeUrl}#judge-model`,
        judgeRaw: judgeAnswer,
        judgeAttempts: 1,
        boxed: { check: BOXED_CHECK_NAME, reference: "5", answer: "5", equivalent: true },
      },
    });
    // The judge read the problem, the reference and the whole conversation, the user's last message included.
    expect(lastPrompt).toContain("What is $2+3$?");
    expect(lastPrompt).toContain("Adding, $2+3=\\boxed{5}$.");
    expect(lastPrompt).toContain('{"role":"assistant","content":"Which two?"}');
    expect(lastPrompt).toContain('{"role":"user","content":"[[TERMINATE CHAT]]"}');

    // The two figures are independent: the judge may accept what the boxed check does not parse.
    judgeAnswer = '{"thought": "It says six.", "accuracy": 0}';
    const wrong = await scorer.score(task, outcome("It is 6."));
    expect(wrong.reward).toBe(0);
    expect(wrong.details).toMatchObject({
      accuracy: 0,
      thought: "It says six.",
      boxed: { reference: "5", answer: null, equivalent: false },
    });
    await scorer.close();
  });

  it.each([
    ["echo", 'the judge\'s answer is no verdict: the JSON lacks "thought" and "accuracy"'],
    ["ask-then-answer", "the judge's answer is no verdict: not a JSON object"],
  ])("fails, naming the judge's server, when the judge (%s) answers no verdict", async (model, cause) => {
    const scorer = await openMathHardScorer({ judge: { baseUrl: scripted.url, model } });
    const before = scripted.stats().requests;
    const error = await scorer.score(task, outcome("\\boxed{5}")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelServerError);
    expect((error as ModelServerError).message).toContain(`judge ${scripted.url}#${model}: ${cause}`);
    expect((error as ModelServerError).failure).toMatchObject({
      server: `${scripted.url}#${model}`,
      path: "/chat/completions",
      attempts: JUDGE_ATTEMPTS,
    });
    expect(scripted.stats().requests - before).toBe(JUDGE_ATTEMPTS);
  });

  it("needs a judge in the run's config", async () => {
    await expect(openMathHardScorer({})).rejects.toThrow();
  });
});

describe("the CollabLLM user simulator", () => {
  it("formats the chat as CollabLLM's parse_messages does and keeps only the JSON's response", async () => {
    expect(
      chatHistory([
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    ).toBe("**User**: hi\n**Assistant**: hello");
    expect(
      responseOf('{"current_answer": "", "thought": "start vague", "response": "  can u help me with a sum  "}'),
    ).toBe("can u help me with a sum");
    expect(responseOf("{'current_answer': '5', 'thought': 'done', 'response': '[[TERMINATE CHAT]]'}")).toBe(
      "[[TERMINATE CHAT]]",
    );
    expect(responseOf("no json")).toBeNull();
    expect(responseOf('{"thought": "no response field"}')).toBeNull();
  });

  it("asks its server with the problem in the prompt and, given no JSON, keeps the whole answer", async () => {
    const simulator = mathHardRuntime.modelSimulator(
      new OpenAICompatibleClient({ baseUrl: scripted.url, model: "echo" }),
      "desc={problem_description} hidden={hidden_information} chat={dialogue_history}",
    );
    const move = await simulator.reply({ task, dialogue: [] });
    expect(move.prompt).toEqual([
      { role: "user", content: `desc=${MATH_HARD_DESCRIPTION} hidden=What is $2+3$? chat=` },
    ]);
    // The echo server's answer is the request's messages: JSON with no "response", so taken whole.
    expect(JSON.parse(move.text)).toEqual(move.prompt);
  });
});
