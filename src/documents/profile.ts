// The managed LibreOffice profile every slot gets: no macros, no fetching of linked content,
// no lock files or recent-document lists, and a CJK font in user/fonts so Chinese text is set
// in a real font even on a machine without one.

import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Setting {
  path: string;
  name: string;
  value: string;
}

const SCRIPTING = '/org.openoffice.Office.Common/Security/Scripting';
const PROVIDERS = '/org.openoffice.ucb.Configuration/ContentProviders/Local/SecondaryKeys/Office/ProviderData';

export const SETTINGS: readonly Setting[] = [
  // Macros: "very high" security and execution switched off altogether.
  { path: SCRIPTING, name: 'MacroSecurityLevel', value: '3' },
  { path: SCRIPTING, name: 'DisableMacrosExecution', value: 'true' },
  // Links (images, OLE) of a document outside the trusted locations (there are none): not followed.
  { path: SCRIPTING, name: 'BlockUntrustedRefererLinks', value: 'true' },
  // Update links when loading: Writer 0 = never (1 on request, 2 always); Calc 1 = never (0 always, 2 on request).
  { path: '/org.openoffice.Office.Writer/Content/Update', name: 'Link', value: '0' },
  { path: '/org.openoffice.Office.Calc/Content/Update', name: 'Link', value: '1' },
  // Nothing accumulating in the profile. (Locking stays on: the slot's anchor document's lock
  // file is how the slot knows its office has finished starting; inputs are opened read-only.)
  { path: '/org.openoffice.Office.Common/Save/Document', name: 'CreateBackup', value: 'false' },
  { path: '/org.openoffice.Office.Common/History', name: 'PickListSize', value: '0' },
  { path: '/org.openoffice.Office.Common/Misc', name: 'FirstRun', value: 'false' },
];

/**
 * Content providers removed from the profile's UCB (names and URL schemes as LibreOffice 7.4's
 * share/registry/main.xcd declares them, org.openoffice.ucb.Configuration). With no network
 * provider the office has no way to fetch a URL, whichever feature asks (page backgrounds, SVG
 * images and fill bitmaps ignore BlockUntrustedRefererLinks). With no package or
 * transient-document provider a document cannot open another file's parts
 * (`vnd.sun.star.zip://<file URL>/Pictures/…`, `vnd.sun.star.pkg://…`) or reach the other
 * documents open in its office (`vnd.sun.star.tdoc:/…`). A document's own parts are read by its
 * filter through the package library directly, not through these providers.
 * Kept: file (Provider2); the hierarchy of the office's own configuration (Provider1); icons of
 * the office's theme (Provider16); `private:` (Provider900); and `vnd.sun.star.expand`
 * (Provider9), without which LibreOffice 7.4 aborts at start (WrappedTargetRuntimeException) —
 * it only rewrites `$BRAND_BASE_DIR`-style macros into file URLs, so it reaches nothing that
 * file:// does not, and what file:// reaches is bounded by the OS sandbox's view.
 */
export const REMOVED_PROVIDERS: Readonly<Record<string, string>> = {
  Provider3: 'http',
  Provider4: 'vnd.sun.star.webdav',
  Provider4a: 'webdav',
  Provider6: 'ftp',
  Provider12: 'https',
  Provider12a: 'vnd.sun.star.webdavs',
  Provider12b: 'webdavs',
  Provider43: 'vnd.libreoffice.cmis',
  Provider5: 'vnd.sun.star.help',
  Provider8: 'vnd.sun.star.pkg',
  Provider10: 'vnd.sun.star.tdoc',
  Provider11: 'vnd.sun.star.zip',
  Provider14: 'vnd.sun.star.extension',
};

/** The family of the shipped CJK face (bundledCjkFonts). */
export const SHIPPED_CJK_FAMILY = 'Noto Sans S Chinese';

