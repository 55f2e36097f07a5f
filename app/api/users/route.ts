import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { addUser, ROLES, signInUrl } from "@/lib/access/users";
import { isAdmin } from "@/lib/access/viewer";
import { requestViewer, studioOrigin } from "@/app/_lib/viewer";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const newUserSchema = z.object({
  name: z.string().trim().min(1),
  role: z.enum(ROLES as ["admin", "researcher", "annotator"]),
  linkDays: z.number().positive().max(365).optional(),
});

/** Adds a person and answers with their sign-in link (shown once: only its hash is kept). */
export async function POST(request: Request) {
  if (!isAdmin(requestViewer(request))) return Response.json({ error: "only admins add users" }, { status: 403 });
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = newUserSchema.safeParse(json.value);
  if (!parsed.success)
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  try {
    const { user, token, expiresAt } = await addUser(
      await getStore(),
      parsed.data.name,
      parsed.data.role,
      parsed.data.linkDays,
    );
    return Response.json({ user, link: signInUrl(studioOrigin(request), token), expiresAt }, { status: 201 });
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
}
