import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Store } from "../../store";

// Two finished backend runs on the same generated tasks, made through the store: what labelling
// tests and bench/labelling.ts put in queues. Each task's reference, tests and expected values
// carry a marker (`SECRET_…`) so that a test can look for hidden information in what was sent.

export interface RunPair {
  a: { id: number; name: string };
  b: { id: number; name: string };
  taskIds: number[];
  /** Pieces of hidden information: none may reach a person whose queue hides it. */
  secrets: string[];
}

export async function makeRunPair(store: Store, options: { tasks: number; prefix?: string }): Promise<RunPair> {
  const prefix = options.prefix ?? "label";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-label-tasks-"));
  const file = path.join(dir, `${prefix}.jsonl`);
  const lines = Array.from({ length: options.tasks }, (_, i) =>
    JSON.stringify({
      problem_description: `${prefix} task ${i}: write scale_${i}(x) that scales a number the way my shop does. The signature of the function is: def scale_${i}(x)`,
      ground_truth: `def scale_${i}(x):\n    # SECRET_reference_${prefix}_${i}\n    return x * ${i + 2}`,
      hidden_information: `SECRET_hint_${prefix}_${i}`,
      test_cases: { test1: `scale_${i}(1) + 0 * len("SECRET_test_${prefix}_${i}")`, test2: `scale_${i}(3)` },
    }),
  );
  fs.writeFileSync(file, lines.join("\n") + "\n");
  await store.tasks.import({ file, benchmark: "backend", name: `${prefix}-tasks` });
  fs.rmSync(dir, { recursive: true, force: true });
  const taskIds = (await store.tasks.resolveSelector("backend", "all")).filter(Boolean);
  const mine: number[] = [];
  for (const id of taskIds) {
    const task = await store.tasks.get(id);
    if (task?.source === `${prefix}-tasks`) mine.push(id);
  }
  const run = async (name: string, good: (i: number) => boolean) => {
    const { id } = await store.runs.insert({
      name,
      benchmark: "backend",
      config: { benchmark: "backend", selector: "all", taskIds: mine, bestOf: 1 } as never,
    });
    await store.episodes.ensure(id, mine, 1);
    const episodes = await store.episodes.unfinished(id);
    for (const [i, episode] of episodes.entries()) {
      const ok = good(i);
      await store.episodes.appendTurn(episode.id, {
        index: 0,
        role: "simulator",
        content: episode.task.problemDescription,
      });
      const prompt = [{ role: "user", content: episode.task.problemDescription }];
      await store.episodes.appendTurn(episode.id, {
        index: 1,
        role: "agent",
        prompt,
        content: `${ok ? "Could you tell me" : "What is"} what scale_${i} returns for 1?`,
        rawOutput: `THOUGHT: ask\nOUTPUT: what should scale_${i} return for 1?`,
      });
      await store.episodes.appendTurn(episode.id, {
        index: 2,
        role: "simulator",
        content: "It depends on the task number.",
      });
      const answer = `def scale_${i}(x):\n    return x * ${ok ? i + 2 : 1}`;
      await store.episodes.appendTurn(episode.id, {
        index: 3,
        role: "agent",
        prompt: [...prompt, { role: "assistant", content: "a question" }, { role: "user", content: "an answer" }],
        content: `I WANT TO ANSWER:\n${answer}`,
      });
      const tests = [
        {
          name: "test1",
          expression: `scale_${i}(1) + 0 * len("SECRET_test_${prefix}_${i}")`,
          passed: ok,
          reason: ok ? "ok" : "mismatch",
          expected: `SECRET_expected_${prefix}_${i}`,
          actual: ok ? `SECRET_expected_${prefix}_${i}` : "1",
        },
        { name: "test2", expression: `scale_${i}(3)`, passed: true, reason: "ok" },
      ];
      await store.episodes.finish(episode.id, { answer, reward: ok ? 1 : 0.5, details: { tests } });
    }
    return { id, name };
  };
  const a = await run(`${prefix}-model-a`, (i) => i % 3 !== 0);
  const b = await run(`${prefix}-model-b`, (i) => i % 2 === 0);
  const secrets = mine.flatMap((_, i) => [
    `SECRET_reference_${prefix}_${i}`,
    `SECRET_hint_${prefix}_${i}`,
    `SECRET_test_${prefix}_${i}`,
    `SECRET_expected_${prefix}_${i}`,
  ]);
  return { a, b, taskIds: mine, secrets };
}
