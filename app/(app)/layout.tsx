import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { UiProviders } from "@/components/ui/providers";
import { Providers } from "@/lib/trpc";
import { requireUser } from "@/server/auth/page-guard";

export const dynamic = "force-dynamic";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const { principal } = await requireUser();
  return (
    <Providers>
      <UiProviders>
        <AppShell user={{ email: principal.kind === "user" ? principal.email : "", role: principal.role }}>
          {children}
        </AppShell>
      </UiProviders>
    </Providers>
  );
}
