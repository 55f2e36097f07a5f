import type { TableColumn, TableRow } from "../table/table";
import type { BrowsedItem, ItemOrder } from "../store/queue-items";

// The lead's browser of a queue's pairs as table data: the queue's page and its CSV/JSON route read
// the same cells. A and B are the pair's stored sides (each person saw them in an order of their own).

const SAID: Record<string, string> = { a: "A", b: "B", tie: "tie", both_bad: "both bad" };
const said = (choice: string | null) => (choice ? (SAID[choice] ?? choice) : "–");

/** Columns whose id is an `ItemOrder` are ordered by the store's query; the others are not sortable. */
export const ITEM_COLUMNS: TableColumn[] = [
  { id: "ordinal", header: "#", numeric: true },
  { id: "item", header: "Pair", unsortable: true },
  { id: "task", header: "Task", numeric: true },
  { id: "gold", header: "Gold" },
  { id: "source", header: "Rule / critic" },
  { id: "labels", header: "Labels", numeric: true },
  { id: "said", header: "Who said what", unsortable: true },
  { id: "split", header: "Split", numeric: true },
  { id: "skips", header: "Skipped", numeric: true },
  { id: "last", header: "Last label" },
  { id: "comments", header: "Comments", unsortable: true },
];

export const ITEM_SORTS = ITEM_COLUMNS.filter((c) => !c.unsortable).map((c) => c.id as ItemOrder);

const labelText = (l: BrowsedItem["labels"][number]) =>
  `${l.user}: ${said(l.choice)}${l.strength ? ` (${l.strength})` : ""}${l.review === "rejected" ? " [rejected]" : ""}`;

export function itemRows(items: BrowsedItem[]): TableRow[] {
  return items.map((item) => ({
    key: item.id,
    cells: {
      ordinal: { text: String(item.ordinal + 1), sort: item.ordinal },
      item: { text: String(item.id) },
      task: { text: String(item.taskId), sort: item.taskId },
      gold: { text: item.gold ? `${said(item.gold)}${item.goldReason ? ` — ${item.goldReason}` : ""}` : "" },
      source: { text: said(item.sourceChoice) },
      labels: {
        text: item.gold ? String(item.labelCount) : `${item.labelCount} of ${item.wanted}`,
        sort: item.labelCount,
      },
      said: { text: item.labels.map(labelText).join("; ") },
      split: { text: item.choices > 1 ? "split" : "", sort: item.choices },
      skips: {
        text: item.skips ? `${item.skips}${item.broken ? ` (${item.broken} broken)` : ""}` : "",
        sort: item.skips,
      },
      last: {
        text: item.lastLabelAt ? item.lastLabelAt.toISOString().replace("T", " ").slice(0, 16) : "",
        sort: item.lastLabelAt?.getTime() ?? null,
      },
      comments: {
        text: item.labels
          .filter((l) => l.comment)
          .map((l) => `${l.user}: ${l.comment}`)
          .join("; "),
      },
    },
  }));
}
