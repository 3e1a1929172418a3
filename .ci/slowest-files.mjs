// Prints where a test run's time went: the slowest test files in a Vitest log (the default
// reporter's per-file line, whose time includes the file's setup), and their sum (files run two at
// a time, so the wall time is about half of it).
import { readFileSync } from 'node:fs';

const [logPath, countArg = '15'] = process.argv.slice(2);
// eslint-disable-next-line no-control-regex
const text = readFileSync(logPath, 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
const files = [...text.matchAll(/^\s*[✓❯×↓]\s+(?:\S+\s+)?(\S+\.test\.tsx?)\s+\(\d+ tests?[^)]*\)\s+(\d+)ms/gm)]
  .map(([, name, ms]) => ({ name, seconds: Number(ms) / 1000 }))
  .sort((a, b) => b.seconds - a.seconds);
const total = files.reduce((sum, file) => sum + file.seconds, 0);
console.log(`${files.length} files, ${total.toFixed(0)} s summed; the slowest:`);
for (const file of files.slice(0, Number(countArg))) console.log(`${file.seconds.toFixed(1).padStart(7)} s  ${file.name}`);
