import os from "node:os";

// A studio answers only to its own names. Without this, a page on any site can point its own DNS
// name at 127.0.0.1 (DNS rebinding) and its scripts become "same origin" with a local studio;
// checking the Host header, which the browser fills with the name it resolved, refuses them.

const LOOPBACK = ["127.0.0.1", "localhost", "::1"];
const ANY = new Set(["0.0.0.0", "::", ""]);

/** The hostname of a Host header (or a URL's host): lowercase, no port, no brackets, no final dot. */
export function hostName(host: string | null | undefined): string | null {
  if (!host) return null;
  const value = host.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(value) ?? /^([^:[\]\s/@]+)(?::\d+)?$/.exec(value);
  if (!m) return null;
  return m[1]!.replace(/\.$/, "");
}

export interface HostNames {
  /** The address the studio listens on (`--host`). */
  bound: string;
  /** Names the operator added (`--allowed-host`, COLBENCH_ALLOWED_HOSTS), e.g. a reverse proxy's. */
  extra?: string[];
  /** This machine's interface addresses and hostname, counted when listening on every address. */
  machine?: { addresses: string[]; hostname: string };
}

/** What this machine answers to when listening on every interface: its addresses and its hostname. */
export function machineNames(): { addresses: string[]; hostname: string } {
  const addresses = Object.values(os.networkInterfaces()).flatMap((list) =>
    (list ?? []).map((i) => i.address.replace(/%.*$/, "")),
  );
  return { addresses, hostname: os.hostname() };
}

/** Every name a request may carry in Host: loopback's, the bound address, the machine's (when bound to all), the operator's. */
export function studioHostNames(names: HostNames): Set<string> {
  const out = new Set(LOOPBACK);
  const bound =
    hostName(names.bound.includes(":") && !names.bound.startsWith("[") ? `[${names.bound}]` : names.bound) ??
    names.bound;
  if (ANY.has(names.bound)) {
    const machine = names.machine ?? machineNames();
    for (const a of machine.addresses) out.add(a.toLowerCase());
    if (machine.hostname) out.add(machine.hostname.toLowerCase());
  } else {
    out.add(bound);
  }
  for (const name of names.extra ?? []) {
    const n = hostName(name);
    if (n) out.add(n);
  }
  return out;
}

/** The operator's extra names: `--allowed-host` values and COLBENCH_ALLOWED_HOSTS (comma or space separated). */
export function allowedHostsFrom(flags: string[] = [], env = process.env.COLBENCH_ALLOWED_HOSTS): string[] {
  return [...flags, ...(env ?? "").split(/[,\s]+/)].map((s) => s.trim()).filter(Boolean);
}

export function hostAllowed(host: string | null | undefined, names: Set<string>): boolean {
  const name = hostName(host);
  return name !== null && names.has(name);
}

/**
 * A write's Origin, when the browser sent one, must be the studio itself: one of its names, the
 * scheme the request came over, and the very host (port included) the request was sent to.
 */
export function originRefusal(
  origin: string | null | undefined,
  request: { host: string; scheme: "http" | "https" },
  names: Set<string>,
): string | null {
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `Origin ${origin} is not an origin`;
  }
  if (!names.has(hostName(url.host) ?? "")) return `Origin ${origin} is not one of the studio's names`;
  if (url.protocol !== `${request.scheme}:` || url.host !== request.host.toLowerCase())
    return `Origin ${origin} is not ${request.scheme}://${request.host}`;
  return null;
}
