// The PDF/A levels docwasm writes, shared by the document export (LibreOffice) and the PDF
// engine's conversion (Ghostscript), so that both doors accept the same values.

export const PDFA_LEVELS = ['1b', '2b', '3b'] as const;
export type PdfaLevel = (typeof PDFA_LEVELS)[number];
