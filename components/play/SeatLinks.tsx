"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";

type Seat = "agent" | "simulator";

export interface SeatLinkItem {
  id: number;
  seat: Seat;
  status: "open" | "opened" | "expired" | "revoked";
  createdAt: string;
  expiresAt: string;
  openedAt: string | null;
  revokedAt: string | null;
}

const SEAT: Record<Seat, string> = { agent: "agent", simulator: "collaborator" };
const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "–");

/**
 * An episode's seat links for the researcher who hands them out: each key's seat and state, a new
 * link for a person's seat (its key shown once, here), and revoking one or all. Keys themselves
 * are never listed: the studio keeps only their hashes.
 */
export function SeatLinks({
  episodeId,
  people,
  links,
}: {
  episodeId: number;
  people: Record<Seat, boolean>;
  links: SeatLinkItem[];
}) {
  const router = useRouter();
  const [issued, setIssued] = useState<{ seat: Seat; link: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const call = async (url: string, init: RequestInit, then?: (body: Record<string, unknown>) => void) => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(url, init);
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (!response.ok) setError(typeof body.error === "string" ? body.error : `HTTP ${response.status}`);
      else then?.(body);
      router.refresh();
    } catch (e) {
      // The request never reached the server (offline, aborted): the buttons' `void` would lose it.
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const base = `/api/episodes/${episodeId}/seat-links`;
  const issue = (seat: Seat) =>
    call(
      base,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat }) },
      (body) => setIssued({ seat, link: String(body.link), expiresAt: String(body.expiresAt) }),
    );
  const live = links.filter((l) => l.status === "open" || l.status === "opened").length;
  return (
    <section
      id="seat-links"
      aria-labelledby="seat-links-heading"
      className="mb-6 rounded-lg border border-stone-200 bg-white p-4"
      data-testid="seat-links"
    >
      <h2 id="seat-links-heading" className="mb-2 text-lg font-semibold text-stone-900">
        Seat links
      </h2>
      <p className="mb-3 text-sm text-stone-600">
        A link opens one seat of this episode for someone without an account, until it expires or is revoked. Its key is
        shown once, to whoever makes it.
      </p>
      <div className="mb-3 flex flex-wrap gap-2">
        {(["agent", "simulator"] as const)
          .filter((seat) => people[seat])
          .map((seat) => (
            <button
              key={seat}
              type="button"
              disabled={busy}
              onClick={() => void issue(seat)}
              className="rounded-md px-2 py-1 text-sm text-teal-700 ring-1 ring-stone-200 hover:bg-stone-100"
              data-testid={`new-seat-link-${seat}`}
            >
              New link for the {SEAT[seat]}&apos;s seat
            </button>
          ))}
        {live ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void call(base, { method: "DELETE" })}
            className="rounded-md px-2 py-1 text-sm text-red-700 ring-1 ring-stone-200 hover:bg-stone-100"
            data-testid="revoke-all-seat-links"
          >
            Revoke all {live}
          </button>
        ) : null}
      </div>
      {issued ? (
        <p className="mb-3 text-sm text-stone-700" data-testid="issued-seat-link">
          Send this to the person who takes the {SEAT[issued.seat]}&apos;s seat (shown once; it works until{" "}
          {when(issued.expiresAt)} UTC): <code className="break-all rounded bg-stone-100 px-1">{issued.link}</code>
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mb-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {links.length === 0 ? (
        <p className="text-sm text-stone-500">No links made for this episode.</p>
      ) : (
        <SeatLinkTable links={links} busy={busy} onRevoke={(id) => void call(`${base}/${id}`, { method: "DELETE" })} />
      )}
    </section>
  );
}

/** Every link made for the episode: its seat, state and times, and revoke for one still usable. */
function SeatLinkTable({
  links,
  busy,
  onRevoke,
}: {
  links: SeatLinkItem[];
  busy: boolean;
  onRevoke: (id: number) => void;
}) {
  return (
    <table className="w-full text-left text-sm" data-testid="seat-links-table">
      <thead className="text-xs text-stone-500">
        <tr>
          <th className="py-1 font-normal">#</th>
          <th className="font-normal">Seat</th>
          <th className="font-normal">State</th>
          <th className="font-normal">Made (UTC)</th>
          <th className="font-normal">Opened</th>
          <th className="font-normal">Expires</th>
          <th />
        </tr>
      </thead>
      <tbody className="divide-y divide-stone-100">
        {links.map((l) => (
          <tr key={l.id} data-testid="seat-link-row" data-seat={l.seat} data-status={l.status}>
            <td className="py-1 font-mono text-xs text-stone-400">{l.id}</td>
            <td>{SEAT[l.seat]}</td>
            <td>{l.status === "revoked" ? `revoked ${when(l.revokedAt)}` : l.status}</td>
            <td className="text-stone-600">{when(l.createdAt)}</td>
            <td className="text-stone-600">{when(l.openedAt)}</td>
            <td className="text-stone-600">{when(l.expiresAt)}</td>
            <td className="text-right">
              {l.status === "open" || l.status === "opened" ? (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => onRevoke(l.id)}
                  className="text-xs text-red-700 hover:underline"
                  data-testid={`revoke-seat-link-${l.id}`}
                >
                  revoke
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
