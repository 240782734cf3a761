# syntax=docker/dockerfile:1
# Build from the repository root: docker build -f infra/worker.Dockerfile .
FROM node:24-bookworm-slim AS base
RUN corepack enable
WORKDIR /repo

FROM base AS build
# The PKCS#11 binding (HSM signing) is a native module built at install.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY . .
RUN pnpm install --frozen-lockfile
RUN pnpm turbo run build --filter=@hallmark/worker...
# A self-contained folder with production dependencies and the built workspace packages.
RUN pnpm deploy --legacy --filter=@hallmark/worker --prod /out

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /out .
# The data folder (HALLMARK_DATA_DIR) must be writable by the unprivileged user, volume or not.
RUN mkdir -p /data && chown node:node /data
USER node
# SIGTERM lets the worker finish its current jobs (SHUTDOWN_TIMEOUT_MS) before it exits.
STOPSIGNAL SIGTERM
ENV WORKER_HEALTH_PORT=3001 HOST=0.0.0.0
HEALTHCHECK --interval=10s CMD ["node", "-e", "fetch('http://127.0.0.1:3001/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
