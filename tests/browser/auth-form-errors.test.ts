/**
 * Sign-in, forgot-password and reset-password say what is wrong at the field it is about
 * (WCAG 3.3.1 and 4.1.2): the message beside the field, tied to it by `aria-describedby`, the
 * field `aria-invalid`, focus moved to it; the server's validation messages land in the same
 * place. An address such as `jane@localhost` passes the browser's own email check but not the
 * server's, so it reaches the server and comes back as a field's message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { closeBrowserApp, newAppContext, startBrowserApp, wcagProblems } from '../helpers/browser.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { createUser } from '../helpers/users.ts';

let browser: Browser;
let t: TestApp;
let base: string;
let mailbox: TestMailbox;

beforeAll(async () => {
  mailbox = new TestMailbox();
  ({ browser, t, base } = await startBrowserApp({ SMTP_URL: await mailbox.start() }));
});
afterAll(async () => {
  await closeBrowserApp({ browser, t });
  await mailbox?.stop();
});

async function openPage(path: string): Promise<Page> {
  const context = await newAppContext(browser, { timeout: 10_000 });
  const page = await context.newPage();
  await page.goto(`${base}${path}`);
  return page;
}

/** What a screen reader hears about `field`: whether it is invalid, its description, and whether it has focus. */
async function fieldState(field: Locator): Promise<{ invalid: string | null; description: string; focused: boolean }> {
  return field.evaluate((element) => {
    const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return {
      invalid: element.getAttribute('aria-invalid'),
      description: ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' '),
      focused: document.activeElement === element,
    };
  });
}

describe('form errors at their fields', () => {
  it('sign-in: an address the server refuses is said at the Email field, which takes focus; editing it clears the message', async () => {
    const page = await openPage('/login');
    const email = page.getByLabel('Email');
    await email.fill('jane@localhost');
    await page.getByLabel('Password', { exact: true }).fill('whatever-it-is');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => fieldState(email)).toEqual({ invalid: 'true', description: 'Please enter a valid email address', focused: true });
    expect(await page.getByRole('alert').count(), 'no form-level alert repeats it').toBe(0);
    expect(await wcagProblems(page)).toEqual([]);
    await email.fill('jane@example.com');
    expect((await fieldState(email)).invalid).toBeNull();
    await page.context().close();
  });

  it('sign-in: a wrong password stays one alert for the form, naming neither field', async () => {
    const user = await createUser(t);
    const page = await openPage('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid email or password');
    expect((await fieldState(page.getByLabel('Email'))).invalid).toBeNull();
    await page.context().close();
  });

  it('forgot password: an address the server refuses is said at the Email field, which takes focus', async () => {
    const page = await openPage('/forgot-password');
    const email = page.getByLabel('Email');
    await email.fill('jane@localhost');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => fieldState(email)).toEqual({ invalid: 'true', description: 'Please enter a valid email address', focused: true });
    expect(await page.getByRole('heading', { name: 'Check Your Email' }).count()).toBe(0);
    expect(await wcagProblems(page)).toEqual([]);
    await page.context().close();
  });

  it('reset password: a weak password is said at the new password, a mismatch at its confirmation, each taking focus', async () => {
    const user = await createUser(t);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } })).statusCode).toBeLessThan(300);
    const mail = await mailbox.waitFor((m) => m.to.includes(user.email) && m.links.some((l) => l.includes('/reset-password')));
    const link = new URL(mail.links.find((l) => l.includes('/reset-password'))!);
    const page = await openPage(`${link.pathname}${link.search}`);
    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password');

    await password.fill('short');
    await confirm.fill('short');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect.poll(async () => (await fieldState(password)).focused).toBe(true);
    const weak = await fieldState(password);
    expect(weak.invalid).toBe('true');
    expect(weak.description.length).toBeGreaterThan(0);
    expect((await fieldState(confirm)).invalid).toBeNull();

    await password.fill('N3w&Better-Pass');
    await confirm.fill('N3w&Better-Pasz');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect.poll(async () => (await fieldState(confirm)).focused).toBe(true);
    expect((await fieldState(confirm)).invalid).toBe('true');
    expect((await fieldState(confirm)).description).toContain('Passwords do not match');
    expect((await fieldState(password)).invalid).toBeNull();
    expect(await wcagProblems(page)).toEqual([]);
    await page.context().close();
  });
});
