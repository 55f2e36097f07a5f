import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { imagePath, seedFromImage } from "./cluster-image";
import { migrationNames } from "./migrate";
import { openDatabase } from "./open";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-cluster-image-"));
const was = process.env.COLBENCH_PGLITE_IMAGES;
afterEach(() => {
  process.env.COLBENCH_PGLITE_IMAGES = was;
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const folder = (name: string) => path.join(scratch, name);

describe("a new PGlite folder from the cluster image", () => {
  it("builds the image once, copies it into new folders, and the copies open, migrate and keep rows of their own", async () => {
    const root = folder("images");
    process.env.COLBENCH_PGLITE_IMAGES = root;
    const warnings: string[] = [];
    expect(await seedFromImage(folder("a"), (line) => warnings.push(line))).toBe("built and copied");
    expect(await seedFromImage(folder("b"), (line) => warnings.push(line))).toBe("copied");
    expect(warnings).toEqual([]);
    expect(fs.readdirSync(root)).toEqual([path.basename(imagePath(root))]);

    // A seeded folder is an unmigrated cluster: opening it applies every migration, as on a new folder.
    const a = await openDatabase({ pgliteDir: folder("a"), url: "" });
    const b = await openDatabase({ pgliteDir: folder("b"), url: "" });
    try {
      expect(a.applied).toEqual(migrationNames());
      expect(b.applied).toEqual(migrationNames());
      await a.prisma.task.create({
        data: {
          benchmark: "backend",
          problemDescription: "only in a",
          groundTruth: "def f():\n    return 1",
          testCases: [],
          source: "cluster-image test",
          sourceIndex: 1,
          contentHash: "only-in-a",
        },
      });
      expect(await a.prisma.task.count()).toBe(1);
      expect(await b.prisma.task.count()).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
    // The image itself was never opened as a database: a third folder starts empty too.
    const c = await openDatabase({ pgliteDir: folder("c"), url: "" });
    try {
      expect(await c.prisma.task.count()).toBe(0);
    } finally {
      await c.close();
    }
  });

  it("leaves a folder that has anything in it alone", async () => {
    process.env.COLBENCH_PGLITE_IMAGES = folder("images");
    fs.mkdirSync(folder("kept"));
    fs.writeFileSync(path.join(folder("kept"), "mine.txt"), "not a database");
    expect(await seedFromImage(folder("kept"), () => {})).toBe("existing");
    expect(fs.readdirSync(folder("kept"))).toEqual(["mine.txt"]);
  });

  it("fills again a folder a start left half-filled, and fills an empty folder reached through a link in place", async () => {
    process.env.COLBENCH_PGLITE_IMAGES = folder("images");
    const image = imagePath(folder("images"));
    fs.mkdirSync(folder("half"));
    fs.writeFileSync(path.join(folder("half"), ".colbench-filling"), "");
    fs.writeFileSync(path.join(folder("half"), "PG_VERSION"), "torn");
    expect(await seedFromImage(folder("half"), () => {})).toBe("copied");
    expect(fs.readdirSync(folder("half")).sort()).toEqual(fs.readdirSync(image).sort());
    expect(fs.readFileSync(path.join(folder("half"), "PG_VERSION"), "utf8")).toBe(
      fs.readFileSync(path.join(image, "PG_VERSION"), "utf8"),
    );

    // A data folder kept on another disk: the link stays a link, the cluster lands where it points.
    fs.mkdirSync(folder("elsewhere"));
    fs.symlinkSync(folder("elsewhere"), folder("linked"));
    expect(await seedFromImage(folder("linked"), () => {})).toBe("copied");
    expect(fs.lstatSync(folder("linked")).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(folder("elsewhere")).sort()).toEqual(fs.readdirSync(image).sort());
  });

  it('does nothing with "off", and says why when no image can be kept, leaving nothing half-made', async () => {
    process.env.COLBENCH_PGLITE_IMAGES = "off";
    expect(await seedFromImage(folder("off"), () => {})).toBe("not seeded");
    expect(fs.existsSync(folder("off"))).toBe(false);

    // The images' folder cannot be made: a file is in its way.
    fs.writeFileSync(folder("blocked"), "a file, not a folder");
    process.env.COLBENCH_PGLITE_IMAGES = path.join(folder("blocked"), "images");
    const warnings: string[] = [];
    expect(await seedFromImage(folder("unseeded"), (line) => warnings.push(line))).toBe("not seeded");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(folder("blocked"));
    expect(warnings[0]).toContain(`could not fill ${folder("unseeded")} from the PGlite image`);
    expect(fs.existsSync(folder("unseeded"))).toBe(false);

    // PGlite then makes the folder itself, as before there were images.
    const db = await openDatabase({ pgliteDir: folder("unseeded"), url: "" });
    try {
      expect(db.applied).toEqual(migrationNames());
    } finally {
      await db.close();
    }
  });

  it("keeps one whole image when two processes build it at once", async () => {
    const root = folder("raced");
    process.env.COLBENCH_PGLITE_IMAGES = root;
    const results = await Promise.all([seedFromImage(folder("r1"), () => {}), seedFromImage(folder("r2"), () => {})]);
    expect(results).toEqual(["built and copied", "built and copied"]);
    expect(fs.readdirSync(root)).toEqual([path.basename(imagePath(root))]);
    for (const dir of ["r1", "r2"]) expect(fs.existsSync(path.join(folder(dir), "PG_VERSION"))).toBe(true);
  });
});
