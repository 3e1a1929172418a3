/**
 * The server's JSON log, read line by line from its standard output: the fault runs count the
 * error-level lines (pino level 50 and above) a fault caused, and print the first few.
 */
export class ServerLog {
  lines = 0;
  readonly errors: string[] = [];
  readonly warnings: string[] = [];

  readonly onLine = (line: string): void => {
    this.lines += 1;
    let level = 0;
    try {
      level = Number((JSON.parse(line) as { level?: unknown }).level) || 0;
    } catch {
      // Not a log line (a stray print); kept as an error so nothing unexpected goes unseen.
      level = 50;
    }
    if (level >= 50) this.errors.push(line);
    else if (level >= 40) this.warnings.push(line);
  };

  /** The message of each error line, counted: `{ "job queue error": 3 }`. */
  errorSummary(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const line of this.errors) {
      let message = line.slice(0, 120);
      try {
        const parsed = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        message = `${parsed.msg ?? ''}${parsed.err?.message ? `: ${parsed.err.message}` : ''}`.slice(0, 160);
      } catch {
        // Keep the raw start of the line.
      }
      counts[message] = (counts[message] ?? 0) + 1;
    }
    return counts;
  }
}

/** Reads the server's own figures from /metrics (with the metrics token when one is set). */
export async function readMetrics(url: string, token?: string): Promise<(name: string, labels?: string) => number> {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  const text = await res.text();
  return (name, labels) => {
    const prefix = labels ? `${name}{${labels}} ` : `${name} `;
    const line = text.split('\n').find((l) => l.startsWith(prefix));
    return line ? Number(line.slice(prefix.length)) : 0;
  };
}

export const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
