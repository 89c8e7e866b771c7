import { z } from "zod";
import { parseDatabaseUrl } from "./db/url";

const optionalUrl = (name: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^https?:\/\/[^/\s]+/.test(v), `${name} must be an absolute http(s) URL`);

/**
 * Every environment variable the app reads, validated once at start-up (instrumentation.ts) so a bad value
 * stops the server with a message naming the variable instead of failing later in a request.
 * `.env.example` documents each of them.
 */
export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        try {
          parseDatabaseUrl(v);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message.replace(/^DATABASE_URL: /, "") });
        }
      }),
    PORT: z.coerce.number().int().min(1).max(65535).optional(),
    NEXTAUTH_SECRET: z.string().min(16, "NEXTAUTH_SECRET must be at least 16 characters").optional(),
    NEXTAUTH_URL: optionalUrl("NEXTAUTH_URL"),
    FLOWBENCH_INIT_ADMIN_EMAIL: z.email("FLOWBENCH_INIT_ADMIN_EMAIL must be an email address").optional(),
    FLOWBENCH_INIT_ADMIN_PASSWORD: z.string().min(8, "FLOWBENCH_INIT_ADMIN_PASSWORD must be at least 8 characters").optional(),
    FLOWBENCH_INIT_API_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9_\-.]{24,200}$/, "FLOWBENCH_INIT_API_TOKEN must be 24-200 characters of A-Z a-z 0-9 _ - .")
      .optional(),
    WEBHOOK_BASE_URL: optionalUrl("WEBHOOK_BASE_URL"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  })
  .superRefine((env, ctx) => {
    const init = [env.FLOWBENCH_INIT_ADMIN_EMAIL, env.FLOWBENCH_INIT_ADMIN_PASSWORD, env.FLOWBENCH_INIT_API_TOKEN];
    const set = init.filter((v) => v !== undefined).length;
    if (set !== 0 && set !== 3) {
      ctx.addIssue({
        code: "custom",
        path: ["FLOWBENCH_INIT_ADMIN_EMAIL"],
        message: "FLOWBENCH_INIT_ADMIN_EMAIL, FLOWBENCH_INIT_ADMIN_PASSWORD and FLOWBENCH_INIT_API_TOKEN go together: set all three or none",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

/** Parses the given environment; throws EnvError whose message lists each bad variable by name. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings (as left by copying .env.example) mean "unset".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${String(i.path[0] ?? "environment")}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
