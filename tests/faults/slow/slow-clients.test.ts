import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { SlowClientsReport } from './slow-clients-run.ts';

/**
 * 1,000 real-time clients (half Socket.IO over WebSocket, half the plain feed) stop reading while
 * a chat and bid fan-out runs in their car's room. The server must let every one of them go
 * (realtime_slow_consumers_dropped_total), keep its memory bounded by the backlog limits, and
 * keep delivering every message to the clients that do read.
 *
 * What a stalled connection holds sits first in the kernel: on this machine's loopback about
 * 4 MB per TCP connection before the server's own buffers (the part the limits bound) grow at
 * all, 4 GB for 1,000 connections, which would put the whole machine under TCP memory pressure.
 * So the server and its clients run in a network namespace of their own (`unshare --net`, which
 * needs root) whose loopback has small TCP buffers; nothing outside it is affected. With small
 * buffers and small backlog limits the guard trips within seconds, well before Socket.IO's own
 * ping timeout (20-40 s after a client stops answering) would end the clients on a busy machine.
 */
const KERNEL_BUFFERS = '4096 8192 16384';
const canIsolate = spawnSync('unshare', ['--net', '--', 'true'], { stdio: 'ignore' }).status === 0;
if (!canIsolate) console.log('[fault:slow-clients] skipped: needs `unshare --net` (root) for a loopback of its own.');

function runIsolated(): Promise<SlowClientsReport> {
  const script = [
    'ip link set lo up',
    `sysctl -qw net.ipv4.tcp_rmem="${KERNEL_BUFFERS}" net.ipv4.tcp_wmem="${KERNEL_BUFFERS}"`,
    `exec "${process.execPath}" --import tsx tests/faults/slow/slow-clients-run.ts`,
  ].join(' && ');
  const child = spawn('unshare', ['--net', '--', 'sh', '-c', script], {
    env: { ...process.env, SLOW_CLIENTS_KERNEL_BUFFERS: `tcp_rmem and tcp_wmem ${KERNEL_BUFFERS}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = output.split('\n').find((l) => l.startsWith('REPORT '));
      if (!line) return reject(new Error(`the slow-clients run ended (${code}) without a report:\n${output}`));
      resolve(JSON.parse(line.slice('REPORT '.length)) as SlowClientsReport);
    });
  });
}

describe.skipIf(!canIsolate)('1,000 clients that stop reading', () => {
  it('are all let go while memory stays bounded and readers get every message', async () => {
    const r = await runIsolated();
    const total = r.sockets.socketIo + r.sockets.feed;
    console.log(
      `[fault:slow-clients] ${total} stalled clients (${r.sockets.socketIo} Socket.IO over WebSocket, ${r.sockets.feed} plain feed) on one car, opened in ${r.sockets.openSeconds} s; ` +
        `SOCKET_MAX_BACKLOG_KB=${r.limits.backlogKb}, SOCKET_MAX_BACKLOG_MESSAGES=${r.limits.backlogMessages}; kernel ${r.kernelBuffers}; ${r.database} database\n` +
        `  fan-out: ${r.fanOut.chatPosted} chat messages (1 KB) and ${r.fanOut.bidsAccepted} bids in ${r.fanOut.seconds} s (${r.fanOut.messagesPerSecond} events/s to every client)\n` +
        `  dropped: Socket.IO ${r.dropped.socketIo}/${r.sockets.socketIo}, feed ${r.dropped.feed}/${r.sockets.feed}, all within ${r.dropped.seconds} s; closures seen by the clients ${r.closedSeenByClients}; sockets left ${r.connectedAtEnd}\n` +
        `  RSS: baseline ${r.rss.baselineMb} MB, peak ${r.rss.peakMb} MB (+${r.rss.growthMb} MB; limits x sockets = ${r.rss.boundMb} MB), end ${r.rss.endMb} MB; heap used ${r.heap.baselineMb} -> peak ${r.heap.peakMb} MB\n` +
        `  readers: Socket.IO missed ${r.reader.socketIoMissing}, feed missed ${r.reader.feedMissing}; server error lines ${JSON.stringify(r.serverErrors)}`,
    );
    expect([r.dropped.socketIo, r.dropped.feed]).toEqual([r.sockets.socketIo, r.sockets.feed]);
    expect(r.closedSeenByClients).toBe(total);
    // Only the normal Socket.IO reader is still connected.
    expect(r.connectedAtEnd).toBe(1);
    expect(r.rss.growthMb).toBeLessThan(r.rss.boundMb);
    expect(r.reader).toEqual({ socketIoMissing: 0, feedMissing: 0, socketIoDisconnected: false, feedClosed: false });
    expect(r.serverErrors).toEqual({});
  }, 600_000);
});
