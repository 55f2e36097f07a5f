import { getStore } from "@/lib/store";
import { parseTaskSearch } from "@/lib/store/task-search";

export const dynamic = "force-dynamic";

/** Paginated task summaries (no hidden information): ?benchmark=&split=&q=&page=&pageSize= */
export async function GET(request: Request) {
  const query = parseTaskSearch(new URL(request.url).searchParams);
  return Response.json(await (await getStore()).tasks.list(query));
}
