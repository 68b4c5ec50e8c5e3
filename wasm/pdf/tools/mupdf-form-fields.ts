// The form fields of a document on mupdf, each with its widgets (a radio group has one per
// button), read from the pages' widget lists: mupdf names fields fully ("parent.child") and
// reads inherited flags and values.

import type * as mupdf from 'mupdf';
import type { FormField, FormFieldType } from '../engine.js';

export interface FieldWidgets {
  field: FormField;
  widgets: mupdf.PDFWidget[];
  /** Multi-line text fields may hold line breaks; single-line ones may not. */
  multiline: boolean;
  /** Greatest length of a text field's value; 0 when unlimited. */
  maxLength: number;
  /** An editable combo box takes values outside its options. */
  editable: boolean;
}

/** mupdf's field types mapped to the contract's; push buttons hold no value and are left out. */
const TYPES: Readonly<Record<string, FormFieldType>> = {
  text: 'text',
  checkbox: 'checkbox',
  radiobutton: 'radio',
  combobox: 'choice',
  listbox: 'choice',
  signature: 'signature',
};

/**
 * Every field of the document, in page order. The pages are loaded and handed to `use`, then
 * freed: widgets stay usable only while their page is loaded.
 */
export function withFields<T>(doc: mupdf.PDFDocument, use: (fields: Map<string, FieldWidgets>) => T): T {
  const pages: mupdf.PDFPage[] = [];
  try {
    const fields = new Map<string, FieldWidgets>();
    for (let index = 0; index < doc.countPages(); index++) {
      const page = doc.loadPage(index);
      pages.push(page);
      for (const widget of page.getWidgets()) addWidget(fields, widget, index + 1);
    }
    return use(fields);
  } finally {
    for (const page of pages) page.destroy();
  }
}

function addWidget(fields: Map<string, FieldWidgets>, widget: mupdf.PDFWidget, page: number): void {
  const type = TYPES[widget.getFieldType()];
  if (!type) return;
  const name = widget.getName();
  const known = fields.get(name);
  if (known) {
    known.widgets.push(widget);
    if (type === 'radio') known.field.options = [...new Set([...(known.field.options ?? []), ...onStates(widget)])];
    return;
  }
  const field: FormField = { name, type, value: valueOf(widget, type), page, readOnly: widget.isReadOnly() };
  if (type === 'radio') field.options = onStates(widget);
  if (type === 'choice') field.options = widget.getOptions();
  fields.set(name, {
    field,
    widgets: [widget],
    multiline: type === 'text' && widget.isMultiline(),
    maxLength: type === 'text' ? widget.getMaxLen() : 0,
    editable: widget.isComboBox() && (widget.getFieldFlags() & 0x40000) !== 0,
  });
}

function valueOf(widget: mupdf.PDFWidget, type: FormFieldType): FormField['value'] {
  const value = widget.getValue();
  switch (type) {
    case 'text':
      return value;
    case 'checkbox':
      return value !== '' && value !== 'Off';
    case 'radio':
    case 'choice':
      return value === '' || value === 'Off' ? null : value;
    default:
      return null;
  }
}

/** The names of a button's appearance states other than Off: the value it stands for when on. */
export function onStates(widget: mupdf.PDFWidget): string[] {
  const states: string[] = [];
  const appearances = widget.getObject().get('AP');
  const normal = appearances.isDictionary() ? appearances.get('N') : appearances;
  if (normal.isDictionary() && !normal.isStream()) normal.forEach((_value, key) => key !== 'Off' && states.push(String(key)));
  return states;
}
