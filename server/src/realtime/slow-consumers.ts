import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { SocketBacklogLimits } from '../config.ts';

/** The parts of an Engine.IO connection (Socket.IO's transport layer) the guard reads. */
export interface EngineConnection {
  id: string;
  /** Packets waiting because the transport is still busy sending earlier ones. */
  writeBuffer: unknown[];
  transport: { name: string; socket?: WebSocket };
  close(discard?: boolean): unknown;
}

/** How often Socket.IO connections are checked: a stalled one holds at most this much more traffic than its limit. */
export const SWEEP_INTERVAL_MS = 250;

export type RealtimeTransport = 'socket.io' | 'feed';

/**
 * Disconnects real-time clients that stop reading. Every broadcast is queued for every viewer,
 * so one stalled connection (a phone in a tunnel, a client that never reads) would hold memory
 * that grows with the room's traffic until its ping times out. Socket.IO connections are
 * checked every quarter second rather than as each message is queued: a check per message per
 * viewer was a few per cent of the CPU a broadcast costs, paid on every broadcast for the sake
 * of the rare stalled client. A connection over its limit is ended at once (no closing
 * handshake, which a stalled peer would never read either). A legitimate client reconnects and
 * Socket.IO recovers what it missed.
 */
export class SlowConsumerGuard {
  constructor(
    private readonly limits: SocketBacklogLimits,
    private readonly onDrop: (transport: RealtimeTransport, id: string) => void,
  ) {}

  isOverLimit(bufferedBytes: number, queuedMessages: number): boolean {
    const { maxBytes, maxMessages } = this.limits;
    return (maxBytes > 0 && bufferedBytes > maxBytes) || (maxMessages > 0 && queuedMessages > maxMessages);
  }

  /** Ends the Socket.IO connections (across transport upgrades) that are over their limit. */
  sweep(connections: Iterable<EngineConnection>): void {
    for (const connection of connections) {
      const socket = connection.transport.name === 'websocket' ? connection.transport.socket : undefined;
      if (!this.isOverLimit(socket?.bufferedAmount ?? 0, connection.writeBuffer.length)) continue;
      this.onDrop('socket.io', connection.id);
      // Engine.IO forgets the connection first, so nothing more is queued or flushed into it.
      connection.close(true);
      if (socket) endNow(socket);
    }
  }

  /** Whether a plain-WebSocket subscriber may be sent another frame; one over the limit is ended. */
  admit(socket: WebSocket, id: string): boolean {
    if (socket.readyState !== socket.OPEN) return false;
    if (!this.isOverLimit(socket.bufferedAmount, 0)) return true;
    this.onDrop('feed', id);
    endNow(socket);
    return false;
  }
}

/** Handed to every write a dropped connection leaves unsent. */
const CONNECTION_DROPPED = Object.assign(new Error('real-time client stopped reading; connection ended'), { code: 'SLOW_CONSUMER' });

/**
 * Ends a WebSocket at once. `terminate()` alone destroys its TCP socket without an error, and
 * Node then makes a new error for each write still queued (hundreds for a client that stopped
 * reading), whose stack Engine.IO reads; with source maps on, that held the event loop for 18 s
 * when 500 stalled Socket.IO clients were dropped together. Destroyed with one error first, every
 * queued write gets that one; `terminate()` then marks the WebSocket closing at once, so no more
 * frames are offered to it. ws keeps its TCP socket private (`_socket`).
 */
function endNow(socket: WebSocket): void {
  const tcp = (socket as unknown as { _socket?: Duplex | null })._socket;
  if (tcp && !tcp.destroyed) tcp.destroy(CONNECTION_DROPPED);
  socket.terminate();
}

/** The guard with the app's limits, counting and logging what it ends. */
export function slowConsumerGuard(app: FastifyInstance): SlowConsumerGuard {
  return new SlowConsumerGuard(app.config.socketBacklog, (transport, id) => {
    app.metrics.slowConsumersDropped.inc({ transport });
    app.log.info({ transport, connection: id }, 'ended a real-time connection that stopped reading');
  });
}
