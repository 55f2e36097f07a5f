// Every keyboard shortcut the studio has, by page, so the `?` overlay lists exactly what works
// where the person is. Keys are the same across pages that do the same thing (Ctrl+Enter sends a
// message in both seats; ←/→ move between items of a list of episodes or pairs).

export interface Shortcut {
  keys: string[];
  does: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

const EVERYWHERE: ShortcutGroup = {
  title: "Anywhere",
  shortcuts: [
    { keys: ["?"], does: "show or hide this list" },
    { keys: ["/"], does: "search every episode" },
    { keys: ["Esc"], does: "close a dialog" },
  ],
};

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
    group: { title: "Playing a seat", shortcuts: [{ keys: ["Ctrl", "Enter"], does: "send the message (⌘ Enter on a Mac)" }] },
  },
  {
    path: /^\/annotate\/[^/]+\/label$/,
    group: {
      title: "Labelling",
      shortcuts: [
        { keys: ["1"], does: "A is better" },
        { keys: ["2"], does: "B is better" },
        { keys: ["3"], does: "a tie" },
        { keys: ["4"], does: "both are bad" },
        { keys: ["u"], does: "undo the last label" },
        { keys: ["s"], does: "skip this pair" },
      ],
    },
  },
];

/** The shortcuts that work on a page, those of the page first. */
export function shortcutsFor(path: string): ShortcutGroup[] {
  return [...PAGES.filter((p) => p.path.test(path)).map((p) => p.group), EVERYWHERE];
}
