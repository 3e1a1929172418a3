/**
 * The guard for contact details and payment outside escrow (contract v4, "The discussion").
 * A message that holds a way to reach its author off the site, or a way to pay outside escrow,
 * is held for an operator; ordinary car talk, however full of numbers, passes.
 *
 * Pure and synchronous: the chat service calls it inside the write. The text is first brought
 * to one plain form (compatibility forms, look-alike letters, accents, invisible characters,
 * other scripts' digits), then searched for each kind of contact in turn; what one search
 * finds (an email's domain, a link's digits) is blanked before the next, so one fragment
 * gives one reason.
 */

/** Why a message was held: what kind of off-platform contact or payment it holds. */
export type GuardReason = 'phone' | 'email' | 'link' | 'messaging_app' | 'payment';

export const GUARD_REASONS: readonly GuardReason[] = ['phone', 'email', 'link', 'messaging_app', 'payment'];

/** One thing the guard found, normalized (digits as digits, letters unmasked) for the operator's queue. */
export interface GuardFinding {
  reason: GuardReason;
  fragment: string;
}

export type GuardVerdict = { held: false } | { held: true; reasons: GuardReason[]; findings: GuardFinding[] };

export interface GuardOptions {
  /** The app's own hosts (`luxemotors.example`, `localhost:3000`): links to them are allowed. */
  ownHosts: readonly string[];
}

/** Screens one message; `held` with the reasons (in `GUARD_REASONS` order) and what was found. */
export function screenMessage(text: string, options: GuardOptions): GuardVerdict {
  const findings: GuardFinding[] = [];
  let work = normalizeText(text).toLowerCase();
  work = findEmails(work, findings);
  work = findLinks(work, options.ownHosts, findings);
  work = findAccountsAndWallets(work, findings);
  findPhoneNumbers(work, findings);
  const words = collapseSpacedCharacters(work);
  findNamedServices(words, findings);
  findPhrases(words, findings);
  if (findings.length === 0) return { held: false };
  const unique = new Map(findings.map((finding) => [`${finding.reason}\u0000${finding.fragment}`, finding]));
  return {
    held: true,
    reasons: GUARD_REASONS.filter((reason) => findings.some((finding) => finding.reason === reason)),
    findings: [...unique.values()],
  };
}

// ---------------------------------------------------------------------------------------------
// One plain form of the text

/**
 * Characters that show nothing (or only join or shape their neighbours) and can hide inside a
 * word. Combining marks (variation selectors, the keycap that makes a digit an emoji, the
 * grapheme joiner) go with the accents.
 */
const INVISIBLE = /[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/gu;

/**
 * Letters of other scripts that look like Latin ones or digits (Unicode's confusables for the
 * characters a scammer needs), and small capitals; NFKC already folds full-width, mathematical and circled forms.
 */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', ү: 'y', һ: 'h', ӏ: 'l', ɡ: 'g', ո: 'n', օ: 'o', ս: 'u',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y', Ѕ: 'S', І: 'I', Ј: 'J', Ԝ: 'W',
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w', γ: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ꜰ: 'f', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n',
  ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ʏ: 'y', ᴢ: 'z',
  З: '3', з: '3', б: '6',
  ı: 'i', ł: 'l', ø: 'o', đ: 'd', ħ: 'h', ŧ: 't', ß: 'ss', æ: 'ae', œ: 'oe',
};
const LOOK_ALIKE_PATTERN = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/** A decimal digit of any script as its value: each script's digits are ten consecutive code points. */
function asciiDigit(digit: string): string {
  let codePoint = digit.codePointAt(0)!;
  let position = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(codePoint - 1))) {
    codePoint -= 1;
    position += 1;
  }
  return String(position % 10);
}

/** The text in one plain form: NFKC, no invisible characters, no accents or other marks, Latin look-alikes, ASCII digits. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .replace(LOOK_ALIKE_PATTERN, (letter) => LOOK_ALIKES[letter] ?? letter)
    .replace(/[^\P{Nd}0-9]/gu, asciiDigit)
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63]/g, '-');
}

// ---------------------------------------------------------------------------------------------
// Emails and links

/**
 * Top-level domains a bare `name.tld` counts as a link for: the common ones, without those that
 * are also short English words (`at`, `in`, `is`, `it`, `me`, `no`, `to`, ...).
 */
const TLDS = 'com|net|org|info|biz|io|co|uk|de|fr|es|nl|ch|ru|cn|jp|au|ca|eu|app|dev|xyz|online|site|shop|store|ly|gg|tv|cc|ai|pl|se|dk|fi|pt|ie|nz|za|br|mx|ae|gr|hu|cz|sk|ro|ua|tr|kr|hk|sg|club|link|top|vip|pro|email|cars|auto';
/** After an `@` the domain may also end in the short ones that are English words (`.it`, `.me`, `.at`). */
const EMAIL_TLDS = `${TLDS}|it|me|at|be|in|no|us|to|is|ws`;
/** Mail providers whose name after an "at" makes an address even without its `.com`. */
const MAIL_PROVIDERS = 'gmail|googlemail|hotmail|yahoo|ymail|icloud|protonmail|proton|gmx|yandex|outlook';

// A comma may stand around a spelled-out "@" or "dot" ("lena.f, @ outlook, dot com").
const AT = String.raw`(?:\s*,?\s*@\s*,?\s*|\s*[([{<]\s*(?:at|@)\s*[)\]}>]\s*|\s+at\s+)`;
const DOT = String.raw`(?:\.|\s*[([{<]\s*(?:dot|\.)\s*[)\]}>]\s*|,?\s+dot\s+|\s+\.\s+)`;
const LOCAL_PART = String.raw`[a-z0-9](?:[a-z0-9._+-]*[a-z0-9_])?`;
const LABEL = String.raw`[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?`;
/**
 * `pattern` matched once, never backtracked into (a lookahead's capture matched again as capture
 * `group`): each part of an address is read once, not once per shorter prefix of it, which had
 * made the address pattern the guard's slowest step.
 */
const atomic = (pattern: string, group: number) => `(?=(${pattern}))\\${group}`;
const EMAIL = new RegExp(
  String.raw`(?<![a-z0-9._+-])${atomic(LOCAL_PART, 1)}(?:${DOT}${atomic(LOCAL_PART, 2)})*${AT}(?:${atomic(LABEL, 3)}(?:${DOT}${atomic(LABEL, 4)})*${DOT}(?:${EMAIL_TLDS})|(?:${MAIL_PROVIDERS}))(?![a-z0-9-])`,
  'g',
);

