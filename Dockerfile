# syntax=docker/dockerfile:1
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

FROM node:24.21-bookworm-slim
# MALLOC_ARENA_MAX=2: glibc gives each thread that allocates a malloc arena of its own and keeps
# what was freed in each; the picture decoder (sharp/libvips) allocates about 40 MiB per picture
# on libuv's and libvips' threads, and 25 pictures in a row peaked 109 MiB above sharp's own
# footprint with the default, 68 MiB with two arenas (docs/web.md, Pictures).
ENV NODE_ENV=production DATA_DIR=/data PORT=3000 MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/main.js"]
