"use client";

import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";

// @monaco-editor/react fetches Monaco from a CDN unless told otherwise; the studio runs offline,
// so it gets the bundled copy, and its web workers come from the same bundle.
declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

let configured = false;

export function useLocalMonaco(): void {
  if (configured || typeof window === "undefined") return;
  configured = true;
  window.MonacoEnvironment = {
    getWorker(_id, label) {
      if (label === "html" || label === "handlebars" || label === "razor") {
        return new Worker(new URL("monaco-editor/language/html/html.worker.js", import.meta.url), { type: "module" });
      }
      return new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" });
    },
  };
  loader.config({ monaco });
}
