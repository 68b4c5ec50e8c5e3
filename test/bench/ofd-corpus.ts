// The ofdrw corpus: every `.ofd` of an ofdrw checkout (https://github.com/ofdrw/ofdrw, its test
// resources: invoices, seals, templates, clips, images, multi-page) converted by a running
// service to PDF and Markdown, and each PDF judged by tools that are not docwasm's: `qpdf
// --check`, poppler's `pdftotext` (recall of the TextCode characters the pages and their
// templates draw, read from the package with `unzip`) and `pdftotext -bbox` (where the first
// glyph of each TextObject lands against its OFD coordinates), Latin words read whole, seals
// drawn (seal-red in each StampAnnot's box of pdftoppm's page, counted by ImageMagick), and
// signatures: the answer's verdicts, and whether tampered copies made here are all reported
// invalid. The table goes into docs/ofd-corpus.md.
// `npm run bench:ofd-corpus -- <ofdrw clone or bare git dir> [part of a file name]` (default:
// $OFDRW_REPO; with a name, only those files, and the docs are left alone).

import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startService, stopAndRemove, type RunningService } from '../helpers/service.js';
import { replaceGenerated } from '../docs/generated.js';
import { makeZip } from '../helpers/zip.js';
import { latinWords, xmlText } from '../helpers/ofd-words.js';

const exec = promisify(execFile);
const MM = 72 / 25.4;
/** A glyph is "in place" when its box starts within this many points of where the OFD puts it. */
const TOLERANCE_PT = 2;

interface Result {
  file: string;
  bytes: number;
  pages?: number;
  pdf: string;
  md: string;
  qpdf: string;
  wanted: number;
  found: number;
  placed: number;
  placedOk: number;
  fields: string;
  /** The TextCode characters pdftotext did not find, for the log. */
  missing: string[];
  /** Latin words (letters and digits) of the TextCodes, and how many pdftotext reads whole. */
  words: number;
  wordsWhole: number;
  /** Words pdftotext broke, for the log. */
  broken: string[];
  /** StampAnnots of the signatures, and how many show seal-red in their box. */
  seals: number;
  sealsDrawn: number;
  /** Signatures the answer lists, how many are valid; tampered copies made, how many had every signature reported invalid. */
  signatures: number;
  signaturesValid: number;
  tampered: number;
  tamperedDetected: number;
}

