import { describe, expect, it } from "vitest";
import { pagePolicy, securityHeaders } from "./headers";

const directives = (policy: string) =>
  new Map(policy.split(/;\s*/).map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

describe("security headers", () => {
  it("forbid framing, referrers and sniffing on pages and routes", () => {
    for (const path of ["/", "/runs/1", "/api/runs", "/signin", "/play/3/agent", "/_next/static/x.js"]) {
      const h = securityHeaders(path);
      expect(h["X-Frame-Options"], path).toBe("DENY");
      expect(h["Referrer-Policy"], path).toBe("no-referrer");
      expect(h["X-Content-Type-Options"], path).toBe("nosniff");
      expect(directives(h["Content-Security-Policy"]!).get("frame-ancestors"), path).toEqual(["'none'"]);
    }
  });

  it("let the studio's own pages frame the task preview, which sets its own policy", () => {
    const h = securityHeaders("/api/tasks/4/preview");
    expect(h["X-Frame-Options"]).toBe("SAMEORIGIN");
    expect(h["Content-Security-Policy"]).toBeUndefined();
  });

  it("load only the studio's own scripts, eval nowhere but the Python worker (and the dev server)", () => {
    const page = directives(pagePolicy());
    expect(page.get("script-src")).toEqual(["'self'", "'unsafe-inline'", "'wasm-unsafe-eval'"]);
    expect(page.get("connect-src")).toEqual(["'self'"]);
    expect(page.get("object-src")).toEqual(["'none'"]);
    expect(page.get("form-action")).toEqual(["'self'"]);
    expect(directives(pagePolicy({ dev: true })).get("script-src")).toContain("'unsafe-eval'");
    const worker = directives(securityHeaders("/vendor/python-scratch.js")["Content-Security-Policy"]!);
    expect(worker.get("script-src")).toContain("'unsafe-eval'");
    expect(worker.get("frame-ancestors")).toEqual(["'none'"]);
  });
});
