import type { OutgoingMail } from './mailer.ts';

const BRAND = 'LuxeMotors';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function compose(to: string, subject: string, paragraphs: string[], action?: { label: string; url: string }): OutgoingMail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), `— The ${BRAND} team`].join('\n\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1a1d24;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-family:Georgia,serif;font-size:22px;color:#0b0d12">${BRAND}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${action ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#c9a45c;color:#0b0d12;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a></p><p style="font-size:13px;color:#555">Or paste this link into your browser: ${escapeHtml(action.url)}</p>` : ''}
<p style="font-size:13px;color:#555">— The ${BRAND} team</p>
</body></html>`;
  return { to, subject, text, html };
}

export function verificationEmail(to: string, name: string, url: string): OutgoingMail {
  return compose(
    to,
    `Verify your email for ${BRAND}`,
    [`Hello ${name},`, `Please confirm your email address to unlock live chat, bidding and escrow on ${BRAND}. The link is valid for 24 hours.`],
    { label: 'Verify email', url },
  );
}

export function passwordResetEmail(to: string, name: string, url: string): OutgoingMail {
  return compose(
    to,
    `Reset your ${BRAND} password`,
    [`Hello ${name},`, 'We received a request to reset your password. The link is valid for one hour and can be used once. If you did not ask for this, you can ignore this email.'],
    { label: 'Reset password', url },
  );
}

export function alreadyRegisteredEmail(to: string, name: string, loginUrl: string, resetUrl: string): OutgoingMail {
  return compose(
    to,
    `Someone tried to register with your ${BRAND} address`,
    [
      `Hello ${name},`,
      `Someone just tried to create a new ${BRAND} account with this email address, which already has an account. If it was you, sign in at ${loginUrl}, or reset your password at ${resetUrl} if you have forgotten it.`,
      'If it was not you, no action is needed: your account is unchanged.',
    ],
  );
}

export function passwordChangedEmail(to: string, name: string, forgotUrl: string): OutgoingMail {
  return compose(
    to,
    `Your ${BRAND} password was changed`,
    [
      `Hello ${name},`,
      'The password of your account was just changed, and every device was signed out.',
      `If you did not do this, reset your password now at ${forgotUrl} and contact our support team.`,
    ],
  );
}

/** An escrow order's news, with a button to the order page. */
export function orderEmail(to: string, subject: string, paragraphs: string[], orderUrl: string): OutgoingMail {
  return compose(to, subject, paragraphs, { label: 'View your order', url: orderUrl });
}

/** An operator's answer to a support request. */
export function ticketReplyEmail(to: string, reference: string, subject: string, message: string): OutgoingMail {
  return compose(to, `Re: ${subject} [${reference}]`, [`Our answer to your request ${reference}:`, ...message.split(/\n{2,}/), 'Reply to this email if you need anything else.']);
}

/**
 * A saved search's alert: the cars it found, a link to stop the alerts without signing in, and
 * the RFC 8058 headers that let mail clients offer the same in one click.
 */
export function searchAlertEmail(
  to: string,
  subject: string,
  paragraphs: string[],
  action: { label: string; url: string },
  unsubscribe: { pageUrl: string; oneClickUrl: string },
  stableId: string,
): OutgoingMail {
  const mail = compose(to, subject, paragraphs, action);
  const footer = `You receive this because of a saved search. Stop these alerts: ${unsubscribe.pageUrl}`;
  return {
    ...mail,
    text: `${mail.text}\n\n${footer}`,
    html: mail.html.replace(
      '</body>',
      `<p style="font-size:12px;color:#555">You receive this because of a saved search. <a href="${escapeHtml(unsubscribe.pageUrl)}">Stop these alerts</a>.</p></body>`,
    ),
    headers: { 'List-Unsubscribe': `<${unsubscribe.oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    stableId,
  };
}

/**
 * A notification by email (a bid, a question, an outbid, a batch of them): a button to the page,
 * and one-click unsubscribe from this event's emails (RFC 8058) without signing in.
 */
export function notificationEmail(
  to: string,
  subject: string,
  paragraphs: string[],
  action: { label: string; url: string },
  unsubscribe: { pageUrl: string; oneClickUrl: string; what: string },
  stableId: string,
): OutgoingMail {
  const mail = compose(to, subject, paragraphs, action);
  const footer = `You receive this because of your notification settings. Stop emails about ${unsubscribe.what}: ${unsubscribe.pageUrl}`;
  return {
    ...mail,
    text: `${mail.text}\n\n${footer}`,
    html: mail.html.replace(
      '</body>',
      `<p style="font-size:12px;color:#555">You receive this because of your notification settings. <a href="${escapeHtml(unsubscribe.pageUrl)}">Stop emails about ${escapeHtml(unsubscribe.what)}</a>.</p></body>`,
    ),
    headers: { 'List-Unsubscribe': `<${unsubscribe.oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    stableId,
  };
}
