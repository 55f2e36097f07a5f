import { describe, expect, it } from "vitest";
import { episodesSearch } from "@/lib/runs/episodes-search";
import type { EpisodesQuery } from "@/lib/runs/snapshot";
import { episodesQuery } from "./snapshot";

// The run page's table in its address: what the page's links write, the page and its event stream
// read back unchanged; what is not a filter or an order is dropped rather than refused.

describe("the episodes table's address", () => {
  it("reads back every filter, order and page it writes", () => {
    const queries: EpisodesQuery[] = [
      {},
      { status: "failed" },
      { score: "partial", page: 3 },
      { sort: "reward", dir: "desc" },
      { status: "done", score: "full", sort: "turns", dir: "asc", page: 2 },
    ];
    for (const query of queries) expect(episodesQuery(new URLSearchParams(episodesSearch(query)))).toEqual(query);
    expect(episodesSearch({ status: "done", sort: "task", dir: "desc", page: 4 })).toBe(
      "status=done&sort=task&dir=desc&page=4",
    );
    // Export links carry every episode under the filters: no page.
    expect(episodesSearch({ sort: "task", dir: "desc", page: 4 }, { page: false })).toBe("sort=task&dir=desc");
  });

  it("drops an unknown column and reads an unknown direction as ascending", () => {
    expect(episodesQuery(new URLSearchParams("sort=password&dir=desc"))).toEqual({});
    expect(episodesQuery(new URLSearchParams("sort=reward&dir=sideways"))).toEqual({ sort: "reward", dir: "asc" });
    expect(episodesQuery(new URLSearchParams("sort=reward"))).toEqual({ sort: "reward", dir: "asc" });
  });
});
