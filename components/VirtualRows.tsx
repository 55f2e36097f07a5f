"use client";

import { useRef, type ReactNode } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";

/**
 * A long list drawn a screenful at a time (@tanstack/react-virtual): a 1000-task comparison or
 * episode list stays as fast as a 20-row one. Rows are fixed-height grid rows.
 */
export function VirtualRows<T>({
  items,
  rowHeight = 36,
  height = 560,
  header,
  columns,
  render,
  label,
}: {
  items: T[];
  rowHeight?: number;
  height?: number;
  header: ReactNode;
  /** CSS grid-template-columns shared by the header and every row. */
  columns: string;
  render: (item: T, index: number) => ReactNode;
  label: string;
}) {
  const parent = useRef<HTMLDivElement>(null);
  // The React Compiler is not enabled here (next.config.ts), so nothing memoises this component's use of
  // TanStack Virtual's changing functions; the warning is about a compiler this studio does not run.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => parent.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  return (
    <div
      className="overflow-hidden rounded-lg border border-stone-200 bg-white text-sm"
      role="table"
      aria-label={label}
      aria-rowcount={items.length + 1}
    >
      <div
        role="row"
        className="grid bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500"
        style={{ gridTemplateColumns: columns }}
      >
        {header}
      </div>
      <div ref={parent} style={{ maxHeight: height, overflowY: "auto" }} tabIndex={0} data-testid="virtual-rows">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((row) => (
            <div
              key={row.key}
              role="row"
              aria-rowindex={row.index + 2}
              className="grid items-center border-t border-stone-100 hover:bg-stone-50"
              style={{
                gridTemplateColumns: columns,
                position: "absolute",
                top: 0,
                left: 0,
                right: 0,
                height: row.size,
                transform: `translateY(${row.start}px)`,
              }}
            >
              {render(items[row.index]!, row.index)}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
