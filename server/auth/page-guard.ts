import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { headers } from "next/headers";
import { getDb } from "../db/client";
import { authOptions } from "./nextauth";
import { can, type Permission } from "./roles";
import { principalFromSession } from "./service";

/** For pages: the signed-in user (re-read from the database), or a redirect to /login. */
export async function requireUser(permission?: Permission) {
  const session = await getServerSession(authOptions());
  const path = (await headers()).get("x-flowbench-path") ?? "";
  const principal = session?.user?.id ? await principalFromSession(await getDb(), session.user) : null;
  if (principal?.kind !== "user") redirect(`/login${path ? `?callbackUrl=${encodeURIComponent(path)}` : ""}`);
  return { principal, allowed: permission ? can(principal.role, permission) : true };
}
