import { seesHidden, type SeatName, type Viewer } from "./viewer";

// Which paths each kind of viewer may open. One table, checked by the gate before any page or
// route runs; routes that serve hidden information check again with `seesHidden`.

export type Decision = "allow" | "signin" | "deny";

/**
 * Open to anyone: the framework's built assets, vendored files, health, sign-in, generated
 * placeholders. Only /_next/static: the rest of /_next/ (the image optimizer above all, which
 * fetches URLs from inside the process) is not the framework's files.
 */
const PUBLIC = [
  /^\/_next\/static\//,
  /^\/vendor\//,
  /^\/icon\.svg$/,
  /^\/favicon\.ico$/,
  /^\/api\/health$/,
  /^\/signin$/,
  /^\/api\/placeholder$/,
];

/** What an annotator may open: lists and scores, never a ground truth, test, target or replay. */
const ANNOTATOR = [
  /^\/$/,
  /^\/tasks$/,
  /^\/tasks\/\d+$/,
  /^\/runs$/,
  /^\/runs\/\d+$/,
  /^\/leaderboard$/,
  /^\/api\/leaderboard$/,
  /^\/compare$/,
  /^\/annotate$/,
  // Labelling: the page and its moves; the routes check that the person is one of the queue's members.
  /^\/annotate\/\d+$/,
  // Reviewing: the page and its moves; the routes check that the person reviews the queue.
  /^\/annotate\/\d+\/review$/,
  /^\/api\/queues\/\d+\/(review|adjudicate)$/,
  /^\/api\/queues\/\d+\/(next|labels|undo|skip|renew|revise|reopen|history)$/,
  /^\/api\/tasks$/,
  /^\/api\/events$/,
  /^\/api\/runs\/\d+\/(episodes|events)$/,
  /^\/api\/renders\/[^/]+$/,
  /^\/api\/signout$/,
];

const ADMIN_ONLY = [/^\/admin(\/|$)/, /^\/api\/users(\/|$)/];

/**
 * Researchers' and admins' (annotators are held to ANNOTATOR above): fetching the official tasks,
 * the shared model cache and deleting from it, the embedder a new run would use.
 */
export const DATA_MANAGEMENT = [/^\/api\/tasks\/import$/, /^\/models$/, /^\/api\/models$/, /^\/api\/embedder$/];

/** May fetch datasets and models into the shared cache, and delete them (the pages offer it). */
export function managesData(viewer: Viewer): boolean {
  return (
    viewer.kind === "local" || (viewer.kind === "user" && (viewer.role === "admin" || viewer.role === "researcher"))
  );
}
// Researchers' tools that annotators and seat links never reach (they are in no list above): a
// replay's scoring in the browser, i.e. the model files the studio serves (/api/weights/MODEL/FILE:
// not hidden information, but of no use to an annotator), the episode's scoring inputs (they hold the
// task's final answer: /api/episodes/ID/score-inputs) and storing the scores (/api/episodes/ID/advantages).

/**
 * What a seat link opens: its own seat's page, events and moves, renders (the route serves a seat
 * only its episode's pages and, to the collaborator, its target) and the collaborator's target page.
 */
