import { describe, expect, it } from "vitest";
import { shortcutsFor, viewerSearches } from "./shortcuts";

const keysOn = (path: string, search = true) =>
  shortcutsFor(path, { search }).flatMap((g) => g.shortcuts.flatMap((s) => s.keys));
const titlesOn = (path: string) => shortcutsFor(path, { search: true }).map((g) => g.title);

describe("shortcutsFor", () => {
  it("lists the labelling keys on the desk's own path, /annotate/ID", () => {
    expect(titlesOn("/annotate/7")).toEqual(["Labelling", "Anywhere"]);
    expect(keysOn("/annotate/7")).toEqual(expect.arrayContaining(["1", "2", "3", "4", "u", "s"]));
  });

  it("does not list them on the queue list or a queue's agreement page", () => {
    expect(titlesOn("/annotate")).toEqual(["Anywhere"]);
    expect(titlesOn("/annotate/7/agreement")).toEqual(["Anywhere"]);
  });

  it("offers / only to a viewer who may search", () => {
    expect(keysOn("/annotate/7", true)).toContain("/");
    expect(keysOn("/annotate/7", false)).not.toContain("/");
    expect(keysOn("/annotate/7", false)).toEqual(expect.arrayContaining(["?", "Esc"]));
  });
});

describe("viewerSearches", () => {
  it("follows the gate: annotators, seat links and the signed-out may not search", () => {
    expect(viewerSearches({ kind: "user", id: 1, name: "ann", role: "annotator" })).toBe(false);
    expect(viewerSearches({ kind: "seats", seats: [{ episodeId: 1, seat: "agent" }] })).toBe(false);
    expect(viewerSearches({ kind: "anonymous" })).toBe(false);
    expect(viewerSearches({ kind: "user", id: 2, name: "res", role: "researcher" })).toBe(true);
    expect(viewerSearches({ kind: "local" })).toBe(true);
  });
});
