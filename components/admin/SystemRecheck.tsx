"use client";

import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";

/**
 * The System page's check button. While a check runs in the background (the page rendered the last
 * report, or none yet) it waits for it and shows the new report when it lands.
 */
export function SystemRecheck({ running }: { running: boolean }) {
  const router = useRouter();
  const [busy, setBusy] = useState(running);
  const [error, setError] = useState<string | null>(null);
  const check = async () => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/admin/system/check", { method: "POST" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      router.refresh();
    } catch (e) {
      setError(`the check did not finish: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    // Waiting for a background check is a request started on arrival, what effects are for; `busy` is already
    // true from the first render, so its setState changes nothing.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (running) void check();
    // Only on arrival: a check the page itself started in the background.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={() => void check()}
        disabled={busy}
        className="rounded-md bg-teal-700 px-3 py-1 text-sm text-white disabled:opacity-60"
        data-testid="system-recheck"
      >
        {busy ? "Checking…" : "Check again"}
      </button>
      {error ? (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
