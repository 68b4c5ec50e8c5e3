// Document fixtures made with LibreOffice itself (never with docwasm): flat-XML sources saved
// as .doc/.docx/.rtf/.odt/.xls/.xlsx/.ods/.ppt/.pptx/.odp and password-protected copies, made
// once and committed in fixtures/documents (fixtures/remake.ts remakes them from the sources
// here); and independent readers of the results (pdftotext, pdffonts, unzip, ps).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { officeTag } from '../../src/wasm-office/wasm-office.js';
import { officePipePath } from '../../src/installed-office/office-pipe.js';
import { ROOT } from './service.js';
import { removeOfficeLeftovers, runSoffice, runSofficeAsync, startOffice, stopOffice } from './soffice.js';
import { makeZip } from './zip.js';

export { SOFFICE } from './soffice.js';

export const TEXT_LINE = 'docwasm fixture 你好世界';
export const SECOND_LINE = 'Second paragraph';
export const SHEET_ROWS = [
  ['name', 'city', 'amount'],
  ['张三', '北京', '42'],
  ['Li', 'Shanghai', '7'],
];
export const SECOND_SHEET_ROWS = [['other', 'sheet']];
export const SLIDE_TEXT = 'Slide one 幻灯片';
export const PASSWORD = 'secret';

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
].join(' ');

function flat(mimetype: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<office:document ${NS} office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.${mimetype}"><office:body>${body}</office:body></office:document>\n`;
}

