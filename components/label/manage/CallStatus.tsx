/** What the panel's last request came to: the server's refusal, or what was done. */
export function CallStatus({ error, done, testId }: { error: string | null; done: string | null; testId: string }) {
  if (error)
    return (
      <p role="alert" className="mt-2 text-sm text-red-700" data-testid={`${testId}-error`}>
        {error}
      </p>
    );
  if (done)
    return (
      <p role="status" className="mt-2 text-sm text-teal-800" data-testid={`${testId}-done`}>
        {done}
      </p>
    );
  return null;
}
