// The paper a document that sets none is laid out on (a CSV, a sheet or text without page setup):
// --paper a4|letter (DOCWASM_PAPER), by default the machine's locale's, as an installed
// LibreOffice picks it — Letter in the countries LibreOffice gives Letter (i18nutil's
// PaperInfo::getDefaultPaperForLocale: the United States, Canada, Mexico, …), A4 elsewhere and
// for a locale naming no country (C, POSIX). Both offices are told, each the way it reads it:
// - the installed office reads the paper from LC_PAPER (glibc's locale data; C's is A4), else
//   from its locale's country (LC_ALL, LC_CTYPE, LANG): it is given LC_PAPER when the paper is
//   not already its locale's;
// - the WebAssembly office (Emscripten's libc: no LC_PAPER) takes the country of its locale,
//   which LibreOfficeKit sets to en-US whatever its environment (LANG=zh_CN.UTF-8 and the
//   profile's ooSetupSystemLocale=zh-CN both still gave Letter): each document is loaded with
//   LibreOfficeKit's `Language=` option, the machine's locale when that locale's paper is the
//   paper, else a locale of the same language in a country of that paper (for A4 one LibreOffice
//   has no formatting data for, so numbers and dates keep the language's formats).

export const PAPERS = ['a4', 'letter'] as const;
export type Paper = (typeof PAPERS)[number];

/** Where LibreOffice gives Letter (ISO 3166 codes, its getDefaultPaperForLocale). */
const LETTER_COUNTRIES = new Set(['US', 'PR', 'CA', 'VE', 'CL', 'MX', 'CO', 'PH', 'BZ', 'CR', 'GT', 'NI', 'PA', 'SV']);

/** The first set of the variables in the order `names`. */
const firstSet = (env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined =>
  names.map((name) => env[name]).find((value) => value !== undefined && value !== '');

/** `en_US.UTF-8` → { language: 'en', country: 'US' }; C, POSIX and the like → undefined. */
function parseLocale(locale: string | undefined): { language: string; country: string | undefined } | undefined {
  const match = /^([a-z]{2,3})(?:_([A-Z]{2}))?/.exec(locale ?? '');
  return match ? { language: match[1] as string, country: match[2] } : undefined;
}

const paperOfCountry = (country: string | undefined): Paper => (country !== undefined && LETTER_COUNTRIES.has(country) ? 'letter' : 'a4');

/** The machine's paper: its locale's (LC_ALL, LC_PAPER, LANG, as glibc reads LC_PAPER). */
export function localePaper(env: NodeJS.ProcessEnv = process.env): Paper {
  return paperOfCountry(parseLocale(firstSet(env, ['LC_ALL', 'LC_PAPER', 'LANG']))?.country);
}

/**
 * Variables to add to the installed office's environment (built from `env`'s locale variables)
 * for `paper`. PAPERSIZE always: where libpaper's `paperconf` is installed (texlive and CUPS bring
 * it), LibreOffice asks it before LC_PAPER, and inside the office's sandbox /etc/papersize is out
 * of sight, so paperconf answers its built-in Letter whatever the machine says.
 */
export function installedOfficePaper(paper: Paper, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const papersize = { PAPERSIZE: paper };
  if (paper === localePaper(env)) return papersize;
  // LC_ALL would override LC_PAPER: its value goes to LANG (the same locale for every other category).
  const all = firstSet(env, ['LC_ALL']);
  return { ...papersize, ...(all !== undefined && { LC_ALL: '', LANG: all }), LC_PAPER: paper === 'a4' ? 'C' : 'en_US.UTF-8' };
}

/**
 * The locale the WebAssembly office is configured with for `paper`, as a BCP 47 tag: the
 * machine's own when it gives that paper, else the machine's language in a country of that
 * paper — the United States for Letter, Antarctica (AQ) for A4, which has A4 and no formatting
 * data of its own (the language's formats apply, as under C they are en-US's).
 */
export function wasmOfficeLocale(paper: Paper, env: NodeJS.ProcessEnv = process.env): string {
  const parsed = parseLocale(firstSet(env, ['LC_ALL', 'LC_CTYPE', 'LANG']));
  if (parsed?.country !== undefined && paperOfCountry(parsed.country) === paper) return `${parsed.language}-${parsed.country}`;
  return `${parsed?.language ?? 'en'}-${paper === 'letter' ? 'US' : 'AQ'}`;
}
