import { formatUsd } from '@common/pricing.ts';
import type { PricePoint } from '@common/schemas/discovery.ts';
import { formatDate } from '../../../lib/relative-time.ts';

/**
 * A car's price history: the drop sentence and the chart's geometry. Its days are UTC dates
 * (formatDate): the car page is drawn on the server, and a day in the viewer's time zone could
 * differ from the server's, which breaks hydration.
 */

/** "Price dropped $5,000 on Nov 12, 2026" (a UTC date) when the last change lowered the price; otherwise null. */
export function priceDropSentence(points: readonly PricePoint[]): string | null {
  if (points.length < 2) return null;
  const last = points[points.length - 1]!;
  const before = points[points.length - 2]!;
  if (last.price >= before.price) return null;
  return `Price dropped ${formatUsd(before.price - last.price)} on ${formatDate(last.at)}`;
}

export interface ChartGeometry {
  /** The polyline's points, "x,y x,y". */
  line: string;
  dots: { x: number; y: number }[];
  low: number;
  high: number;
}

/**
 * The points laid out in a `width` × `height` box (with `pad` inside each edge): time along x,
 * price up y. Equal prices sit in the middle; a step is drawn (the price holds until it changes)
 * and the line runs on to `now`, so the last price shows as the current one.
 */
export function chartGeometry(points: readonly PricePoint[], width: number, height: number, pad: number, now = Date.now()): ChartGeometry {
  const times = points.map((p) => Date.parse(p.at));
  const prices = points.map((p) => p.price);
  const first = Math.min(...times);
  const end = Math.max(now, ...times);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const x = (t: number) => pad + (end === first ? 0 : ((t - first) / (end - first)) * (width - 2 * pad));
  const y = (price: number) => (high === low ? height / 2 : pad + ((high - price) / (high - low)) * (height - 2 * pad));
  const dots = points.map((p, i) => ({ x: round(x(times[i]!)), y: round(y(p.price)) }));
  const steps: string[] = [];
  dots.forEach((dot, i) => {
    if (i > 0) steps.push(`${dot.x},${dots[i - 1]!.y}`);
    steps.push(`${dot.x},${dot.y}`);
  });
  const lastDot = dots[dots.length - 1];
  if (lastDot) steps.push(`${round(x(end))},${lastDot.y}`);
  return { line: steps.join(' '), dots, low, high };
}

const round = (n: number) => Math.round(n * 10) / 10;
