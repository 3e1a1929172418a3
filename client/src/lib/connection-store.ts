import { create } from 'zustand';

/**
 * State of the shared real-time connection (see socket.ts).
 * - connecting: first connection (or a deliberate reconnect after the session changed)
 * - online: connected; live events flow
 * - reconnecting: the connection dropped and is being retried with backoff
 * - offline: the browser reports no network
 */
export type ConnectionStatus = 'connecting' | 'online' | 'reconnecting' | 'offline';

export interface ConnectionState {
  status: ConnectionStatus;
}

export const useConnectionStore = create<ConnectionState>()(() => ({ status: 'connecting' }));

/** True while live updates cannot arrive and the screen should say so. */
export function isConnectionDown(status: ConnectionStatus): boolean {
  return status === 'reconnecting' || status === 'offline';
}