/** The faces Chinese documents name, by both of their names: Windows's, Office's and macOS's. */
const CHINESE_FAMILIES = [
  ...['宋体', 'SimSun', '新宋体', 'NSimSun', '黑体', 'SimHei', '微软雅黑', 'Microsoft YaHei', 'Microsoft YaHei UI', '等线', 'DengXian'],
  ...['仿宋', 'FangSong', '仿宋_GB2312', 'FangSong_GB2312', '楷体', 'KaiTi', '楷体_GB2312', 'KaiTi_GB2312', '隶书', 'LiSu', '幼圆', 'YouYuan'],
  ...[
    '华文宋体',
    'STSong',
    '华文中宋',
    'STZhongsong',
    '华文黑体',
    'STHeiti',
    '华文仿宋',
    'STFangsong',
    '华文楷体',
    'STKaiti',
    '方正小标宋简体',
    '方正仿宋_GBK',
    'PingFang SC',
    '苹方',
  ],
  ...['新細明體', 'PMingLiU', '細明體', 'MingLiU', '微軟正黑體', 'Microsoft JhengHei', '標楷體', 'DFKai-SB'],
];

/**
 * The WebAssembly office's font aliases: a font the document names but the office lacks → a face
 * it ships. An installed LibreOffice gets these from the machine's fontconfig (Debian's
 * 30-metric-aliases.conf and its generic families); the WebAssembly office's own fontconfig
 * knows none of its faces by those names, and every unknown family fell back to Noto Serif —
 * Courier and Helvetica included, so code lost its fixed pitch and sans text its widths
 * (measured: docs/office-fidelity.md). Metric-compatible faces first (Times ≡ Liberation Serif,
 * Helvetica ≡ Liberation Sans, Courier ≡ Liberation Mono), then the common families by kind:
 * fixed-pitch → DejaVu Sans Mono, sans → Noto Sans (what Debian's fontconfig picks for them too).
 * Serif names are left: the fallback already is a serif. The faces of Chinese documents (宋体,
 * 微软雅黑, 仿宋_GB2312, …, Simplified and Traditional, Windows's and macOS's) → the shipped CJK
 * face: unknown, they came out in Noto Sans, whose 1.36 em lines took a 13-page report to 16 (the
 * CJK glyphs fell back one by one, the line height stayed Noto Sans's).
 */
export const WASM_FONT_ALIASES: Readonly<Record<string, string>> = {
  ...aliasesOf('Liberation Serif', [
    'Times',
    'Times Roman',
    'Tms Rmn',
    'Nimbus Roman',
    'Nimbus Roman No9 L',
    'TeX Gyre Termes',
    ...scriptVariants('Times New Roman'),
  ]),
  ...aliasesOf('Liberation Sans', ['Helvetica', 'Helv', 'Arial MT', 'Nimbus Sans', 'Nimbus Sans L', 'TeX Gyre Heros', ...scriptVariants('Arial')]),
  ...aliasesOf('Liberation Mono', [
    'Courier',
    'Courier Std',
    'Nimbus Mono',
    'Nimbus Mono L',
    'Nimbus Mono PS',
    'TeX Gyre Cursor',
    ...scriptVariants('Courier New'),
  ]),
  ...aliasesOf('Carlito', ['Calibri Light']),
  ...aliasesOf('DejaVu Sans Mono', [
    'Consolas',
    'Menlo',
    'Monaco',
    'Lucida Console',
    'Lucida Sans Typewriter',
    'Andale Mono',
    'Source Code Pro',
    'SF Mono',
    'Cascadia Code',
    'Cascadia Mono',
    'Fira Code',
    'Fira Mono',
    'Inconsolata',
    'Roboto Mono',
    'Ubuntu Mono',
    'Courier 10 Pitch',
    'monospace',
  ]),
  ...aliasesOf(SHIPPED_CJK_FAMILY, CHINESE_FAMILIES),
  ...aliasesOf('Noto Sans', [
    'Tahoma',
    'Verdana',
    'Segoe UI',
    'Segoe UI Light',
    'Segoe UI Semibold',
    'Aptos',
    'Aptos Display',
    'Aptos Light',
    'Trebuchet MS',
    'Century Gothic',
    'Lucida Sans Unicode',
    'Lucida Sans',
    'Lucida Grande',
    'Helvetica Neue',
    'Gill Sans',
    'Gill Sans MT',
    'Franklin Gothic Book',
    'Franklin Gothic Medium',
    'Candara',
    'Corbel',
    'Optima',
    'Futura',
    'Open Sans',
    'Roboto',
    'Microsoft Sans Serif',
    'MS Sans Serif',
    'sans-serif',
  ]),
};

