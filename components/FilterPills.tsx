import Link from "next/link";

export interface Pill {
  label: string;
  href: string;
  current: boolean;
}

/** A row of link filters (shareable URLs, keyboard-friendly); the chosen one is marked for screen readers too. */
export function FilterPills({ label, caption, pills }: { label: string; caption?: string; pills: Pill[] }) {
  return (
    <nav aria-label={label} className="flex items-center gap-2">
      {caption ? <span className="text-stone-500">{caption}</span> : null}
      {pills.map((pill) => (
        <Link
          key={pill.label}
          href={pill.href}
          aria-current={pill.current ? "page" : undefined}
          className={`rounded-md px-3 py-1 ${pill.current ? "bg-teal-700 text-white" : "bg-white text-stone-700 ring-1 ring-stone-200 hover:bg-stone-100"}`}
        >
          {pill.label}
        </Link>
      ))}
    </nav>
  );
}
