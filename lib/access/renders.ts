import { seesHidden, type Viewer } from "./viewer";

// Who may see which render and which task's target page. A render's id is the sha256 of the page
// and public settings, so an official target's id can be computed from the public task file: an id
// proves nothing. The route asks these, not only the gate, whoever reached it (Next's image
// optimizer used to fetch it with nobody's cookies).

/** Whether the viewer holds this seat of this episode (a seat link's cookie). */
export function holdsSeat(viewer: Viewer, episodeId: number, seat: "agent" | "simulator"): boolean {
  return viewer.kind === "seats" && viewer.seats.some((s) => s.episodeId === episodeId && s.seat === seat);
}

/** The collaborator seats the viewer holds (their episodes' task targets are theirs to see). */
export function collaboratorEpisodes(viewer: Viewer): number[] {
  return viewer.kind === "seats" ? viewer.seats.filter((s) => s.seat === "simulator").map((s) => s.episodeId) : [];
}

export interface RenderFacts {
  /** Episodes whose agent turns show this render. */
  answerEpisodes(): Promise<number[]>;
  /** Whether it is the target of the task of this episode (the render's own settings, recomputed). */
  isTargetOf(episodeId: number): Promise<boolean>;
  /** Whether it is a target a queue that shows hidden information shows this member. */
  targetInMembersQueue(userId: number): Promise<boolean>;
}

/**
 * Researchers, admins and local mode: every render. A signed-in person (annotators see runs): the
 * agent's pages, and targets a queue they label shows them. A seat link: its own episodes' agent
 * pages and, for the collaborator seat, its task's target. Anyone else: nothing. Anything not
 * known to be an agent's page is treated as a target.
 */
export async function mayViewRender(viewer: Viewer, facts: RenderFacts): Promise<boolean> {
  if (seesHidden(viewer)) return true;
  if (viewer.kind === "user")
    return (await facts.answerEpisodes()).length > 0 || (await facts.targetInMembersQueue(viewer.id));
  if (viewer.kind !== "seats") return false;
  const answers = await facts.answerEpisodes();
  if (viewer.seats.some((s) => answers.includes(s.episodeId))) return true;
  for (const episodeId of collaboratorEpisodes(viewer)) if (await facts.isTargetOf(episodeId)) return true;
  return false;
}

/** A task's target page: researchers, admins, local mode, and the collaborator seat of an episode of that task. */
export async function mayViewTarget(
  viewer: Viewer,
  taskId: number,
  taskOfEpisode: (episodeId: number) => Promise<number | null>,
): Promise<boolean> {
  if (seesHidden(viewer)) return true;
  for (const episodeId of collaboratorEpisodes(viewer)) if ((await taskOfEpisode(episodeId)) === taskId) return true;
  return false;
}
