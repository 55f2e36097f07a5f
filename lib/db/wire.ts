// The few pieces of PostgreSQL's wire protocol (version 3) the PGlite socket server reads and
// writes itself; everything else passes through to PGlite untouched.

export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** A message the client sent: the startup packet family has no type byte. */
export type FrontendMessage =
  | { kind: "startup"; code: number; params: Record<string, string>; bytes: Buffer }
  | { kind: "typed"; type: string; bytes: Buffer };

/**
 * Splits what a client sent into whole messages; the rest waits for more bytes. Before the
 * startup packet every message is untyped (length first), after it every message is typed.
 */
export function takeMessages(
  buffer: Buffer,
  started: boolean,
): { messages: FrontendMessage[]; rest: Buffer; started: boolean } {
  const messages: FrontendMessage[] = [];
  let offset = 0;
  while (true) {
    if (!started) {
      if (buffer.length - offset < 8) break;
      const length = buffer.readInt32BE(offset);
      if (length < 8 || length > 10_000) throw new Error(`bad startup packet length ${length}`);
      if (buffer.length - offset < length) break;
      const bytes = buffer.subarray(offset, offset + length);
      const code = bytes.readInt32BE(4);
      const params: Record<string, string> = {};
      if (code === PROTOCOL_3) {
        const parts = bytes.subarray(8).toString("utf8").split("\0");
        for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) params[parts[i]!] = parts[i + 1]!;
        started = true;
      }
      messages.push({ kind: "startup", code, params, bytes });
      offset += length;
    } else {
      if (buffer.length - offset < 5) break;
      const length = buffer.readInt32BE(offset + 1);
      if (length < 4) throw new Error(`bad message length ${length}`);
      if (buffer.length - offset < 1 + length) break;
      messages.push({
        kind: "typed",
        type: String.fromCharCode(buffer[offset]!),
        bytes: buffer.subarray(offset, offset + 1 + length),
      });
      offset += 1 + length;
    }
  }
  return { messages, rest: buffer.subarray(offset), started };
}

/** One backend message: its type and body (after the length). */
export interface BackendMessage {
  type: string;
  bytes: Buffer;
}

