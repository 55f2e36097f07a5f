import { describe, expect, it } from "vitest";
import { decide, managesData, mayLabel, queueShowsHidden } from "./policy";
import type { Viewer } from "./viewer";

const q = (text = "") => new URLSearchParams(text);
const user = (role: "admin" | "researcher" | "annotator"): Viewer => ({ kind: "user", id: 1, name: "x", role });
const seat: Viewer = { kind: "seats", seats: [{ episodeId: 7, seat: "agent" }] };

describe("decide", () => {
  it("lets anyone fetch assets, health and the sign-in page, and asks everyone else to sign in", () => {
    for (const path of ["/_next/static/x.js", "/vendor/tailwind-2.2.19.min.css", "/api/health", "/signin"])
      expect(decide({ kind: "anonymous" }, "GET", path, q())).toBe("allow");
    // Only the framework's built files are public under /_next/: never its image optimizer.
    for (const path of ["/_next/image", "/_next/data/x.json"])
      expect(decide({ kind: "anonymous" }, "GET", path, q()), path).toBe("signin");
    expect(decide({ kind: "anonymous" }, "GET", "/tasks", q())).toBe("signin");
    expect(decide({ kind: "anonymous" }, "GET", "/play/7/agent", q())).toBe("signin");
  });

  it("keeps annotators to lists and scores", () => {
    const a = user("annotator");
    for (const path of ["/", "/tasks", "/tasks/3", "/runs", "/runs/2", "/leaderboard", "/api/runs/2/episodes"])
      expect(decide(a, "GET", path, q())).toBe("allow");
    for (const path of [
      "/episodes/3",
      "/api/tasks/3/hidden",
      "/api/tasks/3/preview",
      "/play",
      "/play/7/collaborator",
      "/api/episodes/7/events",
      "/admin/users",
      "/runs/new",
    ]) {
      expect(decide(a, "GET", path, q()), path).toBe("deny");
    }
    expect(decide(a, "POST", "/api/runs", q())).toBe("deny");
  });

  it("gives researchers everything but user management, and admins everything", () => {
    expect(decide(user("researcher"), "GET", "/api/tasks/3/hidden", q())).toBe("allow");
    expect(decide(user("researcher"), "GET", "/admin/users", q())).toBe("deny");
    expect(decide(user("researcher"), "POST", "/api/users", q())).toBe("deny");
    expect(decide(user("admin"), "POST", "/api/users", q())).toBe("allow");
    expect(decide({ kind: "local" }, "GET", "/admin/users", q())).toBe("allow");
  });

  it("lets researchers and admins, never annotators or seat links, fetch the official tasks and manage the model cache", () => {
    const routes: Array<[string, string]> = [
      ["POST", "/api/tasks/import"],
      ["GET", "/api/tasks/import"],
      ["GET", "/models"],
      ["GET", "/api/models"],
      ["DELETE", "/api/models"],
      ["GET", "/api/embedder"],
    ];
    for (const [method, path] of routes) {
      expect(decide(user("annotator"), method, path, q()), path).toBe("deny");
      expect(decide(seat, method, path, q()), path).toBe("deny");
      expect(decide({ kind: "anonymous" }, method, path, q()), path).toBe("signin");
      expect(decide(user("researcher"), method, path, q()), path).toBe("allow");
      expect(decide(user("admin"), method, path, q()), path).toBe("allow");
    }
    expect(
      [user("annotator"), user("researcher"), user("admin"), { kind: "local" } as Viewer, seat].map(managesData),
    ).toEqual([false, true, true, true, false]);
  });

  it("lets researchers, not annotators or seat links, score a replay in the browser", () => {
    const routes: Array<[string, string]> = [
      ["GET", "/api/weights/critic/model.safetensors"],
      ["HEAD", "/api/weights/policy/config.json"],
      ["GET", "/api/episodes/7/score-inputs"],
      ["POST", "/api/episodes/7/advantages"],
    ];
    for (const [method, path] of routes) {
      expect(decide(user("researcher"), method, path, q()), path).toBe("allow");
      expect(decide(user("annotator"), method, path, q()), path).toBe("deny");
      expect(decide(seat, method, path, q()), path).toBe("deny");
      expect(decide({ kind: "anonymous" }, method, path, q()), path).toBe("signin");
    }
  });

  it("lets a seat link read its own episode's live advantages (numbers), never the critic's inputs or weights", () => {
    const collaborator: Viewer = { kind: "seats", seats: [{ episodeId: 7, seat: "simulator" }] };
    for (const viewer of [seat, collaborator]) {
      expect(decide(viewer, "GET", "/api/episodes/7/advantages/live", q())).toBe("allow");
      expect(decide(viewer, "POST", "/api/episodes/7/advantages/live", q())).toBe("allow");
      expect(decide(viewer, "GET", "/api/episodes/8/advantages/live", q())).toBe("deny");
      expect(decide(viewer, "DELETE", "/api/episodes/7/advantages/live", q())).toBe("deny");
    }
    // The critic's prompt is built from these: the agent's seat never reaches them.
    expect(decide(seat, "GET", "/api/episodes/7/score-inputs", q())).toBe("deny");
    expect(decide(seat, "POST", "/api/episodes/7/advantages", q())).toBe("deny");
    expect(decide(seat, "GET", "/api/weights/critic/config.json", q())).toBe("deny");
  });

  it("lets a collaborator seat link, not an agent seat link, fetch CLIP's served weights (and only those)", () => {
    const collaborator: Viewer = { kind: "seats", seats: [{ episodeId: 7, seat: "simulator" }] };
    expect(decide(collaborator, "GET", "/api/weights/clip/model.safetensors", q())).toBe("allow");
    expect(decide(collaborator, "HEAD", "/api/weights/clip/config.json", q())).toBe("allow");
    expect(decide(collaborator, "GET", "/api/weights/critic/model.safetensors", q())).toBe("deny");
    expect(decide(seat, "GET", "/api/weights/clip/model.safetensors", q())).toBe("deny");
    expect(decide(user("researcher"), "GET", "/api/weights/clip/config.json", q())).toBe("allow");
  });

  it("lets a collaborator seat link, not an agent seat link, run the agent in its tab: policy weights and its own episode's agent turn", () => {
    const collaborator: Viewer = { kind: "seats", seats: [{ episodeId: 7, seat: "simulator" }] };
    expect(decide(collaborator, "GET", "/api/weights/policy/model.safetensors", q())).toBe("allow");
    expect(decide(collaborator, "HEAD", "/api/weights/policy/config.json", q())).toBe("allow");
    expect(decide(collaborator, "POST", "/api/episodes/7/agent-turn", q())).toBe("allow");
    expect(decide(collaborator, "POST", "/api/episodes/8/agent-turn", q())).toBe("deny");
    expect(decide(seat, "GET", "/api/weights/policy/model.safetensors", q())).toBe("deny");
    expect(decide(seat, "POST", "/api/episodes/7/agent-turn", q())).toBe("deny");
  });

  it("opens a seat link's own seat only", () => {
    expect(decide(seat, "GET", "/play/7/agent", q())).toBe("allow");
    expect(decide(seat, "GET", "/api/episodes/7/events", q("seat=agent"))).toBe("allow");
    expect(decide(seat, "POST", "/api/episodes/7/move", q())).toBe("allow");
    expect(decide(seat, "GET", "/api/renders/" + "a".repeat(64), q())).toBe("allow");
    expect(decide(seat, "GET", "/play/7/collaborator", q())).toBe("deny");
    expect(decide(seat, "GET", "/api/episodes/7/events", q("seat=simulator"))).toBe("deny");
    expect(decide(seat, "GET", "/api/episodes/7/events", q())).toBe("deny");
    expect(decide(seat, "GET", "/play/8/agent", q())).toBe("deny");
    expect(decide(seat, "POST", "/api/episodes/8/move", q())).toBe("deny");
    expect(decide(seat, "GET", "/tasks/1", q())).toBe("deny");
    // The target page is for the collaborator seat (the route checks it is that seat's task), never the agent's.
    expect(decide(seat, "GET", "/api/tasks/3/preview", q())).toBe("deny");
    expect(
      decide({ kind: "seats", seats: [{ episodeId: 7, seat: "simulator" }] }, "GET", "/api/tasks/3/preview", q()),
    ).toBe("allow");
    expect(
      decide({ kind: "seats", seats: [{ episodeId: 7, seat: "simulator" }] }, "GET", "/api/tasks/3/hidden", q()),
    ).toBe("deny");
  });

  it("lets annotators open the labelling desk but not a queue's agreement or exports; queues widen hidden information for their members only", () => {
    const a = user("annotator");
    for (const path of ["/annotate", "/annotate/4"]) expect(decide(a, "GET", path, q())).toBe("allow");
    for (const action of ["next", "labels", "undo", "skip", "renew"])
      expect(decide(a, "POST", `/api/queues/4/${action}`, q())).toBe("allow");
    for (const path of ["/annotate/4/agreement", "/api/queues/4/agreement", "/api/queues/4/export"])
      expect(decide(a, "GET", path, q()), path).toBe("deny");
    expect(decide(a, "POST", "/api/queues", q())).toBe("deny");
    expect(decide(seat, "POST", "/api/queues/4/next", q())).toBe("deny");
    expect(decide({ kind: "anonymous" }, "POST", "/api/queues/4/next", q())).toBe("signin");
    const member = { kind: "user", id: 5, name: "m", role: "annotator" } as const;
    const blind = { showsHidden: false, memberIds: [5] };
    const open = { showsHidden: true, memberIds: [5] };
    expect(mayLabel(member, blind)).toBe(true);
    expect(mayLabel({ ...member, id: 6 }, open)).toBe(false);
    expect(queueShowsHidden(member, blind)).toBe(false);
    expect(queueShowsHidden(member, open)).toBe(true);
    expect(queueShowsHidden({ ...member, id: 6 }, open)).toBe(false);
    expect(queueShowsHidden(seat, open)).toBe(false);
    // Researchers label any queue, and see on it what its members see.
    expect(mayLabel(user("researcher"), blind)).toBe(true);
    expect(queueShowsHidden(user("researcher"), blind)).toBe(false);
    expect(mayLabel({ kind: "local" }, blind)).toBe(true);
  });
});
