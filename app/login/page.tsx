import type { Metadata } from "next";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { Logo } from "@/components/ui/logo";
import { authOptions } from "@/server/auth/nextauth";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site paths are followed after sign-in (no open redirect). */
function safeCallback(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.startsWith("/") && !v.startsWith("//") ? v : "/builder";
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const callbackUrl = safeCallback((await searchParams).callbackUrl);
  const session = await getServerSession(authOptions());
  if (session?.user?.id) redirect(callbackUrl);
  return (
    <main className="flex min-h-full">
      <section className="hidden flex-1 flex-col justify-between bg-gradient-to-br from-brand-700 via-brand-600 to-indigo-500 p-12 text-white lg:flex">
        <div className="flex items-center gap-3 text-lg font-semibold">
          <Logo className="h-8 w-8" /> Flowbench
        </div>
        <div className="max-w-md space-y-4">
          <h2 className="text-3xl font-semibold leading-tight">Build agents. Prove they are ready. Then release.</h2>
          <p className="text-brand-100">
            Compose workflows from eight building blocks, evaluate them against frozen golden sets, and gate releases on
            human-confirmed passes, not on machine guesses.
          </p>
        </div>
        <p className="text-sm text-brand-100">Workflow builder · Evaluation center · Release gates</p>
      </section>
      <section className="flex flex-1 items-center justify-center p-8">
        <div className="w-full max-w-sm">
          <div className="mb-8 flex items-center gap-3 lg:hidden">
            <Logo /> <span className="text-lg font-semibold">Flowbench</span>
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
          <p className="mt-1.5 mb-8 text-sm text-slate-500">Use the account your administrator gave you.</p>
          <LoginForm callbackUrl={callbackUrl} />
          <p className="mt-8 text-xs text-slate-500">
            First start? The admin password and token were printed once in the server log.{" "}
            <a className="font-medium text-brand-600 hover:underline" href="/docs">
              API reference
            </a>
          </p>
        </div>
      </section>
    </main>
  );
}
