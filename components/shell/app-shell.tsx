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
  {
    href: "/eval",
    label: "Evaluation",
    icon: "M9 11l3 3 8-8M20 12v7a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h11",
  },
  {
    href: "/settings",
    label: "Settings",
    icon: "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z",
    adminOnly: true,
  },
];

/** The app's frame: a sidebar with the main navigation, an icon rail below 1024 px so narrow windows keep their width. */
export function AppShell({ user, children }: { user: { email: string; role: string }; children: ReactNode }) {
  const pathname = usePathname();
  const item =
    "flex items-center justify-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium transition lg:justify-start";
  const label = "sr-only lg:not-sr-only";
  return (
    <div className="flex min-h-full">
      <aside className="flex w-16 shrink-0 flex-col border-r border-slate-200 bg-white lg:w-56">
        <Link
          href="/builder"
          className="flex items-center justify-center gap-2.5 px-3 py-5 text-base font-semibold lg:justify-start lg:px-5"
        >
          <Logo /> <span className={label}>Flowbench</span>
        </Link>
        <nav aria-label="Main" className="flex-1 space-y-1 px-2 lg:px-3">
          {NAV.filter((n) => !n.adminOnly || user.role === "admin").map((n) => {
            const active = pathname === n.href || pathname.startsWith(`${n.href}/`);
            return (
              <Link
                key={n.href}
                href={n.href}
                title={n.label}
                aria-current={active ? "page" : undefined}
                className={`${item} ${active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
              >
                {navIcon(n.icon)}
                <span className={label}>{n.label}</span>
              </Link>
            );
          })}
          <a
            href="/docs"
            title="API reference"
            className={`${item} text-slate-600 hover:bg-slate-100 hover:text-slate-900`}
          >
            {navIcon(DOCS_ICON)}
            <span className={label}>API reference</span>
          </a>
        </nav>
        <div className="border-t border-slate-200 p-2 lg:p-4">
          <p className="hidden truncate text-sm font-medium lg:block" title={user.email}>
            {user.email}
          </p>
          <p className="hidden text-xs capitalize text-slate-500 lg:block">{user.role}</p>
          <p
            className="grid h-9 place-items-center text-xs font-semibold uppercase text-slate-600 lg:hidden"
            title={`${user.email} (${user.role})`}
          >
            {user.email.slice(0, 2)}
          </p>
          <button
            type="button"
            onClick={() => signOut({ callbackUrl: "/login" })}
            title="Sign out"
            className="mt-1 w-full rounded-lg border border-slate-200 px-1 py-1.5 text-xs text-slate-600 hover:bg-slate-50 lg:mt-3 lg:px-3 lg:text-sm"
          >
            Sign out
          </button>
        </div>
      </aside>
      <main className="min-w-0 flex-1">{children}</main>
    </div>
  );
}
