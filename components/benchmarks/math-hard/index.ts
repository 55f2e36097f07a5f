import { serverSpecSchema, formatServerSpec } from "@/lib/colbench/server-spec";
import type { BenchmarkViews } from "../views";
import { MathHardBoxedPreview } from "./BoxedPreview";
import { MathHardCollaboratorHidden } from "./CollaboratorHidden";
import { MathHardHidden } from "./Hidden";
import { MathHardLiveAnswer } from "./LiveAnswer";
import { MathHardPairHidden } from "./PairHidden";
import { MathHardRunOptions } from "./RunOptions";
import { MathHardScore } from "./Score";

// CollabLLM's math-hard views: written answers, the judge's verdict, the problem the user holds.

export const mathHardViews: BenchmarkViews = {
  badgeTone: "bg-violet-50 text-violet-800 ring-violet-200",
  heading: "Math questions (CollabLLM MATH-Hard)",
  Score: MathHardScore,
  Hidden: MathHardHidden,
  agent: {
    editorLabel: "Your answer",
    Workbench: MathHardBoxedPreview,
    // The answer is the message itself: a person writes it in the editor and sends it.
    attachByDefault: true,
    attach: (message, code) => (code.trim() ? `${message}\n\n${code.trimEnd()}` : message),
    answer: (code) => code,
  },
  collaborator: { Hidden: MathHardCollaboratorHidden },
  replay: { diffHeight: 240 },
  similarityInBrowser: false,
  PairHidden: MathHardPairHidden,
  LiveAnswer: MathHardLiveAnswer,
  specRows: (config) => {
    const judge = serverSpecSchema.safeParse((config as { judge?: unknown } | null)?.judge);
    return judge.success ? [["Judge", formatServerSpec(judge.data)]] : [];
  },
  RunOptions: MathHardRunOptions,
  leaderboard: { before: [], after: [] },
};
