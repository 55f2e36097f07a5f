"use client";

import { useState } from "react";

/** Ends this browser's session and goes back to the sign-in page. */
export function SignOut() {
  const [error, setError] = useState<string | null>(null);
  // Leaving for the sign-in page while the session still stands would only bounce back here.
  const signOut = async () => {
    setError(null);
    try {
      const response = await fetch("/api/signout", { method: "POST" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      window.location.href = "/signin";
    } catch (e) {
      setError(`sign-out failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <>
      <button
        type="button"
        onClick={() => void signOut()}
        className="rounded-md px-2 py-1 text-teal-700 hover:bg-stone-100"
      >
        Sign out
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </>
  );
}
