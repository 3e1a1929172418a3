import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export interface StickyOptions {
  /** This worker's place in the cluster, 0 … slots − 1; a replacement worker takes the same slot. */
  slot: number;
  slots: number;
  /** A folder only this server's OS user can enter, holding one local socket per worker. */
  socketDir: string;
}

/** Where the worker in `slot` takes Socket.IO requests that reached another worker. */
export const workerSocketPath = (socketDir: string, slot: number) => join(socketDir, `worker-${slot}.sock`);

/** Session ids start with the slot of the worker that holds the session: `1.Qx8…`. */
const SLOT_OF_SID = /[?&]sid=(\d{1,2})\./;

// Headers that describe one hop, not the message: never passed on.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/**
 * Socket.IO long-polling over several worker processes. A polling session is a series of HTTP
 * requests that must all reach the worker holding the session, but the primary hands each new
 * TCP connection to the next worker in turn, and clients and proxies reuse keep-alive
 * connections for any request. So:
 *
 * - every session id names its worker (`<slot>.<random>`), and
 * - a worker given a request for another worker's session passes it, over a local socket, to
 *   that worker and relays the answer (a WebSocket upgrade of such a session is relayed whole).
 *
 * Everything else (normal HTTP, WebSockets opened directly, which is what browsers do first) is
 * served where it lands, with keep-alive intact and without passing through the primary. Only
 * polling requests that landed on the wrong worker pay one local hop. A session whose worker
 * died is answered as unknown, like any expired session: the client starts a new one.
 *
 * Call after the app is ready (Socket.IO attached) and before it listens.
 */
export async function enableStickySessions(app: FastifyInstance, options: StickyOptions): Promise<{ close(): Promise<void> }> {
  const { slot, slots, socketDir } = options;
  const engine = app.io.engine;
  engine.generateId = () => `${slot}.${randomBytes(15).toString('base64url')}`;
  const socketPath = app.io.path().replace(/\/?$/, '/');

  // Connections that came from another worker are served here, never passed on again.
  const relayed = new WeakSet<Socket>();
  const ownerOf = (request: IncomingMessage): number | null => {
    const url = request.url ?? '';
    if (!url.startsWith(socketPath) || relayed.has(request.socket)) return null;
    const match = SLOT_OF_SID.exec(url);
    if (!match) return null;
    const owner = Number(match[1]);
    return owner !== slot && owner < slots ? owner : null;
  };

  const agent = new Agent({ keepAlive: true });
  const server = app.server;

  // Socket.IO and Fastify each listen for 'request' and 'upgrade' on the server; this puts one
  // check in front of all of them.
  const requestListeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const owner = ownerOf(request);
    if (owner !== null) return relayRequest(request, response, workerSocketPath(socketDir, owner), agent);
    for (const listener of requestListeners) listener.call(server, request, response);
  });
  const upgradeListeners = server.listeners('upgrade') as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const owner = ownerOf(request);
    if (owner !== null) return relayUpgrade(request, socket, head, workerSocketPath(socketDir, owner));
    for (const listener of upgradeListeners) listener.call(server, request, socket, head);
  });

  const path = workerSocketPath(socketDir, slot);
  const local: Server = createServer((connection) => {
    relayed.add(connection);
    server.emit('connection', connection);
  });
  // A replacement worker takes over the socket file its predecessor left.
  rmSync(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    local.once('error', reject);
    // Bound by this worker itself: a cluster worker would otherwise share it through the primary.
    local.listen({ path, exclusive: true }, () => resolve());
  });

  return {
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => local.close(() => resolve()));
    },
  };
}

/** What Socket.IO answers for a session it does not hold: the client then opens a new one. */
function unknownSession(response: ServerResponse): void {
  if (response.headersSent) return void response.destroy();
  response.writeHead(400, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ code: 1, message: 'Session ID unknown' }));
}

function relayRequest(request: IncomingMessage, response: ServerResponse, socketPath: string, agent: Agent): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  const upstream = httpRequest({ socketPath, agent, method: request.method, path: request.url, headers }, (answer) => {
    const answerHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) answerHeaders[name] = value;
    response.writeHead(answer.statusCode ?? 502, answerHeaders);
    answer.pipe(response);
  });
  upstream.on('error', () => unknownSession(response));
  // A long poll the client abandons must not stay open on the other worker.
  response.on('close', () => {
    if (!response.writableFinished) upstream.destroy();
  });
  request.pipe(upstream);
}

function relayUpgrade(request: IncomingMessage, client: Duplex, head: Buffer, socketPath: string): void {
  const upstream = connect(socketPath);
  const lines = [`${request.method} ${request.url} HTTP/1.1`];
  for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
  upstream.once('connect', () => {
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream).pipe(client);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}
