"use client";

import { useState, type FormEvent } from "react";

/**
 * A form posted as JSON (empty fields left out); the server's `error` is kept for the page to show.
 * `onDone` gets the parsed reply of a successful post.
 */
export function useJsonForm<Reply extends { error?: string }>(url: string, onDone: (reply: Reply) => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function post(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const form = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const body = Object.fromEntries(Object.entries(form).filter(([, v]) => v !== ""));
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const reply = (await response.json().catch(() => ({}))) as Reply;
      if (!response.ok) return setError(reply.error ?? `HTTP ${response.status}`);
      onDone(reply);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  // A form's onSubmit wants no promise back; `post` settles every failure into `error` itself.
  const submit = (event: FormEvent<HTMLFormElement>) => void post(event);
  return { submit, error, busy };
}
