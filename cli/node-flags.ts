// Node flags the studio's process starts with, wherever it is started from (scripts/studio.sh,
// `npm start`, deploy/colbench-studio.service, e2e/studio.ts; cli/node-flags.test.ts holds them to
// this list). V8 reads them only when the process starts, so `serve` cannot set them itself.
//
// --max-semi-space-size=64: a page the studio renders allocates a few megabytes that die young; with
// V8's default young generation (16 MB halves) the studio collected it every few pages, on the
// main thread and V8's helper threads. With 64 MB halves, while 50 annotators label beside a reader
// (bench/studio-pages.ts), the run page's and a search's p95 fell by ~4.5 ms and the main thread's
// share by ~3 points; it costs at most 96 MB more resident memory, in use only under such load.
export const STUDIO_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];