const cell = (v: string) =>
  /^\d+$/.test(v)
    ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`
    : `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`;
const sheet = (name: string, rows: string[][]) =>
  `<table:table table:name="${name}">${rows.map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`).join('')}</table:table>`;

const SOURCES: Record<string, string> = {
  'text.fodt': flat('text', `<office:text><text:p>${TEXT_LINE}</text:p><text:p>${SECOND_LINE}</text:p></office:text>`),
  'sheet.fods': flat('spreadsheet', `<office:spreadsheet>${sheet('Data', SHEET_ROWS)}${sheet('Other', SECOND_SHEET_ROWS)}</office:spreadsheet>`),
  'slides.fodp': flat(
    'presentation',
    `<office:presentation><draw:page draw:name="page1"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>${SLIDE_TEXT}</text:p></draw:text-box></draw:frame></draw:page></office:presentation>`,
  ),
  // ~270 pages: several seconds of PDF export, far past a 1 s --timeout.
  'big.fodt': flat(
    'text',
    `<office:text>${Array.from({ length: 12000 }, (_, i) => `<text:p>Paragraph ${i} ${TEXT_LINE} lorem ipsum dolor sit amet</text:p>`).join('')}</office:text>`,
  ),
};

/** [source, --convert-to, output name] */
const CONVERSIONS: [string, string, string][] = [
  ['text.fodt', 'docx:MS Word 2007 XML', 'text-docx.docx'],
  ['text.fodt', 'doc:MS Word 97', 'text-doc.doc'],
  ['text.fodt', 'rtf:Rich Text Format', 'text-rtf.rtf'],
  ['text.fodt', 'odt:writer8', 'text-odt.odt'],
  ['big.fodt', 'docx:MS Word 2007 XML', 'big.docx'],
  ['sheet.fods', 'xlsx:Calc MS Excel 2007 XML', 'sheet-xlsx.xlsx'],
  ['sheet.fods', 'xls:MS Excel 97', 'sheet-xls.xls'],
  ['sheet.fods', 'ods:calc8', 'sheet-ods.ods'],
  ['slides.fodp', 'pptx:Impress MS PowerPoint 2007 XML', 'slides-pptx.pptx'],
  ['slides.fodp', 'ppt:MS PowerPoint 97', 'slides-ppt.ppt'],
  ['slides.fodp', 'odp:impress8', 'slides-odp.odp'],
];

/** [source, filter, output name]: saved with PASSWORD by a Basic macro (LibreOffice's own encryption). */
const ENCRYPTED: [string, string, string][] = [
  ['text.fodt', 'writer8', 'locked.odt'],
  ['text.fodt', 'MS Word 97', 'locked.doc'],
];

export interface DocumentFixtures {
  dir: string;
  /** Inputs by family, distinct stems, with the extension's family as key prefix. */
  text: string[];
  spreadsheet: string[];
  presentation: string[];
  big: string;
  csv: string;
  lockedOdt: string;
  lockedDoc: string;
  lockedDocx: string;
}

/** The committed document fixtures (fixtures/documents, remade by fixtures/remake.ts). */
export const DOCUMENT_FIXTURES = path.join(ROOT, 'fixtures', 'documents');

export async function documentFixtures(): Promise<DocumentFixtures> {
  const dir = DOCUMENT_FIXTURES;
  const at = (name: string) => path.join(dir, name);
  return {
    dir,
    text: ['text-docx.docx', 'text-doc.doc', 'text-rtf.rtf', 'text-odt.odt'].map(at),
    spreadsheet: ['sheet-xlsx.xlsx', 'sheet-xls.xls', 'sheet-ods.ods', 'sheet-csv.csv'].map(at),
    presentation: ['slides-pptx.pptx', 'slides-ppt.ppt', 'slides-odp.odp'].map(at),
    big: at('big.docx'),
    csv: at('sheet-csv.csv'),
    lockedOdt: at('locked.odt'),
    lockedDoc: at('locked.doc'),
    // text-docx.docx encrypted with PASSWORD by officecrypto-tool (MS-OFFCRYPTO agile
    // encryption; LibreOffice 7.4 saves OOXML unencrypted whatever the password): see fixtures/README.md.
    lockedDocx: at('locked.docx'),
  };
}

/** Makes every document fixture into `dir` with LibreOffice (for fixtures/remake.ts). */
export async function buildDocumentFixtures(dir: string): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-fixture-build-'));
  try {
    await buildFixtures(work);
    for (const name of fs.readdirSync(work)) if (name !== 'src') fs.copyFileSync(path.join(work, name), path.join(dir, name));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Converts one flat-XML source of SOURCES with LibreOffice (e.g. `text.fodt` to `pdf`) into `dir`. */
export async function convertSource(source: string, convertTo: string, dir: string): Promise<string> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-fixture-build-'));
  try {
    const input = path.join(work, source);
    fs.writeFileSync(input, SOURCES[source] as string);
    runSoffice(path.join(work, 'profile'), ['--convert-to', convertTo, '--outdir', dir, input]);
    return path.join(dir, `${path.parse(source).name}.${convertTo.split(':')[0]}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function buildFixtures(dir: string): Promise<void> {
  const src = path.join(dir, 'src');
  fs.mkdirSync(src, { recursive: true });
  for (const [name, xml] of Object.entries(SOURCES)) fs.writeFileSync(path.join(src, name), xml);
  fs.writeFileSync(path.join(dir, 'sheet-csv.csv'), SHEET_ROWS.map((r) => r.join(',')).join('\n') + '\n');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-fixture-office-'));
  const profile = path.join(home, 'profile');
  const soffice = (args: string[]) => runSofficeAsync(profile, args);
  try {
    await withWarmOffice(home, profile, async () => {
      for (const [source, convertTo, output] of CONVERSIONS) {
        const out = path.join(home, 'out', output);
        await soffice(['--convert-to', convertTo, '--outdir', out, path.join(src, source)]);
        const produced = fs.readdirSync(out)[0];
        if (!produced) throw new Error(`fixture ${output} was not produced`);
        fs.renameSync(path.join(out, produced), path.join(dir, output));
      }
    });
    // Macros are not run when forwarded to a running office: one plain start each.
    writeMacroLibrary(profile);
    for (const [source, filter, output] of ENCRYPTED) {
      await soffice([`macro:///Standard.Fixtures.SaveWithPassword("${path.join(src, source)}","${path.join(dir, output)}","${filter}","${PASSWORD}")`]);
      if (!fs.existsSync(path.join(dir, output))) throw new Error(`fixture ${output} was not produced`);
    }
  } finally {
    // The macro runs start offices of their own: one killed or crashed leaves its socket.
    removeOfficeLeftovers(profile);
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const MACRO = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Fixtures" script:language="StarBasic">
Sub SaveWithPassword(src As String, dst As String, filt As String, pw As String)
  Dim args(0) As New com.sun.star.beans.PropertyValue
  args(0).Name = &quot;Hidden&quot; : args(0).Value = True
  doc = StarDesktop.loadComponentFromURL(ConvertToURL(src), &quot;_blank&quot;, 0, args())
  Dim st(1) As New com.sun.star.beans.PropertyValue
  st(0).Name = &quot;FilterName&quot; : st(0).Value = filt
  st(1).Name = &quot;Password&quot; : st(1).Value = pw
  doc.storeToURL(ConvertToURL(dst), st())
  doc.close(True)
End Sub
</script:module>
`;

function writeMacroLibrary(profile: string): void {
  const basic = path.join(profile, 'user', 'basic');
  fs.mkdirSync(path.join(basic, 'Standard'), { recursive: true });
  const libraries = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE library:libraries PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "libraries.dtd">
<library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink">
 <library:library library:name="Standard" library:link="false"/>
</library:libraries>
`;
  fs.writeFileSync(path.join(basic, 'script.xlc'), libraries);
  fs.writeFileSync(path.join(basic, 'dialog.xlc'), libraries);
  fs.writeFileSync(
    path.join(basic, 'Standard', 'script.xlb'),
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "library.dtd">
<library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" library:readonly="false" library:passwordprotected="false">
 <library:element library:name="Fixtures"/>
</library:library>
`,
  );
  fs.writeFileSync(
    path.join(basic, 'Standard', 'dialog.xlb'),
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "library.dtd">
<library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" library:readonly="false" library:passwordprotected="false"/>
`,
  );
  fs.writeFileSync(path.join(basic, 'Standard', 'Fixtures.xba'), MACRO);
}

/**
 * One office kept up by an open anchor document in `home`, so each fixture costs ~0.1 s instead
 * of ~1.3 s: runSofficeAsync on `profile` inside `work` forwards to it (runSoffice would remove
 * its socket).
 */
export async function withWarmOffice(home: string, profile: string, work: () => Promise<void>): Promise<void> {
  const anchor = path.join(home, 'anchor.txt');
  fs.writeFileSync(anchor, '');
  const office = startOffice(profile, [anchor]);
  try {
    const deadline = Date.now() + 60_000;
    while (!fs.existsSync(path.join(home, '.~lock.anchor.txt#'))) {
      if (Date.now() > deadline || office.exitCode !== null) throw new Error('fixture office did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await work();
  } finally {
    await stopOffice(office, profile);
  }
}

/** A Compound File holding empty streams with these names (e.g. an encrypted-OOXML container). */
export function oleContainer(streamNames: string[]): Buffer {
  const sector = 512;
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c); // one FAT sector
  header.writeUInt32LE(1, 0x30); // directory at sector 1
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(0xfffffffe, 0x3c);
  header.writeUInt32LE(0xfffffffe, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(0xffffffff, 0x4c + i * 4);
  header.writeUInt32LE(0, 0x4c); // FAT in sector 0
  const fat = Buffer.alloc(sector, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0); // sector 0: FAT
  fat.writeUInt32LE(0xfffffffe, 4); // sector 1: directory, end of chain
  const dir = Buffer.alloc(sector);
  const entry = (i: number, name: string, type: number) => {
    const p = i * 128;
    dir.write(name, p, 'utf16le');
    dir.writeUInt16LE((name.length + 1) * 2, p + 0x40);
    dir[p + 0x42] = type;
    dir.writeUInt32LE(0xffffffff, p + 0x44);
    dir.writeUInt32LE(0xffffffff, p + 0x48);
    dir.writeUInt32LE(0xffffffff, p + 0x4c);
    dir.writeUInt32LE(0xfffffffe, p + 0x74);
  };
  entry(0, 'Root Entry', 5);
  streamNames.slice(0, 3).forEach((name, i) => entry(i + 1, name, 2));
  return Buffer.concat([header, fat, dir]);
}

/** A ZIP of stored (uncompressed) entries, in order: enough for a hand-made ODF package. */
export function storedZip(entries: [string, string | Buffer][]): Buffer {
  return makeZip(entries.map(([name, data]) => ({ name, data, deflate: false })));
}

/** An .odt whose only image is a link to `imageUrl` (to prove linked content is never fetched). */
export function odtWithLinkedImage(imageUrl: string): Buffer {
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"><office:body><office:text>
<text:p>${TEXT_LINE}</text:p>
<text:p><draw:frame draw:name="linked" text:anchor-type="paragraph" svg:width="4cm" svg:height="4cm"><draw:image xlink:href="${imageUrl}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>
</office:text></office:body></office:document-content>
`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
`;
  return storedZip([
    ['mimetype', 'application/vnd.oasis.opendocument.text'],
    ['content.xml', content],
    ['META-INF/manifest.xml', manifest],
  ]);
}

// ---- independent readers ----

export function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
}

/** Font names embedded in a PDF (pdffonts), e.g. `ABCDEF+NotoSansHans-Regular`. */
export function pdfFontNames(file: string): string[] {
  const lines = execFileSync('pdffonts', [file]).toString().split('\n').slice(2);
  return lines.map((l) => l.split(/\s+/)[0] ?? '').filter((n) => n !== '');
}

/** One part of a ZIP-based document (OOXML/ODF), via unzip. */
export function zipPart(file: string, part: string): string {
  return execFileSync('unzip', ['-p', file, part]).toString();
}

/** A DOCX read back by an independent reader, as GitHub Markdown (pandoc). */
export function docxMarkdown(file: string): string {
  return execFileSync('pandoc', ['-f', 'docx', '-t', 'gfm', file]).toString();
}

export function zipParts(file: string): string[] {
  return execFileSync('unzip', ['-Z1', file])
    .toString()
    .split('\n')
    .filter((n) => n !== '');
}

export interface OsProcess {
  pid: number;
  args: string;
}

/** Office processes started by the docwasm service with this PID: soffice (their profile dirs carry it) and WebAssembly offices (tagged with it). */
export function officeProcessesOf(servicePid: number): OsProcess[] {
  const out = spawnSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && !m[2]?.startsWith('Z') && isOfficeOf(m[3] ?? '', servicePid))
    .map((m) => ({ pid: Number(m[1]), args: m[3] as string }));
}

const isOfficeOf = (args: string, servicePid: number) => args.includes(`docwasm-soffice-${servicePid}-`) || args.endsWith(` ${officeTag(servicePid)}`);

/** The /tmp sockets (LibreOffice's single-instance pipes) of these offices' profiles, which exist while they run. */
export function officePipesOf(offices: OsProcess[]): string[] {
  const urls = offices.map((p) => /-env:UserInstallation=(\S+)/.exec(p.args)?.[1]).filter((url): url is string => url !== undefined);
  return [...new Set(urls.map((url) => officePipePath(url)).filter((pipe): pipe is string => pipe !== undefined))];
}

/**
 * SIGKILL, tolerating a process that is already gone: under bwrap an office's processes die with
 * the sandbox process killed before them.
 */
export function killHard(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

export function isAlive(pid: number): boolean {
  const stat = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return stat !== '' && !stat.startsWith('Z');
}

export async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}
