import { describe, expect, it } from "vitest";
import { mayViewRender, mayViewTarget, type RenderFacts } from "./renders";
import type { Viewer } from "./viewer";

// A render of episode 7's agent, and the target of episode 7's task (task 3), as the route's facts would say.
const answer: RenderFacts = {
  answerEpisodes: async () => [7],
  isTargetOf: async () => false,
  targetInMembersQueue: async () => false,
};
const target: RenderFacts = {
  answerEpisodes: async () => [],
  isTargetOf: async (episodeId) => episodeId === 7,
  targetInMembersQueue: async (userId) => userId === 5,
};

const user = (role: "admin" | "researcher" | "annotator", id = 1): Viewer => ({ kind: "user", id, name: "x", role });
const seat = (episodeId: number, s: "agent" | "simulator"): Viewer => ({
  kind: "seats",
  seats: [{ episodeId, seat: s }],
});

describe("who may see a render", () => {
  it("researchers, admins and local mode: any", async () => {
    for (const v of [user("admin"), user("researcher"), { kind: "local" } as Viewer])
      expect(await mayViewRender(v, target)).toBe(true);
  });
  it("nobody signed in: none, not even an agent's page", async () => {
    expect(await mayViewRender({ kind: "anonymous" }, answer)).toBe(false);
    expect(await mayViewRender({ kind: "anonymous" }, target)).toBe(false);
  });
  it("annotators: agents' pages, and a target only through a queue that shows it to them", async () => {
    expect(await mayViewRender(user("annotator"), answer)).toBe(true);
    expect(await mayViewRender(user("annotator"), target)).toBe(false);
    expect(await mayViewRender(user("annotator", 5), target)).toBe(true);
  });
  it("seat links: their episode's agent pages; the collaborator also its own target, nothing else", async () => {
    expect(await mayViewRender(seat(7, "agent"), answer)).toBe(true);
    expect(await mayViewRender(seat(8, "agent"), answer)).toBe(false);
    expect(await mayViewRender(seat(7, "agent"), target)).toBe(false);
    expect(await mayViewRender(seat(7, "simulator"), target)).toBe(true);
    expect(await mayViewRender(seat(8, "simulator"), target)).toBe(false);
  });
  it("a target page: researchers, admins, local mode, and the collaborator seat of that task only", async () => {
    const taskOf = async (episodeId: number) => (episodeId === 7 ? 3 : 4);
    expect(await mayViewTarget(user("researcher"), 3, taskOf)).toBe(true);
    expect(await mayViewTarget(seat(7, "simulator"), 3, taskOf)).toBe(true);
    expect(await mayViewTarget(seat(8, "simulator"), 3, taskOf)).toBe(false);
    expect(await mayViewTarget(seat(7, "agent"), 3, taskOf)).toBe(false);
    expect(await mayViewTarget(user("annotator"), 3, taskOf)).toBe(false);
    expect(await mayViewTarget({ kind: "anonymous" }, 3, taskOf)).toBe(false);
  });
});
