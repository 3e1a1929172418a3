import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsubscribeTokens } from '../../server/src/services/market/unsubscribe-token.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * The alert email's unsubscribe URL as mail clients and people use it (RFC 8058): the one-click
 * POST in either form encoding, and the same URL opened in a browser.
 */

let t: TestApp;
let tokens: UnsubscribeTokens;
let owner: SignedInUser;

beforeAll(async () => {
  t = await startTestApp();
  await t.listen();
  tokens = new UnsubscribeTokens(t.config.jwtSecret);
  owner = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

/** A fresh instant search of `owner`, and the one-click URL its alert emails carry. */
async function instantSearch(): Promise<{ id: number; oneClickUrl: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/saved-searches', headers: owner.auth, payload: { name: 'Porsche 911', query: { make: 'Porsche' }, alerts: 'instant' } });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as number;
  return { id, oneClickUrl: `${t.url}/api/saved-searches/unsubscribe?token=${encodeURIComponent(tokens.sign(id))}` };
}

async function alertsOf(id: number): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/saved-searches', headers: owner.auth });
  return (res.json().data.searches as { id: number; alerts: string }[]).find((s) => s.id === id)!.alerts;
}

function oneClickForm(extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('List-Unsubscribe', 'One-Click');
  for (const [name, value] of Object.entries(extra)) form.set(name, value);
  return form;
}

describe('one-click unsubscribe (RFC 8058)', () => {
  it('turns alerts off from a multipart/form-data POST, the encoding the RFC recommends', async () => {
    const search = await instantSearch();
    const res = await fetch(search.oneClickUrl, { method: 'POST', body: oneClickForm() });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).data.name).toBe('Porsche 911');
    expect(await alertsOf(search.id)).toBe('off');
  });

  it('turns alerts off from a urlencoded POST that carries a field of the client’s own', async () => {
    const search = await instantSearch();
    const res = await fetch(search.oneClickUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click&client=webmail',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await alertsOf(search.id)).toBe('off');
  });

  it('refuses a multipart POST with an altered token with 400 and changes nothing', async () => {
    const search = await instantSearch();
    const altered = search.oneClickUrl.replace(/.(?=$)/, (c) => (c === 'A' ? 'B' : 'A'));
    const res = await fetch(altered, { method: 'POST', body: oneClickForm() });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('VALIDATION_FAILED');
    expect(await alertsOf(search.id)).toBe('instant');
  });

  it('refuses a form without List-Unsubscribe=One-Click (400), with a file in it (413), or a body of another type (415), and changes nothing', async () => {
    const search = await instantSearch();
    const wrongValue = new FormData();
    wrongValue.set('List-Unsubscribe', 'Yes');
    const withFile = oneClickForm();
    withFile.set('file', new Blob(['x'.repeat(100)]), 'x.txt');
    const refused = await fetch(search.oneClickUrl, { method: 'POST', body: wrongValue });
    expect(refused.status).toBe(400);
    expect((await refused.json()).code).toBe('VALIDATION_FAILED');
    const tooMuch = await fetch(search.oneClickUrl, { method: 'POST', body: withFile });
    expect(tooMuch.status).toBe(413);
    expect(await tooMuch.json()).toEqual({ error: 'The unsubscribe form takes at most 5 short fields and no file', code: 'PAYLOAD_TOO_LARGE' });
    const plainText = await fetch(search.oneClickUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'List-Unsubscribe=One-Click' });
    expect(plainText.status).toBe(415);
    expect((await plainText.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await alertsOf(search.id)).toBe('instant');
  });

  it.each([
    ['a body that is not multipart at all', ' '],
    ['a part cut short', '--zz\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Cl'],
    ['a part without its header', '--zz\r\n\r\nOne-Click\r\n--zz--\r\n'],
  ])('answers a broken multipart body (%s) with 400 and changes nothing', async (_, body) => {
    const search = await instantSearch();
    const res = await fetch(search.oneClickUrl, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zz' }, body });
    expect(res.status, await res.clone().text()).toBe(400);
    expect((await res.json()).code).toMatch(/^(INVALID_BODY|VALIDATION_FAILED)$/);
    expect(await alertsOf(search.id)).toBe('instant');
  });

  it('sends a browser that opens the URL to the page that asks first, and changes nothing', async () => {
    const search = await instantSearch();
    const res = await fetch(search.oneClickUrl, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, t.url);
    expect(location.pathname).toBe('/unsubscribe');
    expect(location.searchParams.get('token')).toBe(new URL(search.oneClickUrl).searchParams.get('token'));
    expect(await alertsOf(search.id)).toBe('instant');
  });

  it('answers a second press, and a press after the search was deleted, with 200: the link did its job', async () => {
    const search = await instantSearch();
    for (let press = 0; press < 2; press++) {
      const res = await fetch(search.oneClickUrl, { method: 'POST', body: oneClickForm() });
      expect(res.status).toBe(200);
      expect((await res.json()).data.name).toBe('Porsche 911');
    }
    expect(await alertsOf(search.id)).toBe('off');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/saved-searches/${search.id}`, headers: owner.auth })).statusCode).toBe(200);
    const afterDelete = await fetch(search.oneClickUrl, { method: 'POST', body: oneClickForm() });
    expect(afterDelete.status).toBe(200);
    expect((await afterDelete.json()).data.name).toBe('your saved search');
  });

  it('sends a browser without a token to the page (which says the link is not valid), and refuses an oversized one with 400', async () => {
    const bare = await fetch(`${t.url}/api/saved-searches/unsubscribe`, { redirect: 'manual' });
    expect(bare.status).toBe(303);
    expect(bare.headers.get('location')).toBe('/unsubscribe');
    const oversized = await fetch(`${t.url}/api/saved-searches/unsubscribe?token=${'a'.repeat(300)}`, { redirect: 'manual' });
    expect(oversized.status).toBe(400);
    expect((await oversized.json()).code).toBe('VALIDATION_FAILED');
  });
});
