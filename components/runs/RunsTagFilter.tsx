import { FilterPills } from "@/components/FilterPills";

/** The runs list's tag filter: every tag on the runs shown (with how many carry it), and "any". */
export function RunsTagFilter({
  tags,
  current,
  href,
}: {
  tags: Array<{ tag: string; runs: number }>;
  current: string | undefined;
  href: (tag: string | undefined) => string;
}) {
  // A tag typed into the address that no run carries is still shown, chosen, so it can be cleared.
  const shown = current && !tags.some((t) => t.tag === current) ? [...tags, { tag: current, runs: 0 }] : tags;
  if (shown.length === 0) return null;
  return (
    <div className="mb-3 overflow-x-auto text-sm" data-testid="runs-tag-filter">
      <FilterPills
        label="Filter by tag"
        caption="tag"
        pills={[
          { label: "any", href: href(undefined), current: !current },
          ...shown.map((t) => ({ label: `${t.tag} (${t.runs})`, href: href(t.tag), current: t.tag === current })),
        ]}
      />
    </div>
  );
}
