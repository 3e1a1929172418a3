import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { SocketBacklogLimits } from '../config.ts';

/** The parts of an Engine.IO connection (Socket.IO's transport layer) the guard reads. */
export interface EngineConnection {
  id: string;
  /** Packets waiting because the transport is still busy sending earlier ones. */
  writeBuffer: unknown[];
  transport: { name: string; socket?: WebSocket };
  on(event: 'packetCreate', listener: () => void): unknown;
  close(discard?: boolean): unknown;
}

export type RealtimeTransport = 'socket.io' | 'feed';

/**
 * Disconnects real-time clients that stop reading. Every broadcast is queued for every viewer,
 * so one stalled connection (a phone in a tunnel, a client that never reads) would hold memory
 * that grows with the room's traffic until its ping times out. The check runs as each message is
 * queued, costs two reads, and ends the connection at once (no closing handshake, which a
 * stalled peer would never read either). A legitimate client reconnects and Socket.IO recovers
 * what it missed.
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

  /** Watches one Socket.IO connection for its whole life, across transport upgrades. */
  watch(connection: EngineConnection): void {
    let dropped = false;
    connection.on('packetCreate', () => {
      if (dropped) return;
      const socket = connection.transport.name === 'websocket' ? connection.transport.socket : undefined;
      if (!this.isOverLimit(socket?.bufferedAmount ?? 0, connection.writeBuffer.length)) return;
      dropped = true;
      this.onDrop('socket.io', connection.id);
      if (socket) socket.terminate();
      else connection.close(true);
    });
  }

  /** Whether a plain-WebSocket subscriber may be sent another frame; one over the limit is ended. */
  admit(socket: WebSocket, id: string): boolean {
    if (socket.readyState !== socket.OPEN) return false;
    if (!this.isOverLimit(socket.bufferedAmount, 0)) return true;
    this.onDrop('feed', id);
    socket.terminate();
    return false;
  }
}

/** The guard with the app's limits, counting and logging what it ends. */
export function slowConsumerGuard(app: FastifyInstance): SlowConsumerGuard {
  return new SlowConsumerGuard(app.config.socketBacklog, (transport, id) => {
    app.metrics.slowConsumersDropped.inc({ transport });
    app.log.info({ transport, connection: id }, 'ended a real-time connection that stopped reading');
  });
}
