import type { io as createIo, Socket } from 'socket.io-client';
import type { ClientEventAck, ClientEventName, ClientEventPayload, ServerToClientEvents } from '@common/socket-events.ts';
import { API_BASE_URL, ensureFreshAccessToken, refreshAccessToken } from './api-client.ts';
import { useConnectionStore, type ConnectionStatus } from './connection-store.ts';
import { refreshJournal } from './refresh-journal.ts';
import { useSessionStore, type SessionData } from './session-store.ts';
import { CLIENT_ERRORS, ClientErrorCode, type AnyErrorCode } from './client-error-codes.ts';

/**
 * The app's ONE Socket.IO connection (contract §Real-time), created lazily by the first screen
 * that needs live data. It authenticates with the current access token (anonymous when signed
 * out), reconnects with backoff, and reconnects as someone else when the session's identity
 * changes (sign in, sign out, a failed refresh, another tab signing in).
 *
 * The Socket.IO client library is a chunk of its own, fetched when the connection is first
 * needed (after the first screen has painted), so no page waits for it before showing anything.
 * Features register listeners on `getSocket()` at any time (those registered before the library
 * has arrived are attached when it does) and update their stores with `setState`, outside React. Nothing relies on Socket.IO's connection-state recovery: every feature
 * re-joins its rooms and re-reads its REST snapshots in an `onSocketConnect` handler, which
 * runs after every (re)connect.
 */

export type AckResult<T> = { ok: true; data: T } | { ok: false; error: string; code: AnyErrorCode };

export interface ConnectInfo {
  /** The server restored the previous session (rooms included); still re-sync. */
  recovered: boolean;
}

const RECONNECT_DELAY_MS = 1_000;
const RECONNECT_DELAY_MAX_MS = 10_000;
const ACK_TIMEOUT_MS = 8_000;
/** Refused tokens in a row before the socket gives up on the token and connects anonymously. */
const MAX_UNAUTHORIZED_RETRIES = 2;

let socket: Socket | null = null;
/** True from the first `getSocket()` on: the library is being fetched, or the socket exists. */
let requested = false;
/** A retry of a failed library fetch, waiting; going online runs it at once. */
let loadRetry: ReturnType<typeof setTimeout> | null = null;
/** Listeners registered before the socket existed, attached to it on creation. */
const pendingListeners: [event: keyof ServerToClientEvents, listener: SocketListener][] = [];
const connectHandlers = new Set<(info: ConnectInfo) => void>();
const revokedHandlers = new Set<() => void>();

/** Who the current (or pending) connection authenticated as: 'anonymous' or 'user:<id>'. */
let authIdentity = 'anonymous';
/** The server kept refusing our token although it was refreshed: stay anonymous until it changes. */
let anonymousOnly = false;
let unauthorizedStreak = 0;
let restartScheduled = false;
/** The access token the latest handshake presented (null: anonymous). */
let presentedToken: string | null = null;

function setStatus(status: ConnectionStatus): void {
  if (useConnectionStore.getState().status !== status) useConnectionStore.setState({ status });
}

function identityOf(session: Pick<SessionData, 'accessToken' | 'user'>): string {
  return session.accessToken ? `user:${session.user?.id ?? '?'}` : 'anonymous';
}

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Opens the connection unless it is open or opening already (never two CONNECT packets). */
function open(): void {
  if (!socket || socket.connected || socket.active) return;
  socket.connect();
}

/** Drops the connection and opens a new one with whatever the session is now. Coalesced. */
function restart(): void {
  if (!socket || restartScheduled) return;
  restartScheduled = true;
  setTimeout(() => {
    void (async () => {
      if (!socket) return;
      socket.disconnect(); // client-initiated: the server keeps no state to recover
      setStatus(browserOffline() ? 'offline' : 'connecting');
      // A token about to expire would only be refused; a failed refresh clears the session.
      await ensureFreshAccessToken().catch(() => null);
      restartScheduled = false;
      open();
    })();
  }, 0);
}

