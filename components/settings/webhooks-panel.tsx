"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { inlineInputClass } from "@/components/ui/field";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { ago, when } from "@/components/ui/time";
import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { useTRPC } from "@/lib/trpc";

/** The server's event type (what `admin.webhooks.create` accepts; types only, the browser imports no server code). */
type WebhookEvent = inferRouterInputs<AppRouter>["admin"]["webhooks"]["create"]["events"][number];
/**
 * The events an endpoint may receive, every one of which the server sends (server/webhooks/README.md says where each
 * comes from). Checked both ways against the server's list at compile time: an event the server adds or drops fails
 * to compile here instead of being offered and never sent, or sent and never offered.
 */
const EVENTS = [
  "run.answered",
  "run.completed",
  "gate.decided",
  "lead.created",
  "bad_case.changed",
  "alert.fired",
  "webhook.test",
] as const satisfies readonly WebhookEvent[];
const EVERY_EVENT_OFFERED: [Exclude<WebhookEvent, (typeof EVENTS)[number]>] extends [never] ? true : false = true;
void EVERY_EVENT_OFFERED;

const STATUS_TONES: Record<string, BadgeTone> = { delivered: "success", pending: "info", failed: "danger" };

/**
 * Signed webhooks (tRPC `admin.webhooks.*`): the endpoints, adding one (its secret shown once, with a copy button),
 * enabling, disabling, deleting, a test delivery, and each endpoint's delivery log with resend. A disabled endpoint
 * shows the server's reason.
 */
