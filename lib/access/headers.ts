// Response headers every answer of the studio carries: no other site may frame it (a framed
// button is a click away from archiving a run), no URL leaks through Referer (seat pages once
// carried their key there), and the studio's own pages load only the studio's own code.

/**
 * The studio's pages. Scripts: Next.js streams its React payload in inline <script> tags and the
 * studio prerenders pages, so per-request nonces are not possible without rendering every page on
 * demand: inline scripts are allowed, scripts from elsewhere are not. WebAssembly compiles
 * ('wasm-unsafe-eval': onnx-free CLIP and WebGPU scorers load none, Pyodide does in its worker).
 * Workers: Monaco's, the WebGPU and CLIP workers (same-origin module scripts). Styles: Next and
 * Monaco set inline styles. Images: renders and placeholders from the studio, data: and blob: for
 * the ones pages draw. Frames: the task preview (same origin, sandboxed) and srcdoc answers.
 */
export function pagePolicy(options: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "frame-src 'self' blob: data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The agent seat's Python worker: Pyodide's Emscripten glue evaluates JavaScript strings it was
 * built with (EM_ASM), so its worker, and only it, may eval. A worker takes the policy of its own
 * script's response.
 */
const PYTHON_WORKER_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'; frame-ancestors 'none'";

/** Routes the studio's own pages show in an iframe (sandboxed, same origin): they set their own CSP. */
const FRAMED_BY_STUDIO = /^\/api\/tasks\/\d+\/preview$/;

export function securityHeaders(path: string, options: { dev?: boolean } = {}): Record<string, string> {
  const common = { "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff" };
  if (FRAMED_BY_STUDIO.test(path)) return { ...common, "X-Frame-Options": "SAMEORIGIN" };
  if (path === "/vendor/python-scratch.js")
    return { ...common, "X-Frame-Options": "DENY", "Content-Security-Policy": PYTHON_WORKER_POLICY };
  return { ...common, "X-Frame-Options": "DENY", "Content-Security-Policy": pagePolicy(options) };
}