/** Windows's names for a family's legacy code-page variants (`Arial CYR`, `Times New Roman CE`, …): the same face. */
function scriptVariants(family: string): string[] {
  return ['CYR', 'Cyr', 'CE', 'Greek', 'Baltic', 'TUR'].map((script) => `${family} ${script}`);
}

function aliasesOf(face: string, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, face]));
}

export function registryModifications(settings: readonly Setting[] = SETTINGS, removedProviders: readonly string[] = Object.keys(REMOVED_PROVIDERS)): string {
  const items = settings.map((s) => `<item oor:path="${s.path}"><prop oor:name="${s.name}" oor:op="fuse"><value>${s.value}</value></prop></item>`);
  const removals = removedProviders.map((name) => `<item oor:path="${PROVIDERS}"><node oor:name="${name}" oor:op="remove"/></item>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    ...items,
    ...removals,
    '</oor:items>',
    '',
  ].join('\n');
}

/** Where the office's fontconfig reads its configuration's additions (its fonts.conf includes the directory). */
const FONTCONFIG_ADDITIONS = '/instdir/share/fontconfig/conf.d/29-docwasm-aliases.conf';

/**
 * The WebAssembly office's profile, by path in its in-memory file system: the hardened settings,
 * and its font aliases as a fontconfig file less the families of the fonts it is given
 * (`givenFamilies`: a Verdana from --font-dir is used as Verdana). fontconfig reads the file when
 * LibreOffice starts, so the first document is set in the right faces. (LibreOffice's own
 * replacement table, tried first, applies only on the office's main loop a few seconds after
 * its start — on a busy machine sometimes never.)
 */
export function wasmOfficeProfile(givenFamilies: readonly string[] = []): Record<string, string> {
  const given = new Set(givenFamilies.map((family) => family.toLowerCase()));
  const aliases = Object.entries(WASM_FONT_ALIASES).filter(([font]) => !given.has(font.toLowerCase()));
  return { '/instdir/user/registrymodifications.xcu': registryModifications(), [FONTCONFIG_ADDITIONS]: fontconfigAliases(aliases) };
}

/** `prefer`: the face goes before the named family, so the office's fallback never comes first. */
function fontconfigAliases(aliases: ReadonlyArray<readonly [string, string]>): string {
  const escape = (name: string) => name.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    ...aliases.map(([font, face]) => `  <alias binding="same"><family>${escape(font)}</family><prefer><family>${escape(face)}</family></prefer></alias>`),
    '</fontconfig>',
    '',
  ].join('\n');
}

/** Regular and bold Noto Sans Hans from the @embedpdf/fonts-sc package (OFL); [] if absent. */
export function bundledCjkFonts(): string[] {
  try {
    // The package exports only its JS entry (dist/index.cjs); the fonts sit beside dist/.
    const entry = createRequire(import.meta.url).resolve('@embedpdf/fonts-sc');
    const dir = path.join(path.dirname(entry), '..', 'fonts');
    const fonts = ['NotoSansHans-Regular.otf', 'NotoSansHans-Bold.otf'].map((name) => path.join(dir, name));
    return fonts.filter((font) => existsSync(font));
  } catch {
    return [];
  }
}

/** Creates (or refreshes) a managed profile in `dir`; returns its `-env:UserInstallation` URL. */
export async function prepareProfile(dir: string, fonts: readonly string[] = bundledCjkFonts()): Promise<string> {
  const user = path.join(dir, 'user');
  await fs.mkdir(path.join(user, 'fonts'), { recursive: true });
  await fs.writeFile(path.join(user, 'registrymodifications.xcu'), registryModifications());
  for (const font of fonts) {
    const target = path.join(user, 'fonts', path.basename(font));
    if (await fs.stat(target).catch(() => undefined)) continue;
    // A link costs nothing; copying is the fallback where links are not allowed (Windows).
    await fs.symlink(font, target).catch(() => fs.copyFile(font, target));
  }
  return pathToFileURL(dir).href;
}
