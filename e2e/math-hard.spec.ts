import { expect, test, type Page } from "./test";
import { leaks, recordResponses, secretPieces } from "./response-recorder";

// The third benchmark, played by two people: CollabLLM's math-hard, where the collaborator opens with
// the problem it holds, ends the chat with CollabLLM's marker, and a judge (a model server) rates it.

const shots = "e2e/artifacts";
const models = () => process.env.COLBENCH_E2E_MODELS!;

const turnOf = (page: Page, role: "agent" | "simulator") => page.locator(`[data-testid="turn"][data-role="${role}"]`);

async function send(page: Page, label: RegExp, text: string) {
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "your-move", { timeout: 30_000 });
  const box = page.getByLabel(label);
  await box.fill(text);
  await box.press("Control+Enter");
  await expect(page.getByTestId("turn").filter({ hasText: text }).first()).toBeVisible();
}

test("two people play a math-hard episode: the collaborator opens and ends it, the judge scores it, the agent never sees the problem or the solution", async ({
  browser,
  request,
}) => {
  const tasks = (await (await request.get("/api/tasks?benchmark=math-hard")).json()) as {
    items: Array<{ id: number }>;
  };
  const taskId = tasks.items[0]!.id;
  const hidden = (await (await request.get(`/api/tasks/${taskId}/hidden`)).json()) as {
    groundTruth: string;
    hiddenInformation?: string | null;
  };

  const collaboratorContext = await browser.newContext();
  const agentContext = await browser.newContext();
  const collaborator = await collaboratorContext.newPage();
  const agent = await agentContext.newPage();
  const recorder = await recordResponses(agent);

  await collaborator.goto("/play");
  await collaborator.getByLabel("Benchmark").selectOption("math-hard");
  await collaborator.getByLabel("Task id").fill(String(taskId));
  await collaborator.getByRole("radio", { name: /with a second person/ }).check();
  await collaborator.getByTestId("judge").fill(`${models()}#verdict:1`);
  await collaborator.getByRole("button", { name: "Start playing" }).click();
  const link = (await collaborator.getByTestId("hand-out-agent").innerText()).trim();
  await collaborator.getByTestId("take-own-seat").click();
  await expect(collaborator.getByRole("heading", { name: "You are the collaborator" })).toBeVisible();
  // The collaborator holds the problem and the reference solution.
  const held = collaborator.getByTestId("hidden-information");
  await expect(held).toContainText(hidden.groundTruth.slice(0, 40));
  await agent.goto(link);
  await expect(agent.getByRole("heading", { name: "You are the agent" })).toBeVisible();

  // The collaborator speaks first, from what it holds; the agent waits.
  await expect(agent.getByTestId("seat-status")).toHaveAttribute("data-state", "waiting");
  await send(collaborator, /Your reply to the agent/, "I have a question about the roots of a quadratic.");
  await expect(turnOf(agent, "simulator").filter({ hasText: "roots of a quadratic" })).toHaveCount(1);
  await send(agent, /Message to the collaborator/, "Which quadratic, and what do you need about its roots?");
  await send(collaborator, /Your reply to the agent/, "The sum of their cubes.");
  await send(agent, /Message to the collaborator/, "Then the answer is \\boxed{144}.");
  await collaborator.screenshot({ path: `${shots}/math-hard-collaborator.png`, fullPage: true });
  await send(collaborator, /Your reply to the agent/, "Thanks, that is it. [[TERMINATE CHAT]]");

  for (const page of [agent, collaborator]) {
    await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "ended", { timeout: 30_000 });
    await expect(page.getByTestId("seat-status")).toContainText("judged correct");
  }
  await agent.screenshot({ path: `${shots}/math-hard-agent.png`, fullPage: true });
  await collaborator.screenshot({ path: `${shots}/math-hard-collaborator-ended.png`, fullPage: true });

  await recorder.settle();
  const secrets = [
    hidden.groundTruth,
    ...secretPieces(hidden.groundTruth, 24),
    ...(hidden.hiddenInformation ? [hidden.hiddenInformation] : []),
  ];
  expect(leaks(recorder.bodies, secrets)).toEqual([]);
  await collaboratorContext.close();
  await agentContext.close();
});