async function recoverFromUnauthorized(): Promise<void> {
  unauthorizedStreak += 1;
  setStatus('connecting');
  const { refreshToken, accessToken } = useSessionStore.getState();
  // A refresh that finished while the handshake was out (a REST call's 401, another tab) already
  // replaced the refused token: present the new one rather than spend the new refresh token too.
  const alreadyReplaced = !anonymousOnly && accessToken !== null && accessToken !== presentedToken;
  if (alreadyReplaced) {
    setTimeout(open, 0);
    return;
  }
  if (refreshToken && !anonymousOnly && unauthorizedStreak <= MAX_UNAUTHORIZED_RETRIES) {
    try {
      await refreshAccessToken(); // a refused token may be unexpired but stale: always refresh
    } catch {
      // The session was cleared (signed out elsewhere, revoked): the next attempt is anonymous.
    }
  } else {
    anonymousOnly = true;
  }
  const delay = Math.min(RECONNECT_DELAY_MAX_MS, 250 * 2 ** (unauthorizedStreak - 1));
  setTimeout(open, delay);
}

function createSocket(io: typeof createIo): Socket {
  const options = {
    autoConnect: false,
    // WebSocket straight away (no polling handshake, no upgrade round trips); HTTP long-polling
    // only when WebSocket fails, e.g. behind a proxy that blocks upgrades (tryAllTransports).
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    reconnection: true,
    reconnectionDelay: RECONNECT_DELAY_MS,
    reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
    randomizationFactor: 0.5,
    // Read at every (re)connect, so the newest token is always the one presented.
    auth: (cb: (data: object) => void) => {
      const { accessToken, user } = useSessionStore.getState();
      const token = anonymousOnly ? null : accessToken;
      presentedToken = token;
      authIdentity = token ? identityOf({ accessToken: token, user }) : 'anonymous';
      cb(token ? { token } : {});
    },
  };
  const s = API_BASE_URL ? io(API_BASE_URL, options) : io(options);

  s.on('connect', () => {
    unauthorizedStreak = 0;
    setStatus('online');
    const info: ConnectInfo = { recovered: s.recovered };
    for (const handler of [...connectHandlers]) handler(info);
  });

  s.on('connect_error', (error: Error) => {
    if (error.message === 'unauthorized') {
      void recoverFromUnauthorized();
      return;
    }
    setStatus(browserOffline() ? 'offline' : 'reconnecting');
    if (!s.active) setTimeout(open, RECONNECT_DELAY_MS);
  });

  s.on('disconnect', (reason: string) => {
    if (reason === 'io client disconnect') return; // we did it (restart); the status is set there
    setStatus(browserOffline() ? 'offline' : 'reconnecting');
    // The server closed it (e.g. kicked or revoked): Socket.IO does not retry those by itself.
    if (reason === 'io server disconnect') setTimeout(open, RECONNECT_DELAY_MS);
  });

  s.io.on('reconnect_attempt', () => {
    if (!s.connected) setStatus(browserOffline() ? 'offline' : 'reconnecting');
    // Best effort: have a fresh token ready before the handshake reads it.
    void ensureFreshAccessToken().catch(() => null);
  });

  // The session ended on the server (logout elsewhere, password reset): end it here too. A tab
  // that signed out itself has already cleared its session (and goes to /, not /login).
  s.on('session:revoked', () => {
    if (!useSessionStore.getState().refreshToken && !useSessionStore.getState().accessToken) return;
    useSessionStore.getState().clearSession();
    void refreshJournal()?.clear().catch(() => undefined);
    for (const handler of [...revokedHandlers]) handler();
  });

  return s;
}

/** Any listener Socket.IO accepts (payloads arrive unchecked; each listener checks its own). */
type SocketListener = Parameters<Socket['onAny']>[0];