const blank = (match: string) => ' '.repeat(match.length);

const SPELLED_AT_WORD = /\s+at\s+/;
const SPELLED_DOT_IN_ADDRESS = /\s*[([{<]\s*(?:dot|\.)\s*[)\]}>]\s*|\s+dot\s+|\s+\.\s+/;
const PROVIDER_AFTER_AT = new RegExp(String.raw`\sat\s+(?:${MAIL_PROVIDERS})$`);
/** Words written before "at <site>" that point to a page, not a mailbox ("the history at carfax dot com"). */
const POINTING_WORD_BEFORE_AT = /^(?:history|photos|pictures|pics|more|look|it|them|listing|details|video|videos|report|everything|gallery|stock|one|this|car|cars)\s+at\s/;

/**
 * Characters written one by one with spaces ("c a r s 4 u @ g m x . d e") joined, keeping their
 * punctuation: where an address or a link is spelled out letter by letter.
 */
const SPACED_OUT = /(?<![a-z0-9])(?:[a-z0-9@.:/_-] ){4,}[a-z0-9@.:/_-](?![a-z0-9])/g;
/** A quick test that most messages fail, so that the slower pattern above runs only where it may match. */
const MAY_BE_SPACED_OUT = /[^ ] [^ ] [^ ] [^ ] [^ ](?![^ ])/;
const closeSpacedOut = (text: string) => (MAY_BE_SPACED_OUT.test(text) ? text.replace(SPACED_OUT, (match) => match.replace(/ /g, '')) : text);

