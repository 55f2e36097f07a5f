"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { usePathname } from "next/navigation";

/**
 * The narrow screen's navigation behind a Menu button: a <details>, so it opens before any script
 * has loaded; it lives in the layout, which stays across navigations, so it closes itself when the
 * page changes.
 */
export function NavMenu({ children }: { children: ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const path = usePathname();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [path]);
  return (
    <details ref={menu} className="group ml-auto lg:hidden" data-testid="nav-menu">
      {children}
    </details>
  );
}
