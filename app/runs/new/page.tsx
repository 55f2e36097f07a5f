import type { Metadata } from "next";
import { PageHeader } from "@/components/PageHeader";
import { NewRunForm } from "@/components/NewRunForm";

export const metadata: Metadata = { title: "New run" };

export default function NewRunPage() {
  return (
    <>
      <PageHeader title="New run">
        Play tasks between an agent and a simulated human on OpenAI-compatible model servers. The run plays inside the
        studio; from a terminal the same is{" "}
        <code className="select-all rounded bg-stone-100 px-1 font-mono text-xs">npx colbench run --help</code>.
      </PageHeader>
      <NewRunForm />
    </>
  );
}