function seatAllows(
  seats: Array<{ episodeId: number; seat: SeatName }>,
  method: string,
  path: string,
  query: URLSearchParams,
): boolean {
  if (/^\/api\/renders\/[^/]+$/.test(path) && method === "GET") return true;
  // CLIP's weights (no hidden information: the target's render comes by its own id) for the
  // collaborator's in-browser similarity; the agent seat has no use for them.
  if (/^\/api\/weights\/clip\/[^/]+$/.test(path) && (method === "GET" || method === "HEAD"))
    return seats.some((s) => s.seat === "simulator");
  // The policy's weights (no hidden information either) for an agent the collaborator's tab
  // generates; its turns' prompts come from the route, which checks the episode is that seat's.
  if (/^\/api\/weights\/policy\/[^/]+$/.test(path) && (method === "GET" || method === "HEAD"))
    return seats.some((s) => s.seat === "simulator");
  // The collaborator's own task's target page; the route checks that the task is that seat's.
  if (/^\/api\/tasks\/\d+\/preview$/.test(path) && method === "GET") return seats.some((s) => s.seat === "simulator");
  const holds = (episodeId: number, seat: SeatName) => seats.some((s) => s.episodeId === episodeId && s.seat === seat);
  let m = /^\/play\/(\d+)\/(agent|collaborator)$/.exec(path);
  if (m && method === "GET") return holds(Number(m[1]), m[2] === "agent" ? "agent" : "simulator");
  m = /^\/api\/episodes\/(\d+)\/events$/.exec(path);
  if (m && method === "GET") {
    const seat = query.get("seat");
    return (seat === "agent" || seat === "simulator") && holds(Number(m[1]), seat);
  }
  // Live advantages as numbers (never the critic's prompt): the route checks coach mode for the agent's seat.
  m = /^\/api\/episodes\/(\d+)\/advantages\/live$/.exec(path);
  if (m && (method === "GET" || method === "POST"))
    return holds(Number(m[1]), "agent") || holds(Number(m[1]), "simulator");
  // The in-tab agent's next prompt, asked for by the collaborator's tab that generates it.
  m = /^\/api\/episodes\/(\d+)\/agent-turn$/.exec(path);
  if (m && method === "POST") return holds(Number(m[1]), "simulator");
  // Which role the move is for is in its body: the route checks it against the viewer's seats.
  m = /^\/api\/episodes\/(\d+)\/(move|retry)$/.exec(path);
  if (m && method === "POST") return holds(Number(m[1]), "agent") || holds(Number(m[1]), "simulator");
  return false;
}

/** May label a queue's pairs: its members, and researchers and admins (and local mode) on any queue. */
export function mayLabel(viewer: Viewer, queue: { memberIds: number[] }): boolean {
  if (viewer.kind === "local") return true;
  if (viewer.kind !== "user") return false;
  return labelsEveryQueue(viewer) || queue.memberIds.includes(viewer.id);
}

/**
 * Who may review a queue's labels and decide its split pairs: its reviewers, and those who see
 * hidden information (researchers, admins; the person at the machine in local mode).
 */
export function mayReview(viewer: Viewer, queue: { reviewerIds?: number[] }): boolean {
  if (seesHidden(viewer)) return true;
  return viewer.kind === "user" && (queue.reviewerIds ?? []).includes(viewer.id);
}

/** A signed-in person whose role labels any queue, member or not (everyone but annotators). */
export function labelsEveryQueue(viewer: Viewer & { kind: "user" }): boolean {
  return viewer.role !== "annotator";
}

/**
 * Hidden information of a queue's pairs (reference, tests, target page) is shown on its labelling
 * page only when the queue says so, and then only to those who may label it: a queue that shows
 * it widens what its members see, for its pairs only. Anyone else gets the blinded view.
 */
export function queueShowsHidden(viewer: Viewer, queue: { showsHidden: boolean; memberIds: number[] }): boolean {
  return queue.showsHidden && mayLabel(viewer, queue);
}

export function decide(viewer: Viewer, method: string, path: string, query: URLSearchParams): Decision {
  if (PUBLIC.some((p) => p.test(path))) return "allow";
  switch (viewer.kind) {
    case "local":
      return "allow";
    case "user":
      if (viewer.role === "admin") return "allow";
      if (ADMIN_ONLY.some((p) => p.test(path))) return "deny";
      if (viewer.role === "researcher") return "allow";
      if (DATA_MANAGEMENT.some((p) => p.test(path))) return "deny";
      return ANNOTATOR.some((p) => p.test(path)) ? "allow" : "deny";
    case "seats":
      return seatAllows(viewer.seats, method.toUpperCase(), path, query) ? "allow" : "deny";
    case "anonymous":
      return "signin";
  }
}
