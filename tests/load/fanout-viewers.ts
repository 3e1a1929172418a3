/**
 * One process of `npm run bench:fanout`'s load generator: a share of the viewers, each joined to
 * one car's room, timing every `bid:placed` it receives. Driven by the benchmark over IPC;
 * several of these run side by side so that thousands of copies of each event are read by
 * several event loops (and cores) rather than queued in one.
 *
 * Each viewer speaks Socket.IO's wire protocol over its own WebSocket, as a browser's client
 * does on the wire, but reads only what it needs from each frame (the event's name and the bid's
 * amount) instead of decoding it whole: a full client per viewer cost the generator as much CPU
 * as the servers under test, and its queueing showed up as latency.
 *
 * Times are read from the monotonic clock (`process.hrtime`), which every process on the
 * machine shares, so a receive time here and a send time in the benchmark compare directly.
 */
import type { ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { nextMessage } from '../helpers/bench.ts';

/** Servers under test are numbered by the benchmark (`target`); each has viewers of its own here. */
export type ViewerCommand =
  | { cmd: 'connect'; target: number; url: string; carId: number; count: number; localAddress: string; perSecond: number }
  | { cmd: 'measure' }
  | { cmd: 'sent'; target: number; key: number; at: number }
  | { cmd: 'collect' }
  | { cmd: 'disconnect' };

export interface TargetFigures {
  latencies: Float64Array;
  expected: number;
  received: number;
}

export type ViewerReply =
  | { reply: 'connected'; joined: number; failed: number }
  | { reply: 'measuring' }
  | { reply: 'collected'; byTarget: Record<number, TargetFigures>; loopP99Ms: number; loopMaxMs: number }
  | { reply: 'disconnected' };

export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** The benchmark's side: sends `command` to one generator process and waits for its `reply`. */
export function askGenerator<R extends ViewerReply['reply']>(child: ChildProcess, command: ViewerCommand, reply: R, timeoutMs: number) {
  const answer = nextMessage(child, (m) => ((m as ViewerReply).reply === reply ? (m as Extract<ViewerReply, { reply: R }>) : undefined), timeoutMs, `${reply} from a generator`);
  child.send(command);
  return answer;
}

const BID_PLACED = '42["bid:placed",';
// The first amount in a bid:placed payload is the bid's own (`bid: {id, carId, userId, userName, amount, …}`).
const AMOUNT = /"amount":(\d+)/;

const sockets: { ws: WebSocket; target: number }[] = [];
/** Per server and bid (keyed by amount): when it was sent, and when each viewer received it. */
let sentAt = new Map<string, number>();
let receivedAt = new Map<string, number[]>();
const bidKey = (target: number, amount: number) => `${target}:${amount}`;
let measuring = false;
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();

const send = (message: ViewerReply) => process.send!(message);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a Socket.IO session over a WebSocket and joins the car; resolves false on any failure. */
function viewer(target: number, url: string, carId: number, localAddress: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, { localAddress, perMessageDeflate: false, origin: url });
    let joined = false;
    const timer = setTimeout(() => finish(false), 30_000);
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      if (!ok) ws.terminate();
      resolve(ok);
    };
    ws.on('error', () => {
      if (!joined) finish(false);
    });
    ws.on('message', (raw: Buffer) => {
      const text = raw.toString();
      if (joined) {
        if (text.startsWith(BID_PLACED)) {
          if (!measuring) return;
          const now = monotonicMs();
          const key = bidKey(target, Number(AMOUNT.exec(text)?.[1]));
          let list = receivedAt.get(key);
          if (!list) receivedAt.set(key, (list = []));
          list.push(now);
        } else if (text === '2') ws.send('3');
        return;
      }
      // Engine.IO open → Socket.IO connect → connected → join (ack id 0) → joined.
      if (text.startsWith('0{')) ws.send('40');
      else if (text.startsWith('40')) ws.send(`420["car:join",{"carId":${carId}}]`);
      else if (text.startsWith('430[')) {
        if (!text.includes('"ok":true')) return finish(false);
        joined = true;
        sockets.push({ ws, target });
        finish(true);
      } else if (text === '2') ws.send('3');
    });
  });
}

async function connect(command: Extract<ViewerCommand, { cmd: 'connect' }>): Promise<void> {
  // Arrivals spread evenly, in small batches, so the join itself is not a storm.
  const batch = Math.max(1, Math.round(command.perSecond / 20));
  // A connection refused while the machine is busy (a full accept queue) is tried twice more.
  const withRetries = async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await viewer(command.target, command.url, command.carId, command.localAddress)) return true;
      await sleep(500);
    }
    return false;
  };
  const pending: Promise<boolean>[] = [];
  for (let i = 0; i < command.count; i += batch) {
    for (let j = i; j < Math.min(command.count, i + batch); j++) pending.push(withRetries());
    await sleep(50);
  }
  const outcomes = await Promise.all(pending);
  const joined = outcomes.filter(Boolean).length;
  send({ reply: 'connected', joined, failed: outcomes.length - joined });
}

process.on('message', (command: ViewerCommand) => {
  switch (command.cmd) {
    case 'connect':
      void connect(command);
      break;
    case 'measure':
      sentAt = new Map();
      receivedAt = new Map();
      measuring = true;
      loop.reset();
      send({ reply: 'measuring' });
      break;
    case 'sent':
      sentAt.set(bidKey(command.target, command.key), command.at);
      break;
    case 'collect': {
      measuring = false;
      const byTarget: Record<number, { latencies: number[]; expected: number }> = {};
      for (const { target } of sockets) (byTarget[target] ??= { latencies: [], expected: 0 }).expected += 1;
      const bidsOf = new Map<number, number>();
      for (const key of sentAt.keys()) {
        const target = Number(key.split(':')[0]);
        bidsOf.set(target, (bidsOf.get(target) ?? 0) + 1);
      }
      for (const [target, figures] of Object.entries(byTarget)) figures.expected *= bidsOf.get(Number(target)) ?? 0;
      for (const [key, times] of receivedAt) {
        const at = sentAt.get(key);
        const figures = byTarget[Number(key.split(':')[0])];
        if (at !== undefined && figures) for (const time of times) figures.latencies.push(time - at);
      }
      send({
        reply: 'collected',
        byTarget: Object.fromEntries(
          Object.entries(byTarget).map(([target, f]) => [target, { latencies: Float64Array.from(f.latencies), expected: f.expected, received: f.latencies.length }]),
        ),
        loopP99Ms: loop.percentile(99) / 1e6,
        loopMaxMs: loop.max / 1e6,
      });
      break;
    }
    case 'disconnect': {
      // A clean close, as a browser leaving the page: the server forgets the session at once.
      // The reply waits for the server to confirm every close, so that its next heap reading
      // is not taken while it is still letting these go.
      const closed = sockets.splice(0).map(
        ({ ws }) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            ws.once('close', () => resolve());
            if (ws.readyState === ws.OPEN) ws.send('41');
            ws.close();
          }),
      );
      void Promise.race([Promise.all(closed), sleep(15_000)]).then(() => send({ reply: 'disconnected' }));
      break;
    }
  }
});
process.on('disconnect', () => process.exit(0));
