import Link from "next/link";
import type { ReactNode } from "react";

/** Previous/next links under a paged list, with what page this is. */
export function Pager({
  page,
  pages,
  href,
  children,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  children?: ReactNode;
}) {
  const button = "rounded-md border border-stone-300 bg-white px-3 py-1.5 hover:bg-stone-100";
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
      <span className="text-stone-600">
        Page {page} of {pages}
        {children}
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link className={button} href={href(page - 1)} rel="prev">
            Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link className={button} href={href(page + 1)} rel="next">
            Next
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
