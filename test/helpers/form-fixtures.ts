// A PDF form for the form tests, written byte by byte as a form designer writes one: a text
// field, a read-only text field, a checkbox, a radio group of three, a combo box and a list box,
// each widget with its appearance streams (checkbox and radios in their on and off states).

import { serializePdf } from './make-pdf.js';

/** The fields as pdf/form-fields lists them (before filling). */
export const FORM_FIELDS = [
  { name: 'fullName', type: 'text', value: '', page: 1, readOnly: false },
  { name: 'office', type: 'text', value: 'Head office', page: 1, readOnly: true },
  { name: 'agree', type: 'checkbox', value: false, page: 1, readOnly: false },
  { name: 'size', type: 'radio', value: null, options: ['small', 'medium', 'large'], page: 1, readOnly: false },
  { name: 'country', type: 'choice', value: 'France', options: ['France', 'Germany', 'China'], page: 1, readOnly: false },
  { name: 'colour', type: 'choice', value: null, options: ['red', 'green'], page: 1, readOnly: false },
];

const stream = (dict: string, content: string) => `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;
const box = (w: number, h: number) => `/Type /XObject /Subtype /Form /BBox [0 0 ${w} ${h}] /Resources << /Font << /Helv 3 0 R /ZaDb 4 0 R >> >>`;
const tick = (w: number, h: number) => stream(box(w, h), `q BT 0 g /ZaDb ${h - 4} Tf 2 3 Td (4) Tj ET Q`);
const empty = (w: number, h: number) => stream(box(w, h), '');
const text = (w: number, h: number, value: string) => stream(box(w, h), value ? `/Tx BMC q BT /Helv 10 Tf 0 g 2 6 Td (${value}) Tj ET Q EMC` : '/Tx BMC EMC');

export function formPdf(): Buffer {
  const label = 'BT /Helv 12 Tf 72 740 Td (Application form) Tj ET';
  // Objects 1-4: catalog, pages, fonts; 5 page; 6 page content; then fields and appearances.
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [7 0 R 9 0 R 11 0 R 14 0 R 21 0 R 23 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R /ZaDb 4 0 R >> >> >> >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /Helv 3 0 R >> >> /Contents 6 0 R /Annots [7 0 R 9 0 R 11 0 R 15 0 R 17 0 R 19 0 R 21 0 R 23 0 R] >>',
    stream('', label),
    // 7-8 fullName
    '<< /Type /Annot /Subtype /Widget /FT /Tx /T (fullName) /V () /DA (/Helv 10 Tf 0 g) /Rect [72 680 372 700] /F 4 /P 5 0 R /AP << /N 8 0 R >> >>',
    text(300, 20, ''),
    // 9-10 office (read-only)
    '<< /Type /Annot /Subtype /Widget /FT /Tx /T (office) /V (Head office) /Ff 1 /DA (/Helv 10 Tf 0 g) /Rect [72 650 372 670] /F 4 /P 5 0 R /AP << /N 10 0 R >> >>',
    text(300, 20, 'Head office'),
    // 11-13 agree (checkbox)
    '<< /Type /Annot /Subtype /Widget /FT /Btn /T (agree) /V /Off /AS /Off /DA (/ZaDb 0 Tf 0 g) /MK << /CA (4) >> /Rect [72 620 90 638] /F 4 /P 5 0 R /AP << /N << /Yes 12 0 R /Off 13 0 R >> >> >>',
    tick(18, 18),
    empty(18, 18),
    // 14 size (radio group), kids 15-20
    '<< /FT /Btn /Ff 49152 /T (size) /V /Off /Kids [15 0 R 17 0 R 19 0 R] /DA (/ZaDb 0 Tf 0 g) >>',
    '<< /Type /Annot /Subtype /Widget /Parent 14 0 R /AS /Off /MK << /CA (l) >> /Rect [72 590 90 608] /F 4 /P 5 0 R /AP << /N << /small 16 0 R /Off 20 0 R >> >> >>',
    tick(18, 18),
    '<< /Type /Annot /Subtype /Widget /Parent 14 0 R /AS /Off /MK << /CA (l) >> /Rect [100 590 118 608] /F 4 /P 5 0 R /AP << /N << /medium 18 0 R /Off 20 0 R >> >> >>',
    tick(18, 18),
    '<< /Type /Annot /Subtype /Widget /Parent 14 0 R /AS /Off /MK << /CA (l) >> /Rect [128 590 146 608] /F 4 /P 5 0 R /AP << /N << /large 18 0 R /Off 20 0 R >> >> >>',
    empty(18, 18),
    // 21-22 country (combo box)
    '<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (country) /V (France) /Opt [(France) (Germany) (China)] /DA (/Helv 10 Tf 0 g) /Rect [72 550 272 570] /F 4 /P 5 0 R /AP << /N 22 0 R >> >>',
    text(200, 20, 'France'),
    // 23-24 colour (list box)
    '<< /Type /Annot /Subtype /Widget /FT /Ch /T (colour) /Opt [(red) (green)] /DA (/Helv 10 Tf 0 g) /Rect [72 500 272 540] /F 4 /P 5 0 R /AP << /N 24 0 R >> >>',
    text(200, 40, ''),
  ];
  return serializePdf(objects);
}

/** A form of `count` text fields (`field1` …), one under the other, for timing fill and flatten. */
export function textFieldsForm(count: number): Buffer {
  const fieldIds = Array.from({ length: count }, (_, i) => 5 + i * 2);
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${fieldIds.map((id) => `${id} 0 R`).join(' ')}] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >> >>`,
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [${fieldIds.map((id) => `${id} 0 R`).join(' ')}] >>`,
  ];
  for (let i = 0; i < count; i++) {
    const top = 740 - i * 30;
    objects.push(
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (field${i + 1}) /V () /DA (/Helv 10 Tf 0 g) /Rect [72 ${top - 20} 372 ${top}] /F 4 /P 4 0 R /AP << /N ${fieldIds[i]! + 1} 0 R >> >>`,
    );
    objects.push(text(300, 20, ''));
  }
  return serializePdf(objects);
}
