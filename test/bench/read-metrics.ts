// The metrics of opendataloader-bench (github.com/opendataloader-project/opendataloader-bench,
// MIT, src/evaluator_*.py), reimplemented so the reading benchmark runs offline in Node:
//   - NID: rapidfuzz `fuzz.ratio` of the whole Markdown (pipe tables turned into HTML first),
//     whitespace collapsed — 1 − indel distance / (|gt| + |pred|);
//   - TEDS: tree edit distance similarity of all tables of the document under one root
//     (th as td, thead/tbody dropped, cell text compared by normalised Levenshtein);
//   - MHS: tree edit distance over a flat tree of headings, each holding its section's text.
// The Python version computes tree edit distance with APTED; Zhang–Shasha below computes the
// same optimal distance under the same costs (insert 1, delete 1, rename as configured).
// Strings are compared by code point, as Python does.

import { fromHtml } from 'hast-util-from-html';

// hast's node types, through the parser's own signature.
type Root = ReturnType<typeof fromHtml>;
type RootContent = Root['children'][number];
type Element = Extract<RootContent, { type: 'element' }>;
type ElementContent = Element['children'][number];

export interface DocumentScores {
  nid: number | null;
  teds: number | null;
  mhs: number | null;
  /** Mean of the metrics the ground truth has material for. */
  overall: number | null;
}

export function scoreMarkdown(groundTruth: string, prediction: string): DocumentScores {
  const gt = markdownTablesToHtml(groundTruth);
  const pred = markdownTablesToHtml(prediction);
  const nid = readingOrder(gt, pred);
  const teds = tableSimilarity(gt, pred);
  const mhs = headingSimilarity(gt, pred);
  const present = [nid, teds, mhs].filter((v): v is number => v !== null);
  return { nid, teds, mhs, overall: present.length ? present.reduce((a, b) => a + b, 0) / present.length : null };
}

// ---- converter_markdown_table.py ------------------------------------------------------------

function splitRow(line: string): string[] | null {
  const trimmed = line.trim();
  if (!trimmed || !trimmed.includes('|')) return null;
  let cells = trimmed.split('|');
  if (trimmed.startsWith('|')) cells = cells.slice(1);
  if (cells.length && trimmed.endsWith('|')) cells = cells.slice(0, -1);
  cells = cells.map((c) => c.trim());
  return cells.length ? cells : null;
}

const isSeparator = (cells: string[]) => cells.length > 0 && cells.every((c) => c.replaceAll(' ', '') !== '' && /^[-:]+$/.test(c.replaceAll(' ', '')));

function fitCells(cells: string[], width: number): string[] {
  if (width <= 0 || cells.length === width) return cells;
  if (cells.length === 3 && width > 3) return [cells[0] as string, ...Array<string>(width - 2).fill(cells[1] as string), cells[2] as string];
  if (cells.length < width) return [...cells, ...Array<string>(width - cells.length).fill('')];
  return cells.slice(0, width);
}

const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;');

