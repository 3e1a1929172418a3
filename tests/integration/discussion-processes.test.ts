import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.ts';
import { insertListing } from '../helpers/escrow.ts';
import { http, insertAccounts, signIn } from '../helpers/server-database.ts';
import { ServerProcesses, canRunTwoProcesses } from '../helpers/server-process.ts';
import { connectSocket, record, waitUntil } from '../helpers/sockets.ts';

/**
 * The discussion's pushes cross processes (contract "Real-time": pushed by whichever process
 * handled the write, to viewers on every process): a vote, a held message and a report-hold
 * written through process A reach viewers connected to process B, and a held message reaches
 * only its author there.
 */

const SECRET = 'discussion-process-secret-0123456789abcdef';
const servers = new ServerProcesses();
afterAll(() => servers.closeAll());

const twoProcesses = canRunTwoProcesses('discussion-processes');

describe.skipIf(!twoProcesses)('discussion pushes with two processes and Redis', () => {
  it('pushes votes, removals and held messages written on one process to the right viewers on the other', async () => {
    const database = await createTestDatabase();
    servers.afterKill(() => database.close());
    const [seller, author, ...others] = await insertAccounts(database.db, ['Disc Seller', 'Disc Author', 'R1', 'R2', 'R3']);
    const car = await insertListing(database.db, seller!, { price: 90_000 });
    const [a, b] = await servers.startPair(
      { DATABASE_URL: database.url!, REDIS_URL: process.env.REDIS_URL!, REDIS_PREFIX: `lmtest-disc-${process.pid}`, JWT_SECRET: SECRET },
      'discussion',
    );
    const token = async (account: { id: number; email: string; name: string }) => signIn(a.url, account);
    const [authorToken, ...otherTokens] = [await token(author!), ...(await Promise.all(others.map((o) => token(o!))))];

    const join = async (tokenValue: string | undefined) => {
      const socket = await connectSocket(b.url, tokenValue ? { token: tokenValue } : {});
      servers.sockets.push(socket);
      await new Promise((resolve) => socket.emit('car:join', { carId: car.id }, resolve));
      return socket;
    };
    const viewer = await join(undefined);
    const authorOnB = await join(authorToken);
    const viewerMessages = record<{ id: number; status: string }>(viewer, 'chat:message');
    const authorMessages = record<{ id: number; status: string }>(authorOnB, 'chat:message');
    const updates = record<{ id: number; upvotes: number }>(viewer, 'chat:updated');
    const removals = record<{ id: number }>(viewer, 'chat:removed');

    const posted = await http<{ id: number; status: string }>(a.url, authorToken!, 'POST', '/api/chat', { carId: car.id, message: 'Original interior, 2 owners' });
    expect(posted.status).toBe(201);
    const id = posted.body.data.id;
    await waitUntil(() => viewerMessages.some((m) => m.id === id), 10_000, 'the message on B');

    expect((await http(a.url, otherTokens[0]!, 'POST', `/api/chat/${id}/upvote`)).status).toBe(200);
    await waitUntil(() => updates.some((u) => u.id === id && u.upvotes === 1), 10_000, 'the vote on B');

    const held = await http<{ id: number; status: string }>(a.url, authorToken!, 'POST', '/api/chat', { carId: car.id, message: 'text me on 555 013 4477' });
    expect(held.body.data.status).toBe('held');
    await waitUntil(() => authorMessages.some((m) => m.id === held.body.data.id && m.status === 'held'), 10_000, 'the held message to its author on B');

    for (const reporter of otherTokens) expect((await http(a.url, reporter!, 'POST', `/api/chat/${id}/report`, { reason: 'spam' })).status).toBe(201);
    // The removal was broadcast to the car's room after the held message was posted: had the
    // held one gone to that room too, it would have reached B's viewer first.
    await waitUntil(() => removals.some((r) => r.id === id), 10_000, 'the removal on B');
    expect(viewerMessages.some((m) => m.id === held.body.data.id)).toBe(false);
  });
});
