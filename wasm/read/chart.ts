// DrawingML charts (c:chartSpace parts of docx, pptx and xlsx) as what a reader can use: the
// chart's title as a paragraph and its data as a table — categories down the first column, one
// column per series, values as the chart part caches them (no workbook is opened, no formula
// evaluated). Scatter and bubble charts cache x values where others cache categories.

import type { RootContent } from 'mdast';
import { paragraph, table, type CellSource } from './blocks.js';
import type { OfficePackage } from './package.js';
import type { Relationships } from './relationships.js';
import { blocksToHtml } from './render.js';
import { child, childElements, find, findAll, textOf, type XmlElement } from './xml.js';

interface Series {
  name: string;
  categories: Map<number, string>;
  values: Map<number, string>;
}

/** Most category rows a chart's table shows: a chart's cache is bounded by its sheet, not by us. */
const MAX_CHART_ROWS = 10_000;

/**
 * The blocks of the chart a drawing's `c:chart` element points at (its `r:id`, resolved by the
 * relationships of the part holding the drawing), or undefined when it points at no part.
 */
export function chartFrameBlocks(frame: XmlElement, rels: Relationships, pkg: OfficePackage): RootContent[] | undefined {
  const part = rels.get(frame.attrs['r:id'] ?? '')?.part;
  return part === undefined ? undefined : chartBlocks(pkg.xml(part));
}

/** The blocks of one chart part (`c:chartSpace`); none when it holds neither a title nor data. */
function chartBlocks(chartSpace: XmlElement | undefined): RootContent[] {
  const chart = chartSpace && child(chartSpace, 'c:chart');
  if (!chart) return [];
  const title = child(chart, 'c:title');
  const titleText = title ? titleOf(title) : '';
  const plotArea = child(chart, 'c:plotArea');
  const series = plotArea ? findAll(plotArea, 'c:ser').map(readSeries) : [];
  const out: RootContent[] = [];
  if (titleText) out.push(paragraph([{ text: titleText }]));
  const rows = dataRows(series);
  if (rows.length > 1) out.push(table(rows, blocksToHtml));
  return out;
}

function titleOf(title: XmlElement): string {
  const rich = find(title, 'c:rich');
  const cached = find(title, 'c:strCache');
  const paragraphs = rich ? findAll(rich, 'a:p').map((p) => textOf(p).trim()) : cached ? pointsOf(cached).map(([, v]) => v) : [];
  return paragraphs.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
}

function readSeries(ser: XmlElement, index: number): Series {
  const tx = child(ser, 'c:tx');
  const name = (tx && (find(tx, 'c:v') ? textOf(find(tx, 'c:v') as XmlElement) : textOf(tx)).trim()) || `Series ${index + 1}`;
  return { name, categories: cachedPoints(child(ser, 'c:cat') ?? child(ser, 'c:xVal')), values: cachedPoints(child(ser, 'c:val') ?? child(ser, 'c:yVal')) };
}

/** A data reference's cached points by index (string, number or multi-level caches). */
function cachedPoints(ref: XmlElement | undefined): Map<number, string> {
  if (!ref) return new Map();
  const cache = find(ref, 'c:strCache') ?? find(ref, 'c:numCache') ?? find(ref, 'c:multiLvlStrCache') ?? find(ref, 'c:strLit') ?? find(ref, 'c:numLit');
  if (!cache) return new Map();
  // A multi-level cache's first level is the innermost category.
  const level = cache.name === 'c:multiLvlStrCache' ? child(cache, 'c:lvl') : cache;
  const points = level ? pointsOf(level) : [];
  const numeric = cache.name === 'c:numCache' || cache.name === 'c:numLit';
  return new Map(numeric ? points.map(([i, v]) => [i, shownNumber(v)]) : points);
}

/**
 * A cached number as a spreadsheet shows it: writers cache binary doubles in full (Word's 4.4
 * is `4.4000000000000004`), which 15 significant digits, Excel's own precision, round back.
 */
function shownNumber(value: string): string {
  const number = Number(value);
  return value.trim() !== '' && Number.isFinite(number) ? String(Number(number.toPrecision(15))) : value;
}

function pointsOf(cache: XmlElement): [number, string][] {
  return childElements(cache, 'c:pt').map((pt) => [Number(pt.attrs.idx ?? 0), textOf(child(pt, 'c:v') ?? pt).trim()]);
}

/** Header row (blank corner, series names) and one row per category, in index order. */
function dataRows(series: readonly Series[]): CellSource[][] {
  if (series.length === 0) return [];
  const indexes = [...new Set(series.flatMap((s) => [...s.categories.keys(), ...s.values.keys()]))].sort((a, b) => a - b).slice(0, MAX_CHART_ROWS);
  const categoryOf = (i: number) => series.map((s) => s.categories.get(i)).find((c) => c !== undefined) ?? String(i + 1);
  const cell = (text: string): CellSource => ({ blocks: text ? [paragraph([{ text }])] : [], colSpan: 1, rowSpan: 1 });
  const header = [cell(''), ...series.map((s) => cell(s.name))];
  return [header, ...indexes.map((i) => [cell(categoryOf(i)), ...series.map((s) => cell(s.values.get(i) ?? ''))])];
}
