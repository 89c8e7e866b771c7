# syntax=docker/dockerfile:1
# Flowbench's image: `docker build -t flowbench .` (or `podman build --format docker -t flowbench .`; the docker format
# keeps the HEALTHCHECK). compose.yaml builds and runs it beside PostgreSQL, the balancer and the sample app.
# No configuration or secret is baked in: real values come from the environment at run time, and .dockerignore keeps
# .env, data/ and host builds out of the build context. Without DATABASE_URL the server runs on the embedded database
# in the volume /app/data, like `npm start`.
ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Dependencies, in a layer of their own: edits to the code do not reinstall them. `npm install` with the committed
#    lockfile (it leaves it unchanged; `npm ci` refuses lockfiles that lack other platforms' optional packages, which
#    some registries do not carry). --ignore-scripts: nothing here compiles, and the Prisma client is generated below
#    from the schema. npm's cache is a build cache, never a layer.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm \
    npm install --ignore-scripts --prefer-offline --no-audit --no-fund

# 2. The production build: only what `next build` reads (the folders of scripts/lib/build-fingerprint.mjs; tests are
#    left out by .dockerignore), Next's standalone output (next.config.mjs, FLOWBENCH_STANDALONE).
FROM deps AS build
ENV NEXT_TELEMETRY_DISABLED=1 FLOWBENCH_STANDALONE=1
# 1 skips next build's type check (the CI's container test: `npm test` has just type-checked the same tree).
ARG SKIP_TYPECHECK=0
COPY next.config.mjs proxy.ts instrumentation.ts tsconfig.json postcss.config.mjs prisma.config.ts ./
COPY prisma ./prisma
RUN npx prisma generate
COPY lib ./lib
COPY components ./components
COPY server ./server
COPY app ./app
# CI=1: no Turbopack build cache (next.config.mjs); this layer is rebuilt whole whenever the code changes.
RUN CI=1 NEXT_IGNORE_TS_ERRORS=$([ "$SKIP_TYPECHECK" = 1 ] && echo 1 || echo 0) npx next build \
 && rm -rf .next/standalone/.env* .next/standalone/data

# 3. The runtime: the standalone server and the files it reads from disk at run time, which the tracer cannot see:
#    the migrations and schema (applied by the server at start, server/db/migrate.ts) with Prisma's schema engine in
#    WebAssembly (no native engine), the code node's Python sandbox (Pyodide: CPython in WebAssembly, run by Node, so
#    no python3; server/runtime/sandbox) and the API docs' assets. Code is root-owned (read-only for the server); only
#    /app/data is writable, by the unprivileged user `flowbench`.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    FLOWBENCH_DATA_DIR=/app/data
WORKDIR /app
RUN groupadd --system --gid 10001 flowbench \
 && useradd --system --uid 10001 --gid flowbench --home-dir /app/data --no-create-home --shell /usr/sbin/nologin flowbench \
 && mkdir -p /app/data && chown flowbench:flowbench /app/data
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/node_modules/@prisma/schema-engine-wasm ./node_modules/@prisma/schema-engine-wasm
COPY --from=build /app/node_modules/prisma/package.json ./node_modules/prisma/package.json
COPY --from=build /app/node_modules/@electric-sql/pglite ./node_modules/@electric-sql/pglite
COPY --from=build /app/node_modules/pyodide ./node_modules/pyodide
COPY --from=build ["/app/server/runtime/sandbox/host.mjs", "/app/server/runtime/sandbox/worker.mjs", "/app/server/runtime/sandbox/runner.py", "./server/runtime/sandbox/"]
COPY --from=build /app/node_modules/swagger-ui-dist ./node_modules/swagger-ui-dist
USER flowbench
VOLUME ["/app/data"]
EXPOSE 3000
# Liveness (it answers while start-up runs); balancers route by readiness, GET /api/health/ready. Slim images have no
# curl: Node's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "server.js"]