export function WebhooksPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.webhooks.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.webhooks.list.queryKey() });
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [events, setEvents] = useState<string[]>(["run.completed", "gate.decided"]);
  const [open, setOpen] = useState<string | null>(null);
  const create = useMutation(
    trpc.admin.webhooks.create.mutationOptions({
      onSuccess: async (w) => {
        setCreated({ url: w.url, secret: w.secret });
        setCopied(false);
        await refresh();
      },
    }),
  );
  const update = useMutation(trpc.admin.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.admin.webhooks.delete.mutationOptions({ onSuccess: refresh }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    create.mutate(
      { url: String(new FormData(form).get("url")), events: events as (typeof EVENTS)[number][], enabled: true },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <section aria-labelledby="webhooks-title" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="border-b border-slate-200 px-5 py-4">
        <h2 id="webhooks-title" className="font-semibold">
          Webhooks
        </h2>
        <p className="text-sm text-slate-500">
          Signed POSTs (Standard Webhooks: <code className="rounded bg-slate-100 px-1 text-slate-700">webhook-id</code>,{" "}
          <code className="rounded bg-slate-100 px-1 text-slate-700">webhook-signature</code>) when runs, gates and Bad
          Cases change; retried for a day. The secret is shown once.
        </p>
      </div>
      {created && (
        <div role="status" className="m-5 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm">
          <p className="font-medium text-amber-900">
            Copy the signing secret of {created.url} now: it will not be shown again.
          </p>
          <div className="mt-2 flex items-center gap-2">
            <code
              data-testid="new-webhook-secret"
              className="flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-xs select-all"
            >
              {created.secret}
            </code>
            <Button
              variant="secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(created.secret).catch(() => undefined);
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
      {list.error ? (
        <div className="p-5">
          <ErrorState error={list.error} onRetry={() => list.refetch()} title="The webhooks could not be loaded" />
        </div>
      ) : list.isLoading ? (
        <LoadingRows rows={2} label="Loading webhooks" />
      ) : list.data?.length === 0 ? (
        <p className="px-5 py-6 text-center text-sm text-slate-500">No webhook endpoints yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Webhook endpoints">
          {list.data?.map((w) => (
            <li key={w.id} className="px-5 py-4">
              <div className="flex flex-wrap items-start gap-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-mono text-sm" title={w.url}>
                    {w.url}
                  </p>
                  <p className="mt-1 text-xs text-slate-500">{w.events.join(", ")}</p>
                </div>
                <Badge tone={w.enabled ? "success" : "warning"}>{w.enabled ? "enabled" : "disabled"}</Badge>
              </div>
              {!w.enabled && w.disabledReason && (
                <p role="note" className="mt-2 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900">
                  {w.disabledReason}
                </p>
              )}
              <div className="mt-3 flex flex-wrap gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={update.isPending}
                  onClick={() => update.mutate({ id: w.id, body: { enabled: !w.enabled } })}
                  aria-label={`${w.enabled ? "Disable" : "Enable"} ${w.url}`}
                >
                  {w.enabled ? "Disable" : "Enable"}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-expanded={open === w.id}
                  onClick={() => setOpen(open === w.id ? null : w.id)}
                  aria-label={`Deliveries of ${w.url}`}
                >
                  Deliveries
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ id: w.id })}
                  aria-label={`Delete ${w.url}`}
                >
                  Delete
                </Button>
              </div>
              {open === w.id && <Deliveries endpointId={w.id} enabled={w.enabled} />}
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={onSubmit}
        className="space-y-3 border-t border-slate-200 bg-slate-50 px-5 py-4"
        aria-label="Add a webhook endpoint"
      >
        <input
          name="url"
          type="url"
          required
          maxLength={2000}
          placeholder="https://hooks.example.com/flowbench"
          aria-label="Endpoint URL"
          className={`w-full ${inlineInputClass}`}
        />
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <legend className="sr-only">Events</legend>
          {EVENTS.map((e) => (
            <label key={e} className="inline-flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={events.includes(e)}
                onChange={(ev) => setEvents(ev.target.checked ? [...events, e] : events.filter((x) => x !== e))}
              />
              <code className="text-xs">{e}</code>
            </label>
          ))}
        </fieldset>
        <Button type="submit" disabled={create.isPending || events.length === 0}>
          {create.isPending ? "Adding…" : "Add endpoint"}
        </Button>
        {create.error && (
          <p role="alert" className="text-sm text-red-700">
            {create.error.message}
          </p>
        )}
      </form>
    </section>
  );
}

function Deliveries({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const key = { id: endpointId, query: { limit: 20 } };
  const log = useQuery({ ...trpc.admin.webhooks.deliveries.queryOptions(key), refetchInterval: 3000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.webhooks.deliveries.queryKey(key) });
  const test = useMutation(trpc.admin.webhooks.test.mutationOptions({ onSuccess: refresh }));
  const resend = useMutation(trpc.admin.webhooks.resend.mutationOptions({ onSuccess: refresh }));
  return (
    <div className="mt-3 rounded-lg border border-slate-200">
      <div className="flex items-center justify-between gap-3 px-3 py-2">
        <p className="text-sm font-medium">Delivery log</p>
        <Button
          size="sm"
          variant="secondary"
          disabled={!enabled || test.isPending}
          onClick={() => test.mutate({ id: endpointId })}
        >
          Send a test
        </Button>
      </div>
      {log.error ? (
        <div className="p-3">
          <ErrorState error={log.error} onRetry={() => log.refetch()} title="The deliveries could not be loaded" />
        </div>
      ) : log.isLoading ? (
        <LoadingRows rows={2} label="Loading deliveries" />
      ) : log.data?.items.length === 0 ? (
        <p className="px-3 pb-3 text-sm text-slate-500">Nothing sent yet.</p>
      ) : (
        <Table caption="Deliveries" className="rounded-none border-0 border-t">
          <THead>
            <tr>
              <Th>Event</Th>
              <Th>Status</Th>
              <Th>Response</Th>
              <Th>Attempts</Th>
              <Th>Last attempt</Th>
              <Th className="text-right">
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </THead>
          <tbody>
            {log.data?.items.map((d) => (
              <Tr key={d.id}>
                <Td>
                  <code className="text-xs">{d.event}</code>
                </Td>
                <Td>
                  <Badge tone={STATUS_TONES[d.status] ?? "neutral"}>{d.status}</Badge>
                </Td>
                <Td className="max-w-48 text-xs text-slate-600">
                  <span className="block truncate" title={d.lastError ?? undefined}>
                    {d.responseCode ?? (d.lastError ? "no answer" : "–")}
                  </span>
                </Td>
                <Td>{d.attempts}</Td>
                <Td className="whitespace-nowrap text-slate-600">
                  {d.lastAttemptAt ? <span title={when(d.lastAttemptAt)}>{ago(d.lastAttemptAt)}</span> : "–"}
                </Td>
                <Td className="text-right">
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={!enabled || resend.isPending || d.status === "pending"}
                    onClick={() => resend.mutate({ id: endpointId, deliveryId: d.id })}
                    aria-label={`Resend ${d.event} ${d.id}`}
                  >
                    Resend
                  </Button>
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
