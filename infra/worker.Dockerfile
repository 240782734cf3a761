# syntax=docker/dockerfile:1
# Build from the repository root: docker build -f infra/worker.Dockerfile .
FROM node:24-bookworm-slim AS base
RUN corepack enable
WORKDIR /repo

FROM base AS build
COPY . .
RUN pnpm install --frozen-lockfile
RUN pnpm turbo run build --filter=@hallmark/worker...
# A self-contained folder with production dependencies and the built workspace packages.
RUN pnpm deploy --legacy --filter=@hallmark/worker --prod /out

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /out .
USER node
# SIGTERM lets the worker finish its current jobs (SHUTDOWN_TIMEOUT_MS) before it exits.
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
