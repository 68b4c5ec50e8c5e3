// TeX's faces as a family (wasm/read/editable/tex-faces.ts through docx.ts's fontFamily): the
// roman faces of Computer Modern, the EC/cm-super fonts and Latin Modern, at any weight, shape
// and optical size, as the face that sets their lines as wide; TeX's sans and typewriter faces
// and other fonts not so.

import { describe, expect, it } from 'vitest';
import { fontFamily } from '../../wasm/read/editable/docx.js';

describe("TeX's faces in the editable DOCX", () => {
  it('sets Computer Modern Roman and its successors in Palatino Linotype', () => {
    for (const name of [
      'FPGMBL+CMR10',
      'CHJOZT+CMBX12',
      'CMTI10',
      'CMSL10',
      'AAAAAC+SFRM1000',
      'AAAAAD+SFBX1000',
      'SFTI1000',
      'ECRM1000',
      'LMRoman10-Regular',
      'LMRoman12-Bold',
      'CMUSerif-Roman',
    ])
      expect([name, fontFamily(name)]).toEqual([name, 'Palatino Linotype']);
  });

  it("leaves TeX's sans and typewriter faces, and other fonts, as before", () => {
    expect(fontFamily('RGZAFB+CMTT9')).toBeUndefined();
    expect(fontFamily('SFSS1000')).toBeUndefined();
    expect(fontFamily('CMSS10')).toBeUndefined();
    expect(fontFamily('ABCDEF+TimesNewRomanPSMT')).toBe('Times New Roman');
    expect(fontFamily('Georgia')).toBe('Georgia');
  });
});
