"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { inlineInputClass } from "@/components/ui/field";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { ago, when } from "@/components/ui/time";
import { useTRPC } from "@/lib/trpc";
import { ROLE_OPTIONS, ROLE_TONES, type RoleValue } from "./roles";

export function TokensPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.admin.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.tokens.list.queryKey() });
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const users = useQuery(trpc.admin.users.list.queryOptions());
  const userName = (id: string | null) => {
    const u = users.data?.find((x) => x.id === id);
    return u ? u.name || u.email : null;
  };
  // "" = the owner's role (a token may not exceed its owner's role); the owner "" = you
  const [role, setRole] = useState<RoleValue | "">("");
  const [owner, setOwner] = useState("");
  const create = useMutation(
    trpc.admin.tokens.create.mutationOptions({
      onSuccess: async (t) => {
        setCreated({ name: t.name, token: t.token });
        setCopied(false);
        await refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.admin.tokens.revoke.mutationOptions({ onSuccess: refresh }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    create.mutate(
      {
        name: String(new FormData(form).get("name")),
        ...(role ? { role } : {}),
        ...(owner ? { userId: owner } : {}),
      },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <section aria-labelledby="tokens-title" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="border-b border-slate-200 px-5 py-4">
        <h2 id="tokens-title" className="font-semibold">
          API tokens
        </h2>
        <p className="text-sm text-slate-500">
          Send as <code className="rounded bg-slate-100 px-1 text-slate-700">Authorization: Bearer …</code>. A token is
          shown once and stored only as a hash. A token acts as its owner: it reviews as that person.
        </p>
      </div>
      {created && (
        <div role="status" className="m-5 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm">
          <p className="font-medium text-amber-900">Copy the token “{created.name}” now: it will not be shown again.</p>
          <div className="mt-2 flex items-center gap-2">
            <code
              data-testid="new-token"
              className="flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-xs select-all"
            >
              {created.token}
            </code>
            <Button
              variant="secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(created.token).catch(() => undefined);
                setCopied(true);
              }}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
            <Button variant="ghost" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {tokens.error ? (
        <div className="p-5">
          <ErrorState error={tokens.error} onRetry={() => tokens.refetch()} title="The tokens could not be loaded" />
        </div>
      ) : tokens.isLoading ? (
        <LoadingRows rows={3} label="Loading tokens" />
      ) : tokens.data?.length === 0 ? (
        <p className="px-5 py-6 text-center text-sm text-slate-500">No tokens yet.</p>
      ) : (
        <Table caption="API tokens" className="rounded-none border-0">
          <THead>
            <tr>
              <Th>Token</Th>
              <Th>Role</Th>
              <Th>Last used</Th>
              <Th className="text-right">Status</Th>
            </tr>
          </THead>
          <tbody>
            {tokens.data?.map((t) => (
              <Tr key={t.id}>
                <Td className="max-w-xs">
                  <p className="truncate font-medium">{t.name}</p>
                  <p className="text-xs text-slate-500">
                    <code>{t.prefix}…</code>
                    {t.ownerId && userName(t.ownerId) ? ` · for ${userName(t.ownerId)}` : ""} · created{" "}
                    <span title={when(t.createdAt)}>{new Date(t.createdAt).toLocaleDateString()}</span>
                  </p>
                </Td>
                <Td>
                  <Badge tone={ROLE_TONES[t.role as RoleValue] ?? "neutral"}>
                    {ROLE_OPTIONS.find((r) => r.value === t.role)?.label ?? t.role}
                  </Badge>
                </Td>
                <Td className="whitespace-nowrap text-slate-600">
                  {t.lastUsedAt ? <span title={when(t.lastUsedAt)}>{ago(t.lastUsedAt)}</span> : "never used"}
                </Td>
                <Td className="text-right">
                  {t.revokedAt ? (
                    <Badge>revoked</Badge>
                  ) : (
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate({ id: t.id })}
                      aria-label={`Revoke token ${t.name}`}
                    >
                      Revoke
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
        className="flex flex-wrap items-center gap-3 border-t border-slate-200 bg-slate-50 px-5 py-4"
        aria-label="Create a token"
      >
        <input
          name="name"
          required
          maxLength={120}
          placeholder="Token name, e.g. CI gate"
          aria-label="Token name"
          className={`min-w-48 flex-1 ${inlineInputClass}`}
        />
        <select
          value={owner}
          onChange={(e) => setOwner(e.target.value)}
          aria-label="Token owner"
          className={inlineInputClass}
        >
          <option value="">For me</option>
          {users.data
            ?.filter((u) => !u.disabledAt)
            .map((u) => (
              <option key={u.id} value={u.id}>
                For {u.name || u.email}
              </option>
            ))}
        </select>
        <select
          value={role}
          onChange={(e) => setRole(e.target.value as RoleValue | "")}
          aria-label="Token role"
          className={inlineInputClass}
        >
          <option value="">Owner's role</option>
          {ROLE_OPTIONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </Button>
        {create.error && (
          <p role="alert" className="w-full text-sm text-red-700">
            {create.error.message}
          </p>
        )}
      </form>
    </section>
  );
}
