import { ANSWER_MARKER } from "@/lib/colbench/protocol";
import type { BenchmarkViews } from "../views";
import { FrontendScore } from "./Score";
import { FrontendHidden } from "./Hidden";
import { HtmlPreview } from "./HtmlPreview";
import { FrontendDialogueExtras } from "./DialogueExtras";
import { FrontendCollaboratorHidden } from "./CollaboratorHidden";
import { FrontendProposalExtras } from "./ProposalExtras";
import { FrontendPairHidden } from "./PairHidden";
import { FrontendLiveAnswer } from "./LiveAnswer";
import { FrontendRunOptions } from "./RunOptions";
import { frontendLeaderboard } from "./Leaderboard";
import { FrontendCompareProvenance } from "./CompareProvenance";
import { frontendSpecRows } from "./RunSpecRows";

// The frontend benchmark's views: pages, their renders beside the target's, similarities.

/** A page the benchmark will find in a message: the editor's HTML, wrapped when it lacks <html>. */
function asPage(html: string): string {
  return /<html[\s>]/i.test(html) ? html : `<html><body>${html}</body></html>`;
}

export const frontendViews: BenchmarkViews = {
  badgeTone: "bg-amber-50 text-amber-800 ring-amber-200",
  heading: "Frontend design",
  Score: FrontendScore,
  Hidden: FrontendHidden,
  agent: {
    editorLabel: "Your HTML page",
    Workbench: HtmlPreview,
    // The simulator answers by comparing renders: a message without a page shows it nothing.
    attachByDefault: true,
    attach: (message, code) => `${message}\n\n${asPage(code)}`,
    answer: (code) => `${ANSWER_MARKER}\n${asPage(code)}`,
  },
  collaborator: { DialogueExtras: FrontendDialogueExtras, Hidden: FrontendCollaboratorHidden },
  replay: { ProposalExtras: FrontendProposalExtras, diffHeight: 300 },
  similarityInBrowser: true,
  PairHidden: FrontendPairHidden,
  LiveAnswer: FrontendLiveAnswer,
  specRows: frontendSpecRows,
  CompareProvenance: FrontendCompareProvenance,
  RunOptions: FrontendRunOptions,
  leaderboard: frontendLeaderboard,
};
