// A PDF full of personal data for the redaction tests, written byte by byte: Helvetica text
// lines (each secret between two neighbour words), a red image, a note annotation, a text
// field, a bookmark and an Info title that repeat the e-mail address, and a clean second page.

import { serializePdf } from './make-pdf.js';

export const SECRETS = {
  email: 'alice@example.com',
  phone: '+86 138 0013 8000',
  card: '4111 1111 1111 1111',
  iban: 'DE89 3704 0044 0532 0130 00',
  cnId: '11010519491231002X',
  phrase: 'Project Falcon',
};

/** Lines of page 1 (top to bottom): every secret has a word before and after it. */
export const LINES = [
  `Contact ${SECRETS.email} today`,
  `Phone ${SECRETS.phone} evenings`,
  `Card ${SECRETS.card} valid`,
  'Fake 4111 1111 1111 1112 kept',
  `IBAN ${SECRETS.iban} wired`,
  'Wrong DE89 3704 0044 0532 0130 01 kept',
  `Resident ${SECRETS.cnId} here`,
  'Badid 110105194912310021 kept',
  `Secret ${SECRETS.phrase} launch`,
];

/** The image: 20 x 20 red pixels drawn at x 72–272, y 300–500 (PDF space) = top 292–492 from the top. */
export const IMAGE_BOX = { x: 72, top: 292, size: 200 };

const escape = (text: string) => text.replace(/[()\\]/g, '\\$&');

export function personalDataPdf(): Buffer {
  const lines = LINES.map((line, i) => `BT /F1 12 Tf 72 ${720 - i * 24} Td (${escape(line)}) Tj ET`).join('\n');
  const page1 = `${lines}\nq 200 0 0 200 72 300 cm /Im1 Do Q`;
  const page2 = 'BT /F1 12 Tf 72 720 Td (Nothing personal here) Tj ET';
  const red = Buffer.alloc(20 * 20 * 3);
  for (let i = 0; i < red.length; i += 3) red[i] = 255;
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R /Outlines 9 0 R /AcroForm << /Fields [8 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >> >>',
      '<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 11 0 R >> >> /Contents 5 0 R /Annots [12 0 R 8 0 R] >>',
      `<< /Length ${page1.length} >>\nstream\n${page1}\nendstream`,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>',
      `<< /Length ${page2.length} >>\nstream\n${page2}\nendstream`,
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (contact) /V (${SECRETS.email}) /DA (/Helv 10 Tf 0 g) /Rect [320 100 560 120] /P 4 0 R /F 4 >>`,
      '<< /Type /Outlines /First 10 0 R /Last 10 0 R /Count 1 >>',
      `<< /Title (About ${SECRETS.email}) /Parent 9 0 R /Dest [4 0 R /Fit] >>`,
      `<< /Type /XObject /Subtype /Image /Width 20 /Height 20 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${red.length} >>\nstream\n${red.toString('latin1')}\nendstream`,
      `<< /Type /Annot /Subtype /Text /Rect [500 700 520 720] /Contents (Mail ${SECRETS.email} please) /P 4 0 R >>`,
      `<< /Title (Report for ${SECRETS.email}) /Author (Records office) >>`,
    ],
    ' /Info 13 0 R',
  );
}