/** The .ofd files of the checkout, copied into `into`: from a work tree, or with `git show` from a bare git dir. */
function extractCorpus(source: string, into: string): string[] {
  const bare = fs.existsSync(path.join(source, 'HEAD')) && fs.existsSync(path.join(source, 'objects'));
  const names = bare
    ? execFileSync('git', ['-C', source, 'ls-tree', '-r', '--name-only', '-z', 'HEAD'], { encoding: 'utf8' }).split('\0')
    : fs.readdirSync(source, { recursive: true, encoding: 'utf8' });
  const files: string[] = [];
  for (const name of names.filter((n) => /\.ofd$/i.test(n)).sort()) {
    const target = path.join(into, name.replaceAll('/', '__'));
    try {
      const bytes = bare
        ? execFileSync('git', ['-C', source, 'show', `HEAD:${name}`], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
        : fs.readFileSync(path.join(source, name));
      fs.writeFileSync(target, bytes);
      files.push(target);
    } catch {
      process.stderr.write(`ofd-corpus: ${name} is not in the checkout (a large file left out of the mirror)\n`);
    }
  }
  return files;
}

/** The parts of an OFD package, read with unzip (not with docwasm's reader). */
class Package {
  readonly names: string[];
  constructor(readonly file: string) {
    this.names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8', maxBuffer: 1 << 26 })
      .split('\n')
      .filter(Boolean);
  }
  part(name: string): string {
    try {
      return execFileSync('unzip', ['-p', this.file, name], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (error) {
      // unzip exits 1 on a warning (a zip with extra bytes, say) after writing the part whole.
      const { status, stdout } = error as { status?: number; stdout?: string };
      if (status === 1 && stdout) return stdout;
      throw error;
    }
  }
  /** A location as an OFD names it, relative to the part `from` (or from the root when it starts with /). */
  find(location: string, from: string): string | undefined {
    const joined = location.startsWith('/') ? location.slice(1) : path.posix.join(path.posix.dirname(from), location);
    const wanted = path.posix.normalize(joined).toLowerCase();
    return this.names.find((n) => n.toLowerCase() === wanted);
  }
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const noSpaces = (text: string) => text.replace(/\s+/g, '');

interface Glyph {
  page: number;
  char: string;
  x: number;
  y: number;
}

/** What the first document's pages draw as text: every TextCode's characters, and the first glyph of each TextObject without a CTM (in pt, top-left origin). */
function textCodes(pkg: Package): { chars: string; words: string[]; firsts: Glyph[]; fields: Record<string, string> } {
  const ofdXml = pkg.part(pkg.names.find((n) => n.toLowerCase() === 'ofd.xml') as string);
  // docwasm trims the white space around a name and a value (docs/ofd.md); so does this reading.
  const fields = Object.fromEntries(
    [...ofdXml.matchAll(/<(?:\w+:)?CustomData\s+Name="([^"]*)"\s*(?:\/>|>([^<]*)<)/g)].map((m) => [xmlText(m[1] as string).trim(), xmlText(m[2] ?? '').trim()]),
  );
  const docRoot = /<(?:\w+:)?DocRoot>\s*([^<]+?)\s*</.exec(ofdXml)?.[1];
  const docName = docRoot ? pkg.find(docRoot, 'OFD.xml') : undefined;
  if (!docName) return { chars: '', words: [], firsts: [], fields };
  const documentXml = pkg.part(docName);
  const templates = new Map([...documentXml.matchAll(/<(?:\w+:)?TemplatePage\b[^>]*>/g)].map((m) => [attr(m[0], 'ID'), attr(m[0], 'BaseLoc')]));
  const pageLocs = [...documentXml.matchAll(/<(?:\w+:)?Page\b[^>]*>/g)].map((m) => attr(m[0], 'BaseLoc')).filter((loc): loc is string => Boolean(loc));
  const documentBox = physicalBox(documentXml);
  /** Each template drawn, with the box of the first page that draws it. */
  const usedTemplates = new Map<string, Box | undefined>();
  let chars = '';
  const words: string[] = [];
  const firsts: Glyph[] = [];
  pageLocs.forEach((loc, index) => {
    const name = pkg.find(loc, docName);
    if (!name) return;
    const xml = pkg.part(name);
    const box = physicalBox(xml) ?? documentBox;
    for (const m of xml.matchAll(/<(?:\w+:)?Template\b[^>]*>/g)) {
      const templateLoc = templates.get(attr(m[0], 'TemplateID'));
      const templateName = templateLoc ? pkg.find(templateLoc, docName) : undefined;
      if (templateName && !usedTemplates.has(templateName)) usedTemplates.set(templateName, box);
    }
    chars += codesOf(xml, box, words);
    firsts.push(...firstGlyphs(xml, index + 1, box));
  });
  for (const [name, box] of usedTemplates) chars += codesOf(pkg.part(name), box, words);
  return { chars, words, firsts, fields };
}

type Box = [number, number, number, number];

/** A part's first PhysicalBox (a page's own Area, or the document's PageArea), in mm. */
function physicalBox(xml: string): Box | undefined {
  const values = /<(?:\w+:)?PhysicalBox>([^<]+)</.exec(xml)?.[1]?.trim().split(/\s+/).map(Number);
  return values?.length === 4 && values.every(Number.isFinite) ? (values as Box) : undefined;
}

/**
 * Whether an object can be seen: what lies outside its Boundary is clipped away, so a Boundary of
 * zero width or height hides it (some producers hide an ID that way), and so does one wholly
 * off the page (an invoice that writes a name again below its 140 mm page).
 */
function visible(head: string, page: Box | undefined): boolean {
  const [x, y, width, height] = (attr(head, 'Boundary') ?? '').trim().split(/\s+/).map(Number);
  if (width === 0 || height === 0) return false;
  if (!page || [x, y, width, height].some((v) => !Number.isFinite(v))) return true;
  const [px, py, pw, ph] = page;
  return (x as number) < px + pw && (x as number) + (width as number) > px && (y as number) < py + ph && (y as number) + (height as number) > py;
}

/**
 * The characters of a part's TextCodes. A TextObject drawn twice at the same place with the same
 * text (overprinting, as some producers do for bold) counts once: pdftotext, like a reader's
 * eye, keeps one copy of a glyph drawn over itself.
 */
function codesOf(xml: string, page: Box | undefined, words: string[]): string {
  const seen = new Set<string>();
  let chars = '';
  for (const m of xml.matchAll(/<(?:\w+:)?TextObject\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?TextObject>/g)) {
    if (!visible(m[1] as string, page)) continue;
    const codes = [...(m[2] as string).matchAll(/<(?:\w+:)?TextCode\b([^>]*)>([^<]*)</g)];
    const key = [attr(m[1] as string, 'Boundary'), attr(m[1] as string, 'CTM'), ...codes.map((c) => `${c[1]}${c[2]}`)].join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    chars += codes.map((c) => noSpaces(xmlText(c[2] as string))).join('');
    for (const c of codes) words.push(...latinWords(xmlText(c[2] as string), attr(c[1] as string, 'DeltaY')));
  }
  return chars;
}

/** Words of `wanted` that some word of pdftotext's holds whole (each pdftotext word may hold many). */
function wordsWhole(wanted: readonly string[], drawn: readonly Word[], broken: string[]): number {
  const text = `\n${drawn.map((w) => w.text).join('\n')}\n`;
  let whole = 0;
  for (const word of wanted) {
    if (text.includes(word)) whole++;
    else broken.push(word);
  }
  return whole;
}

interface Stamp {
  page: number;
  box: Box;
}

/** Every signature's StampAnnots (page number, Boundary in mm), read from the package with unzip. */
function stampsOf(pkg: Package): Stamp[] {
  const ofdXml = pkg.part(pkg.names.find((n) => n.toLowerCase() === 'ofd.xml') as string);
  const listLoc = /<(?:\w+:)?Signatures>\s*([^<]+?)\s*</.exec(ofdXml)?.[1];
  const listName = listLoc ? pkg.find(listLoc, 'OFD.xml') : undefined;
  const docRoot = /<(?:\w+:)?DocRoot>\s*([^<]+?)\s*</.exec(ofdXml)?.[1];
  const docName = docRoot ? pkg.find(docRoot, 'OFD.xml') : undefined;
  if (!listName || !docName) return [];
  const pageIds = [...pkg.part(docName).matchAll(/<(?:\w+:)?Page\b[^>]*>/g)].map((m) => attr(m[0], 'ID'));
  const stamps: Stamp[] = [];
  for (const entry of pkg.part(listName).matchAll(/<(?:\w+:)?Signature\b[^>]*>/g)) {
    const signatureName = pkg.find(attr(entry[0], 'BaseLoc') ?? '', listName);
    if (!signatureName) continue;
    for (const stamp of pkg.part(signatureName).matchAll(/<(?:\w+:)?StampAnnot\b[^>]*>/g)) {
      const box = (attr(stamp[0], 'Boundary') ?? '').trim().split(/\s+/).map(Number);
      const page = pageIds.indexOf(attr(stamp[0], 'PageRef')) + 1;
      if (page > 0 && box.length === 4 && box.every(Number.isFinite)) stamps.push({ page, box: box as Box });
    }
  }
  return stamps;
}

/** Does the stamp's box of the PDF hold a seal? ≥ 1 % seal-red pixels (not an invoice's brown) in pdftoppm's page, counted by ImageMagick. */
async function sealDrawn(pdf: string, stamp: Stamp, dir: string): Promise<boolean> {
  const dpi = 100;
  const prefix = path.join(dir, `seal-page-${stamp.page}`);
  await exec('pdftoppm', ['-r', String(dpi), '-f', String(stamp.page), '-l', String(stamp.page), '-singlefile', '-png', pdf, prefix]);
  const px = (mm: number) => Math.max(1, Math.round((mm / 25.4) * dpi));
  const [x, y, w, h] = stamp.box;
  const { stdout } = await exec('convert', [
    `${prefix}.png`,
    '-crop',
    `${px(w)}x${px(h)}+${px(x)}+${px(y)}`,
    '+repage',
    '-fx',
    'r>0.75 && g<0.3 && b<0.3 ? 1 : 0',
    '-format',
    '%[fx:mean]',
    'info:',
  ]);
  fs.rmSync(`${prefix}.png`, { force: true });
  return Number(stdout) >= 0.01;
}

/**
 * Tampered copies of a signed OFD, made with unzip and a zip writer: the first digit of a Boundary
 * in the first referenced part that has one changed (still well-formed), and one byte near the end of
 * each signature value (the SignedValue a Signature.xml names) flipped.
 */
function tamperedCopies(pkg: Package): Buffer[] {
  const parts = pkg.names.filter((n) => !n.endsWith('/'));
  const bytes = (name: string) => execFileSync('unzip', ['-p', pkg.file, name], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  const read = (name: string): Buffer => {
    try {
      return bytes(name);
    } catch (error) {
      const { status, stdout } = error as { status?: number; stdout?: Buffer };
      if (status === 1 && stdout) return stdout;
      throw error;
    }
  };
  const copy = (change: (name: string, data: Buffer) => Buffer) => makeZip(parts.map((name) => ({ name, data: change(name, read(name)) })));
  const references = parts
    .filter((n) => /signature\.xml$/i.test(n))
    .flatMap((n) => [...pkg.part(n).matchAll(/FileRef="([^"]+)"/g)].map((m) => pkg.find(m[1] as string, n)))
    .filter((n): n is string => n !== undefined && /\.xml$/i.test(n));
  // A Boundary's first digit: the XML stays well-formed and the object moves a little.
  const target = references.find((n) => /Boundary="\d/.test(pkg.part(n)));
  const copies: Buffer[] = [];
  if (target)
    copies.push(
      copy((name, data) =>
        name === target ? Buffer.from(data.toString('utf8').replace(/Boundary="(\d)/, (_, d: string) => `Boundary="${(Number(d) + 1) % 10}`)) : data,
      ),
    );
  const values = new Set(
    parts.filter((n) => /signature\.xml$/i.test(n)).map((n) => pkg.find(/<(?:\w+:)?SignedValue>\s*([^<]+?)\s*</.exec(pkg.part(n))?.[1] ?? '', n)),
  );
  copies.push(
    copy((name, data) => {
      if (!values.has(name) || data.length < 8) return data;
      const flipped = Buffer.from(data);
      flipped[flipped.length - 5] = (flipped[flipped.length - 5] as number) ^ 0xff;
      return flipped;
    }),
  );
  return copies;
}

/** The first glyph of each TextObject that has no CTM: at Boundary origin + the TextCode's X, Y. */
function firstGlyphs(xml: string, page: number, box: Box | undefined): Glyph[] {
  const glyphs: Glyph[] = [];
  for (const m of xml.matchAll(/<(?:\w+:)?TextObject\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?TextObject>/g)) {
    const head = m[1] as string;
    if (attr(head, 'CTM') || !visible(head, box)) continue;
    const [bx, by] = (attr(head, 'Boundary') ?? '').trim().split(/\s+/).map(Number);
    const code = /<(?:\w+:)?TextCode\b([^>]*)>([^<]*)</.exec(m[2] as string);
    const char = code ? [...xmlText(code[2] as string)][0] : undefined;
    const x = Number(attr(code?.[1] ?? '', 'X'));
    const y = Number(attr(code?.[1] ?? '', 'Y'));
    if (!char || /\s/.test(char) || !Number.isFinite(bx) || !Number.isFinite(by) || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    glyphs.push({ page, char, x: ((bx as number) + x) * MM, y: ((by as number) + y) * MM });
  }
  return glyphs;
}

/** How many of `wanted`'s characters the PDF's text holds (each PDF character counted once). */
function recall(wanted: string, drawn: string, missing: string[] = []): number {
  const left = new Map<string, number>();
  for (const char of drawn) left.set(char, (left.get(char) ?? 0) + 1);
  let found = 0;
  for (const char of wanted) {
    const n = left.get(char) ?? 0;
    if (n > 0) {
      found++;
      left.set(char, n - 1);
    } else missing.push(char);
  }
  return found;
}

interface Word {
  page: number;
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

async function bboxWords(pdf: string): Promise<Word[]> {
  const { stdout } = await exec('pdftotext', ['-bbox', pdf, '-'], { maxBuffer: 1 << 28 });
  const words: Word[] = [];
  let page = 0;
  for (const m of stdout.matchAll(/<page |<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
    if (m[0] === '<page ') page++;
    else words.push({ page, text: xmlText(m[5] as string), xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) });
  }
  return words;
}

/**
 * A glyph is placed when a word on its page starts with its character, the word's left edge within
 * the tolerance of the glyph's x and the glyph's baseline inside the word's box (± the tolerance).
 * pdftotext joins neighbouring TextObjects into one word, so a glyph that is not the first of its
 * word is placed when such a word holds its character after the first and spans its x.
 */
function placed(glyph: Glyph, words: readonly Word[]): boolean {
  return words.some((w) => {
    if (w.page !== glyph.page || glyph.y < w.yMin - TOLERANCE_PT || glyph.y > w.yMax + TOLERANCE_PT) return false;
    if (w.text.startsWith(glyph.char)) return Math.abs(w.xMin - glyph.x) <= TOLERANCE_PT;
    return w.text.slice(1).includes(glyph.char) && glyph.x > w.xMin && glyph.x < w.xMax + TOLERANCE_PT;
  });
}

/**
 * The answer's fields against the package: CustomDatas first, each exactly; then the fields of an
 * attached invoice XML, each found as that element's text in one of the package's .xml parts.
 */
function judgeFields(pkg: Package, customDatas: Record<string, string>, fields: Record<string, string>): string {
  const names = Object.keys(fields);
  const custom = Object.keys(customDatas);
  if (JSON.stringify(names.slice(0, custom.length)) !== JSON.stringify(custom) || custom.some((n) => fields[n] !== customDatas[n])) return 'differ';
  const extra = names.slice(custom.length);
  if (custom.length === 0 && extra.length === 0) return '–';
  const xml = pkg.names
    .filter((n) => /\.xml$/i.test(n) && !/(^|\/)(ofd|document|content|publicres|documentres|signature|signatures|annotation|annotations)\.xml$/i.test(n))
    .map((n) => pkg.part(n))
    .join('\n')
    // An XML parser reads CR LF as LF (XML 1.0 §2.11), so the fields hold LF.
    .replace(/\r\n?/g, '\n');
  const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const unfound = extra.filter(
    (n) =>
      !new RegExp(
        `<(?:\\w+:)?${escaped(n)}\\b[^>]*>\\s*(?:<!\\[CDATA\\[\\s*${escaped(fields[n] as string)}|\\s*${escaped(xmlText(fields[n] as string))})`,
      ).test(xml),
  );
  const parts = [custom.length ? `${custom.length} exact` : '', extra.length ? `+ ${extra.length - unfound.length}/${extra.length} from the attached XML` : ''];
  return parts.filter(Boolean).join(' ');
}

const errorOf = (body: Record<string, unknown>) => String((body.error as { code?: string } | undefined)?.code ?? body.code ?? 'failed');

async function judge(service: RunningService, file: string): Promise<Result> {
  const name = path.basename(file);
  fs.copyFileSync(file, path.join(service.dir, name));
  const result: Result = {
    file: name.replace(/\.ofd$/i, '').replaceAll('__src__test__resources__', '/'),
    bytes: fs.statSync(file).size,
    pdf: '',
    md: '',
    qpdf: '',
    wanted: 0,
    found: 0,
    placed: 0,
    placedOk: 0,
    fields: '',
    missing: [],
    words: 0,
    wordsWhole: 0,
    broken: [],
    seals: 0,
    sealsDrawn: 0,
    signatures: 0,
    signaturesValid: 0,
    tampered: 0,
    tamperedDetected: 0,
  };
  const pdf = path.join(service.dir, `${name}.pdf`);
  const started = performance.now();
  const answer = await service.post('/api/convert', { input: name, output: `${name}.pdf` });
  result.pdf = answer.status === 200 ? `${Math.round(performance.now() - started)} ms` : `${answer.status} ${errorOf(answer.body)}`;
  const md = await service.post('/api/convert', { input: name, output: `${name}.md` });
  result.md = md.status === 200 ? 'ok' : `${md.status} ${errorOf(md.body)}`;
  let pkg: Package | undefined;
  try {
    pkg = new Package(file);
  } catch {
    /* not a zip unzip can read: the service should have refused it */
  }
  const codes = pkg ? textCodes(pkg) : undefined;
  result.wanted = codes ? [...codes.chars].length : 0;
  if (answer.status === 200) {
    const data = answer.body.data as { pages?: number; fields?: Record<string, string>; signatures?: { valid: boolean }[] };
    result.pages = data.pages;
    result.signatures = data.signatures?.length ?? 0;
    result.signaturesValid = data.signatures?.filter((s) => s.valid).length ?? 0;
    const check = await exec('qpdf', ['--check', pdf]).then(
      (r) => (/No syntax or stream encoding errors found/.test(r.stdout) ? 'ok' : 'warnings'),
      () => 'errors',
    );
    result.qpdf = check;
    // The words of -bbox, not the plain text: plain pdftotext joins a line that ends in "-" to the
    // next and drops the hyphen (an invoice's cipher block has many), -bbox keeps every glyph.
    const words = await bboxWords(pdf);
    result.found = recall(codes?.chars ?? '', words.map((w) => w.text).join(''), result.missing);
    result.placed = codes?.firsts.length ?? 0;
    result.placedOk = (codes?.firsts ?? []).filter((g) => placed(g, words)).length;
    const want = codes?.fields ?? {};
    result.fields = judgeFields(pkg as Package, want, data.fields ?? {});
    result.words = codes?.words.length ?? 0;
    result.wordsWhole = wordsWhole(codes?.words ?? [], words, result.broken);
    const stamps = pkg ? stampsOf(pkg) : [];
    result.seals = stamps.length;
    for (const stamp of stamps) if (await sealDrawn(pdf, stamp, service.dir)) result.sealsDrawn++;
    if (pkg && result.signatures > 0) {
      for (const [i, bytes] of tamperedCopies(pkg).entries()) {
        const copy = `tampered-${i}-${name}`;
        fs.writeFileSync(path.join(service.dir, copy), bytes);
        const read = await service.post('/api/read', { input: copy });
        const verdicts = (read.body.data as { signatures?: { valid: boolean }[] } | undefined)?.signatures ?? [];
        result.tampered++;
        if (read.status === 200 && verdicts.length > 0 && verdicts.every((s) => !s.valid)) result.tamperedDetected++;
        fs.rmSync(path.join(service.dir, copy), { force: true });
      }
    }
  }
  for (const out of [name, `${name}.pdf`, `${name}.md`]) fs.rmSync(path.join(service.dir, out), { force: true });
  return result;
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);

function renderTable(results: readonly Result[]): string {
  const converted = results.filter((r) => r.pages !== undefined);
  const recallOk = converted.filter((r) => r.wanted === 0 || r.found / r.wanted >= 0.99);
  const wanted = converted.reduce((s, r) => s + r.wanted, 0);
  const found = converted.reduce((s, r) => s + r.found, 0);
  const placedAll = converted.reduce((s, r) => s + r.placed, 0);
  const placedOk = converted.reduce((s, r) => s + r.placedOk, 0);
  const sum = (key: 'words' | 'wordsWhole' | 'seals' | 'sealsDrawn' | 'signatures' | 'signaturesValid' | 'tampered' | 'tamperedDetected') =>
    converted.reduce((s, r) => s + r[key], 0);
  const lines = [
    `Run ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}.`,
    '',
    `${results.length} files; ${converted.length} converted to PDF, ${results.filter((r) => r.md === 'ok').length} to Markdown; ` +
      `${converted.filter((r) => r.qpdf === 'ok').length} PDFs pass \`qpdf --check\`; ${recallOk.length} of ${converted.length} keep ≥ 99 % of their TextCode characters ` +
      `(all files: ${percent(found, wanted)} of ${wanted}); first glyphs within ${TOLERANCE_PT} pt: ${percent(placedOk, placedAll)} of ${placedAll}; ` +
      `Latin words read whole: ${percent(sum('wordsWhole'), sum('words'))} of ${sum('words')}; seals drawn: ${sum('sealsDrawn')} of ${sum('seals')}; ` +
      `signatures verified: ${sum('signaturesValid')} of ${sum('signatures')}; tampered copies with every signature reported invalid: ${sum('tamperedDetected')} of ${sum('tampered')}.`,
    '',
    '| file | KB | pages | → PDF | → md | qpdf | TextCode recall | first glyphs within 2 pt | Latin words whole | seals drawn | signatures valid | tampered detected | fields |',
    '|---|--:|--:|---|---|---|--:|--:|--:|--:|--:|--:|---|',
    ...results.map(
      (r) =>
        `| ${r.file} | ${Math.ceil(r.bytes / 1024)} | ${r.pages ?? '–'} | ${r.pdf} | ${r.md} | ${r.qpdf || '–'} | ${r.pages === undefined ? '–' : `${percent(r.found, r.wanted)} (${r.found}/${r.wanted})`} | ${r.pages === undefined ? '–' : `${percent(r.placedOk, r.placed)} (${r.placedOk}/${r.placed})`} | ${r.words ? `${percent(r.wordsWhole, r.words)} (${r.wordsWhole}/${r.words})` : '–'} | ${r.seals ? `${r.sealsDrawn}/${r.seals}` : '–'} | ${r.signatures ? `${r.signaturesValid}/${r.signatures}` : '–'} | ${r.tampered ? `${r.tamperedDetected}/${r.tampered}` : '–'} | ${r.fields || '–'} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const source = process.argv[2] ?? process.env.OFDRW_REPO;
  if (!source) throw new Error('usage: tsx test/bench/ofd-corpus.ts <ofdrw clone or bare git dir> (or set OFDRW_REPO)');
  // A second argument keeps only the files whose names hold it (a check after a fix); such a run writes no docs.
  const only = process.argv[3];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-ofd-corpus-'));
  const service = await startService(['--timeout', '600']);
  const results: Result[] = [];
  try {
    for (const file of extractCorpus(source, scratch).filter((f) => !only || path.basename(f).includes(only))) {
      results.push(await judge(service, file));
      const last = results.at(-1) as Result;
      process.stderr.write(
        `ofd-corpus: ${last.file} pdf=${last.pdf} md=${last.md} qpdf=${last.qpdf} recall=${last.found}/${last.wanted} placed=${last.placedOk}/${last.placed} fields=${last.fields} words=${last.wordsWhole}/${last.words} seals=${last.sealsDrawn}/${last.seals} signatures=${last.signaturesValid}/${last.signatures} tampered=${last.tamperedDetected}/${last.tampered}${last.missing.length ? ` missing=${last.missing.slice(0, 40).join('')}` : ''}${last.broken.length ? ` broken=${last.broken.slice(0, 12).join(',')}` : ''}\n`,
      );
    }
  } finally {
    await stopAndRemove(service);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const table = renderTable(results);
  process.stdout.write(`${table}\n`);
  if (!only) replaceGenerated('docs/ofd-corpus.md', 'ofd-corpus', table);
}

await main();
