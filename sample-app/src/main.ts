// Entry point: `tsx sample-app/src/main.ts` (or `node dist/main.js` in the image).
// The documented stop is SIGTERM (Ctrl+C sends SIGINT, handled the same way).
import { ConfigError, loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";
import { startApp } from "./server.ts";

function configOrExit() {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // The level filter is unknown before the config is valid, so this line is always written.
    createLogger("error", (line) => process.stderr.write(`${line}\n`)).error(err.message, { problems: err.problems });
    process.exit(1);
  }
}

const config = configOrExit();
const logger = createLogger(config.logLevel);

process.on("unhandledRejection", (err) => {
  logger.error("unhandled promise rejection", { err });
  process.exit(1);
});

let app: Awaited<ReturnType<typeof startApp>>;
try {
  app = await startApp(config, { logger });
} catch (err) {
  logger.error("start-up failed", { err });
  process.exit(1);
}

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) {
    logger.warn("second stop signal, exiting without waiting", { signal });
    process.exit(1);
  }
  stopping = true;
  logger.info("stopping", { signal });
  app.close().then(
    () => {
      logger.info("stopped");
      process.exit(0);
    },
    (err: unknown) => {
      logger.error("error while stopping", { err });
      process.exit(1);
    },
  );
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
