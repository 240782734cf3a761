# syntax=docker/dockerfile:1
# Build from the repository root: docker build -f infra/admin.Dockerfile .
FROM node:24-bookworm-slim AS base
RUN corepack enable
WORKDIR /repo

FROM base AS build
COPY . .
RUN pnpm install --frozen-lockfile
RUN pnpm turbo run build --filter=@hallmark/admin...
# The console's files (package.json "files": server.ts and the .next build) with production
# dependencies (next, react, the SDK).
RUN pnpm deploy --legacy --filter=@hallmark/admin --prod /out

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
WORKDIR /app
COPY --from=build --chown=node:node /out .
USER node
ENV HOST=0.0.0.0 ADMIN_PORT=3001
EXPOSE 3001
HEALTHCHECK --interval=10s CMD ["node", "-e", "fetch('http://127.0.0.1:3001/sign-in').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.ts"]
