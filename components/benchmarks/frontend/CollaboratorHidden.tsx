import type { SimulatorSeatView } from "@/lib/play/seat-views";

/** What the simulator model compares against and the agent never sees: the target page. */
export function FrontendCollaboratorHidden({ view }: { view: SimulatorSeatView }) {
  return (
    <figure className="rounded-lg border border-stone-200 bg-white p-1">
      <figcaption className="mb-1 text-xs text-stone-500">Target page</figcaption>
      <iframe title="Target page" src={`/api/tasks/${view.taskId}/preview`} sandbox="" className="h-[32rem] w-full" />
    </figure>
  );
}
