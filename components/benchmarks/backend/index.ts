import { ANSWER_MARKER } from "@/lib/colbench/protocol";
import type { BenchmarkViews } from "../views";
import { BackendScore } from "./Score";
import { BackendHidden } from "./Hidden";
import { PythonScratch } from "./PythonScratch";
import { BackendCollaboratorHidden } from "./CollaboratorHidden";
import { BackendPairHidden } from "./PairHidden";
import { BackendLiveAnswer } from "./LiveAnswer";

// The backend benchmark's views: a Python function, its hidden tests, a scratch pad to try it.

export const backendViews: BenchmarkViews = {
  badgeTone: "bg-sky-50 text-sky-800 ring-sky-200",
  heading: "Backend programming",
  Score: BackendScore,
  Hidden: BackendHidden,
  agent: {
    editorLabel: "Your Python function",
    Workbench: PythonScratch,
    // A question rarely needs the code; a person ticks the box to show a draft.
    attachByDefault: false,
    attach: (message, code) => `${message}\n\n\`\`\`python\n${code.trimEnd()}\n\`\`\``,
    answer: (code) => `${ANSWER_MARKER}\n${code}`,
  },
  collaborator: { Hidden: BackendCollaboratorHidden },
  replay: { diffHeight: 420 },
  similarityInBrowser: false,
  PairHidden: BackendPairHidden,
  LiveAnswer: BackendLiveAnswer,
  leaderboard: { before: [], after: [] },
};
