// Pages written to cost a renderer as much as they can, for the render isolation test: each one
// shares a pool with ordinary pages, which must render exactly as they do alone. None of them
// needs the network; the blur and layout pages run no script at all.

const TAILWIND = '<link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet">';

/** Stacked full-size layers, each blurred, shadowed and filtering what lies behind it (~46 kB, no script). */
function blurBomb(): string {
  const layers: string[] = [];
  for (let i = 0; i < 160; i++) {
    layers.push(
      `<div style="position:absolute;left:${i % 40}px;top:${(i * 7) % 90}px;width:4000px;height:4000px;` +
        `background:radial-gradient(circle,rgba(${i % 255},${(i * 3) % 255},200,.5),transparent);` +
        `filter:blur(${60 + (i % 40)}px) drop-shadow(0 0 ${40 + (i % 30)}px #f0f) blur(30px) saturate(3);` +
        `backdrop-filter:blur(90px) contrast(2);opacity:.97;will-change:transform"></div>`,
    );
  }
  return `<html><body style="margin:0">${layers.join("")}</body></html>`;
}

/** Deeply nested flex and grid boxes with many children: a layout that is slow to compute and huge to draw. */
function hugeLayout(): string {
  let inner = "x";
  for (let i = 0; i < 400; i++)
    inner = `<div style="display:${i % 2 ? "flex" : "grid"};padding:1px;border:1px solid #${((i * 2654435761) % 0xffffff).toString(16).padStart(6, "0")}">${inner}<span>${i}</span></div>`;
  const cells = Array.from({ length: 60_000 }, (_, i) => `<td style="box-shadow:0 0 20px #000">${i}</td>`).join("");
  return `<html><body>${inner}<table><tr>${cells}</tr></table><div style="width:30000px;height:30000px;background:repeating-linear-gradient(45deg,#000 0 1px,#fff 1px 3px)"></div></body></html>`;
}

/** A script that never yields, before the page has even loaded. */
const busyLoop = `<html><body><h1>busy</h1><script>for (;;) {}</script></body></html>`;

/** Timers that keep every thread they can busy after load. */
const busyTimers = `<html><body><h1>timers</h1><script>
for (let i = 0; i < 8; i++) setInterval(() => { const t = Date.now(); while (Date.now() - t < 50) {} document.body.style.background = "#" + (Math.random() * 0xffffff | 0).toString(16).padStart(6, "0"); }, 0);
</script></body></html>`;

/** Memory that grows without end: JavaScript arrays and canvases (pixels held outside the JS heap). */
const memoryGrowth = `<html><body><h1>memory</h1><script>
const keep = [];
setInterval(() => {
  keep.push(new Float64Array(8e6).fill(Math.random()));
  const c = document.createElement("canvas"); c.width = 4000; c.height = 4000;
  const g = c.getContext("2d"); g.fillStyle = "#f00"; g.fillRect(0, 0, 4000, 4000); keep.push(c, g.getImageData(0, 0, 2000, 2000));
}, 5);
</script></body></html>`;

export const HOSTILE_PAGES: Record<string, string> = {
  "CSS blur bomb": blurBomb(),
  "huge layout": hugeLayout(),
  "busy loop": busyLoop,
  "busy timers": busyTimers,
  "memory growth": memoryGrowth,
};

const COLORS = ["green", "blue", "red", "yellow", "indigo", "purple", "pink", "gray", "teal", "orange"];

/** Ten ordinary ColBench-like pages: Tailwind, a header, a grid of cards, placeholder photos, a footer. */
export function ordinaryPages(): string[] {
  return COLORS.map((c, i) => {
    const cards = Array.from(
      { length: 3 + (i % 4) },
      (_, k) =>
        `<div class="bg-white rounded-lg shadow-md p-4"><img src="https://picsum.photos/id/${10 + k}/${200 + i * 10}/${120 + k * 5}" class="w-full rounded"><h3 class="text-lg font-bold mt-2 text-${c}-700">Item ${k + 1}</h3><p class="text-gray-600 text-sm">Page ${i}, card ${k}: plain text that wraps over a line or two in the card.</p></div>`,
    ).join("");
    return `<html><head>${TAILWIND}</head><body class="bg-gray-100 font-sans">
<header class="bg-${c}-600 text-white p-6"><h1 class="text-3xl font-bold">Shop ${i}</h1><nav class="mt-2 space-x-4"><a href="#">Home</a><a href="#">About</a></nav></header>
<main class="container mx-auto p-6 grid grid-cols-${2 + (i % 2)} gap-6">${cards}</main>
<footer class="bg-gray-800 text-gray-300 text-center p-4 mt-${4 + i}">&copy; ${2020 + i} Shop ${i}</footer></body></html>`;
  });
}
