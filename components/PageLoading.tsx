/** Shown while an aggregate page computes (a loading.tsx re-exports it). Not at the root: a streamed page answers 200 even when it calls notFound(). */
export function PageLoading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-3" data-testid="loading">
      <div className="h-7 w-64 max-w-full rounded bg-stone-200" />
      <div className="h-4 w-96 max-w-full rounded bg-stone-200" />
      <div className="h-40 rounded-lg bg-stone-100" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
