import { describe, expect, it } from "vitest";
import { allowedHostsFrom, hostAllowed, hostName, originRefusal, studioHostNames } from "./host";

describe("hostName", () => {
  it("takes the name out of a Host header: lowercase, no port, no brackets, no final dot", () => {
    expect(hostName("127.0.0.1:3000")).toBe("127.0.0.1");
    expect(hostName("LocalHost")).toBe("localhost");
    expect(hostName("[::1]:3000")).toBe("::1");
    expect(hostName("studio.example.org.:443")).toBe("studio.example.org");
    for (const bad of [undefined, "", "a b", "user@host", "host/path", "[zz]:1"])
      expect(hostName(bad), String(bad)).toBeNull();
  });
});

describe("the names a studio answers to", () => {
  it("on loopback: loopback's names only, plus the operator's", () => {
    const names = studioHostNames({ bound: "127.0.0.1", extra: ["studio.example.org"] });
    for (const host of [
      "127.0.0.1:3000",
      "localhost:3000",
      "[::1]:3000",
      "studio.example.org",
      "STUDIO.example.org:8443",
    ])
      expect(hostAllowed(host, names), host).toBe(true);
    // DNS rebinding: a foreign name that resolves to 127.0.0.1 is still a foreign name.
    for (const host of [
      "rebind.attacker.example:3000",
      "127.0.0.1.attacker.example",
      "localhost.attacker.example",
      "0.0.0.0:3000",
      undefined,
      "",
    ])
      expect(hostAllowed(host, names), String(host)).toBe(false);
  });

  it("on every address: the machine's addresses and hostname too", () => {
    const names = studioHostNames({
      bound: "0.0.0.0",
      machine: { addresses: ["10.1.2.3", "fe80::1"], hostname: "gpu-box" },
    });
    for (const host of ["10.1.2.3:3000", "[fe80::1]:3000", "gpu-box:3000", "localhost"])
      expect(hostAllowed(host, names), host).toBe(true);
    expect(hostAllowed("evil.example:3000", names)).toBe(false);
    expect(hostAllowed("0.0.0.0:3000", names)).toBe(false);
  });

  it("on one named address: that address", () => {
    const names = studioHostNames({ bound: "192.168.1.5" });
    expect(hostAllowed("192.168.1.5:3000", names)).toBe(true);
    expect(hostAllowed("192.168.1.6:3000", names)).toBe(false);
    expect(hostAllowed("[::1]:3000", studioHostNames({ bound: "::1" }))).toBe(true);
  });

  it("reads the operator's names from the flag and COLBENCH_ALLOWED_HOSTS", () => {
    expect(allowedHostsFrom(["a.example"], "b.example, c.example d.example")).toEqual([
      "a.example",
      "b.example",
      "c.example",
      "d.example",
    ]);
    expect(allowedHostsFrom([], undefined)).toEqual([]);
  });
});

describe("Origin on writes", () => {
  const names = studioHostNames({ bound: "127.0.0.1", extra: ["studio.example.org"] });
  it("passes the studio's own origin and requests without one (scripts)", () => {
    expect(originRefusal("http://127.0.0.1:3000", { host: "127.0.0.1:3000", scheme: "http" }, names)).toBeNull();
    expect(originRefusal(undefined, { host: "127.0.0.1:3000", scheme: "http" }, names)).toBeNull();
    expect(
      originRefusal("https://studio.example.org", { host: "studio.example.org", scheme: "https" }, names),
    ).toBeNull();
  });
  it("refuses a foreign name, another port, another scheme, and nonsense", () => {
    expect(
      originRefusal("http://rebind.attacker.example:3000", { host: "127.0.0.1:3000", scheme: "http" }, names),
    ).toMatch(/not one of the studio's names/);
    expect(originRefusal("http://localhost:3000", { host: "127.0.0.1:3000", scheme: "http" }, names)).toMatch(
      /is not http:\/\/127\.0\.0\.1:3000/,
    );
    expect(originRefusal("http://127.0.0.1:4000", { host: "127.0.0.1:3000", scheme: "http" }, names)).not.toBeNull();
    expect(
      originRefusal("http://studio.example.org", { host: "studio.example.org", scheme: "https" }, names),
    ).not.toBeNull();
    expect(originRefusal("null", { host: "127.0.0.1:3000", scheme: "http" }, names)).not.toBeNull();
  });
});
