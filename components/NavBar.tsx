import Link from "next/link";
import { isAdmin, type Viewer } from "@/lib/access/viewer";
import { SignOut } from "./SignOut";
import { NavMenu } from "./NavMenu";

type Section = { href: string; label: string; hidden?: (viewer: Viewer) => boolean };

const annotator = (viewer: Viewer) => viewer.kind === "user" && viewer.role === "annotator";
const SECTIONS: Section[] = [
  { href: "/tasks", label: "Tasks" },
  { href: "/runs", label: "Runs" },
  { href: "/play", label: "Play", hidden: annotator },
  { href: "/sessions", label: "Sessions", hidden: annotator },
  { href: "/search", label: "Search", hidden: annotator },
  { href: "/annotate", label: "Annotate" },
  { href: "/leaderboard", label: "Leaderboard" },
  { href: "/models", label: "Models", hidden: annotator },
  { href: "/admin/users", label: "Users", hidden: (viewer) => !isAdmin(viewer) },
  { href: "/admin/system", label: "System", hidden: (viewer) => !isAdmin(viewer) },
];

/** The studio's navigation: the sections this viewer may open, and who is signed in. */
export function NavBar({ viewer }: { viewer: Viewer }) {
  // A seat link opens its seat only: no navigation to pages it may not see.
  const sections =
    viewer.kind === "seats" || viewer.kind === "anonymous" ? [] : SECTIONS.filter((s) => !s.hidden?.(viewer));
  const links = (className: string) =>
    sections.map((section) => (
      <li key={section.href}>
        <Link href={section.href} className={className}>
          {section.label}
        </Link>
      </li>
    ));
  return (
    <header className="border-b border-stone-200 bg-white">
      <nav aria-label="Main" className="relative mx-auto flex max-w-6xl items-center gap-4 px-4 py-3 sm:px-6 lg:gap-8">
        <Link href="/" className="shrink-0 font-semibold tracking-tight text-stone-900">
          ColBench <span className="text-teal-700">Studio</span>
        </Link>
        {/* Wide screens: the sections in a row (wrapping if they must). */}
        <ul className="hidden flex-1 flex-wrap gap-1 text-sm lg:flex">
          {links("rounded-md px-3 py-1.5 text-stone-600 hover:bg-stone-100 hover:text-stone-900")}
        </ul>
        {/* Narrow screens: behind a Menu button (a <details>, so it works before any script has loaded). */}
        {sections.length ? (
          <NavMenu>
            <summary className="cursor-pointer list-none rounded-md px-3 py-1.5 text-sm text-stone-700 ring-1 ring-stone-200 hover:bg-stone-100">
              Menu
            </summary>
            <ul className="absolute inset-x-0 top-full z-20 grid gap-1 border-b border-stone-200 bg-white p-3 text-sm shadow-sm sm:grid-cols-3">
              {links("block rounded-md px-3 py-2 text-stone-700 hover:bg-stone-100")}
              {viewer.kind === "user" ? (
                <li className="flex items-center gap-3 px-3 py-2 text-stone-600 sm:col-span-3">
                  {viewer.name} <span className="rounded bg-stone-100 px-1.5 py-0.5 text-xs">{viewer.role}</span>
                  <SignOut />
                </li>
              ) : null}
            </ul>
          </NavMenu>
        ) : null}
        {viewer.kind === "user" ? (
          <span className="flex items-center gap-3 text-sm text-stone-600 max-lg:hidden" data-testid="signed-in">
            {viewer.name} <span className="rounded bg-stone-100 px-1.5 py-0.5 text-xs">{viewer.role}</span>
            <SignOut />
          </span>
        ) : null}
      </nav>
    </header>
  );
}
