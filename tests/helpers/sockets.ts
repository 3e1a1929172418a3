import type { Socket as TcpSocket } from 'node:net';
import { io, type Socket } from 'socket.io-client';

export type ClientSocket = Socket;

/** Connects a Socket.IO client (anonymous without a token) and waits until it is connected. */
export interface SocketOptions {
  token?: string;
  /** The page's origin, as a browser would send it. */
  origin?: string;
  /** The Host header, as when the server is reached under another name (default: from `url`). */
  host?: string;
  transports?: string[];
}

export async function connectSocket(url: string, options: SocketOptions = {}): Promise<ClientSocket> {
  const headers = { ...(options.origin ? { origin: options.origin } : {}), ...(options.host ? { host: options.host } : {}) };
  const socket = io(url, {
    auth: options.token ? { token: options.token } : {},
    transports: options.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(Object.keys(headers).length > 0 ? { extraHeaders: headers } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  return socket;
}

/**
 * The sockets a test file connects to its app, so that `closeAll` (after each test) closes
 * whatever a test left open. `url` is read at each connection: the set can be made before the
 * app listens.
 */
export class TestSockets {
  private readonly opened: ClientSocket[] = [];

  constructor(private readonly url: () => string) {}

  async connect(options: SocketOptions = {}): Promise<ClientSocket> {
    const socket = await connectSocket(this.url(), options);
    this.opened.push(socket);
    return socket;
  }

  closeAll(): void {
    for (const socket of this.opened.splice(0)) socket.close();
  }
}

/** The connect_error message a connection attempt fails with. */
export async function connectionError(url: string, options: SocketOptions = {}): Promise<string> {
  try {
    const socket = await connectSocket(url, options);
    socket.close();
    return 'connected';
  } catch (error) {
    return (error as Error).message;
  }
}

export interface AckResponse<T = unknown> {
  ok: boolean;
  data?: T;
  error?: string;
  code?: string;
}

export function emitAck<T = unknown>(socket: ClientSocket, event: string, payload: unknown, timeoutMs = 5_000): Promise<AckResponse<T>> {
  return socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<AckResponse<T>>;
}

/** Records every event of the given names, in order. */
export function record<T = unknown>(socket: ClientSocket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

/** Resolves with the first `event` payload matching `predicate`. */
export function nextEvent<T = unknown>(socket: ClientSocket, event: string, predicate: (payload: T) => boolean = () => true, timeoutMs = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!predicate(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000, message = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A real-time client that joins a car and then stops reading, as a phone in a tunnel or a
 * broken client does: the server keeps writing, the bytes pile up. It speaks Socket.IO's wire
 * protocol itself, so the test controls the connection: over a WebSocket whose TCP socket it
 * pauses, over HTTP long-polling that stops polling, or on the plain feed.
 */
export interface StalledClient {
  /** Resolves when the server has ended the connection (for a WebSocket, seen once reading resumes). */
  closed: Promise<void>;
  /** Stops reading (at once, unless opened with `stalled: false`). */
  stall(): void;
  /** Starts reading again: what was buffered is read, then the close if there was one. */
  resume(): void;
  terminate(): void;
}

export type StalledKind = 'websocket' | 'polling' | 'feed';

/**
 * `stalled: false` keeps the client reading (and answering pings) until `stall()`, so many
 * clients can be opened first and all stop together.
 */
export async function openStalledClient(url: string, carId: number, kind: StalledKind = 'websocket', timeoutMs = 10_000, options: { stalled?: boolean } = {}): Promise<StalledClient> {
  if (kind === 'polling') return openStalledPollingClient(url, carId);
  const { default: WebSocket } = await import('ws');
  const wsUrl = url.replace(/^http/, 'ws') + (kind === 'feed' ? '/api/stream' : '/socket.io/?EIO=4&transport=websocket');
  const ws = new WebSocket(wsUrl, { origin: url });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stalled ${kind} client did not join car ${carId}`)), timeoutMs);
    ws.once('error', reject);
    ws.on('message', (raw) => {
      const text = raw.toString();
      if (kind === 'feed') {
        if (text.includes('"subscribed"')) {
          clearTimeout(timer);
          resolve();
        }
        return;
      }
      // Engine.IO open ("0{...}") → Socket.IO connect; connected ("40{...}") → join; ack ("430[...]") → joined.
      if (text.startsWith('0{')) ws.send('40');
      else if (text.startsWith('40')) ws.send(`420["car:join",{"carId":${carId}}]`);
      else if (text.startsWith('430')) {
        clearTimeout(timer);
        resolve();
      }
      else if (text === '2') ws.send('3');
    });
    if (kind === 'feed') ws.once('open', () => ws.send(JSON.stringify({ subscribe: carId })));
  });
  // ws reads through its net.Socket; pausing it stops reading at the TCP level.
  const tcp = (ws as unknown as { _socket: TcpSocket })._socket;
  if (options.stalled !== false) tcp.pause();
  return { closed, stall: () => tcp.pause(), resume: () => tcp.resume(), terminate: () => ws.terminate() };
}

/** Long-polling: after joining, no request asks for what the server queues for it. */
async function openStalledPollingClient(url: string, carId: number): Promise<StalledClient> {
  const base = `${url}/socket.io/?EIO=4&transport=polling`;
  const headers = { origin: url, 'content-type': 'text/plain;charset=UTF-8' };
  const open = await (await fetch(base, { headers })).text();
  const sid = (JSON.parse(open.slice(1)) as { sid: string }).sid;
  const session = `${base}&sid=${sid}`;
  const poll = async () => (await fetch(session, { headers })).text();
  await fetch(session, { method: 'POST', headers, body: '40' });
  await poll();
  await fetch(session, { method: 'POST', headers, body: `420["car:join",{"carId":${carId}}]` });
  for (let i = 0; i < 5 && !(await poll()).includes('430['); i++);
  let resolveClosed = () => {};
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  return {
    closed,
    // It already asks for nothing.
    stall: () => {},
    resume: () => {
      // The server answers an ended session's poll with 400 (unknown session) or a close packet ("1").
      void fetch(session, { headers }).then(async (res) => {
        const body = await res.text();
        if (res.status === 400 || body.includes('\u001e1') || body === '1') resolveClosed();
      });
    },
    terminate: () => void fetch(session, { method: 'POST', headers, body: '1' }).catch(() => {}),
  };
}
