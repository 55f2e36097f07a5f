import Link from "next/link";
import type { Metadata } from "next";
import { currentPath } from "@/app/_lib/viewer";

export const metadata: Metadata = { title: "Not found" };

/** What a path names, and the list it would have been found in. */
function missing(path: string): { what: string; list: { href: string; label: string } } {
  let m = /^\/runs\/([^/]+)$/.exec(path);
  if (m) return { what: `There is no run ${decodeURIComponent(m[1]!)}.`, list: { href: "/runs", label: "All runs" } };
  m = /^\/episodes\/([^/]+)$/.exec(path);
  if (m)
    return {
      what: `There is no episode ${decodeURIComponent(m[1]!)}.`,
      list: { href: "/runs", label: "Runs and their episodes" },
    };
  m = /^\/tasks\/([^/]+)$/.exec(path);
  if (m)
    return { what: `There is no task ${decodeURIComponent(m[1]!)}.`, list: { href: "/tasks", label: "All tasks" } };
  m = /^\/play\/([^/]+)\//.exec(path);
  if (m)
    return {
      what: `There is no episode ${decodeURIComponent(m[1]!)} to play.`,
      list: { href: "/play", label: "Play" },
    };
  return {
    what: path ? `Nothing in the studio lives at ${path}.` : "Nothing in the studio lives here.",
    list: { href: "/", label: "The studio's start page" },
  };
}

export default async function NotFound() {
  const { what, list } = missing(await currentPath());
  return (
    <div className="rounded-lg border border-stone-200 bg-white px-6 py-10" data-testid="not-found">
      <h1 className="text-2xl font-semibold tracking-tight text-stone-900">Not found</h1>
      <p className="mt-2 text-stone-700">{what}</p>
      <p className="mt-4 text-sm">
        <Link href={list.href} className="text-teal-700 underline">
          {list.label}
        </Link>
      </p>
    </div>
  );
}
