import Link from "next/link";
import { isAdmin, type Viewer } from "@/lib/access/viewer";
import { SignOut } from "./SignOut";

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
  const sections = viewer.kind === "seats" || viewer.kind === "anonymous" ? [] : SECTIONS.filter((s) => !s.hidden?.(viewer));
  return (
    <header className="border-b border-stone-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center gap-8 px-6 py-3">
        <Link href="/" className="font-semibold tracking-tight text-stone-900">
          ColBench <span className="text-teal-700">Studio</span>
        </Link>
        <ul className="flex flex-1 gap-1 text-sm">
          {sections.map((section) => (
            <li key={section.href}>
              <Link href={section.href} className="rounded-md px-3 py-1.5 text-stone-600 hover:bg-stone-100 hover:text-stone-900">
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
        {viewer.kind === "user" ? (
          <span className="flex items-center gap-3 text-sm text-stone-600" data-testid="signed-in">
            {viewer.name} <span className="rounded bg-stone-100 px-1.5 py-0.5 text-xs">{viewer.role}</span>
            <SignOut />
          </span>
        ) : null}
      </nav>
    </header>
  );
}