export function markdownTablesToHtml(markdown: string): string {
  if (!markdown) return markdown;
  const lines = markdown.split(/(?<=\r\n|\n|\r)(?!\n)/);
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    let header = splitRow(line);
    const separator = i + 1 < lines.length ? splitRow(lines[i + 1] as string) : null;
    if (!header || !separator || !isSeparator(separator)) {
      out.push(line);
      i++;
      continue;
    }
    const width = Math.max(header.length, separator.length);
    header = fitCells(header, width);
    const body: string[][] = [];
    let j = i + 2;
    for (; j < lines.length; j++) {
      const cells = splitRow(lines[j] as string);
      if (!cells) break;
      body.push(fitCells(cells, width));
    }
    if (header.every((c) => c === '') && body.length) header = body.shift() as string[];
    const row = (cells: string[], tag: string) => `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
    out.push(`<table>${row(header, 'th')}${body.map((r) => row(r, 'td')).join('')}</table>${/\r\n$|\n$|\r$/.exec(line)?.[0] ?? ''}`);
    i = j;
  }
  return out.join('');
}

// ---- evaluator_reading_order.py ------------------------------------------------------------

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function readingOrder(gt: string, pred: string): number | null {
  const a = collapse(gt);
  if (!a) return null;
  return indelSimilarity(a, collapse(pred));
}

/** rapidfuzz's normalised Indel similarity: 1 − (|a| + |b| − 2·LCS) / (|a| + |b|). */
export function indelSimilarity(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (!x.length && !y.length) return 1;
  const lcs = lcsLength(x, y);
  return 1 - (x.length + y.length - 2 * lcs) / (x.length + y.length);
}

/** Bit-parallel LCS (Allison–Dix / Hyyrö): V' = (V + U) | (V − U) with U = V & match(c). */
function lcsLength(x: readonly string[], y: readonly string[]): number {
  if (!x.length || !y.length) return 0;
  const words = Math.ceil(x.length / 32);
  const match = new Map<string, Uint32Array>();
  x.forEach((ch, i) => {
    let m = match.get(ch);
    if (!m) match.set(ch, (m = new Uint32Array(words)));
    m[i >>> 5] = ((m[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
  });
  const v = new Uint32Array(words).fill(0xffffffff);
  for (const ch of y) {
    const m = match.get(ch);
    if (!m) continue;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w] as number;
      const u = (vw & (m[w] as number)) >>> 0;
      const sum = vw + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = ((sum >>> 0) | (vw & ~u)) >>> 0;
    }
  }
  let zeros = 0;
  for (let i = 0; i < x.length; i++) if ((((v[i >>> 5] as number) >>> (i & 31)) & 1) === 0) zeros++;
  return zeros;
}

/** Levenshtein distance by Myers' bit-vector algorithm in 32-bit blocks (code points). */
export function levenshtein(a: string, b: string): number {
  let x = Array.from(a);
  let y = Array.from(b);
  if (x.length > y.length) [x, y] = [y, x];
  if (!x.length) return y.length;
  const m = x.length;
  const blocks = Math.ceil(m / 32);
  const peq = new Map<string, Int32Array>();
  x.forEach((ch, i) => {
    let e = peq.get(ch);
    if (!e) peq.set(ch, (e = new Int32Array(blocks)));
    e[i >>> 5] = (e[i >>> 5] as number) | (1 << (i & 31));
  });
  const none = new Int32Array(blocks);
  const pv = new Int32Array(blocks).fill(-1);
  const mv = new Int32Array(blocks);
  const lastHigh = 1 << ((m - 1) & 31);
  let score = m;
  for (const ch of y) {
    const eqs = peq.get(ch) ?? none;
    let hin = 1;
    for (let b = 0; b < blocks; b++) {
      let eq = eqs[b] as number;
      const p = pv[b] as number;
      const n = mv[b] as number;
      const xv = eq | n;
      if (hin < 0) eq |= 1;
      const xh = ((((eq & p) + p) | 0) ^ p) | eq;
      let ph = n | ~(xh | p);
      let mh = p & xh;
      const high = b === blocks - 1 ? lastHigh : 1 << 31;
      const hout = ph & high ? 1 : mh & high ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (hin < 0) mh |= 1;
      else if (hin > 0) ph |= 1;
      pv[b] = mh | ~(xv | ph);
      mv[b] = ph & xv;
      hin = hout;
    }
    score += hin;
  }
  return score;
}

// ---- tree edit distance (Zhang–Shasha) -----------------------------------------------------

interface TreeNode<T> {
  value: T;
  children: TreeNode<T>[];
}

/** Optimal edit distance between two ordered trees: insert and delete cost 1, rename `rename`. */
export function treeEditDistance<T>(a: TreeNode<T>, b: TreeNode<T>, rename: (x: T, y: T) => number): number {
  const A = postorder(a);
  const B = postorder(b);
  const td = Array.from({ length: A.nodes.length }, () => new Float64Array(B.nodes.length));
  const cache = new Map<string, number>();
  const cost = (i: number, j: number) => {
    const key = `${i},${j}`;
    let c = cache.get(key);
    if (c === undefined) cache.set(key, (c = rename((A.nodes[i] as TreeNode<T>).value, (B.nodes[j] as TreeNode<T>).value)));
    return c;
  };
  for (const i of A.keyroots) {
    for (const j of B.keyroots) {
      const li = A.left[i] as number;
      const lj = B.left[j] as number;
      const rows = i - li + 2;
      const cols = j - lj + 2;
      const fd = Array.from({ length: rows }, () => new Float64Array(cols));
      for (let x = 1; x < rows; x++) (fd[x] as Float64Array)[0] = x;
      for (let y = 1; y < cols; y++) (fd[0] as Float64Array)[y] = y;
      for (let x = 1; x < rows; x++) {
        const ni = li + x - 1;
        const row = fd[x] as Float64Array;
        const up = fd[x - 1] as Float64Array;
        for (let y = 1; y < cols; y++) {
          const nj = lj + y - 1;
          if (A.left[ni] === li && B.left[nj] === lj) {
            row[y] = Math.min((up[y] as number) + 1, (row[y - 1] as number) + 1, (up[y - 1] as number) + cost(ni, nj));
            (td[ni] as Float64Array)[nj] = row[y] as number;
          } else {
            const px = (A.left[ni] as number) - li;
            const py = (B.left[nj] as number) - lj;
            row[y] = Math.min(
              (up[y] as number) + 1,
              (row[y - 1] as number) + 1,
              ((fd[px] as Float64Array)[py] as number) + ((td[ni] as Float64Array)[nj] as number),
            );
          }
        }
      }
    }
  }
  return (td[A.nodes.length - 1] as Float64Array)[B.nodes.length - 1] as number;
}

function postorder<T>(root: TreeNode<T>): { nodes: TreeNode<T>[]; left: number[]; keyroots: number[] } {
  const nodes: TreeNode<T>[] = [];
  const left: number[] = [];
  const walk = (node: TreeNode<T>): number => {
    let leftmost = -1;
    for (const child of node.children) {
      const l = walk(child);
      if (leftmost < 0) leftmost = l;
    }
    nodes.push(node);
    const index = nodes.length - 1;
    left[index] = leftmost < 0 ? index : leftmost;
    return left[index];
  };
  walk(root);
  const seen = new Set<number>();
  const keyroots: number[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!seen.has(left[i] as number)) {
      keyroots.push(i);
      seen.add(left[i] as number);
    }
  }
  return { nodes, left, keyroots: keyroots.sort((p, q) => p - q) };
}

const countNodes = <T>(node: TreeNode<T>): number => 1 + node.children.reduce((n, c) => n + countNodes(c), 0);

// ---- evaluator_heading_level.py ------------------------------------------------------------

interface Section {
  tag: 'document' | 'heading' | 'content';
  text: string;
}

function sectionTree(markdown: string): TreeNode<Section> {
  const root: TreeNode<Section> = { value: { tag: 'document', text: '' }, children: [] };
  let container = root;
  let pending: string[] = [];
  const flush = () => {
    const text = collapse(pending.join(' '));
    if (text) container.children.push({ value: { tag: 'content', text }, children: [] });
    pending = [];
  };
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    const match = /^(#{1,6})\s+(.*)$/.exec(line);
    if (match) {
      flush();
      container = { value: { tag: 'heading', text: collapse(match[2] as string) }, children: [] };
      root.children.push(container);
    } else if (collapse(line)) pending.push(collapse(line));
  }
  flush();
  return root;
}

const normalizedDistance = (a: string, b: string) => (!a && !b ? 0 : levenshtein(a, b) / Math.max(Array.from(a).length, Array.from(b).length, 1));

function headingSimilarity(gt: string, pred: string): number | null {
  const a = sectionTree(gt);
  if (!a.children.some((c) => c.value.tag === 'heading')) return null;
  const b = sectionTree(pred);
  if (!b.children.some((c) => c.value.tag === 'heading')) return 0;
  const distance = treeEditDistance(a, b, (x, y) => (x.tag !== y.tag ? 1 : normalizedDistance(x.text, y.text)));
  return Math.max(0, Math.min(1, 1 - distance / Math.max(countNodes(a), countNodes(b), 1)));
}

// ---- evaluator_table.py ----------------------------------------------------------------------

interface Cell {
  tag: string;
  colSpan?: number;
  rowSpan?: number;
  text?: string;
}

/** Every <table> of the Markdown (pipe tables already HTML) under one root, as TEDS builds it. */
function tablesTree(markdownWithHtml: string): { tree: TreeNode<Cell>; count: number; tables: number } | null {
  const doc = fromHtml(markdownWithHtml, { fragment: true });
  const tables: Element[] = [];
  const find = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'table') tables.push(child);
      else find(child);
    }
  };
  find(doc);
  if (!tables.length) return null;
  let count = 0;
  const build = (el: Element): TreeNode<Cell>[] => {
    // thead/tbody/tfoot are removed before parsing in the Python version.
    if (['thead', 'tbody', 'tfoot'].includes(el.tagName)) return elementChildren(el).flatMap(build);
    count++;
    if (el.tagName === 'td' || el.tagName === 'th') {
      count += innerElements(el);
      return [
        {
          value: { tag: 'td', colSpan: Number(el.properties.colSpan ?? 1), rowSpan: Number(el.properties.rowSpan ?? 1), text: collapse(cellText(el)) },
          children: [],
        },
      ];
    }
    return [{ value: { tag: el.tagName }, children: elementChildren(el).flatMap(build) }];
  };
  const children = tables.flatMap(build);
  return { tree: { value: { tag: 'table' }, children }, count, tables: tables.length };
}

const elementChildren = (el: Element) => el.children.filter((c): c is Element => c.type === 'element');
const innerElements = (el: Element): number => elementChildren(el).reduce((n, c) => n + 1 + innerElements(c), 0);

/** The cell's inner text with its inline tags, as the Python tokenizer joins its tokens. */
const cellText = (cell: Element) =>
  cell.children
    .map(tokens)
    .join('')
    .replace(/<br\s*\/?>/g, '\n');

function tokens(node: ElementContent | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  return `<${node.tagName}>${node.children.map(tokens).join('')}</${node.tagName}>`;
}

function tableSimilarity(gt: string, pred: string): number | null {
  const a = tablesTree(gt);
  if (!a) return null;
  const b = tablesTree(pred);
  if (!b) return 0;
  const distance = treeEditDistance(a.tree, b.tree, (x, y) => {
    if (x.tag !== y.tag || x.colSpan !== y.colSpan || x.rowSpan !== y.rowSpan) return 1;
    if (x.tag === 'td' && (x.text || y.text)) return normalizedDistance(x.text ?? '', y.text ?? '');
    return 0;
  });
  return 1 - distance / Math.max(a.count, b.count);
}
