// Structured logs: one JSON object per line, filtered by level, so `docker logs` output can be
// grepped by humans and parsed by log shippers alike.
import type { LogLevel } from "./config.ts";
import { SERVICE_NAME } from "./package-info.ts";

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function toJsonValue(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const log =
    (lineLevel: LogLevel) =>
    (msg: string, fields: LogFields = {}) => {
      if (RANK[lineLevel] < RANK[level]) return;
      const entry: LogFields = { time: new Date().toISOString(), level: lineLevel, service: SERVICE_NAME, msg };
      for (const [key, value] of Object.entries(fields)) entry[key] = toJsonValue(value);
      write(JSON.stringify(entry));
    };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
