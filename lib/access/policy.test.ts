import { describe, expect, it } from "vitest";
import { decide } from "./policy";
import type { Viewer } from "./viewer";

const q = (text = "") => new URLSearchParams(text);
const user = (role: "admin" | "researcher" | "annotator"): Viewer => ({ kind: "user", id: 1, name: "x", role });
const seat: Viewer = { kind: "seats", seats: [{ episodeId: 7, seat: "agent" }] };

describe("decide", () => {
  it("lets anyone fetch assets, health and the sign-in page, and asks everyone else to sign in", () => {
    for (const path of ["/_next/static/x.js", "/vendor/tailwind-2.2.19.min.css", "/api/health", "/signin"]) expect(decide({ kind: "anonymous" }, "GET", path, q())).toBe("allow");
    expect(decide({ kind: "anonymous" }, "GET", "/tasks", q())).toBe("signin");
    expect(decide({ kind: "anonymous" }, "GET", "/play/7/agent", q())).toBe("signin");
  });

  it("keeps annotators to lists and scores", () => {
    const a = user("annotator");
    for (const path of ["/", "/tasks", "/tasks/3", "/runs", "/runs/2", "/leaderboard", "/api/runs/2/episodes"]) expect(decide(a, "GET", path, q())).toBe("allow");
    for (const path of ["/episodes/3", "/api/tasks/3/hidden", "/api/tasks/3/preview", "/play", "/play/7/collaborator", "/api/episodes/7/events", "/admin/users", "/runs/new"]) {
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
  });
});
