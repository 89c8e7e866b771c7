import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { TokensPanel } from "@/components/settings/tokens-panel";
import { UsersPanel } from "@/components/settings/users-panel";
import { ModelPricesPanel } from "@/components/settings/model-prices-panel";
import { WebhooksPanel } from "@/components/settings/webhooks-panel";
import { requireUser } from "@/server/auth/page-guard";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { principal, allowed } = await requireUser("admin");
  if (!allowed) {
    return (
      <>
        <PageHeader title="Settings" />
        <p className="p-8 text-sm text-slate-600" role="alert">
          Only administrators manage users, API tokens, model prices and webhooks. Your role is {principal.role}.
        </p>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Settings"
        description="People who can sign in, API tokens for scripts, CI and the SDK, model prices, and signed webhooks."
      />
      <div className="grid items-start gap-8 p-8 xl:grid-cols-2">
        <UsersPanel selfId={principal.kind === "user" ? principal.userId : ""} />
        <TokensPanel />
        <ModelPricesPanel />
        <WebhooksPanel />
      </div>
    </>
  );
}
