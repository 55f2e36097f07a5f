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

export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgresql://(unparsable url)";
  }
}
