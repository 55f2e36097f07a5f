import fs from "node:fs";
import zlib from "node:zlib";
import { once } from "node:events";

// The backup's file while it is written: gzip-compressed lines into FILE.partial, a file of this
// process alone, which takes the file's name only when complete, so a file under its name is whole.

export interface PartialFile {
  /** Text as it is (lines already ended); waits while the compressor is full. */
  writeText: (text: string) => Promise<void>;
  /** One JSON line. */
  write: (value: unknown) => Promise<void>;
  /** Ends the stream, syncs the file to disk and renames it to TARGET. */
  complete: (target: string) => Promise<void>;
  /** Stops writing and removes FILE.partial (a failed backup leaves nothing behind). */
  discard: () => void;
}

export function openPartialFile(partial: string): PartialFile {
  const gzip = zlib.createGzip({ level: 6 });
  const out = fs.createWriteStream(partial, { fd: createPartial(partial) });
  gzip.pipe(out);
  // Compressed on libuv's threads (zlib streams), never on this one.
  const writeText = async (text: string) => {
    if (!gzip.write(text)) await once(gzip, "drain");
  };
  return {
    writeText,
    write: (value) => writeText(JSON.stringify(value) + "\n"),
    async complete(target) {
      gzip.end();
      await once(out, "close");
      const handle = fs.openSync(partial, "r");
      fs.fsyncSync(handle);
      fs.closeSync(handle);
      fs.renameSync(partial, target);
    },
    discard() {
      gzip.destroy();
      out.destroy();
      fs.rmSync(partial, { force: true });
    },
  };
}

/**
 * Opens FILE.partial as a new file of this process alone: created exclusively, never through a link,
 * readable by its owner only. A regular file left there by a backup that was killed is replaced; a
 * link or anything else is refused, since writing through it would overwrite what it points at.
 */
function createPartial(partial: string): number {
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
  try {
    return fs.openSync(partial, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const found = fs.lstatSync(partial);
  if (!found.isFile()) {
    throw new Error(
      `${partial} exists and is ${found.isSymbolicLink() ? "a symbolic link" : "not a regular file"}: refusing to write the backup through it (remove it, or choose another file name)`,
    );
  }
  fs.unlinkSync(partial);
  return fs.openSync(partial, flags, 0o600);
}
