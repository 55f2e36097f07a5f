"use client";

import { loader } from "@monaco-editor/react";

// @monaco-editor/react fetches Monaco from a CDN unless told otherwise; the studio runs offline, so
// it loads Monaco's own prebuilt copy (`monaco-editor/min/vs`, workers included) from the studio
// (app/vendor/monaco). Bundling Monaco instead made it half of every build's compile time and
// 13 MB of the studio's scripts.
export const MONACO_VS = "/vendor/monaco/vs";

let configured = false;

export function useLocalMonaco(): void {
  if (configured || typeof window === "undefined") return;
  configured = true;
  loader.config({ paths: { vs: MONACO_VS } });
}
