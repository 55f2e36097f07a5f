"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useJsonForm } from "@/components/useJsonForm";

/** Adds a person and shows their sign-in link once. */
export function NewUserForm() {
  const router = useRouter();
  const [link, setLink] = useState<string | null>(null);
  const [expires, setExpires] = useState<string | null>(null);
  const { submit, error, busy } = useJsonForm<{ link?: string; expiresAt?: string; error?: string }>(
    "/api/users",
    (reply) => {
      setLink(reply.link ?? null);
      setExpires(reply.expiresAt ?? null);
      router.refresh();
    },
  );
  const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
  return (
    <form
      onSubmit={submit}
      className="mb-6 flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4"
    >
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Name
        <input name="name" required className={field} />
      </label>
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Role
        <select name="role" defaultValue="annotator" className={field}>
          <option value="annotator">annotator</option>
          <option value="researcher">researcher</option>
          <option value="admin">admin</option>
        </select>
      </label>
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-teal-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        Add and make a sign-in link
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {link ? (
        <p className="w-full text-sm text-stone-700" data-testid="sign-in-link">
          Send this link to them (it is shown once, works once
          {expires ? `, and only until ${expires.slice(0, 16).replace("T", " ")} UTC` : ""}):{" "}
          <code className="break-all rounded bg-stone-100 px-1">{link}</code>
        </p>
      ) : null}
    </form>
  );
}

export function UserToggle({ id, disabled }: { id: number; disabled: boolean }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A refused or failed request is shown beside the button, which comes back usable either way.
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/users/${id}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ disabled: !disabled }),
      });
      if (!response.ok) {
        const reply = (await response.json().catch(() => ({}))) as { error?: string };
        throw new Error(reply.error ?? `HTTP ${response.status}`);
      }
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        onClick={() => void toggle()}
        disabled={busy}
        className="rounded-md px-2 py-1 text-teal-700 ring-1 ring-stone-200 hover:bg-stone-100"
      >
        {disabled ? "Disabled: enable" : "Enabled: disable"}
      </button>
      {error ? (
        <span role="alert" className="ml-2 text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </>
  );
}
