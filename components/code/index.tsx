"use client";

import dynamic from "next/dynamic";
import type { CodeDiffProps, CodeEditorProps } from "./editors";

export type { CodeLanguage } from "./editors";

// Monaco touches `window` when it loads, so it is only ever loaded in the browser.
function Loading({ height }: { height?: number | string }) {
  return (
    <div
      className="flex items-center justify-center rounded border border-stone-200 bg-stone-50 text-sm text-stone-500"
      style={{ height: height ?? 320 }}
    >
      Loading editor…
    </div>
  );
}

export const CodeEditor = dynamic<CodeEditorProps>(() => import("./editors").then((m) => m.CodeEditorImpl), {
  ssr: false,
  loading: () => <Loading />,
});

export const CodeDiff = dynamic<CodeDiffProps>(() => import("./editors").then((m) => m.CodeDiffImpl), {
  ssr: false,
  loading: () => <Loading />,
});
