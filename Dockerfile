# Vigil's container image: build with the same `npm ci` CI runs (its `prepare` script compiles src/ into
# dist/), then a runtime stage holding production dependencies and dist/ only, run as a non-root user.
#   docker build -t vigil .
#   docker run -p 8080:8080 -v vigil-data:/data vigil
# compose.yaml and the Kubernetes manifests rely on: WORKDIR /app, CMD `node bin/vigil.js serve` (with the
# start script's Node flags, see package.json), port 8080, DATA_DIR /data.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary matches.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.js scripts/build.js
COPY src src
COPY bin bin
# npm ci installs everything and builds dist/ (prepare); prune then drops the dev dependencies.
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules node_modules
COPY --from=build --chown=root:root /app/dist dist
COPY --from=build --chown=root:root /app/bin bin
COPY LICENSE README.md CHANGELOG.md ./
# The code is root's and read-only to the server; only DATA_DIR is the server user's.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# /healthz answers while the process serves; node's fetch needs no curl in the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The same command as `npm start` (docs/operations.md, "Memory and garbage collection").
CMD ["node", "--min-semi-space-size=32", "--max-semi-space-size=32", "bin/vigil.js", "serve"]
