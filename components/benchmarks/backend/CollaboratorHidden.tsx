import type { SimulatorSeatView } from "@/lib/play/seat-views";
import { CodeEditor } from "@/components/code";

/** What the simulator model is told and the agent is not: the reference function and its tests. */
export function BackendCollaboratorHidden({ view }: { view: SimulatorSeatView }) {
  return (
    <>
      <CodeEditor
        value={view.groundTruth}
        language="python"
        readOnly
        height={300}
        label="Reference solution (read-only)"
      />
      <table className="w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm">
        <caption className="py-1 text-left text-xs text-stone-500">
          Hidden tests ({view.testCases?.length ?? 0})
        </caption>
        <tbody className="divide-y divide-stone-100">
          {(view.testCases ?? []).map((t) => (
            <tr key={t.name}>
              <td className="px-3 py-1 font-mono text-xs text-stone-800">{t.expression}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