/** Splits PGlite's answer into messages (its output always ends on a message boundary). */
export function splitBackend(buffer: Buffer): BackendMessage[] {
  const out: BackendMessage[] = [];
  let offset = 0;
  while (buffer.length - offset >= 5) {
    const length = buffer.readInt32BE(offset + 1);
    out.push({ type: String.fromCharCode(buffer[offset]!), bytes: buffer.subarray(offset, offset + 1 + length) });
    offset += 1 + length;
  }
  if (offset !== buffer.length)
    throw new Error(`PGlite answered with a partial message (${buffer.length - offset} bytes left)`);
  return out;
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstring = (text: string) => Buffer.from(`${text}\0`, "utf8");

function readCString(bytes: Buffer, offset: number): [string, number] {
  const end = bytes.indexOf(0, offset);
  if (end < 0) throw new Error("unterminated string in a protocol message");
  return [bytes.toString("utf8", offset, end), end + 1];
}

export function authenticationCleartext(): Buffer {
  const body = Buffer.alloc(4);
  body.writeInt32BE(3);
  return message("R", body);
}

/** The password a PasswordMessage ('p') carries. */
export function passwordOf(bytes: Buffer): string {
  return readCString(bytes, 5)[0];
}

export function errorResponse(code: string, text: string, severity: "ERROR" | "FATAL" = "FATAL"): Buffer {
  return message(
    "E",
    Buffer.concat([
      Buffer.from("S"),
      cstring(severity),
      Buffer.from("V"),
      cstring(severity),
      Buffer.from("C"),
      cstring(code),
      Buffer.from("M"),
      cstring(text),
      Buffer.from([0]),
    ]),
  );
}

/** The startup packet PGlite is given: its own user and database, none of the client's session settings. */
export function startupPacket(): Buffer {
  const body = Buffer.concat([
    cstring("user"),
    cstring("postgres"),
    cstring("database"),
    cstring("postgres"),
    cstring("client_encoding"),
    cstring("UTF8"),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(8);
  head.writeInt32BE(body.length + 8, 0);
  head.writeInt32BE(PROTOCOL_3, 4);
  return Buffer.concat([head, body]);
}

/**
 * A simple query's whole answer made by the server itself: one row of text columns, its
 * CommandComplete and ReadyForQuery (idle). Columns are sent as text (type 25).
 */
export function textRowAnswer(columns: string[], values: string[]): Buffer {
  const fields = columns.map((name) => {
    const after = Buffer.alloc(18);
    after.writeInt32BE(0, 0); // no table
    after.writeInt16BE(0, 4); // no column number
    after.writeInt32BE(25, 6); // text
    after.writeInt16BE(-1, 10); // variable length
    after.writeInt32BE(-1, 12); // no type modifier
    after.writeInt16BE(0, 16); // text format
    return Buffer.concat([cstring(name), after]);
  });
  const count = Buffer.alloc(2);
  count.writeInt16BE(columns.length);
  const cells = values.map((value) => {
    const bytes = Buffer.from(value, "utf8");
    const length = Buffer.alloc(4);
    length.writeInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  });
  return Buffer.concat([
    message("T", Buffer.concat([count, ...fields])),
    message("D", Buffer.concat([count, ...cells])),
    message("C", cstring("SELECT 1")),
    message("Z", Buffer.from("I")),
  ]);
}

/** A statement's error that leaves the session usable: ErrorResponse, then ReadyForQuery (idle by default). */
export function errorAnswer(code: string, text: string, status: "I" | "T" | "E" = "I"): Buffer {
  return Buffer.concat([errorResponse(code, text, "ERROR"), message("Z", Buffer.from(status))]);
}

export function simpleQuery(sql: string): Buffer {
  return message("Q", cstring(sql));
}

export function sync(): Buffer {
  return message("S", Buffer.alloc(0));
}

export function notification(pid: number, channel: string, payload: string): Buffer {
  const pidBytes = Buffer.alloc(4);
  pidBytes.writeInt32BE(pid);
  return message("A", Buffer.concat([pidBytes, cstring(channel), cstring(payload)]));
}

export function parseNotification(bytes: Buffer): { pid: number; channel: string; payload: string } {
  const pid = bytes.readInt32BE(5);
  const [channel, next] = readCString(bytes, 9);
  const [payload] = readCString(bytes, next);
  return { pid, channel, payload };
}

/** ReadyForQuery's transaction status: I (idle), T (in a transaction block), E (in a failed one). */
export function readyStatus(bytes: Buffer): "I" | "T" | "E" {
  return String.fromCharCode(bytes[5]!) as "I" | "T" | "E";
}

/**
 * Prepared statements live in PGlite's one session, shared by every client: a client's statement
 * names get its own prefix (in Parse, Bind, Describe and Close), so two clients' "s1" never meet.
 * The unnamed statement needs none: a client holds the session from Parse to Sync.
 */
export function prefixStatement(msg: Buffer, prefix: string): { bytes: Buffer; name?: string; closed?: string } {
  const type = String.fromCharCode(msg[0]!);
  const rewrite = (nameStart: number): { bytes: Buffer; name: string } => {
    const [name, after] = readCString(msg, nameStart);
    if (!name) return { bytes: msg, name };
    const body = Buffer.concat([msg.subarray(5, nameStart), cstring(prefix + name), msg.subarray(after)]);
    return { bytes: message(type, body), name };
  };
  switch (type) {
    case "P": {
      const { bytes, name } = rewrite(5);
      return { bytes, name: name || undefined };
    }
    case "B": {
      const [, statementStart] = readCString(msg, 5); // the portal's name comes first
      return { bytes: rewrite(statementStart).bytes };
    }
    case "D":
    case "C": {
      if (msg[5] !== "S".charCodeAt(0)) return { bytes: msg };
      const { bytes, name } = rewrite(6);
      return { bytes, closed: type === "C" && name ? name : undefined };
    }
    default:
      return { bytes: msg };
  }
}

/** The SQL a simple Query ('Q') or Parse ('P') message carries, to notice LISTEN and UNLISTEN. */
export function sqlOf(msg: Buffer): string | undefined {
  const type = String.fromCharCode(msg[0]!);
  if (type === "Q") return readCString(msg, 5)[0];
  if (type === "P") {
    const [, next] = readCString(msg, 5);
    return readCString(msg, next)[0];
  }
  return undefined;
}

/** The channels a statement starts or stops listening to ("*": all). Identifiers are folded as PostgreSQL does. */
export function listenChanges(sql: string): Array<{ listen: boolean; channel: string }> {
  const out: Array<{ listen: boolean; channel: string }> = [];
  const pattern = /(?:^|;)\s*(UN)?LISTEN\s+("(?:[^"]|"")+"|\*|[A-Za-z_][A-Za-z0-9_$]*)/gi;
  for (const match of sql.matchAll(pattern)) {
    const raw = match[2]!;
    const channel = raw.startsWith('"')
      ? raw.slice(1, -1).replaceAll('""', '"')
      : raw === "*"
        ? "*"
        : raw.toLowerCase();
    out.push({ listen: !match[1], channel });
  }
  return out;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