function replaceEmails(text: string, findings: GuardFinding[]): string {
  return text.replace(EMAIL, (match) => {
    // "look at bit.ly": an "at" word before a plainly written domain is a link, not an address.
    if (SPELLED_AT_WORD.test(match) && !/@|[([{<]\s*at/.test(match)) {
      const pointing = POINTING_WORD_BEFORE_AT.test(match) && !PROVIDER_AFTER_AT.test(match);
      if (pointing || (!SPELLED_DOT_IN_ADDRESS.test(match) && !PROVIDER_AFTER_AT.test(match))) return match;
    }
    const fragment = match
      .replace(new RegExp(AT, 'g'), '@')
      .replace(new RegExp(DOT, 'g'), '.')
      .replace(/\s+/g, '');
    findings.push({ reason: 'email', fragment });
    return blank(match);
  });
}

/**
 * Runs `replace` (which blanks what it finds into `findings`) on the text as written and, when
 * that finds nothing, on the text with its spelled-out characters joined.
 */
function findAsWrittenOrSpacedOut(text: string, findings: GuardFinding[], replace: (text: string) => string): string {
  const found = findings.length;
  const result = replace(text);
  if (findings.length > found) return result;
  const closed = closeSpacedOut(text);
  if (closed === text) return result;
  const closedResult = replace(closed);
  return findings.length > found ? closedResult : result;
}

const findEmails = (text: string, findings: GuardFinding[]) => findAsWrittenOrSpacedOut(text, findings, (each) => replaceEmails(each, findings));

/** A dot written out or spaced (`dot`, `(dot)`, `[.]`, `-dot-`, ` . `) between the parts of a host name. */
const SPELLED_DOT = /\s*[([{<]\s*(?:dot|\.)\s*[)\]}>]\s*|\s+(?:dot|d0t)\s+|[-_]dot[-_]|\s+\.\s+/g;
const LINK = new RegExp(
  String.raw`(?:\b(?:https?|ftp):\/\/[^\s<>"]+|\bwww\d?\.[^\s<>"]+|\b(?:wa|t|m|telegram)\.me\/[^\s<>"]*|(?<![\w.@-])(?:${LABEL}\.)+(?:${TLDS})\b(?::\d{2,5})?(?:\/[^\s<>"]*)?)`,
  'g',
);

/** `host` and `port` of a link, whether or not it names its scheme. */
function hostOf(link: string): { host: string; port: string } {
  const authority = link.replace(/^[a-z]+:\/\//, '').split(/[/?#]/, 1)[0]!.replace(/^[^@]*@/, '');
  const [host = '', port = ''] = authority.split(':');
  return { host: host.replace(/\.$/, ''), port };
}

function isOwnHost(link: string, ownHosts: readonly string[]): boolean {
  const { host, port } = hostOf(link);
  return ownHosts.some((own) => {
    const [ownHost = '', ownPort] = own.toLowerCase().split(':');
    return (host === ownHost || host.endsWith(`.${ownHost}`)) && (ownPort === undefined || ownPort === port);
  });
}

function replaceLinks(text: string, ownHosts: readonly string[], findings: GuardFinding[]): string {
  // Joining spelled dots changes lengths: the blanked text is rebuilt from the joined one.
  return text.replace(SPELLED_DOT, '.').replace(LINK, (match) => {
    const link = match.replace(/[.,;:!?)'"\]]+$/, '');
    const named = /^[a-z]+:\/\//.test(link) || /[a-z]/.test(hostOf(link).host);
    if (!named || isOwnHost(link, ownHosts)) return match;
    findings.push({ reason: 'link', fragment: link });
    return blank(match);
  });
}

const findLinks = (text: string, ownHosts: readonly string[], findings: GuardFinding[]) =>
  findAsWrittenOrSpacedOut(text, findings, (each) => replaceLinks(each, ownHosts, findings));

// ---------------------------------------------------------------------------------------------
// Bank accounts and crypto wallets

const IBAN = /\b[a-z]{2}\d{2}(?: ?[a-z0-9]){11,30}\b/g;
/** The length of an IBAN in each country that issues them (ISO 13616 registry). */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DK: 18,
  DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22,
  IL: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27,
  MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27,
  TN: 24, TR: 26, UA: 29, VG: 24, XK: 20,
};
const WALLETS = [
  /\b(?:bc1|tb1)[02-9ac-hj-np-z]{25,87}\b/g,
  /\b0x[0-9a-f]{40}\b/g,
  /\b[13][1-9a-km-z]{25,34}\b/g,
  /\bt[1-9a-km-z]{33}\b/g,
];

/** ISO 13616's check: the country's length, and the account number moved behind its country code, as a number, mod 97 is 1. */
function isIban(candidate: string): boolean {
  const compact = candidate.replace(/ /g, '').toUpperCase();
  if (compact.length !== IBAN_LENGTHS[compact.slice(0, 2)]) return false;
  const digits = (compact.slice(4) + compact.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

function findAccountsAndWallets(text: string, findings: GuardFinding[]): string {
  let result = text.replace(IBAN, (match) => {
    // The pattern may run into the words after the number: take the longest valid prefix.
    for (let end = match.length; end >= 15; end -= 1) {
      const candidate = match.slice(0, end);
      if (/[a-z0-9]$/.test(candidate) && isIban(candidate)) {
        findings.push({ reason: 'payment', fragment: candidate.replace(/ /g, '').toUpperCase() });
        return blank(candidate) + match.slice(end);
      }
    }
    return match;
  });
  for (const wallet of WALLETS) {
    result = result.replace(wallet, (match) => {
      if (!/\d/.test(match) || !/[a-z]/.test(match.slice(2))) return match;
      findings.push({ reason: 'payment', fragment: match });
      return blank(match);
    });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Phone numbers

/** Stands in for a number that is surely not a phone's, so that no run of digits reaches across it. */
const BREAK = ' \uE000 ';

const UNITS =
  'k|km|kms|kilometers?|kilometres?|miles?|mi|mph|kph|km\\/h|rpm|nm|lb-?ft|lbs?|ft|psi|bar|hp|bhp|ps|cv|kw|cc|l|litres?|liters?|mm|cm|kg|tons?|microns?|µm|um|mils?|degrees?|°|owners?|years?|yrs?|months?|weeks?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?|gears?|speeds?|cyl|cylinders?|valves?|doors?|seats?|keys?|cars?|units?|examples?|built|made|dollars?|euros?|eur|usd|gbp|chf|pounds?|bucks|grand|percent|times|pages?|photos?|pics?|pictures?|videos?';
const DIGIT_WORD = String.raw`(?:zero|oh|o|nought|one|two|three|four|five|six|seven|eight|nine)`;
/** Not amid other digits, written or spelled: a date inside a longer run is part of a phone number. */
const NOT_AFTER_DIGITS = String.raw`(?<!(?:\d|(?<![a-z])${DIGIT_WORD}+)[^\p{L}\p{N}]{0,3})`;
const NOT_BEFORE_DIGITS = String.raw`(?![^\p{L}\p{N}]{0,3}(?:\d|${DIGIT_WORD}+(?![a-z])))`;

/** Numbers that are surely not a phone's, replaced by `BREAK` before runs of digits are read. */
const NOT_PHONE_NUMBERS: Array<[RegExp, (match: string, ...groups: string[]) => string]> = [
  // Dates: 15/03/2024, 15.03.24, 2023-11-08 (day and month checked, either order).
  [
    new RegExp(String.raw`${NOT_AFTER_DIGITS}(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})${NOT_BEFORE_DIGITS}`, 'gu'),
    (match, a, _s, b) => (Number(a) >= 1 && Number(b) >= 1 && ((Number(a) <= 31 && Number(b) <= 12) || (Number(a) <= 12 && Number(b) <= 31)) ? BREAK : match),
  ],
  [new RegExp(String.raw`${NOT_AFTER_DIGITS}(?:19|20)\d{2}([./-])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])${NOT_BEFORE_DIGITS}`, 'gu'), () => BREAK],
  // Times and lap times: 10:30, 7:12.7, 1:23:45.
  [/(?<!\d)\d{1,2}:[0-5]\d(?::[0-5]\d)?(?:[.,]\d{1,3})?(?!\d)/g, () => BREAK],
  // Prices: $310,000, €95.000, £2,350, USD 1.2m, € 95 000.
  [/(?:[$€£¥]|\b(?:usd|eur|gbp|chf|aud|cad|us\$)\b)\s?\d+(?:[,.'’ ]\d{3})*(?:[.,]\d{1,2})?(?:\s?(?:k|m|mm|mil|million|bn|grand)\b)?/g, () => BREAK],
  // A number with its unit: 45 000 km, 12500 miles, 520 Nm, 36 psi.
  [new RegExp(String.raw`(?<![\d.,])\d+(?:[,.'’ ]\d{3})*(?:[.,]\d+)?\s?(?:${UNITS})(?![a-z])`, 'g'), () => BREAK],
];

const DIGIT_WORDS: Record<string, string> = {
  zero: '0', oh: '0', o: '0', nought: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9',
};
const COMPOUND_NUMBER_WORDS: Record<string, string> = {
  ten: '10', eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17', eighteen: '18', nineteen: '19',
  twenty: '20', thirty: '30', forty: '40', fourty: '40', fifty: '50', sixty: '60', seventy: '70', eighty: '80', ninety: '90',
};
/** Words said between the digits of a number as it is read out. */
const SPOKEN_SEPARATORS = new Set(['dash', 'hyphen', 'dot', 'space']);
/** Letters that stand for a digit when written right against other digits ("0l34", "O134"). */
const DIGIT_LOOK_ALIKES: Record<string, string> = { o: '0', l: '1', i: '1' };
/** What may stand between two digits of one number. */
const SEPARATOR_CHARACTER = /[\s.\-/\\()[\]{}+*_|,:~'"`’‘“”•·‧・･…⁃]|\p{Extended_Pictographic}|\p{So}|\p{Sk}/u;
const separatorCache = new Map<string, boolean>();
function isSeparator(character: string): boolean {
  let answer = separatorCache.get(character);
  if (answer === undefined) {
    answer = SEPARATOR_CHARACTER.test(character);
    // Bounded: a message of unusual characters must not grow it without end.
    if (separatorCache.size < 4096) separatorCache.set(character, answer);
  }
  return answer;
}

/** A word that is only digit words run together ("fivefive", "oneoh"), as its digits. */
function runTogetherDigits(word: string): string | null {
  const names = ['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
  const solve = (rest: string): string | null => {
    if (rest === '') return '';
    for (const name of names) {
      if (rest.startsWith(name)) {
        const tail = solve(rest.slice(name.length));
        if (tail !== null) return DIGIT_WORDS[name]! + tail;
      }
    }
    return null;
  };
  return word.length >= 4 && /^(?:ze|oh|on|tw|th|fo|fi|si|se|ei|ni)/.test(word) ? solve(word) : null;
}

interface DigitItem {
  digits: string;
  kind: 'numeral' | 'spelled' | 'compound';
  start: number;
  end: number;
}
interface DigitRun {
  items: DigitItem[];
  /** What stood between consecutive items. */
  separators: string[];
  /** Separator characters right before the first item (a `+`, a parenthesis). */
  lead: string;
}

type Token = { kind: 'number' | 'word' | 'space' | 'other'; text: string; start: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/(\d+)|(\p{L}+)|(\s+)|([\s\S])/gu)) {
    const kind = match[1] ? 'number' : match[2] ? 'word' : match[3] ? 'space' : 'other';
    tokens.push({ kind, text: match[0], start: match.index });
  }
  return tokens;
}

/** Runs of digits, numerals or spelled, with what separates them, as a phone number would be written. */
function digitRuns(text: string): DigitRun[] {
  const tokens = tokenize(text);
  const runs: DigitRun[] = [];
  let current: DigitRun | null = null;
  let gap = '';
  let multiplier = 1;
  const close = () => {
    if (current) runs.push(current);
    current = null;
    gap = '';
    multiplier = 1;
  };
  const add = (item: DigitItem) => {
    item.digits = item.digits.repeat(multiplier);
    multiplier = 1;
    const separatorLength = gap.replace(/\s/g, '').length;
    const last = current?.items.at(-1);
    // "seventy-three" is one number, 73, as a tens word followed by a unit word.
    if (last?.kind === 'compound' && /^[2-9]0$/.test(last.digits) && item.kind === 'spelled' && /^[1-9]$/.test(item.digits) && /^[\s-]*$/.test(gap)) {
      last.digits = last.digits[0]! + item.digits;
      last.end = item.end;
      gap = '';
      return;
    }
    if (current && separatorLength <= 4) {
      current.items.push(item);
      current.separators.push(gap);
    } else {
      const lead = gap;
      close();
      current = { items: [item], separators: [], lead };
    }
    gap = '';
  };
  /** The digits the word at `index` stands for, if it is a digit word (or a look-alike letter against digits). */
  const digitsOf = (index: number): { digits: string; kind: DigitItem['kind'] } | null => {
    const token = tokens[index]!;
    if (token.kind !== 'word') return null;
    const word = token.text;
    if (DIGIT_WORDS[word] !== undefined) return { digits: DIGIT_WORDS[word], kind: 'spelled' };
    if (COMPOUND_NUMBER_WORDS[word] !== undefined) return { digits: COMPOUND_NUMBER_WORDS[word], kind: 'compound' };
    const runTogether = runTogetherDigits(word);
    if (runTogether !== null) return { digits: runTogether, kind: 'spelled' };
    const touchesNumber = tokens[index - 1]?.kind === 'number' || tokens[index + 1]?.kind === 'number';
    if (touchesNumber && DIGIT_LOOK_ALIKES[word] !== undefined) return { digits: DIGIT_LOOK_ALIKES[word], kind: 'spelled' };
    return null;
  };
  const wordDigits = tokens.map((_token, index) => digitsOf(index));
  // Digits written against other letters are a code or a quantity (BNR32, ZR19, 310k, 6pm).
  const stuck = (index: number) => tokens[index]?.kind === 'word' && wordDigits[index] === null;

  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    const end = token.start + token.text.length;
    if (token.kind === 'number') {
      if (stuck(i - 1) || stuck(i + 1)) {
        close();
        continue;
      }
      add({ digits: token.text, kind: 'numeral', start: token.start, end });
    } else if (token.kind === 'word') {
      const word = token.text;
      const digits = wordDigits[i];
      if (digits) add({ ...digits, start: token.start, end });
      else if (word === 'double' || word === 'triple') {
        // "double seven": the next digit twice, within the run or starting one.
        multiplier = word === 'double' ? 2 : 3;
      } else if (SPOKEN_SEPARATORS.has(word) && current) gap += '-';
      else close();
    } else if (token.kind === 'space' || isSeparator(token.text)) {
      gap += token.text;
    } else {
      close();
    }
  }
  close();
  return runs;
}

/** Words near a number that say it is a phone's. */
const PHONE_CUE = /\b(?:phone|tel|telephone|mobile|mob|cell|cellphone|call|calling|text|txt|sms|ring|dial|whatsapp|wa|viber|signal|telegram|contact|reach|digits|my number|number is|numbers are|ph)\b|\+\s*$/;
/** Words before a number that say it is a code or a reference, not a phone's. */
const REFERENCE_CUE =
  /\b(?:vin|chassis|engine|serial|invoice|inv|order|stock|part|parts|lot|frame|ref|reference|receipt|tracking|policy|claim|ticket|registration|reg|certificate|build|production|sequence|body|gearbox|transmission|job|kardex|coa|plate|item|sku|tag|page|odometer|odo|codes?|option|options|paint|readings?)\b[^a-z]*(?:[a-z]+[^a-z]+){0,2}$/;
const ACCOUNT_CUE = /\b(?:account|acct|routing|sort code|aba|swift|iban|card)\b[^a-z]*(?:[a-z]+[^a-z]+){0,2}$/;

const isYear = (digits: string) => /^(?:19|20)\d\d$/.test(digits);
/** An amount written with thousands separators, up to hundreds of millions: 12,500, 1,250,000, 95.000, 2,350.50. */
const GROUPED_AMOUNT = /^[1-9]\d{0,2}(?:[,.'’]\d{3}){1,2}(?:[.,]\d{1,2})?$/;

/** Whether a run holds a range of years (1986-1988, 1991–95, 2019/2021), as in "959 (1986-1988)". */
function holdsYearRange(run: DigitRun): boolean {
  return run.items.slice(1).some((item, i) => {
    const from = run.items[i]!.digits;
    if (!isYear(from) || !/^\s*[-/&]\s*$/.test(run.separators[i]!)) return false;
    const to = item.digits.length === 2 ? from.slice(0, 2) + item.digits : item.digits;
    return isYear(to) && Number(to) >= Number(from) && Number(to) - Number(from) <= 80;
  });
}

/**
 * Whether a run is only amounts written with thousands separators ("10,000 / 20,000 / 30,000"):
 * items joined by a bare separator are read as one number first. A phone's groups are not
 * amounts ("555.013.4134", "01.523").
 */
function onlyGroupedAmounts(run: DigitRun): boolean {
  const numbers: string[] = [run.items[0]!.digits];
  run.items.slice(1).forEach((item, i) => {
    const separator = run.separators[i]!;
    if (/^[,.'’]$/.test(separator) && item.kind === 'numeral' && run.items[i]!.kind === 'numeral') numbers[numbers.length - 1] += separator + item.digits;
    else numbers.push(item.digits);
  });
  return numbers.every((number) => GROUPED_AMOUNT.test(number));
}

function findPhoneNumbers(text: string, findings: GuardFinding[]): void {
  let cleaned = text;
  for (const [pattern, replace] of NOT_PHONE_NUMBERS) cleaned = cleaned.replace(pattern, replace as (match: string) => string);
  for (const run of digitRuns(cleaned)) {
    const digits = run.items.map((item) => item.digits).join('');
    if (digits.length < 7) continue;
    const start = run.items[0]!.start;
    const end = run.items.at(-1)!.end;
    const before = cleaned.slice(Math.max(0, start - 40), start);
    const after = cleaned.slice(end, end + 20);
    const plus = /\+/.test(run.lead) || (digits.startsWith('00') && digits.length >= 10);
    const cue = plus || PHONE_CUE.test(before) || /^\W*(?:call|text|whatsapp|anytime|after|before)\b/.test(after);
    const lengths = run.items.map((item) => item.digits.length);
    // A single digit word beside numerals is as likely "15/03/2024, one owner" as a disguise.
    const spelled = run.items.filter((item) => item.kind === 'spelled').reduce((count, item) => count + item.digits.length, 0) >= 2;
    const compound = run.items.some((item) => item.kind === 'compound');
    const fragment = (/\+/.test(run.lead) ? '+' : '') + digits;

    if (ACCOUNT_CUE.test(before)) {
      findings.push({ reason: 'payment', fragment });
      continue;
    }
    if (spelled) {
      findings.push({ reason: 'phone', fragment });
      continue;
    }
    if (compound) {
      // "nineteen seventy three": numbers said as numbers are years and amounts, not phones.
      if (digits.length >= 10 || cue) findings.push({ reason: 'phone', fragment });
      continue;
    }
    if (!cue && (onlyGroupedAmounts(run) || holdsYearRange(run))) continue;
    if (!cue && (REFERENCE_CUE.test(before) || /#\s*$/.test(run.lead) || /#\s*$/.test(before))) continue;
    const noLeadingZero = run.items.every((item) => !item.digits.startsWith('0'));
    // Readings and counts listed with commas are of one size (175, 178, 176); a phone's groups are not.
    const commaList = run.separators.length >= 2 && run.separators.every((separator) => separator.includes(',')) && new Set(lengths).size === 1;
    const isList =
      !cue &&
      noLeadingZero &&
      ((run.items.length >= 5 && lengths.every((length) => length === 3)) ||
        (commaList && lengths.every((length) => length >= 2)) ||
        run.items.every((item) => isYear(item.digits)));
    if (isList) continue;
    if (digits.length >= 16) {
      findings.push({ reason: 'payment', fragment: digits });
      continue;
    }
    if (digits.length >= 10) {
      findings.push({ reason: 'phone', fragment });
      continue;
    }
    const parenthesized = /[()]/.test(run.lead + run.separators.join(''));
    const localShape = lengths.length === 2 && lengths[0] === 3 && lengths[1] === 4 && !isYear(run.items[1]!.digits) && /^[\s.-]+$/.test(run.separators[0]!);
    if (cue || parenthesized || localShape) findings.push({ reason: 'phone', fragment });
  }
}

// ---------------------------------------------------------------------------------------------
// Named apps and payment services, however spelled

/**
 * Letters written one by one ("w h a t s a p p", "t.e.l.e.g.r.a.m", "E-T-H") joined into a word:
 * three or more single characters in a row, each followed by a short separator.
 */
const SPACED_CHARACTERS = /(?<![a-z0-9])(?:[a-z0-9$@](?:[\s.\-_*·•,/|\\~'’:]{1,3}|\p{Extended_Pictographic}{1,3})){2,}[a-z0-9$@](?![a-z0-9])/gu;
/** A quick test that most messages fail: three characters each alone between separators (an emoji is up to six code units). */
const MAY_HAVE_SPACED_CHARACTERS = /(?:^|[^\w$@])[\w$@][^\w$@]{1,6}[\w$@][^\w$@]{1,6}[\w$@](?![\w$@])/;

function collapseSpacedCharacters(text: string): string {
  if (!MAY_HAVE_SPACED_CHARACTERS.test(text)) return text;
  return text.replace(SPACED_CHARACTERS, (match) => ` ${match.replace(/[^a-z0-9$@]/g, '')} `);
}

/** Digits and symbols written for letters ("wh4tsapp", "te1egram", "U$DT"). */
const LEET: Record<string, string> = { '4': 'a', '@': 'a', '3': 'e', '0': 'o', '5': 's', $: 's', '7': 't', '8': 'b', '9': 'g', '|': 'l', '!': 'i' };

/** `word` with each run of one letter written once ("whatsaap" → "whatsap"). */
function singleLetters(word: string): string {
  let result = word.slice(0, 1);
  for (let i = 1; i < word.length; i += 1) if (word[i] !== word[i - 1]) result += word[i];
  return result;
}

const LETTERS_ONLY = /^[a-z]+$/;

/** A word as it may have been meant: leetspeak read as letters (1 as both i and l), doubled letters single. */
function readings(word: string): string[] {
  if (LETTERS_ONLY.test(word)) return [singleLetters(word)];
  if (!/\p{L}/u.test(word)) return [];
  const letters = word.replace(/[4@3057$89|!]/g, (character) => LEET[character] ?? character);
  const spellings = letters.includes('1') ? [letters.replace(/1/g, 'i'), letters.replace(/1/g, 'l')] : [letters];
  return [...new Set(spellings.map(singleLetters))];
}

/** Whether `a` and `b` differ by at most one letter added, removed or changed. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  // After the first difference, the rest must match with one letter skipped on the longer side (or on both).
  const skipA = a.length >= b.length ? 1 : 0;
  const skipB = b.length >= a.length ? 1 : 0;
  for (let j = i; j + skipA < a.length; j += 1) if (a[j + skipA] !== b[j + skipB]) return false;
  return true;
}

interface NamedService {
  name: string;
  reason: GuardReason;
  /** Spellings with doubled letters made single. */
  spellings: string[];
  /** Long names also match with one letter wrong ("whatsaap", "telegran"). */
  fuzzy?: boolean;
  /** Only written as one word: split, it is ordinary English ("we chat", "I ban"). */
  whole?: boolean;
  /**
   * A name that is also an ordinary word ("turn signal", "line 6", "snap oversteer") counts
   * only as an invitation: after "me on", before "me" or a handle, after "my".
   */
  ambiguous?: { after?: string[]; mine?: boolean };
}

const SERVICES: NamedService[] = [
  { name: 'whatsapp', reason: 'messaging_app', spellings: ['whatsap', 'watsap', 'whatap', 'whtsap', 'wasap', 'whatsapmesenger'], fuzzy: true },
  { name: 'telegram', reason: 'messaging_app', spellings: ['telegram', 'telegrm', 'telgram'], fuzzy: true },
  { name: 'wechat', reason: 'messaging_app', spellings: ['wechat', 'weixin'], whole: true },
  { name: 'viber', reason: 'messaging_app', spellings: ['viber'] },
  { name: 'snapchat', reason: 'messaging_app', spellings: ['snapchat'], fuzzy: true },
  { name: 'kakaotalk', reason: 'messaging_app', spellings: ['kakaotalk', 'kakao'] },
  { name: 'threema', reason: 'messaging_app', spellings: ['threma'] },
  { name: 'wickr', reason: 'messaging_app', spellings: ['wickr'] },
  { name: 'kik', reason: 'messaging_app', spellings: ['kik'] },
  { name: 'skype', reason: 'messaging_app', spellings: ['skype'] },
  { name: 'imessage', reason: 'messaging_app', spellings: ['imesage'] },
  { name: 'facetime', reason: 'messaging_app', spellings: ['facetime'] },
  { name: 'signal', reason: 'messaging_app', spellings: ['signal'], ambiguous: { after: ['me', 'app', 'id', 'handle', 'username', 'number', 'chat', 'messenger'] } },
  { name: 'line', reason: 'messaging_app', spellings: ['line'], ambiguous: { after: ['me', 'app', 'id', 'handle', 'username', 'chat'] } },
  { name: 'instagram', reason: 'messaging_app', spellings: ['instagram', 'insta', 'ig'], fuzzy: true, ambiguous: { after: ['me', 'dm', 'dms', 'inbox', 'handle', 'username', 'account', 'page', 'messages'], mine: true } },
  { name: 'facebook', reason: 'messaging_app', spellings: ['facebok', 'fb'], ambiguous: { after: ['me', 'dm', 'inbox', 'messenger', 'profile', 'handle'], mine: true } },
  { name: 'messenger', reason: 'messaging_app', spellings: ['mesenger'], ambiguous: { after: ['me'], mine: true } },
  { name: 'snap', reason: 'messaging_app', spellings: ['snap'], ambiguous: { after: ['me', 'handle', 'username'], mine: true } },
  { name: 'discord', reason: 'messaging_app', spellings: ['discord'], ambiguous: { after: ['me', 'handle', 'username', 'server'], mine: true } },
  { name: 'zelle', reason: 'payment', spellings: ['zele'] },
  { name: 'venmo', reason: 'payment', spellings: ['venmo'] },
  { name: 'paypal', reason: 'payment', spellings: ['paypal'] },
  { name: 'cash app', reason: 'payment', spellings: ['cashap'] },
  { name: 'western union', reason: 'payment', spellings: ['westernunion'] },
  { name: 'moneygram', reason: 'payment', spellings: ['moneygram'] },
  { name: 'revolut', reason: 'payment', spellings: ['revolut'] },
  { name: 'skrill', reason: 'payment', spellings: ['skril'] },
  { name: 'payoneer', reason: 'payment', spellings: ['payoner'] },
  { name: 'remitly', reason: 'payment', spellings: ['remitly'] },
  { name: 'alipay', reason: 'payment', spellings: ['alipay'] },
  { name: 'bitcoin', reason: 'payment', spellings: ['bitcoin', 'btc', 'xbt'], fuzzy: true },
  { name: 'ethereum', reason: 'payment', spellings: ['ethereum', 'eth'], fuzzy: true },
  { name: 'tether', reason: 'payment', spellings: ['usdt', 'tether', 'usdc'] },
  { name: 'crypto', reason: 'payment', spellings: ['crypto', 'cryptocurency', 'cryptos', 'litecoin', 'ltc', 'monero', 'xmr', 'dogecoin', 'solana', 'binance', 'coinbase'] },
  { name: 'gift card', reason: 'payment', spellings: ['giftcard', 'giftcards', 'giftvoucher', 'giftvouchers'] },
  { name: 'iban', reason: 'payment', spellings: ['iban'], whole: true },
];
/** Real words one letter away from a fuzzy name. */
const NOT_A_SERVICE = new Set(['whatsup', 'watsup', 'wasup', 'betcoin', 'bitcon', 'instagrams']);

const INVITING = new Set(['me', 'us', 'add', 'message', 'msg', 'chat', 'talk', 'contact', 'reach', 'find', 'text', 'call', 'dm', 'pm', 'ping', 'hit', 'follow', 'write', 'inbox', 'continue', 'speak', 'join', 'm', 'am', 'im', 'available', 'active', 'hmu', 'there', 'moving', 'move', 'friend', 'request', 'connect', 'search', 'dms', 'open']);
const ON = new Set(['on', 'via', 'through', 'thru', 'over', 'using', 'in', 'at', 'by']);

const SERVICE_BY_SPELLING = new Map<string, NamedService>();
for (const service of SERVICES) for (const spelling of service.spellings) SERVICE_BY_SPELLING.set(spelling, service);
const FUZZY_SPELLINGS = SERVICES.flatMap((service) => (service.fuzzy ? service.spellings.filter((spelling) => spelling.length >= 7).map((spelling) => ({ spelling, service })) : []));
const LONGEST_SPELLING = Math.max(...SERVICES.flatMap((service) => service.spellings.map((spelling) => spelling.length)));
/** Beginnings of the names that may be written split ("whats" of "whats app"): only these start a join. */
const SPLIT_NAME_BEGINNINGS = new Set(
  SERVICES.filter((service) => !service.whole && !service.ambiguous).flatMap((service) => service.spellings.flatMap((spelling) => [...spelling].map((_letter, end) => spelling.slice(0, end + 1)))),
);

/** The service one word names, read as leetspeak, or with one letter wrong for a long name. */
function serviceNamedBy(readingsOfWord: string[]): NamedService | undefined {
  for (const reading of readingsOfWord) {
    const exact = SERVICE_BY_SPELLING.get(reading);
    if (exact) return exact;
    if (NOT_A_SERVICE.has(reading) || reading.length < 6 || reading.length > LONGEST_SPELLING + 1) continue;
    const near = FUZZY_SPELLINGS.find(({ spelling }) => withinOneEdit(reading, spelling));
    if (near) return near.service;
  }
  return undefined;
}

function invitedTo(service: NamedService, words: string[], index: number, span: number): boolean {
  const rule = service.ambiguous!;
  const previous = words[index - 1] ?? '';
  const next = words[index + span] ?? '';
  if (ON.has(previous) && words.slice(Math.max(0, index - 4), index - 1).some((word) => INVITING.has(word))) return true;
  if (next.startsWith('@') || (rule.after ?? []).includes(next)) return true;
  return Boolean(rule.mine) && (previous === 'my' || previous === 'our');
}

function findNamedServices(text: string, findings: GuardFinding[]): void {
  const words: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}$@|!]+/gu) ?? []) {
    // "|" and "!" stand for letters inside a word ("te|egram"), not at its ends ("signal!").
    const trimmed = /[|!]/.test(word) ? word.replace(/^[|!]+|[|!]+$/g, '') : word;
    if (trimmed) words.push(trimmed);
  }
  const plain = words.map((word) => LETTERS_ONLY.test(word));
  for (let i = 0; i < words.length; i += 1) {
    // A name split in two or three ("whats app", "what's app", "pay pal", "western union"): exact spellings only.
    let found: { service: NamedService; span: number } | undefined;
    const reading = plain[i] ? singleLetters(words[i]!) : null;
    const mayBeginName = reading !== null && SPLIT_NAME_BEGINNINGS.has(reading);
    for (const span of mayBeginName ? [3, 2] : []) {
      if (i + span > words.length || !plain.slice(i, i + span).every(Boolean)) continue;
      const joined = words.slice(i, i + span).join('');
      if (joined.length > LONGEST_SPELLING * 2) continue;
      const service = SERVICE_BY_SPELLING.get(singleLetters(joined));
      if (service && !service.whole && !service.ambiguous) {
        found = { service, span };
        break;
      }
    }
    if (!found) {
      const service = serviceNamedBy(reading !== null ? [reading] : readings(words[i]!.replace(/^@/, '')));
      if (service && (!service.ambiguous || invitedTo(service, words, i, 1))) found = { service, span: 1 };
    }
    if (!found) continue;
    findings.push({ reason: found.service.reason, fragment: found.service.name });
    i += found.span - 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Phrases: invitations to talk elsewhere, and payment outside escrow

const PHRASES: Array<[GuardReason, RegExp]> = [
  // Invitations to talk elsewhere.
  ['messaging_app', /\b(?:text|txt|sms|phone|whatsapp|ring|buzz|facetime)\s+me\b/],
  ['messaging_app', /\bcall\s+me\s+(?:on|at|anytime|any time|tonight|tomorrow|today|now|directly|direct|back|asap|later|after|before|when|\+|\d)/],
  ['messaging_app', /\bgive\s+(?:me|us)\s+a\s+(?:call|ring|buzz|bell|text|shout)\b/],
  ['messaging_app', /\bhit\s+me\s+up\b|\bhmu\b/],
  ['messaging_app', /\b(?:dm|pm|inbox)\s+me\b|\bprivate\s+message\s+me\b|\b(?:dms|pms|inbox)\s+(?:are\s+|is\s+)?open\b/],
  ['messaging_app', /\b(?:message|msg|contact|reach|ping|write\s+to|talk\s+to|speak\s+to)\s+me\s+(?:on|at|via|through|over|privately|directly|direct|outside|off|elsewhere|by phone)\b/],
  ['messaging_app', /\breach\s+out\s+(?:to\s+me\s+)?(?:directly|privately|on|at|via)\b/],
  ['messaging_app', /\b(?:let'?s|lets|we can|we could|can we|could we|happy to|prefer to|better to|rather)\s+(?:talk|chat|speak|continue|discuss|take this|move this|move|deal|sort this|sort it)\s+(?:this\s+|it\s+)?(?:conversation\s+|chat\s+|discussion\s+)?(?:offline|off-line|privately|in private|elsewhere|outside|off (?:the )?(?:site|platform|app)|directly|on the phone|by phone|over the phone)\b/],
  ['messaging_app', /\btake\s+(?:this|it)\s+(?:offline|off-line|elsewhere|private)\b/],
  ['messaging_app', /\bthe\s+(?:green|blue|purple|yellow|violet)\s+(?:app|messenger|bubble|icon|chat)\b/],
  ['messaging_app', /\bmy\s+(?:contact|contacts|contact details|details|socials)\s+(?:is\s+|are\s+)?(?:on|in)\b|\b(?:find|search|google|look up)\s+(?:me|my (?:name|contact|business|company|shop|garage))\s+(?:on|in|via)\b/],
  ['messaging_app', /\b(?:check|see|look at|visit)\s+my\s+(?:profile|bio|user\s?name|display name|profile name)\s+(?:for|to)\b/],
  ['messaging_app', /\b(?:details|handle|info|telegram|whatsapp)(?:'s|s)?\s+(?:is\s+|are\s+)?(?:in|on)\s+(?:my|the)\s+(?:profile|bio|user\s?name|name|avatar|pictures?|photos?|pics?|last photo|images?|description)\b/],
  ['link', /\b(?:link|website|site|url|web page|webpage)(?:'s|s)?\s+(?:is\s+)?(?:in|on)\s+my\s+(?:profile|bio|user\s?name|name)\b/],
  ['messaging_app', /\b(?:exchange|share|send|swap|give|leave|drop|post|pass)\s+(?:me\s+|us\s+)?(?:your\s+|my\s+|our\s+)?(?:contact\s+(?:details|info|information)|socials|handles?)\b/],
  ['phone', /\b(?:number|num|phone|digits|cell|mobile)(?:'s|s)?\s+(?:is\s+|are\s+)?(?:in|on)\s+(?:my|the)\s+(?:profile|bio|user\s?name|name|avatar|pictures?|photos?|pics?|last photo|images?|description)\b/],
  ['phone', /\bmy\s+(?:user\s?name|name|profile name|handle)\s+is\s+my\s+(?:number|phone|cell)\b/],
  ['phone', /\bmy\s+(?:cell|mobile|phone|cellphone|telephone|whatsapp|telegram|viber|signal)\s*(?:number|no|nr|#|is\b|:)/],
  ['phone', /\bmy\s+(?:number|digits)\b(?!\s*(?:plates?|one)\b)/],
  ['phone', /\b(?:exchange|share|send|swap|give|leave|drop|post|pass)\s+(?:me\s+|us\s+)?(?:your\s+|my\s+|our\s+)?(?:phone\s+)?(?:numbers?|digits|cell|mobile)\b(?!\s*(?:plates?|of)\b)/],
  ['phone', /\bwhat'?s\s+your\s+(?:number|phone|cell|mobile|digits)\b|\bwhat\s+is\s+your\s+(?:number|phone|cell|mobile)\b/],
  ['email', /\b(?:email|e-mail|mail)\s+me\b/],
  ['email', /\bmy\s+(?:email|e-mail|gmail|hotmail|yahoo|icloud|protonmail|outlook)(?:\s+address)?\b/],
  ['email', /\b(?:exchange|share|send|swap|give|leave|drop|post|pass)\s+(?:me\s+|us\s+)?(?:your\s+|my\s+|our\s+)?(?:emails?|e-mails?|email address(?:es)?)\b/],
  ['email', /\bwhat'?s\s+your\s+(?:email|e-mail)\b/],
  ['email', /\b(?:gmail|hotmail|yahoo|icloud|protonmail|outlook|email|e-mail)\s*[:=]\s*[a-z0-9._-]{3,}/],
  // Payment outside escrow.
  ['payment', /\bwire(?:d|s)?\s+(?:transfer|me|you|him|her|it|the\s+(?:money|funds|payment|deposit|balance|amount|cash|rest)|them|money|funds|payment|deposit|balance|amount|cash|[$€£]|\d)/],
  ['payment', /\b(?:take|send|do|make|accept|prefer|by|via|through|per|over)\s+(?:a\s+|an\s+|bank\s+|direct\s+|international\s+)?wire\b/],
  ['payment', /\bbank\s+(?:transfer|wire|details|account|deposit|info|information|payment)\b/],
  ['payment', /\b(?:account|acct)\s+(?:number|no|nr|#|details|name|holder)\b|\brouting\s+(?:number|no|#|code)\b|\bsort\s*code\b|\bswift\s*(?:code|\/|bic|:)|\babanumber\b/],
  ['payment', /\b(?:transfer|send|wire|pay|deposit|move|remit)\w*\b[^.!?\n]{0,40}?\b(?:to|into)\s+(?:my|our|his|her|their|the seller'?s?|a private)\s+(?:own\s+|personal\s+|private\s+|business\s+|company\s+|wife'?s\s+|brother'?s\s+)?(?:account|acct|agent|bank|iban|wallet|card|paypal|revolut|wife|husband|brother|cousin|friend|partner|lawyer|representative|accountant)\b/],
  ['payment', /\b(?:transfer|send|wire|pay|deposit)\w*\b[^.!?\n]{0,30}?\bto\s+(?:me|the account (?:i|we) (?:send|give|share|provide))\b(?!\s+(?:through|via|in|with)\s+(?:the\s+)?(?:escrow|site|platform))/],
  ['payment', /\bpa(?:y|id|ying|yment)\s+(?:me\s+|you\s+|him\s+|her\s+|us\s+|the seller\s+|it\s+)?(?:directly|direct|privately|in person|in cash|cash|outside|off-site|off the (?:site|platform)|under the table)\b(?!\s+(?:through|via|into|to|with|using|in)\s+(?:the\s+)?(?:escrow|luxemotors|site|platform))/],
  ['payment', /\bdirect\s+(?:payment|transfer|deal|sale|bank)\b|\b(?:deal|buy|sell|trade|transact)\s+(?:it\s+|this\s+)?directly\s+(?:with|from)\s+me\b|\bdeal\s+directly\b/],
  ['payment', /\bcash\s+(?:only|in hand|deal|on collection|on delivery|under the table)\b|\bbank[- ]to[- ]bank\b/],
  ['payment', /\b(?:skip|skipping|avoid|avoiding|bypass|bypassing|dodge|dodging|circumvent|cut out|cutting out|get around|go around|way around|without|outside(?: of)?|instead of|rather than|no need (?:for|to (?:use|involve|go through|bother with))|don'?t need|do not need|forget(?: about)?|save(?: on)?|saving(?: on)?|no)\s+(?:the\s+|an?\s+|this\s+|their\s+|your\s+|any\s+|all\s+(?:the\s+)?)?(?:escrow|platform'?s?|site'?s?|luxemotors|middleman|middle man|middlemen)\b/],
  ['payment', /\b(?:take|leave|keep|cut)\s+(?:the\s+)?escrow\s+out\b/],
  ['payment', /\boff[- ]?(?:the\s+)?(?:platform|app|luxemotors)\b|\boff\s+(?:the\s+)?(?:site|website)\b|\boutside\s+(?:of\s+)?(?:the\s+|this\s+)?(?:site|platform|app|website|luxemotors)\b/],
  ['payment', /\bgift\s*-?\s*(?:cards?|vouchers?)\b|\b(?:itunes|apple|steam|amazon|google play|play store|ebay|razer|sephora|vanilla)\s+(?:gift\s+)?(?:cards?|vouchers?|codes?)\b/],
  ['payment', /\b(?:via|on|through|with|by)\s+wise\b|\bwise\s+(?:transfer|account|payment)\b/],
  ['payment', /\b(?:wallet|btc|eth|crypto|usdt)\s+address\b|\b(?:crypto|bitcoin|btc|eth|usdt)\s+wallet\b/],
];

function findPhrases(text: string, findings: GuardFinding[]): void {
  const plain = text.replace(/[’‘]/g, "'").replace(/\s+/g, ' ');
  for (const [reason, pattern] of PHRASES) {
    const match = pattern.exec(plain);
    if (match) findings.push({ reason, fragment: match[0].trim() });
  }
}
