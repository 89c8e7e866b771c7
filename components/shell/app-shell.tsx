"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import type { ReactNode } from "react";
import { Icon } from "@/components/ui/icon";
import { Logo } from "@/components/ui/logo";

/** `icon`: SVG path data, drawn by the one Icon helper. */
type NavItem = { href: string; label: string; icon: string; adminOnly?: boolean };

const navIcon = (d: string) => <Icon d={d} className="h-4.5 w-4.5" strokeWidth={1.8} />;
const DOCS_ICON = "M4 4h10l6 6v10H4zM14 4v6h6M8 14h8M8 17h5";

const NAV: NavItem[] = [
  { href: "/builder", label: "Agents", icon: "M4 6h4v4H4zM16 4h4v4h-4zM16 16h4v4h-4zM8 8h8M18 8v8M8 8l8 10" },
  { href: "/eval", label: "Evaluation", icon: "M9 11l3 3 8-8M20 12v7a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h11" },
  { href: "/settings", label: "Settings", icon: "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z", adminOnly: true },
];

export function AppShell({ user, children }: { user: { email: string; role: string }; children: ReactNode }) {
  const pathname = usePathname();
  return (
    <div className="flex min-h-full">
      <aside className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white">
        <Link href="/builder" className="flex items-center gap-2.5 px-5 py-5 text-base font-semibold">
          <Logo /> Flowbench
        </Link>
        <nav aria-label="Main" className="flex-1 space-y-1 px-3">
          {NAV.filter((n) => !n.adminOnly || user.role === "admin").map((n) => {
            const active = pathname === n.href || pathname.startsWith(`${n.href}/`);
            return (
              <Link
                key={n.href}
                href={n.href}
                aria-current={active ? "page" : undefined}
                className={`flex items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium transition ${
                  active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"
                }`}
              >
                {navIcon(n.icon)}
                {n.label}
              </Link>
            );
          })}
          <a href="/docs" className="flex items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900">
            {navIcon(DOCS_ICON)}
            API reference
          </a>
        </nav>
        <div className="border-t border-slate-200 p-4">
          <p className="truncate text-sm font-medium" title={user.email}>
            {user.email}
          </p>
          <p className="text-xs capitalize text-slate-500">{user.role}</p>
          <button
            type="button"
            onClick={() => signOut({ callbackUrl: "/login" })}
            className="mt-3 w-full rounded-lg border border-slate-200 px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-50"
          >
            Sign out
          </button>
        </div>
      </aside>
      <main className="min-w-0 flex-1">{children}</main>
    </div>
  );
}
