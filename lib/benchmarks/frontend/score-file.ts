import path from "node:path";
import { chooseFrontendEmbedder, createEmbedder, type EmbedderDevice } from "../../scoring/frontend/embedders";
import type { EmbedderName } from "../../colbench/run-config";
import { profileLabel, type BrowserName, type ProfileName } from "../../colbench/render-profile";
import { FrontendScorer, type FrontendScore } from "../../scoring/frontend/scorer";
import { parseFrontendScoreLine } from "../../scoring/frontend/input";
import { readScoreLines, scoreInOrder, type ScoreIo } from "../../scoring/score-lines";
import type { ScoreContext } from "../score-cli";

// `colbench score frontend IN.jsonl`: each answer's screenshot against its target's, by the cosine
// of their image embeddings (CLIP ViT-B/32 as in the paper, or the weight-free default). Loaded
// only when the command runs (score-cli.ts describes it).

export interface ScoreFrontendOptions {
  out?: string;
  /** Left out: clip-vit-b32 when its weights are given, cached or can be fetched, else default (with a notice). */
  embedder?: EmbedderName;
  /** CLIP's weights: a folder or hub id. */
  clip?: string;
  /** Where CLIP runs: cpu (ONNX Runtime, the default), webgpu (lib/gpu's kernels through Dawn) or reference (TypeScript, for parity checks). */
  device?: EmbedderDevice;
  /** cpu: a graph exported elsewhere instead of the one built from the weights. */
  clipOnnx?: string;
  concurrency?: number;
  cache?: boolean;
  profile?: ProfileName;
  browser?: BrowserName;
  placeholderPhoto?: string;
}

/** What scoring a file needs of a scorer (tests pass their own). */
export type FrontendScoring = Pick<FrontendScorer, "score" | "close" | "embedder">;

/** Scores a file; resolves with the exit status (1 when some lines were unreadable). */
export async function scoreFrontendFile(
  file: string,
  options: ScoreFrontendOptions,
  io: ScoreIo = { stdout: process.stdout, stderr: process.stderr },
  startScorer?: () => Promise<FrontendScoring>,
  hubProgress: ScoreContext["hubProgress"] = silentProgress,
): Promise<number> {
  const baseDir = path.dirname(path.resolve(file));
  const { lines, bad } = readScoreLines(file, (raw) => parseFrontendScoreLine(raw, baseDir), io);
  const scorer = await (startScorer ?? (() => startFrontendScoring(options, io, hubProgress)))();
  let scores: FrontendScore[];
  try {
    scores = await scoreInOrder(lines, (line) => scorer.score(line.groundTruth, line.answer), {
      out: options.out,
      io,
      record: (line, s) => ({
        ...line.record,
        reward: s.reward,
        embedder: s.embedder,
        ...(s.device ? { embedder_device: s.device } : {}),
        render_profile: s.profile,
        answer_render: s.answerRender,
        target_render: s.targetRender,
        answer_render_status: s.answerStatus,
        target_render_status: s.targetStatus,
        // Why a render is not clean (failed, timed out, or retried), beside its status.
        ...(s.answerError ? { answer_render_error: s.answerError } : {}),
        ...(s.targetError ? { target_render_error: s.targetError } : {}),
      }),
    });
  } finally {
    await scorer.close();
  }

  const done = scores;
  const unusual = done.filter(
    (s) => s.targetStatus !== "ok" || (s.answerStatus !== "ok" && s.answerStatus !== "image"),
  ).length;
  if (unusual)
    io.stderr.write(
      `colbench: ${unusual} answer(s) or target(s) had no answer or did not render normally (see *_render_status in OUT)\n`,
    );
  if (bad) io.stderr.write(`colbench: ${bad} line(s) of ${file} could not be scored\n`);
  const n = done.length;
  const average = n ? done.reduce((s, x) => s + x.reward, 0) / n : 0;
  const profile = done[0]?.profile;
  io.stdout.write(
    `${JSON.stringify({ n, average_similarity: average, embedder: scorer.embedder.id, ...(profile ? { render_profile: profile } : {}) })}\n`,
  );
  if (profile) io.stderr.write(`colbench: rendered under ${profileLabel(profile)}\n`);
  return bad ? 1 : 0;
}

const silentProgress: ScoreContext["hubProgress"] = () => ({ onProgress: () => {}, stop: () => {} });

/** The scorer a file is scored with when the caller brings none: the embedder chosen as runs choose it. */
async function startFrontendScoring(
  options: ScoreFrontendOptions,
  io: ScoreIo,
  hubProgress: ScoreContext["hubProgress"],
): Promise<FrontendScoring> {
  const choice = await chooseFrontendEmbedder({ embedder: options.embedder, clip: options.clip });
  if (choice.notice) io.stderr.write(`colbench: ${choice.notice}\n`);
  const progress = hubProgress();
  const embedder = await createEmbedder(choice.embedder, {
    clipPath: choice.clip,
    device: options.device,
    onnxFile: options.clipOnnx,
    onProgress: progress.onProgress,
    onBuild: (file) =>
      io.stderr.write(`colbench: built CLIP's ONNX graph from its weights (once per checkpoint): ${file}\n`),
  }).finally(() => progress.stop());
  return FrontendScorer.start({
    embedder,
    renderOptions: {
      concurrency: options.concurrency,
      cache: options.cache ?? true,
      ...(options.profile ? { profile: options.profile } : {}),
      ...(options.browser ? { browser: options.browser } : {}),
      ...(options.placeholderPhoto ? { placeholderPhoto: options.placeholderPhoto } : {}),
    },
  });
}
