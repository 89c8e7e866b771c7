"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { inlineInputClass } from "@/components/ui/field";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc";
import { ROLE_OPTIONS, ROLE_TONES, type RoleValue } from "./roles";

export function UsersPanel({ selfId }: { selfId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.admin.users.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.users.list.queryKey() });
  const create = useMutation(trpc.admin.users.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.admin.users.update.mutationOptions({ onSuccess: refresh }));
  const [role, setRole] = useState<RoleValue>("builder");

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate(
      {
        email: String(data.get("email")),
        name: String(data.get("name") || "") || undefined,
        password: String(data.get("password")),
        role,
      },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <section aria-labelledby="users-title" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="border-b border-slate-200 px-5 py-4">
        <h2 id="users-title" className="font-semibold">
          Users
        </h2>
        <p className="text-sm text-slate-500">Passwords are stored with scrypt; nobody can read them back.</p>
      </div>
      {users.error ? (
        <div className="p-5">
          <ErrorState error={users.error} onRetry={() => users.refetch()} title="The users could not be loaded" />
        </div>
      ) : users.isLoading ? (
        <LoadingRows rows={3} label="Loading users" />
      ) : (
        <Table caption="Users" className="rounded-none border-0">
          <THead>
            <tr>
              <Th>User</Th>
              <Th>Status</Th>
              <Th>Role</Th>
              <Th className="text-right">
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </THead>
          <tbody>
            {users.data?.map((u) => (
              <Tr key={u.id}>
                <Td className="max-w-xs">
                  <p className="truncate font-medium">{u.email}</p>
                  {u.name && <p className="truncate text-xs text-slate-500">{u.name}</p>}
                </Td>
                <Td>
                  <Badge tone={u.disabledAt ? "neutral" : "success"} dot>
                    {u.disabledAt ? "disabled" : "active"}
                  </Badge>
                </Td>
                <Td>
                  {u.id === selfId ? (
                    <Badge tone={ROLE_TONES[u.role as RoleValue] ?? "neutral"} title="You cannot change your own role">
                      {ROLE_OPTIONS.find((r) => r.value === u.role)?.label ?? u.role} (you)
                    </Badge>
                  ) : (
                    <>
                      <label className="sr-only" htmlFor={`role-${u.id}`}>
                        Role of {u.email}
                      </label>
                      <select
                        id={`role-${u.id}`}
                        value={u.role}
                        disabled={update.isPending}
                        onChange={(e) => update.mutate({ id: u.id, role: e.target.value as RoleValue })}
                        className={inlineInputClass}
                      >
                        {ROLE_OPTIONS.map((r) => (
                          <option key={r.value} value={r.value}>
                            {r.label}
                          </option>
                        ))}
                      </select>
                    </>
                  )}
                </Td>
                <Td className="text-right">
                  {u.id !== selfId && (
                    <Button
                      size="sm"
                      variant={u.disabledAt ? "secondary" : "danger"}
                      onClick={() => update.mutate({ id: u.id, disabled: !u.disabledAt })}
                      aria-label={`${u.disabledAt ? "Enable" : "Disable"} ${u.email}`}
                    >
                      {u.disabledAt ? "Enable" : "Disable"}
                    </Button>
                  )}
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
      <form
        onSubmit={onSubmit}
        className="grid gap-3 border-t border-slate-200 bg-slate-50 px-5 py-4 sm:grid-cols-2"
        aria-label="Add a user"
      >
        <input
          name="email"
          type="email"
          required
          placeholder="E-mail"
          aria-label="E-mail"
          className={inlineInputClass}
        />
        <input name="name" placeholder="Name (optional)" aria-label="Name" className={inlineInputClass} />
        <input
          name="password"
          type="password"
          required
          minLength={8}
          placeholder="Initial password (8+ characters)"
          aria-label="Initial password"
          autoComplete="new-password"
          className={inlineInputClass}
        />
        <select
          value={role}
          onChange={(e) => setRole(e.target.value as RoleValue)}
          aria-label="Role"
          className={inlineInputClass}
        >
          {ROLE_OPTIONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
        <p className="text-xs text-slate-600 sm:col-span-2">{ROLE_OPTIONS.find((r) => r.value === role)?.hint}</p>
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add user"}
          </Button>
          {create.error && (
            <p role="alert" className="text-sm text-red-700">
              {create.error.message}
            </p>
          )}
          {update.error && (
            <p role="alert" className="text-sm text-red-700">
              {update.error.message}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
