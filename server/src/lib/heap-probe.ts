/**
 * Memory after a full garbage collection, for benchmarks that compare heap per connection
 * (`npm run bench:fanout`). A benchmark starts the server as its child with `--expose-gc` and
 * asks over the IPC channel that gives it; the answer covers every process of the server.
 *
 * Off in production: it only listens when the process has a parent's IPC channel *and* was
 * started with `--expose-gc`, which nothing but a benchmark does. Nothing reaches it from the
 * network.
 */

export const HEAP_PROBE = 'luxemotors:heap-probe';
export const HEAP_REPORT = 'luxemotors:heap-report';

export interface HeapProbe {
  type: typeof HEAP_PROBE;
  id: number;
}

export interface HeapReport {
  type: typeof HEAP_REPORT;
  id: number;
  /** Bytes, summed over the server's processes. */
  heapUsed: number;
  rss: number;
  processes: number;
}

export function isHeapProbe(message: unknown): message is HeapProbe {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === HEAP_PROBE;
}

/** Whether this process may answer probes (see above). */
export function heapProbeEnabled(): boolean {
  return typeof process.send === 'function' && typeof (globalThis as { gc?: unknown }).gc === 'function';
}

/** This process's own figures after a full collection. */
export function measureHeap(id: number): HeapReport {
  const gc = (globalThis as { gc?: () => void }).gc!;
  // Twice: objects freed by the first pass's finalizers go in the second.
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { type: HEAP_REPORT, id, heapUsed, rss, processes: 1 };
}

/** Answers the parent's probes with this process's figures (one process, or a cluster worker). */
export function answerHeapProbes(): void {
  if (!heapProbeEnabled()) return;
  process.on('message', (message: unknown) => {
    if (isHeapProbe(message)) process.send!(measureHeap(message.id));
  });
}
