import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The header block as sent (folded lines joined), before any decoding. */
  headers: string;
  /** The decoded message source: headers and every part. */
  body: string;
  links: string[];
}

/** A real SMTP server on a free port that keeps what it receives, for asserting on emails. */
export class TestMailbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: { predicate: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  private server: SMTPServer;
  port = 0;
  /** Recipients the server refuses, with the SMTP reply code (4xx: try later; 5xx: for good). */
  readonly refusals = new Map<string, number>();
  /** Every refused RCPT TO, in order. */
  readonly refused: string[] = [];

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const code = this.refusals.get(address.address);
        if (code === undefined) return callback();
        this.refused.push(address.address);
        callback(Object.assign(new Error(code >= 500 ? 'No such mailbox' : 'Try again later'), { responseCode: code }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const body = decodeQuotedPrintable(raw);
          const headers = (raw.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: decodeEncodedWords(/^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? ''),
            headers,
            body,
            links: [...new Set(body.match(/https?:\/\/[^\s"<>]+/g) ?? [])],
          };
          this.messages.push(mail);
          for (const waiter of this.waiters.filter((w) => w.predicate(mail))) {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            waiter.resolve(mail);
          }
          callback();
        });
      },
    });
  }

  /** Listens on `port` (a free one by default) and answers the SMTP_URL to reach it. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Resolves with the first message (already received or yet to come) matching `predicate`. */
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
    const existing = this.messages.find(predicate);
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching email arrived')), timeoutMs);
      this.waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A header's RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as a mail client shows them. */
function decodeEncodedWords(header: string): string {
  const decodeQ = (text: string) => decodeURIComponent(text.replace(/_/g, ' ').replace(/%/g, '%25').replace(/=([0-9A-F]{2})/gi, '%$1'));
  return header
    .replace(/\?=\s+=\?/g, '?==?') // the space between two encoded words is not part of the text
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) => (encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQ(text)));
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The token in a link such as `${APP_URL}/verify-email?token=...`. */
export function tokenFrom(mail: ReceivedMail, path: string): string {
  const link = mail.links.find((l) => new URL(l).pathname === path);
  if (!link) throw new Error(`no ${path} link in "${mail.subject}"`);
  return new URL(link).searchParams.get('token')!;
}
