// Every keyboard shortcut the studio has, by page, so the `?` overlay lists exactly what works
// where the person is. Keys are the same across pages that do the same thing (Ctrl+Enter sends a
// message in both seats; ←/→ move between items of a list of episodes or pairs).

import { decide } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";

export interface Shortcut {
  keys: string[];
  does: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

const SEARCH: Shortcut = { keys: ["/"], does: "search every episode" };

/** Anywhere; `/` only for a viewer the gate lets open Search (annotators are refused it). */
function everywhere(search: boolean): ShortcutGroup {
  return {
    title: "Anywhere",
    shortcuts: [
      { keys: ["?"], does: "show or hide this list" },
      ...(search ? [SEARCH] : []),
      { keys: ["Esc"], does: "close a dialog" },
    ],
  };
}

const PAGES: Array<{ path: RegExp; group: ShortcutGroup }> = [
  {
    path: /^\/episodes\/\d+$/,
    group: {
      title: "Replay",
      shortcuts: [
        { keys: ["[", "]"], does: "the agent's previous and next proposal (also ↑ ↓)" },
        { keys: ["←", "→"], does: "previous and next episode of the run (also k j)" },
      ],
    },
  },
  {
    path: /^\/play\/\d+\/(agent|collaborator)$/,
    group: {
      title: "Playing a seat",
      shortcuts: [{ keys: ["Ctrl", "Enter"], does: "send the message (⌘ Enter on a Mac)" }],
    },
  },
  {
    // The desk itself: /annotate/ID (its agreement page, /annotate/ID/agreement, has no such keys).
    path: /^\/annotate\/\d+$/,
    group: {
      title: "Labelling",
      shortcuts: [
        { keys: ["1"], does: "A is better" },
        { keys: ["2"], does: "B is better" },
        { keys: ["3"], does: "a tie" },
        { keys: ["4"], does: "both are bad" },
        { keys: ["5", "6"], does: "graded queues: 1 A much, 2 A slightly, 3 tie, 4 B slightly, 5 B much, 6 both bad" },
        { keys: ["u"], does: "undo the last label" },
        { keys: ["s"], does: "skip this pair (the comment box says why)" },
        { keys: ["l"], does: "come back to this pair later" },
        { keys: ["b"], does: "flag this pair as broken (and skip it)" },
        { keys: ["h"], does: "your labels: reopen one to change it" },
        { keys: ["c"], does: "write in the comment box" },
      ],
    },
  },
];

/** The shortcuts that work on a page for this viewer, those of the page first. */
export function shortcutsFor(path: string, viewer: { search: boolean }): ShortcutGroup[] {
  return [...PAGES.filter((p) => p.path.test(path)).map((p) => p.group), everywhere(viewer.search)];
}

/** Whether `/` is offered: asked of the gate's own table, so the key and the page cannot disagree. */
export function viewerSearches(viewer: Viewer): boolean {
  return decide(viewer, "GET", "/search", new URLSearchParams()) === "allow";
}
