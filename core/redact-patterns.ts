// What pdf/redact looks for: exact strings, regular expressions and named presets. A preset is a
// candidate regex plus a check that the candidate is what it claims to be (a Luhn digit, a mod-97
// IBAN, a Chinese resident ID check digit), so "4111 1111 1111 1112" is not redacted as a card.
// The schema validates with it and the PDF worker matches with it: one definition for both.

export const REDACT_PRESETS = ['email', 'phone', 'cn-id', 'credit-card', 'iban'] as const;
export type RedactPreset = (typeof REDACT_PRESETS)[number];

/** How one string or pattern is searched: a global regex and a check of each candidate. */
export interface TextMatcher {
  regex: RegExp;
  accept: (candidate: string) => boolean;
}

/** A span of a searched text: [start, end) in UTF-16 units. */
export interface MatchSpan {
  start: number;
  end: number;
}

const always = () => true;
/** 2024-01-31, 31.01.2024, 2024/01/31: digit groups a phone pattern would otherwise take. */
const LOOKS_LIKE_DATE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})$/;
const digitsOf = (text: string) => text.replace(/\D/g, '');

const PRESETS: Record<RedactPreset, () => TextMatcher> = {
  email: () => ({ regex: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu, accept: always }),
  // International (+86 138 0013 8000), national ((030) 1234-5678) and plain (13800138000) forms:
  // 7 to 15 digits (E.164), so a date or a short number is not taken for a phone number.
  phone: () => ({
    regex: /(?<![\p{N}\p{L}])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{2,5}(?:[ .-]?\d{2,5}){1,4}(?![\p{N}\p{L}])/gu,
    accept: (candidate) => {
      const digits = digitsOf(candidate).length;
      return digits >= 7 && digits <= 15 && !LOOKS_LIKE_DATE.test(candidate);
    },
  }),
  'cn-id': () => ({ regex: /(?<![\p{N}\p{L}])\d{17}[\dXx](?![\p{N}\p{L}])/gu, accept: isChineseResidentId }),
  'credit-card': () => ({ regex: /(?<![\p{N}\p{L}])\d(?:[ -]?\d){12,18}(?![\p{N}\p{L}])/gu, accept: (candidate) => isCardNumber(digitsOf(candidate)) }),
  iban: () => ({ regex: /(?<![\p{N}\p{L}])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![\p{N}\p{L}])/gu, accept: isIban }),
};

export function isPreset(pattern: string): pattern is RedactPreset {
  return (REDACT_PRESETS as readonly string[]).includes(pattern);
}

/** The matcher of a preset name, or of a regex source (throws SyntaxError when it does not compile). */
export function patternMatcher(pattern: string): TextMatcher {
  if (isPreset(pattern)) return PRESETS[pattern]();
  return { regex: new RegExp(pattern, 'gu'), accept: always };
}

/** The matcher of an exact, case-sensitive string. */
export function textMatcher(text: string): TextMatcher {
  return { regex: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gu'), accept: always };
}

/** The matchers of a request's exact strings and patterns. */
export function matchersOf({ text, patterns }: { text: readonly string[]; patterns: readonly string[] }): TextMatcher[] {
  return [...text.map(textMatcher), ...patterns.map(patternMatcher)];
}

/** Every non-empty, accepted match of every matcher in `text`, in order, overlaps merged. */
export function findMatches(text: string, matchers: readonly TextMatcher[]): MatchSpan[] {
  const spans: MatchSpan[] = [];
  for (const { regex, accept } of matchers) {
    regex.lastIndex = 0;
    for (const match of text.matchAll(regex)) {
      if (match[0].length > 0 && accept(match[0])) spans.push({ start: match.index, end: match.index + match[0].length });
    }
  }
  return mergeSpans(spans);
}

/** `text` with every match removed. */
export function removeMatches(text: string, matchers: readonly TextMatcher[]): string {
  let result = '';
  let at = 0;
  for (const { start, end } of findMatches(text, matchers)) {
    result += text.slice(at, start);
    at = end;
  }
  return result + text.slice(at);
}

function mergeSpans(spans: MatchSpan[]): MatchSpan[] {
  const merged: MatchSpan[] = [];
  for (const span of spans.sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * Issuer prefixes and their lengths (ISO/IEC 7812 ranges of the networks in use): with the Luhn
 * digit alone, one random digit group in ten would pass for a card.
 */
const CARD_NETWORKS: readonly { prefix: RegExp; lengths: readonly number[] }[] = [
  { prefix: /^4/, lengths: [13, 16, 19] }, // Visa
  { prefix: /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16] }, // Mastercard
  { prefix: /^3[47]/, lengths: [15] }, // American Express
  { prefix: /^(6011|65|64[4-9])/, lengths: [16, 17, 18, 19] }, // Discover
  { prefix: /^35(2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19] }, // JCB
  { prefix: /^(36|38|30[0-5])/, lengths: [14, 15, 16, 17, 18, 19] }, // Diners Club
  { prefix: /^62/, lengths: [16, 17, 18, 19] }, // UnionPay
  { prefix: /^(50|5[6-9]|6[0-9])/, lengths: [13, 14, 15, 16, 17, 18, 19] }, // Maestro
];

export function isCardNumber(digits: string): boolean {
  return CARD_NETWORKS.some(({ prefix, lengths }) => prefix.test(digits) && lengths.includes(digits.length)) && passesLuhn(digits);
}

export function passesLuhn(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** ISO 13616: move the first four characters to the end, letters to 10–35, the number mod 97 is 1. */
export function isIban(candidate: string): boolean {
  const iban = candidate.replace(/ /g, '');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  let remainder = 0;
  for (const char of iban.slice(4) + iban.slice(0, 4)) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** GB 11643-1999: 17 digits weighted mod 11 give the 18th character. */
export function isChineseResidentId(candidate: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(candidate)) return false;
  const sum = ID_WEIGHTS.reduce((total, weight, i) => total + weight * Number(candidate[i]), 0);
  return ID_CHECK[sum % 11] === candidate[17]?.toUpperCase();
}
