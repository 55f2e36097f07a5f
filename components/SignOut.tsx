"use client";

/** Ends this browser's session and goes back to the sign-in page. */
export function SignOut() {
  const signOut = async () => {
    await fetch("/api/signout", { method: "POST" });
    window.location.href = "/signin";
  };
  return (
    <button type="button" onClick={signOut} className="rounded-md px-2 py-1 text-teal-700 hover:bg-stone-100">
      Sign out
    </button>
  );
}
