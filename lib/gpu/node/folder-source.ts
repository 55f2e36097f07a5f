import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { WeightSource } from "../model/source";

/** A model folder on this machine; weights stream from disk in 4 MiB reads. */
export function folderSource(dir: string): WeightSource {
  const file = (name: string) => path.join(dir, ...name.split("/"));
  return {
    where: dir,
    async text(name) {
      try {
        return await fs.promises.readFile(file(name), "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async size(name) {
      return (await fs.promises.stat(file(name))).size;
    },
    async stream(name) {
      return Readable.toWeb(fs.createReadStream(file(name), { highWaterMark: 4 << 20 })) as ReadableStream<Uint8Array>;
    },
    async streamFrom(name, offset) {
      return Readable.toWeb(
        fs.createReadStream(file(name), { start: offset, highWaterMark: 4 << 20 }),
      ) as ReadableStream<Uint8Array>;
    },
  };
}
