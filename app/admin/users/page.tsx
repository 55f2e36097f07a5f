import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { DataTable } from "@/components/DataTable";
import { NewUserForm, UserToggle } from "@/components/admin/Users";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const users = await (await getStore()).users.list();
  return (
    <>
      <PageHeader title="Users">
        Researchers see everything; annotators see tasks, runs and scores but never a reference answer, test or target
        page. Each person signs in with the link made for them (shown once). With no user here, a studio listening on
        127.0.0.1 lets the person at the machine in as admin.
      </PageHeader>
      <NewUserForm />
      {users.length ? (
        <DataTable
          testId="users-table"
          rows={users}
          rowKey={(u) => u.id}
          columns={[
            { header: "Name", cell: (u) => u.name },
            { header: "Role", cell: (u) => u.role },
            { header: "Since", className: "text-stone-500", cell: (u) => u.createdAt.toISOString().slice(0, 10) },
            { header: "Access", cell: (u) => <UserToggle id={u.id} disabled={u.disabled} /> },
          ]}
        />
      ) : null}
    </>
  );
}
