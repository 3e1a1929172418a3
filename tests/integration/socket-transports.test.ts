import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ConfigError } from '../../server/src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { connectSocket, emitAck, type ClientSocket } from '../helpers/sockets.ts';

/**
 * SOCKET_TRANSPORTS=websocket: WebSocket-only real time, for nodes behind a plain load balancer
 * without sticky sessions (a WebSocket is one connection, so it needs none; long-polling does).
 */

let websocketOnly: TestApp;
let both: TestApp;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  [websocketOnly, both] = await Promise.all([startTestApp({ SOCKET_TRANSPORTS: 'websocket' }), startTestApp()]);
  await Promise.all([websocketOnly.listen(), both.listen()]);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all([websocketOnly?.close(), both?.close()]);
});

const pollingHandshake = (url: string) => fetch(`${url}/socket.io/?EIO=4&transport=polling`);

describe('WebSocket-only real time', () => {
  it('serves WebSocket clients and refuses long-polling, which would need sticky sessions', async () => {
    const socket = await connectSocket(websocketOnly.url, { transports: ['websocket'] });
    sockets.push(socket);
    const carId = (await websocketOnly.app.inject({ method: 'GET', url: '/api/cars?limit=1' })).json().data.cars[0].id;
    expect(await emitAck(socket, 'car:join', { carId })).toMatchObject({ ok: true });
    const refused = await pollingHandshake(websocketOnly.url);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Transport unknown');
  });

  it('keeps long-polling by default, for clients that cannot open a WebSocket', async () => {
    const handshake = await pollingHandshake(both.url);
    expect(handshake.status).toBe(200);
    expect(await handshake.text()).toContain('"sid"');
  });

  it('refuses a setting it does not know', () => {
    const problems = (() => {
      try {
        loadConfig({ SOCKET_TRANSPORTS: 'carrier-pigeon', JWT_SECRET: 'transport-test-secret-0123456789abcdef', DATA_DIR: '/tmp' });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    })();
    expect(problems.join()).toContain('SOCKET_TRANSPORTS');
  });
});
