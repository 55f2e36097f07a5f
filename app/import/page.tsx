import type { Metadata } from "next";
import { PageHeader } from "@/components/PageHeader";
import { ImportForm } from "@/components/ImportForm";

export const metadata: Metadata = { title: "Import" };

export default function ImportPage() {
  return (
    <>
      <PageHeader title="Import a file">
        A ColBench task file (JSONL, the benchmark&apos;s own format) or a trajectory file of finished episodes, checked
        line by line as{" "}
        <code className="select-all rounded bg-stone-100 px-1 font-mono text-xs">npx colbench import</code> checks it:
        good lines are stored, each broken one is named with its line and field, and importing again adds nothing.
      </PageHeader>
      <ImportForm />
    </>
  );
}
