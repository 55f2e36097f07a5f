import Link from "next/link";

/**
 * A switch that widens a list (played sessions, archived runs) as a link, so the state lives in a
 * shareable URL and works without JavaScript.
 */
export function IncludeSwitch({ label, on, href }: { label: string; on: boolean; href: string }) {
  return (
    <Link
      href={href}
      role="switch"
      aria-checked={on}
      className="inline-flex items-center gap-2 rounded-md px-2 py-1 text-sm text-stone-700 hover:bg-stone-100"
      data-testid={`switch-${label.toLowerCase().replace(/\s+/g, "-")}`}
    >
      <span className={`relative inline-block h-4 w-7 rounded-full transition ${on ? "bg-teal-700" : "bg-stone-300"}`}>
        <span className={`absolute top-0.5 h-3 w-3 rounded-full bg-white transition ${on ? "left-3.5" : "left-0.5"}`} />
      </span>
      {label}
    </Link>
  );
}

/** A page's URL with some query parameters set or removed (undefined, false and "" remove). */
export function withQuery(
  path: string,
  query: Record<string, string | undefined>,
  patch: Record<string, string | number | boolean | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...patch })) {
    if (value === undefined || value === false || value === "") continue;
    params.set(key, value === true ? "1" : String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
