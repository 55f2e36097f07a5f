import { MultiBar, Presets, type SingleBar } from "cli-progress";
import { formatBytes, type FileProgress } from "../lib/hub";

export { formatBytes };

// A bar per file the hub resolver fetches (size, speed), on stderr. Where stderr is no terminal
// (CI logs, pipes) one line per finished file instead.

export interface HubProgress {
  onProgress: (progress: FileProgress) => void;
  stop: () => void;
}

export function hubProgress(stream: NodeJS.WriteStream = process.stderr): HubProgress {
  const started = new Map<string, { at: number; from: number }>();
  const speed = (p: FileProgress) => {
    const s = started.get(p.file)!;
    const seconds = Math.max((performance.now() - s.at) / 1000, 0.001);
    return `${formatBytes((p.received - s.from) / seconds)}/s`;
  };
  if (!stream.isTTY) {
    return {
      onProgress(p) {
        if (!started.has(p.file)) started.set(p.file, { at: performance.now(), from: p.resumedFrom });
        if (p.done)
          stream.write(
            `fetched ${p.file} (${formatBytes(p.total)}${p.resumedFrom ? `, resumed at ${formatBytes(p.resumedFrom)}` : ""}, ${speed(p)})\n`,
          );
      },
      stop() {},
    };
  }
  const bars = new MultiBar(
    { format: "{file} {bar} {got}/{size} {speed}", stream, hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  const byFile = new Map<string, SingleBar>();
  return {
    onProgress(p) {
      if (!started.has(p.file)) started.set(p.file, { at: performance.now(), from: p.resumedFrom });
      let bar = byFile.get(p.file);
      const payload = {
        file: p.file.padEnd(24),
        got: formatBytes(p.received),
        size: formatBytes(p.total),
        speed: speed(p),
      };
      if (!bar) {
        bar = bars.create(p.total, p.received, payload);
        byFile.set(p.file, bar);
      } else bar.update(p.received, payload);
    },
    stop: () => bars.stop(),
  };
}
