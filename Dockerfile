# syntax=docker/dockerfile:1
# The bot's image (docs/operations.md, "Self-hosting"), built and run by compose.yaml: `docker compose up -d --build`.
#
# Three stages: the production node_modules (native addons prebuilt), the build (dist/, plain
# JavaScript from scripts/build.mjs), and the runtime, which holds no compiler, no npm cache and no
# development package, and runs as the image's unprivileged `node` user.

# --- deps: the production packages. dist/ imports some of them at run time (EXTERNAL in
# scripts/build.mjs: better-sqlite3, pg, @keyv/redis, piscina, @napi-rs/canvas). better-sqlite3 13 and
# @napi-rs/canvas ship prebuilt Node-API binaries for glibc (Debian) in their packages: nothing is compiled, no Cairo.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- build: dist/index.js (the bot), dist/deploy.js (command registration), dist/chart-worker.js, the
# chunks they share, dist/rest-proxy.js and the playground page's script; esbuild and the page's
# libraries are development packages, installed for this stage only.
FROM deps AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/build.mjs
COPY src src
COPY commands commands
RUN node scripts/build.mjs

# --- runtime
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/app/data \
    NODE_COMPILE_CACHE=/app/data/compile-cache \
    METRICS_PORT=9100
WORKDIR /app
# package.json says "type": "module": dist/*.js are ES modules. Files root owns stay read-only to the bot.
COPY package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
# Files the build reads where they sit in the checkout, relative to dist/ (docs/operations.md, "Production"): the chart
# fonts, the locale files, the replica's samples (offline, with no RIVALS_API_KEY) and the playground
# page's HTML and stylesheet, all under src/.
COPY assets assets
COPY src src
# DATA_DIR (SQLite when there is no DATABASE_URL): an empty named volume mounted here takes this owner.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
# /healthz and /metrics: the cluster with ID N serves on METRICS_PORT + N.
EXPOSE 9100
# No curl in the slim image: node probes /healthz itself. It probes the first cluster this container
# runs: cluster 0, or the lowest of CLUSTER_IDS, or the cluster of the lowest of SHARD_IDS.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const e=process.env,ids=(s)=>(s||'').split(',').filter((x)=>x.trim()).map(Number),c=ids(e.CLUSTER_IDS),s=ids(e.SHARD_IDS),first=c.length?Math.min(...c):s.length?Math.floor(Math.min(...s)/(Number(e.SHARDS_PER_CLUSTER)||4)):0;fetch('http://127.0.0.1:'+((Number(e.METRICS_PORT)||9100)+first)+'/healthz',{signal:AbortSignal.timeout(4000)}).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The bot stops gracefully on SIGTERM within 12 s (docs/operations.md, "Process policy"), past `docker stop`'s
# default 10 s: compose.yaml gives it 20 s (stop_grace_period); by hand, `docker stop -t 20`.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=2", "--v8-pool-size=1", "--enable-source-maps", "dist/index.js"]