/** What features use of the shared socket: listening, whether or not it exists yet. */
export interface LiveSocket {
  /** One of the contract's server events (common/socket-events.ts). */
  on(event: keyof ServerToClientEvents, listener: SocketListener): void;
}

const liveSocket: LiveSocket = {
  on(event, listener) {
    if (socket) socket.on(event, listener);
    else pendingListeners.push([event, listener]);
  },
};

/** Fetches the client library, then creates and connects the socket; retried while that fails. */
function load(): void {
  loadRetry = null;
  void import('socket.io-client').then(
    async ({ io }) => {
      socket = createSocket(io);
      for (const [event, listener] of pendingListeners.splice(0)) socket.on(event, listener);
      // Connect with a token that is good for a while (a stale one would be refused first).
      await ensureFreshAccessToken().catch(() => null);
      open();
    },
    () => {
      // Offline, or the server was redeployed under us: live updates wait like a dropped connection.
      setStatus(browserOffline() ? 'offline' : 'reconnecting');
      loadRetry = setTimeout(load, RECONNECT_DELAY_MAX_MS);
    },
  );
}

/** The shared socket, created (and connected) on first use. */
export function getSocket(): LiveSocket {
  if (!requested) {
    requested = true;
    setStatus(browserOffline() ? 'offline' : 'connecting');
    load();
  }
  return liveSocket;
}

/**
 * Runs `handler` after every future (re)connect; callers deal with the present themselves
 * (e.g. `isSocketConnected()` → join now). Returns a function that unregisters it.
 */
export function onSocketConnect(handler: (info: ConnectInfo) => void): () => void {
  getSocket();
  connectHandlers.add(handler);
  return () => {
    connectHandlers.delete(handler);
  };
}

/** Runs `handler` after the server revoked this session (the session is already cleared). */
export function onSessionRevoked(handler: () => void): () => void {
  revokedHandlers.add(handler);
  return () => {
    revokedHandlers.delete(handler);
  };
}

/** Emits a client event and waits for its acknowledgement; never throws. */
export async function emitWithAck<E extends ClientEventName>(event: E, payload: ClientEventPayload<E>, timeoutMs = ACK_TIMEOUT_MS): Promise<AckResult<ClientEventAck<E>>> {
  getSocket();
  const s = socket;
  if (!s?.connected) return { ok: false, error: CLIENT_ERRORS.OFFLINE.message, code: ClientErrorCode.OFFLINE };
  try {
    return (await s.timeout(timeoutMs).emitWithAck(event, payload)) as AckResult<ClientEventAck<E>>;
  } catch {
    return { ok: false, error: CLIENT_ERRORS.TIMEOUT.message, code: ClientErrorCode.TIMEOUT };
  }
}

/** Emits a client event only when connected (the next connect re-sends what matters). */
export function emitIfConnected<E extends ClientEventName>(event: E, payload: ClientEventPayload<E>): boolean {
  if (!socket?.connected) return false;
  socket.emit(event, payload);
  return true;
}

/** True when the shared socket exists and is connected. */
export function isSocketConnected(): boolean {
  return Boolean(socket?.connected);
}

if (typeof window !== 'undefined') {
  // Sign-in, sign-out, a failed refresh or another tab's session: reconnect as the new identity.
  // A plain token rotation keeps the connection (the server authenticates sockets only at the
  // handshake); the auth callback presents the new token on the next reconnect.
  useSessionStore.subscribe((state, prev) => {
    if (!socket) return;
    if (state.accessToken === prev.accessToken && state.user?.id === prev.user?.id) return;
    if (state.accessToken !== prev.accessToken) anonymousOnly = false;
    if (identityOf(state) !== authIdentity) restart();
  });

  window.addEventListener('offline', () => {
    if (socket) setStatus('offline');
  });
  window.addEventListener('online', () => {
    if (loadRetry) {
      clearTimeout(loadRetry);
      load();
    }
    if (!socket) return;
    if (socket.connected) setStatus('online');
    else restart(); // skip whatever backoff delay the manager is waiting out
  });
}
