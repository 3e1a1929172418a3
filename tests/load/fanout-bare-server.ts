/**
 * The baseline of `npm run bench:fanout`: a bare Socket.IO server with nothing but rooms and
 * broadcasts. It answers `car:join` like the product (join the room, ack `{ok, data}`) and, for
 * each `POST /bench/bid`, pushes what a bid pushes in the product, with the same payloads:
 * `bid:placed` and `chat:message` to the car's room, `car:summary` to its listing-card room.
 * No database, no authentication, no validation beyond what keeps it running.
 *
 * Started by the benchmark as a child process (with --expose-gc): it reports its port over IPC
 * and answers the benchmark's heap probes the way the product does.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { answerHeapProbes } from '../../server/src/lib/heap-probe.ts';

export interface BareBid {
  carId: number;
  amount: number;
  userId: number;
  userName: string;
}

let bidId = 0;
let messageId = 0;
let currentBids = 0;

const http = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/bench/bid') {
    response.writeHead(404).end();
    return;
  }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const input = JSON.parse(body) as BareBid;
    const timestamp = new Date().toISOString();
    bidId += 1;
    messageId += 1;
    currentBids += 1;
    const bid = { id: bidId, carId: input.carId, userId: input.userId, userName: input.userName, amount: input.amount, timestamp };
    const emittedAt = Date.now();
    // The product's order: the bid, the listing cards' summary, then the chat announcement.
    io.to(`car:${input.carId}`).emit('bid:placed', { carId: input.carId, bid, currentBids, highestBid: input.amount, endsAt: null, reserveMet: null, emittedAt });
    io.to(`car-summary:${input.carId}`).emit('car:summary', { carId: input.carId, currentBids, highestBid: input.amount, endsAt: null, reserveMet: null, emittedAt });
    io.to(`car:${input.carId}`).emit('chat:message', {
      id: messageId,
      carId: input.carId,
      userId: input.userId,
      userName: input.userName,
      message: `Placed a bid of $${input.amount.toLocaleString('en-US')}`,
      timestamp,
      type: 'bid',
      role: null,
      emittedAt,
    });
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { bid } }));
  });
});

const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('car:join', (payload: { carId?: unknown }, ack?: (answer: unknown) => void) => {
    const carId = Number(payload?.carId);
    if (!Number.isInteger(carId)) return ack?.({ ok: false, error: 'Invalid payload', code: 'VALIDATION_FAILED' });
    void socket.join(`car:${carId}`);
    ack?.({ ok: true, data: { carId, viewers: io.sockets.adapter.rooms.get(`car:${carId}`)?.size ?? 0 } });
  });
});

answerHeapProbes();
http.listen(0, '127.0.0.1', () => {
  const address = http.address() as { port: number };
  process.send?.({ type: 'listening', port: address.port });
});
process.on('disconnect', () => process.exit(0));
