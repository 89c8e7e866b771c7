import { z } from "zod";
import { parseDatabaseUrl } from "../db/url";
import { allowedOriginsProblem } from "./origins";
import { modelPricesEnvProblem } from "./prices";

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
    // on: NEXTAUTH_SECRET must be set (compose.yaml sets it for its app instances: one key for every instance, given
    // by the operator, not generated; also when a compose tool hands over an empty value).
    FLOWBENCH_REQUIRE_NEXTAUTH_SECRET: z.enum(["on", "off"]).default("off"),
    FLOWBENCH_INIT_ADMIN_EMAIL: z.email("FLOWBENCH_INIT_ADMIN_EMAIL must be an email address").optional(),
    FLOWBENCH_INIT_ADMIN_PASSWORD: z
      .string()
      .min(8, "FLOWBENCH_INIT_ADMIN_PASSWORD must be at least 8 characters")
      .optional(),
    FLOWBENCH_INIT_API_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9_\-.]{24,200}$/, "FLOWBENCH_INIT_API_TOKEN must be 24-200 characters of A-Z a-z 0-9 _ - .")
      .optional(),
    // A bearer token that may read GET /api/metrics (a Prometheus scraper), besides admins' own tokens.
    FLOWBENCH_METRICS_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9_\-.]{24,200}$/, "FLOWBENCH_METRICS_TOKEN must be 24-200 characters of A-Z a-z 0-9 _ - .")
      .optional(),
    // Reverse proxies of your own in front of the app: the client address (login throttle) is then the entry the
    // outermost one added to X-Forwarded-For; 0 (the default) ignores X-Forwarded-For (server/core/client-address.ts).
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    // The login throttle's first wait after an account's or address's free attempts, doubling after (server/auth/throttle.ts).
    LOGIN_THROTTLE_FIRST_WAIT_SECONDS: z.coerce.number().int().min(1).max(60).default(1),
    WEBHOOK_BASE_URL: optionalUrl("WEBHOOK_BASE_URL"),
    // Signed webhooks (server/webhooks/README.md): the first retry's wait (doubling after), how long an endpoint may
    // fail before it is disabled (also how long a delivery is retried), and one attempt's timeout.
    WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
    WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce.number().min(1).max(604_800).default(86_400),
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(1).max(60).default(10),
    // Runtime (server/runtime, server/llm): see their READMEs.
    HTTP_ALLOWED_ORIGINS: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        const problem = allowedOriginsProblem(v);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    TRACE_REDACT: z.enum(["on", "off"]).default("on"),
    TRACE_REDACT_NAMES: z.string().max(2000).optional(),
    OPENAI_BASE_URL: optionalUrl("OPENAI_BASE_URL"),
    OPENAI_API_KEY: z.string().trim().min(1).optional(),
    OPENAI_MODEL: z.string().trim().min(1).max(200).default("gpt-4o-mini"),
    OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
    CHAT_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(31_536_000).default(600),
    // Evaluation center (server/eval/README.md).
    EVAL_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
    EVAL_ITEM_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(3600).default(600),
    EVAL_JUDGE: z.enum(["auto", "builtin"]).default("auto"),
    EVAL_WORKER: z.enum(["on", "off"]).default("on"),
    // The model price table as JSON (server/core/prices.ts); while set it wins over the table admins edit in Settings.
    FLOWBENCH_MODEL_PRICES: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        const problem = modelPricesEnvProblem(v);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    // The code node's Python sandbox (server/runtime/sandbox/design.md, Limits); the sandbox reads them itself, validated here.
    CODE_SANDBOX_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
    CODE_SANDBOX_MEMORY_MB: z.coerce.number().int().min(64).max(4096).default(256),
    // The sample agent "Meal recommendation" and its golden set, seeded once on a database that lacks it.
    FLOWBENCH_SEED_SAMPLE_AGENT: z.enum(["on", "off"]).default("on"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    // OpenTelemetry traces (README "Traces"; server/telemetry/README.md): off unless an OTLP/HTTP endpoint is set. The
    // exporter reads OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TIMEOUT itself (headers are not checked here:
    // they may hold the collector's credentials).
    OTEL_SDK_DISABLED: z.enum(["true", "false"]).default("false"),
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl("OTEL_EXPORTER_OTLP_ENDPOINT"),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
    OTEL_SERVICE_NAME: z.string().trim().min(1).max(200).default("flowbench"),
    OTEL_TRACES_SAMPLER: z
      .enum([
        "always_on",
        "always_off",
        "traceidratio",
        "parentbased_always_on",
        "parentbased_always_off",
        "parentbased_traceidratio",
      ])
      .default("parentbased_always_on"),
    OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
    OTEL_BSP_MAX_QUEUE_SIZE: z.coerce.number().int().min(1).max(100_000).default(2048),
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(512),
    OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(0).max(600_000).default(5000),
    OTEL_BSP_EXPORT_TIMEOUT: z.coerce.number().int().min(1).max(600_000).default(30_000),
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: z.enum(["true", "false"]).default("false"),
  })
  .superRefine((env, ctx) => {
    if (env.FLOWBENCH_REQUIRE_NEXTAUTH_SECRET === "on" && env.NEXTAUTH_SECRET === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["NEXTAUTH_SECRET"],
        message:
          "NEXTAUTH_SECRET must be set (FLOWBENCH_REQUIRE_NEXTAUTH_SECRET=on, as compose.yaml sets it): one session key of 32+ random characters shared by every instance, e.g. openssl rand -base64 32",
      });
    }
    const init = [env.FLOWBENCH_INIT_ADMIN_EMAIL, env.FLOWBENCH_INIT_ADMIN_PASSWORD, env.FLOWBENCH_INIT_API_TOKEN];
    const set = init.filter((v) => v !== undefined).length;
    if (set !== 0 && set !== 3) {
      ctx.addIssue({
        code: "custom",
        path: ["FLOWBENCH_INIT_ADMIN_EMAIL"],
        message:
          "FLOWBENCH_INIT_ADMIN_EMAIL, FLOWBENCH_INIT_ADMIN_PASSWORD and FLOWBENCH_INIT_API_TOKEN go together: set all three or none",
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

/**
 * Forgets the parsed environment: the next env() reads process.env again. For tests that change the environment in
 * a worker whose modules are shared between test files (vitest.config.ts; server/llm/testing.ts useModelServer).
 */
export function forgetEnv(): void {
  cached = undefined;
}
