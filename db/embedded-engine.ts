/**
 * The embedded database engine (PGlite) in a worker thread of its own, serving PostgreSQL's wire
 * protocol on a Unix socket. The server then talks to it through the same `postgres` driver as
 * to a PostgreSQL server, and a burst of statements keeps this thread busy, never the one that
 * reads requests and pushes events.
 *
 * PGlite is one backend: one client connection at a time (the server's pool has one), and
 * messages are answered strictly in the order they arrive.
 */
import { createServer, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export interface EngineOptions {
  /** PGlite's data folder, or `memory://` */
  location: string;
  socketPath: string;
  /** Session settings, set once on the engine's one session. */
  settings: Record<string, string>;
}

/** Sent to the parent thread: `ready` once the socket listens, `failed` when the engine cannot start. */
export type EngineMessage = { type: 'ready' } | { type: 'failed'; message: string };

// The first message of a connection has no type byte; these codes replace the protocol version.
const SSL_REQUEST_CODE = 80_877_103;
const CANCEL_REQUEST_CODE = 80_877_102;
const GSS_REQUEST_CODE = 80_877_104;

async function runEngine(options: EngineOptions): Promise<void> {
  const engine = await PGlite.create(options.location, { extensions: { pg_trgm } });
  for (const [name, value] of Object.entries(options.settings)) {
    await engine.query('select set_config($1, $2, false)', [name, value]);
  }
  rmSync(options.socketPath, { force: true });
  const server = createServer((socket) => serveConnection(engine, socket));
  server.maxConnections = 1;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, resolve);
  });
  parentPort!.on('message', (message: { type: string }) => {
    if (message.type !== 'close') return;
    server.close();
    void engine.close().finally(() => {
      rmSync(options.socketPath, { force: true });
      parentPort!.close();
    });
  });
  parentPort!.postMessage({ type: 'ready' } satisfies EngineMessage);
}

function serveConnection(engine: PGlite, socket: Socket): void {
  let buffered = Buffer.alloc(0);
  let startedUp = false;
  // Messages are answered one after another, in the order they came.
  let answered = Promise.resolve();

  const refuse = (): null => {
    buffered = Buffer.alloc(0);
    socket.destroy();
    return null;
  };

  const nextMessage = (): Buffer | null => {
    if (socket.destroyed) return null;
    if (!startedUp) {
      if (buffered.length < 8) return null;
      const length = buffered.readInt32BE(0);
      if (length < 8) return refuse();
      if (buffered.length < length) return null;
      const message = buffered.subarray(0, length);
      buffered = buffered.subarray(length);
      const code = message.readInt32BE(4);
      if (code === SSL_REQUEST_CODE || code === GSS_REQUEST_CODE) {
        // Neither is offered on a local socket: the client goes on in plain text.
        socket.write('N');
        return nextMessage();
      }
      if (code === CANCEL_REQUEST_CODE) {
        socket.end();
        return null;
      }
      startedUp = true;
      return message;
    }
    if (buffered.length < 5) return null;
    const length = 1 + buffered.readInt32BE(1);
    if (length < 5) return refuse();
    if (buffered.length < length) return null;
    const message = buffered.subarray(0, length);
    buffered = buffered.subarray(length);
    return message;
  };

  const answer = async (message: Buffer): Promise<void> => {
    await engine.runExclusive(() =>
      engine.execProtocolRawStream(new Uint8Array(message), {
        // The engine's buffer is reused for its next answer: send a copy.
        onRawData: (data) => {
          if (socket.writable) socket.write(Buffer.from(data));
        },
      }),
    );
  };

  socket.on('data', (data) => {
    buffered = buffered.length === 0 ? data : Buffer.concat([buffered, data]);
    // Every complete message that came is handed to the engine in one call: it reads them in turn.
    const messages: Buffer[] = [];
    for (let message = nextMessage(); message; message = nextMessage()) messages.push(message);
    if (messages.length === 0) return;
    const batch = messages.length === 1 ? messages[0]! : Buffer.concat(messages);
    answered = answered
      .then(() => answer(batch))
      .catch(() => {
        socket.destroy();
      });
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    // A client gone inside a transaction would leave the one session in it for the next.
    answered = answered.then(async () => {
      if (!engine.closed && engine.isInTransaction()) await engine.exec('ROLLBACK').catch(() => {});
    });
  });
}

if (parentPort && (workerData as { luxemotorsEngine?: EngineOptions } | null)?.luxemotorsEngine) {
  runEngine((workerData as { luxemotorsEngine: EngineOptions }).luxemotorsEngine).catch((error: unknown) => {
    parentPort!.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies EngineMessage);
  });
}
