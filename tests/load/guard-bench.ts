/**
 * `npm run bench:guard`: how well and how fast the contact guard screens discussion messages.
 *
 *   npm run bench:guard -- [--runs 200] [--long-runs 5000]
 *
 * On the table of messages (server/src/services/discussion/contact-guard-cases.ts), whole and
 * held-out part: the share of disguised contacts and payment requests held, and held for the
 * expected reason, per reason; the share of car talk held; every entry the guard gets wrong.
 * Then the time per message over `runs` passes of the whole table, and for messages of 1,000
 * characters. Aims: at least 95 % of disguised contacts held, at most 1 % of car talk held; the
 * exit code is 1 when either is missed.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { GUARD_REASONS, screenMessage } from '../../server/src/services/discussion/contact-guard.ts';
import { guardCases, heldOutCases, type GuardCase } from '../../server/src/services/discussion/contact-guard-cases.ts';
import { benchArgs, percentile } from '../helpers/bench.ts';

const values = benchArgs('Usage: npm run bench:guard -- [--runs 200] [--long-runs 5000]', {
  runs: { type: 'string', default: '200' },
  'long-runs': { type: 'string', default: '5000' },
});
const RUNS = Number(values.runs);
const LONG_RUNS = Number(values['long-runs']);
const options = { ownHosts: ['luxemotors.example', 'localhost:3000'] };

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);

interface Outcome {
  entry: GuardCase;
  held: boolean;
  reasons: string[];
}
const screenAll = (entries: GuardCase[]): Outcome[] =>
  entries.map((entry) => {
    const verdict = screenMessage(entry.text, options);
    return { entry, held: verdict.held, reasons: verdict.held ? verdict.reasons : [] };
  });

function report(title: string, outcomes: Outcome[]): { heldShare: number; carTalkShare: number } {
  const disguised = outcomes.filter((outcome) => outcome.entry.expect === 'hold');
  const carTalk = outcomes.filter((outcome) => outcome.entry.expect === 'allow');
  const held = disguised.filter((outcome) => outcome.held);
  const falselyHeld = carTalk.filter((outcome) => outcome.held);
  console.log(`\n## ${title}: ${outcomes.length} messages (${disguised.length} disguised contacts and payment requests, ${carTalk.length} car talk)\n`);
  console.log('| Measure | n | held | share |');
  console.log('|---|---:|---:|---:|');
  console.log(`| disguised contacts held | ${disguised.length} | ${held.length} | ${percent(held.length, disguised.length)} |`);
  for (const reason of GUARD_REASONS) {
    const ofReason = disguised.filter((outcome) => outcome.entry.reason === reason);
    const heldOfReason = ofReason.filter((outcome) => outcome.held);
    const rightReason = ofReason.filter((outcome) => outcome.reasons.includes(reason));
    console.log(`| — ${reason}: held / held for this reason | ${ofReason.length} | ${heldOfReason.length} / ${rightReason.length} | ${percent(heldOfReason.length, ofReason.length)} / ${percent(rightReason.length, ofReason.length)} |`);
  }
  console.log(`| car talk held | ${carTalk.length} | ${falselyHeld.length} | ${percent(falselyHeld.length, carTalk.length)} |`);
  const wrong = outcomes.filter(
    (outcome) => outcome.held !== (outcome.entry.expect === 'hold') || (outcome.entry.reason !== undefined && outcome.held && !outcome.reasons.includes(outcome.entry.reason)),
  );
  if (wrong.length > 0) {
    console.log('\nWrong:');
    for (const outcome of wrong) {
      const expected = `${outcome.entry.expect}${outcome.entry.reason ? ` (${outcome.entry.reason})` : ''}`;
      console.log(`- expected ${expected}, got ${outcome.held ? `hold (${outcome.reasons.join(', ')})` : 'allow'}: ${JSON.stringify(outcome.entry.text)}`);
    }
  }
  return { heldShare: held.length / disguised.length, carTalkShare: falselyHeld.length / carTalk.length };
}

const whole = report('Whole table', screenAll(guardCases));
report('Held-out part (written before the detector was tuned)', screenAll(heldOutCases));

/**
 * Microseconds per call of `screenMessage` on each of `texts`, `runs` times over (wall clock),
 * and the CPU time per call on average: on a shared, loaded machine the wall clock also counts
 * the time the process waited for a core.
 */
function time(texts: string[], runs: number): { micros: number[]; cpuMicros: number } {
  const micros: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let run = 0; run < runs; run += 1) {
    for (const text of texts) {
      const started = performance.now();
      screenMessage(text, options);
      micros.push((performance.now() - started) * 1000);
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { micros, cpuMicros: (cpu.user + cpu.system) / micros.length };
}

/** A message of exactly 1,000 characters made of the table's messages of one kind, one after another. */
function thousandCharacters(expect: GuardCase['expect']): string {
  const sentences = guardCases.filter((entry) => entry.expect === expect).map((entry) => entry.text);
  let text = '';
  for (let i = 0; text.length < 1000; i += 1) text += `${sentences[i % sentences.length]} `;
  return text.slice(0, 1000);
}

const tableTexts = guardCases.map((entry) => entry.text);
time(tableTexts, 5); // warm up the JIT and the regular expressions
const perMessage = time(tableTexts, RUNS);
const longCarTalk = time([thousandCharacters('allow')], LONG_RUNS);
const longDisguised = time([thousandCharacters('hold')], LONG_RUNS);
const longMessage = thousandCharacters('allow');
const longVerdict = screenMessage(longMessage, options);

console.log(`\n## Time per message (load average ${loadavg().map((load) => load.toFixed(1)).join(', ')} on ${availableParallelism()} cores)\n`);
console.log('| Measure | n | p50 µs | p99 µs | max µs | CPU µs per message |');
console.log('|---|---:|---:|---:|---:|---:|');
const row = (name: string, { micros, cpuMicros }: ReturnType<typeof time>) =>
  console.log(`| ${name} | ${micros.length} | ${percentile(micros, 50).toFixed(1)} | ${percentile(micros, 99).toFixed(1)} | ${Math.max(...micros).toFixed(1)} | ${cpuMicros.toFixed(1)} |`);
row(`a table message (${RUNS} passes of ${tableTexts.length})`, perMessage);
row('1,000 characters of car talk', longCarTalk);
row('1,000 characters of disguised contacts', longDisguised);
if (longVerdict.held) console.log(`\nThe 1,000-character car talk was held: ${JSON.stringify(longVerdict.findings)}`);

const aimsMet = whole.heldShare >= 0.95 && whole.carTalkShare <= 0.01;
console.log(`\nAims (whole table): ≥ 95 % of disguised contacts held, ≤ 1 % of car talk held: ${aimsMet ? 'met' : 'missed'}`);
if (!aimsMet) process.exitCode = 1;
