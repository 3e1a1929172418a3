import type { FastifyReply } from 'fastify';
import { CLOCK_TIMING_NAME } from '@common/paths.ts';

/**
 * Sends a page of the web app: HTML, revalidated on every visit, and stamped with the server's
 * clock as it leaves, even when its HTML was drawn a moment ago, so the app's countdowns start
 * right on a device whose clock is off.
 */
export function sendAppPage(reply: FastifyReply, page: { status: number; html: string | Buffer }): FastifyReply {
  return reply
    .status(page.status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('server-timing', `${CLOCK_TIMING_NAME};desc="${Date.now()}"`)
    .send(page.html);
}
