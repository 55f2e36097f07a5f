"use client";

import { useState } from "react";
import { CallStatus } from "./CallStatus";
import { button, field, heading, panel } from "./panel";
import { useQueueCall } from "./useQueueCall";

/** Who labels the queue: take people off (their labels stay, what they held goes back) or add them. */
export function QueuePeople({ queueId, members, users }: { queueId: number; members: string[]; users: string[] }) {
  const { call, busy, error, done } = useQueueCall(queueId);
  const [adding, setAdding] = useState("");
  const others = users.filter((u) => !members.includes(u));
  return (
    <section className={panel} data-testid="queue-people">
      <h2 className={heading}>Members</h2>
      {members.length ? (
        <ul className="divide-y divide-stone-100 text-sm" data-testid="members">
          {members.map((name) => (
            <li key={name} className="flex items-center justify-between gap-2 py-1.5">
              <span>{name}</span>
              <button
                type="button"
                className={button}
                disabled={busy}
                aria-label={`Remove ${name}`}
                onClick={() =>
                  void call<{ removed: number; released: number }>(
                    "POST",
                    "/members",
                    { remove: [name] },
                    (r) =>
                      `${name} taken off: their labels stay${r.released ? `; ${r.released} held pairs went back` : ""}.`,
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-500">No members: only researchers and admins can label it.</p>
      )}
      {others.length ? (
        <form
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (adding)
              void call<{ added: number }>("POST", "/members", { add: [adding] }, () => `${adding} may label it now.`);
          }}
        >
          <label className="flex flex-col gap-1 text-xs text-stone-600">
            Add a member
            <select value={adding} onChange={(e) => setAdding(e.target.value)} className={field} name="member">
              <option value="">choose…</option>
              {others.map((u) => (
                <option key={u}>{u}</option>
              ))}
            </select>
          </label>
          <button type="submit" className={button} disabled={busy || !adding}>
            Add
          </button>
        </form>
      ) : null}
      <CallStatus error={error} done={done} testId="people" />
    </section>
  );
}
