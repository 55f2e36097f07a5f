import path from "node:path";
import { dataDir } from "../paths";

// Where the embedded database lives and how a server URL is shown to people: light enough for
// pages that only report on the database (the System page) to import without the engines.

export function pgliteDirFromEnv(): string {
  return path.join(dataDir(), "db");
}

export function lockPathOf(dir: string): string {
  return `${dir}.lock`;
}

// Query parameters libpq and node-postgres read that carry nothing secret; any other one is hidden
// (password, sslpassword, sslkey, a token a proxy adds, …): a list of what may show is the one that
// cannot miss a secret it has never heard of.
const SHOWN_PARAMETERS = new Set([
  "host",
  "hostaddr",
  "port",
  "dbname",
  "user",
  "schema",
  "sslmode",
  "application_name",
  "connect_timeout",
  "target_session_attrs",
  "client_encoding",
  "keepalives",
  "keepalives_idle",
  "gssencmode",
  "channel_binding",
]);

/** The URL as people may see it: its password and every query value that could be a secret replaced by ***. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const key of [...parsed.searchParams.keys()]) {
      if (!SHOWN_PARAMETERS.has(key.toLowerCase())) parsed.searchParams.set(key, "***");
    }
    return parsed.toString().replace(/=%2A%2A%2A/g, "=***");
  } catch {
    return "postgresql://(unparsable url)";
  }
}
