"use client";

import { useEffect, useRef, useState } from "react";
import { usePathname, useRouter } from "next/navigation";
import { shortcutsFor } from "@/lib/colbench/shortcuts";

const typing = (target: EventTarget | null) =>
  (target as HTMLElement | null)?.closest("input, textarea, select, [contenteditable=true], .monaco-editor") !== null &&
  target !== null &&
  target !== document.body;

/**
 * `?` opens the list of this page's keyboard shortcuts; `/` goes to Search for a viewer who may
 * open it (for anyone else it would only lead to a refusal).
 */
export function ShortcutHelp({ search }: { search: boolean }) {
  const path = usePathname();
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  // Keys pressed before the page is interactive go nowhere; tests wait for this mark instead of guessing.
  const [listening, setListening] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || typing(event.target)) return;
      if (event.key === "?") {
        event.preventDefault();
        setOpen((o) => !o);
      } else if (event.key === "/" && search && path !== "/search") {
        event.preventDefault();
        router.push("/search");
      }
    };
    window.addEventListener("keydown", onKey);
    // Only the effect knows when the listener is attached: the mark is set right after it.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- one extra render, once
    setListening(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [path, router, search]);

  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
    if (!open && dialog.current?.open) dialog.current.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      onClose={() => setOpen(false)}
      aria-labelledby="shortcuts-title"
      className="m-auto w-full max-w-md rounded-lg p-6 shadow-xl backdrop:bg-stone-900/40"
      data-testid="shortcut-help"
      data-listening={listening ? "" : undefined}
    >
      <h2 id="shortcuts-title" className="text-lg font-semibold text-stone-900">
        Keyboard shortcuts
      </h2>
      {/* Listed once mounted: a 404 page is rendered on the server under another path than the
          browser's (/episodes/99999 lists the replay's keys in the browser only), and the list is
          hidden until `?` anyway. */}
      {(listening ? shortcutsFor(path, { search }) : []).map((group) => (
        <section key={group.title} className="mt-4">
          <h3 className="text-xs font-medium uppercase tracking-wide text-stone-500">{group.title}</h3>
          <dl className="mt-1 space-y-1 text-sm">
            {group.shortcuts.map((s) => (
              <div key={s.does} className="flex gap-3">
                <dt className="w-28 shrink-0">
                  {s.keys.map((k) => (
                    <kbd
                      key={k}
                      className="mr-1 rounded border border-stone-300 bg-stone-50 px-1.5 py-0.5 font-mono text-xs"
                    >
                      {k}
                    </kbd>
                  ))}
                </dt>
                <dd className="text-stone-700">{s.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <button
        type="button"
        onClick={() => setOpen(false)}
        className="mt-5 rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-100"
      >
        Close
      </button>
    </dialog>
  );
}
