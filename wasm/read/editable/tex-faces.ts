// TeX's own faces as a family Word and LibreOffice can set. Computer Modern and its successors
// (Knuth's CMR, CMBX, CMTI…; the EC/cm-super Type 1 fonts SFRM, SFBX, SFTI…; Latin Modern's
// LMRoman) have no family Word knows, so their paragraphs fell to Times, whose lines run about a
// tenth narrower (mupdf's advances over the lines of two pdfTeX papers: PDF width / Times's 1.11,
// / Palatino's (URW P052) 1.00–1.02, / Century Schoolbook's 0.95–0.97): paragraphs came out a
// line in six short and every line under them rose. Palatino Linotype is Windows's own, macOS has
// Palatino, and fontconfig gives URW's P052 for it where neither is; Latin Modern itself would
// set the lines exactly, but only where TeX is installed.

/** The serif face whose lines run as wide as Computer Modern Roman's. */
const ROMAN_STAND_IN = 'Palatino Linotype';

/**
 * Computer Modern's and its successors' roman faces (any weight, shape or optical size): CM's own
 * (`CMR10`, `CMBX12`, `CMTI10`, `CMSL10`, `CMCSC10`), the EC fonts' (`SFRM1000`, `SFBX1200`,
 * `SFTI1000`, `ECRM1000`), and Latin Modern's and CM Unicode's names. Sans (`CMSS`, `SFSS`) and
 * typewriter (`CMTT`, `SFTT`) faces are not these.
 */
const TEX_ROMAN = /^(?:CM(?:R|BX|B|TI|BXTI|SL|BXSL|CSC|U|DUNH|FIB)\d+|(?:SF|EC|TC)(?:RM|BX|TI|BI|SL|BL|CC|XC|RB)\d+|LMRoman\w*|CMU(?:Serif|Classical)\w*)$/i;

/** The family a TeX font's name (its subset prefix already dropped) is set in, or undefined: not one of TeX's roman faces. */
export function texFamily(name: string): string | undefined {
  return TEX_ROMAN.test(name.replace(/[-,]\w*$/, '')) ? ROMAN_STAND_IN : undefined;
}
