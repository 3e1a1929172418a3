import { io, type Socket } from 'socket.io-client';

export type ClientSocket = Socket;

/** Connects a Socket.IO client (anonymous without a token) and waits until it is connected. */
export async function connectSocket(url: string, options: { token?: string; origin?: string; transports?: string[] } = {}): Promise<ClientSocket> {
  const socket = io(url, {
    auth: options.token ? { token: options.token } : {},
    transports: options.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(options.origin ? { extraHeaders: { origin: options.origin } } : {}),
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

/** The connect_error message a connection attempt fails with. */
export async function connectionError(url: string, options: { token?: string; origin?: string; transports?: string[] } = {}): Promise<string> {
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
