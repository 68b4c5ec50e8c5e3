// fill and flatten on mupdf. Every value is checked against its field before any is set, so a
// refused request changes nothing. Text outside Latin-1 (CJK, Cyrillic, ...) gets an appearance
// of its own, set in an embedded subset of the fallback font (watermark-font.ts): mupdf's own
// appearance would name a CJK font it does not embed.

import * as mupdf from 'mupdf';
import { ApiError } from '../../../core/errors.js';
import type { FillOptions, FormValue } from '../engine.js';
import { onStates, withFields, type FieldWidgets } from './mupdf-form-fields.js';
import { embedText } from './watermark-font.js';

const FIELD_FONT = 'DocwasmFieldFont';
/** What the standard 14 fonts of a default appearance (WinAnsi) can show. */
const LATIN_1 = /^[\t\n\r\x20-\x7e\xa0-\xff]*$/;

export function fillForm(doc: mupdf.PDFDocument, { values, flatten }: FillOptions): { filled: string[] } {
  const filled = withFields(doc, (fields) => {
    const checked = Object.entries(values).map(([name, value]) => ({ entry: checkValue(fields.get(name), name, value), value }));
    for (const { entry, value } of checked) setValue(doc, entry, value);
    return checked.map(({ entry }) => entry.field.name);
  });
  if (flatten) flattenForm(doc, false);
  return { filled };
}

function checkValue(entry: FieldWidgets | undefined, name: string, value: FormValue): FieldWidgets {
  if (!entry) throw refused(name, 'no such field in the form');
  const { field } = entry;
  if (field.readOnly) throw refused(name, 'the field is read-only');
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') throw refused(name, 'a text field takes a string');
      if (entry.maxLength > 0 && [...value].length > entry.maxLength) throw refused(name, `at most ${entry.maxLength} characters`);
      if (!entry.multiline && /[\r\n]/.test(value)) throw refused(name, 'a single-line field takes no line breaks');
      return entry;
    case 'checkbox':
      if (typeof value !== 'boolean') throw refused(name, 'a checkbox takes true or false');
      return entry;
    case 'radio':
    case 'choice':
      if (typeof value !== 'string') throw refused(name, `takes one of its options (${(field.options ?? []).join(', ')})`);
      if (!(field.options ?? []).includes(value) && !entry.editable)
        throw refused(name, `"${value}" is not one of its options (${(field.options ?? []).join(', ')})`);
      return entry;
    default:
      throw refused(name, 'a signature field is filled by signing, not by a value');
  }
}

const refused = (name: string, why: string) => new ApiError('VALIDATION_ERROR', `values.${name}: ${why}`);

function setValue(doc: mupdf.PDFDocument, { field, widgets }: FieldWidgets, value: FormValue): void {
  const [first] = widgets as [mupdf.PDFWidget];
  switch (field.type) {
    case 'text':
      first.setTextValue(value as string);
      break;
    case 'checkbox':
      if (field.value !== value) first.toggle();
      break;
    case 'radio':
      if (field.value !== value) widgets.find((widget) => onStates(widget).includes(value as string))?.toggle();
      break;
    default:
      first.setChoiceValue(value as string);
  }
  for (const widget of widgets) widget.update();
  if (field.type === 'text' && !LATIN_1.test(value as string)) for (const widget of widgets) drawTextAppearance(doc, widget, value as string);
}

/** One line of `text` in the fallback font, left-aligned and centred vertically in the widget. */
function drawTextAppearance(doc: mupdf.PDFDocument, widget: mupdf.PDFWidget, text: string): void {
  const [x0, y0, x1, y1] = widget.getObject().get('Rect').asJS() as [number, number, number, number];
  const [width, height] = [Math.abs(x1 - x0), Math.abs(y1 - y0)];
  const line = text.replace(/[\r\n]+/g, ' ');
  const embedded = embedText(doc, line, 'form');
  const asked = widget.getDefaultAppearance().size;
  const size = round(asked > 0 ? asked : Math.min(height * 0.7, (width - 4) / Math.max(embedded.width, 0.01)));
  const baseline = round((height - size * 0.7) / 2);
  const resources = doc.addObject({ Font: { [FIELD_FONT]: embedded.font } });
  const content = `/Tx BMC q BT /${FIELD_FONT} ${size} Tf 0 g 2 ${baseline} Td <${embedded.glyphs}> Tj ET Q EMC`;
  widget.setAppearance(null, null, mupdf.Matrix.identity, [0, 0, width, height], resources, content);
  // Viewers asked to regenerate appearances would redo this one in a font without the glyphs.
  const form = doc.getTrailer().get('Root').get('AcroForm');
  if (form.isDictionary()) form.delete('NeedAppearances');
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Widgets (and other annotations when asked) drawn into the page content; the AcroForm removed. */
export function flattenForm(doc: mupdf.PDFDocument, annotations: boolean): number {
  const fields = withFields(doc, (found) => found.size);
  doc.bake(annotations, true);
  doc.getTrailer().get('Root').delete('AcroForm');
  return fields;
}
