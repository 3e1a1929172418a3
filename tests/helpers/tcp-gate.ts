import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './app.ts';

/**
 * A TCP port in front of another (a test's SMTP server), that a test can take down and bring back
 * (an outage of that server while the app keeps running), or make hold new connections unanswered
 * until it opens again (work in flight, not yet accepted, at a chosen moment).
 *
 * - `open`: every connection is passed through.
 * - `hold`: connections are accepted but nothing is passed either way until `open()`; those
 *   whose client went away meanwhile are dropped (`dropped` counts them).
 * - `down`: nothing listens (connections are refused) and every open connection is cut.
 */
export class TcpGate {
  private server: Server | null = null;
  private mode: 'open' | 'hold' | 'down' = 'down';
  private readonly sockets = new Set<Socket>();
  private readonly waiting: { socket: Socket; early: Buffer[] }[] = [];
  port = 0;
  /** Held connections whose client had closed before the gate opened. */
  dropped = 0;

  constructor(private readonly targetPort: number) {}

  /** Opens the gate on `port` (a free one by default); answers `127.0.0.1:port`. */
  async start(port?: number): Promise<string> {
    this.port = port ?? (await freePort());
    await this.open();
    return `127.0.0.1:${this.port}`;
  }

  /** Connections held right now whose client still waits. */
  get held(): number {
    return this.waiting.filter((w) => !w.socket.destroyed).length;
  }

  async open(): Promise<void> {
    this.mode = 'open';
    await this.listen();
    for (const { socket, early } of this.waiting.splice(0)) {
      socket.removeAllListeners('data');
      socket.removeAllListeners('end');
      if (socket.destroyed) this.dropped += 1;
      else this.pass(socket, early);
    }
  }

  async hold(): Promise<void> {
    this.mode = 'hold';
    await this.listen();
  }

  /** Stops listening and cuts every connection, as a mail server that went away. */
  async down(): Promise<void> {
    this.mode = 'down';
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.waiting.splice(0);
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private async listen(): Promise<void> {
    if (this.server) return;
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      if (this.mode === 'hold') {
        // Read on while holding (an SMTP client says nothing before the greeting), so a client
        // that goes away is seen at once.
        const early: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => early.push(chunk));
        socket.on('end', () => socket.destroy());
        this.waiting.push({ socket, early });
      } else this.pass(socket, []);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  private pass(client: Socket, early: Buffer[]): void {
    const target = connect(this.targetPort, '127.0.0.1');
    for (const chunk of early) target.write(chunk);
    this.sockets.add(target);
    target.on('close', () => {
      this.sockets.delete(target);
      client.destroy();
    });
    target.on('error', () => target.destroy());
    client.on('close', () => target.destroy());
    client.pipe(target);
    target.pipe(client);
  }

  async stop(): Promise<void> {
    await this.down();
  }
}
