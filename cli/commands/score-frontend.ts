import path from "node:path";
import { Command, Option } from "commander";
import { chooseFrontendEmbedder, createEmbedder, EMBEDDER_DEVICES, type EmbedderDevice } from "../../lib/scoring/frontend/embedders";
import { EMBEDDER_NAMES, type EmbedderName } from "../../lib/colbench/run-config";
import { BROWSERS, PROFILE_NAMES, profileLabel, type BrowserName, type ProfileName } from "../../lib/colbench/render-profile";
import { FrontendScorer, type FrontendScore } from "../../lib/scoring/frontend/scorer";
import { parseFrontendScoreLine } from "../../lib/scoring/frontend/input";
import { action } from "../errors";
import { hubProgress } from "../hub-progress";
import { positiveInt, readScoreLines, scoreInOrder, type ScoreIo } from "../score-lines";

// `colbench score frontend IN.jsonl`: each answer's screenshot against its target's, by the cosine
// of their image embeddings (CLIP ViT-B/32 as in the paper, or the weight-free default).

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

export type { ScoreIo };

/** Scores a file; resolves with the exit status (1 when some lines were unreadable). */
export async function scoreFrontendFile(
  file: string,
  options: ScoreFrontendOptions,
  io: ScoreIo = { stdout: process.stdout, stderr: process.stderr },
  startScorer: () => Promise<FrontendScoring> = async () => {
    const choice = await chooseFrontendEmbedder({ embedder: options.embedder, clip: options.clip });
    if (choice.notice) io.stderr.write(`colbench: ${choice.notice}\n`);
    const progress = hubProgress();
    const embedder = await createEmbedder(choice.embedder, {
      clipPath: choice.clip,
      device: options.device,
      onnxFile: options.clipOnnx,
      onProgress: progress.onProgress,
      onBuild: (file) => io.stderr.write(`colbench: built CLIP's ONNX graph from its weights (once per checkpoint): ${file}\n`),
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
  },
): Promise<number> {
  const baseDir = path.dirname(path.resolve(file));
  const { lines, bad } = readScoreLines(file, (raw) => parseFrontendScoreLine(raw, baseDir), io);
  const scorer = await startScorer();
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
  const unusual = done.filter((s) => s.targetStatus !== "ok" || (s.answerStatus !== "ok" && s.answerStatus !== "image")).length;
  if (unusual) io.stderr.write(`colbench: ${unusual} answer(s) or target(s) had no answer or did not render normally (see *_render_status in OUT)\n`);
  if (bad) io.stderr.write(`colbench: ${bad} line(s) of ${file} could not be scored\n`);
  const n = done.length;
  const average = n ? done.reduce((s, x) => s + x.reward, 0) / n : 0;
  const profile = done[0]?.profile;
  io.stdout.write(`${JSON.stringify({ n, average_similarity: average, embedder: scorer.embedder.id, ...(profile ? { render_profile: profile } : {}) })}\n`);
  if (profile) io.stderr.write(`colbench: rendered under ${profileLabel(profile)}\n`);
  return bad ? 1 : 0;
}

/** Adds `frontend` under an existing `score` command. */
export function registerScoreFrontend(score: Command): void {
  score
    .command("frontend")
    .description("score frontend answers: cosine similarity of the answer's and the target's screenshots' image embeddings")
    .argument("<in>", "JSONL: {task: {ground_truth, problem_description}, answer} with answer the final HTML or a PNG path (or null)")
    .option("--out <file>", "write every scored line again, with reward, embedder and render ids added")
    .addOption(
      new Option("--embedder <name>", "image embedder: clip-vit-b32 (the paper's metric; the default whenever its weights are cached or can be fetched) or default (weight-free)").choices(
        EMBEDDER_NAMES,
      ),
    )
    .option("--clip <ref>", "CLIP ViT-B/32's weights: a folder (model.safetensors, config.json) or hub id; default $COLBENCH_CLIP, else openai/clip-vit-base-patch32 through the Hugging Face cache")
    .addOption(new Option("--device <device>", "where CLIP runs: cpu (ONNX Runtime; default $COLBENCH_CLIP_DEVICE, else cpu), webgpu (WGSL kernels on this machine's GPU through Dawn, else Mesa's software adapter) or reference (TypeScript, for parity checks)").choices(EMBEDDER_DEVICES))
    .option("--clip-onnx <file>", "cpu: run this exported graph (pixel_values in, image embeddings out) instead of one built from the weights; default $COLBENCH_CLIP_ONNX")
    .option("--concurrency <n>", "pages rendered at once", positiveInt)
    .addOption(new Option("--profile <name>", "render profile: paper (the published scorer's screenshot, default) or studio-1280 (the studio's earlier 1280x800)").choices(PROFILE_NAMES))
    .addOption(new Option("--browser <engine>", "render engine: chromium (default) or firefox (Firefox ESR, as the published scorer; scripts/setup.sh --with-firefox)").choices(BROWSERS))
    .option("--placeholder-photo <file>", "the published placeholder photo (picsum.photos/id/48) for placeholder images; default $COLBENCH_PLACEHOLDER_PHOTO, else generated stand-ins")
    .option("--no-cache", "neither read nor write renders in <data>/renders")
    .action(
      action(async (file: string, opts: ScoreFrontendOptions) => {
        process.exitCode = await scoreFrontendFile(file, opts);
      }),
    );
}
