import { settingEntries, type SettingSchema } from './settings.ts';

/** The command that writes both files below from the settings schema. */
export const SETTINGS_DOCS_COMMAND = 'npm run docs:settings';
export const CONFIGURATION_PAGE = 'docs/configuration.md';
export const ENV_EXAMPLE = '.env.example';

export const TABLE_START = `<!-- settings table: written by \`${SETTINGS_DOCS_COMMAND}\` from server/src/settings.ts; edit the schema, not the table -->`;
export const TABLE_END = '<!-- end of settings table -->';

const range = (schema: SettingSchema) => [schema.minimum, schema.maximum].map((bound) => (bound ?? 0).toLocaleString('en-US')).join('–');

/** What a setting takes, in words, from its schema. */
function accepts(schema: SettingSchema): string {
  if (schema.type === 'integer') return `whole number, ${range(schema)}`;
  if (schema.type === 'number') return `number, ${range(schema)}`;
  if (schema.type === 'boolean') return '`true` or `false`';
  if (schema.enum) return schema.enum.map((value) => `\`${value}\``).join(', ');
  if (schema.urlProtocols) return `${schema.urlProtocols.map((protocol) => `\`${protocol}//\``).join(' or ')} URL`;
  if (schema.originList) return 'comma-separated origins';
  if (schema.minLength) return `text of ${schema.minLength}+ characters`;
  if (schema.expected) return schema.expected.replace(/"([^"]*)"/g, '`$1`');
  return 'text';
}

function defaultOf(schema: SettingSchema): string | null {
  if (schema.default !== undefined) return `\`${String(schema.default)}\``;
  return schema.computedDefault ?? null;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The settings table of docs/configuration.md. */
export function settingsTable(): string {
  const rows = settingEntries().map(
    ([name, schema]) => `| \`${name}\` | ${cell(defaultOf(schema) ?? '—')} | ${cell(schema.description)} | ${cell(accepts(schema))} |`,
  );
  return ['| Variable | Default | Meaning | Accepts |', '|---|---|---|---|', ...rows].join('\n');
}

const NEW_PAGE = `# Configuration

All settings are environment variables, read once at start. The server refuses to start on an
invalid value and lists every invalid value at once. Switches take \`true\` or \`false\` (also
\`yes\`/\`no\`, \`on\`/\`off\`, \`1\`/\`0\`); an empty value counts as unset. \`.env.example\` lists
every setting with its default.

${TABLE_START}
${TABLE_END}
`;

/** The page with its settings table as the schema has it (a new page when there is none). */
export function configurationPage(current: string | null): string {
  const page = current ?? NEW_PAGE;
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`${CONFIGURATION_PAGE} lacks the settings table's markers:\n${TABLE_START}\n${TABLE_END}`);
  return `${page.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${page.slice(end)}`;
}

/** The table as it stands in a page, or null when the page lacks its markers. */
export function tableInPage(page: string): string | null {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start === -1 || end < start) return null;
  return page.slice(start + TABLE_START.length, end).trim();
}

/** Markdown to plain text for a comment: code marks dropped. */
const plain = (text: string) => text.replaceAll('`', '');

/** Words wrapped into `# ` comment lines of at most `width` characters. */
function comment(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > width && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** `.env.example`: every setting, commented out, with its meaning, what it takes and its default. */
export function envExample(): string {
  const header = comment(
    `Every LuxeMotors setting, written by \`${SETTINGS_DOCS_COMMAND}\` from server/src/settings.ts: edit the schema, ` +
      `not this file (${CONFIGURATION_PAGE} has the same as a table). Every setting is optional: with none set, ` +
      '`npm start` serves http://localhost:3000 on the embedded database in ./.data. The app reads the process ' +
      'environment only; copy this file to .env if your process manager reads one.',
  );
  const blocks = settingEntries().map(([name, schema]) => {
    const fallback = defaultOf(schema);
    const lines = comment(plain(`${sentence(schema.description)} Takes: ${accepts(schema)}. Default: ${fallback ?? 'unset'}.`));
    const example = schema.examples?.[0];
    if (example !== undefined) lines.push(`# For example: ${name}=${example}`);
    lines.push(`# ${name}=${schema.default === undefined ? '' : String(schema.default)}`);
    return lines.join('\n');
  });
  return `${[header.join('\n'), ...blocks].join('\n\n')}\n`;
}
