# Production image: the web app and the server are built ahead of time; the image runs the
# compiled JavaScript with plain node and holds no TypeScript source and no development tool.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# client/dist (with its .br and .gz files) and server/dist; then only production dependencies
# stay (no TypeScript, tsx, Vite, pino-pretty or test tools), and not esbuild either: it is a
# dependency so that `npm start` can build a fresh clone, and this image holds the build.
RUN npm run build && npm prune --omit=dev && rm -rf node_modules/esbuild node_modules/@esbuild

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
# Only what runs: package.json marks the project root the server finds its files from.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/server/run.mjs /app/server/build.mjs ./server/
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/client/dist ./client/dist
COPY --from=build /app/client/dist-ssr ./client/dist-ssr
COPY --from=build /app/db/migrations ./db/migrations
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# `docker compose exec app npm run escrow -- show 12` runs the compiled operator command.
CMD ["node", "--enable-source-maps", "server/dist/start.mjs"]
