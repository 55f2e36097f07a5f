import type { Metadata } from "next";
import type { ReactNode } from "react";
import { NavBar } from "@/components/NavBar";
import { ShortcutHelp } from "@/components/ShortcutHelp";
import { currentViewer } from "@/app/_lib/viewer";
import { viewerSearches } from "@/lib/colbench/shortcuts";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "ColBench Studio", template: "%s · ColBench Studio" },
  description: "Run, play, replay and label ColBench collaborative agent episodes.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  return (
    <html lang="en">
      <body className="min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2"
        >
          Skip to content
        </a>
        <NavBar viewer={viewer} />
        <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
          {children}
        </main>
        <ShortcutHelp search={viewerSearches(viewer)} />
      </body>
    </html>
  );
}
