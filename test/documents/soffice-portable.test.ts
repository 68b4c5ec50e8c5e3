// A portable LibreOffice beside docwasm (a USB stick carrying both) is found without --soffice:
// LibreOffice Portable's PortableApps layout and an unpacked LibreOffice, in the install folder
// or beside it; PATH comes after it, and --soffice still wins.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectSoffice, portableCandidates } from '../../src/installed-office/soffice-detect.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A stick: `<stick>/docwasm-x/` (the install dir) and a fake soffice at `<stick>/<relative>`. */
function stickWith(relative: string): { installDir: string; soffice: string } {
  const stick = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-stick-'));
  made.push(stick);
  const installDir = path.join(stick, 'docwasm-0.1.0');
  fs.mkdirSync(installDir);
  const soffice = path.join(stick, relative);
  fs.mkdirSync(path.dirname(soffice), { recursive: true });
  fs.writeFileSync(soffice, '#!/bin/sh\n', { mode: 0o755 });
  return { installDir, soffice };
}

describe('portable LibreOffice beside docwasm', () => {
  it('lists the PortableApps layout and an unpacked LibreOffice, in the install folder and its parent', () => {
    expect(portableCandidates('D:\\docwasm', 'win32')).toEqual(
      expect.arrayContaining([
        'D:\\docwasm\\LibreOfficePortable\\App\\libreoffice\\program\\soffice.com',
        'D:\\LibreOfficePortable\\App\\libreoffice\\program\\soffice.exe',
        'D:\\LibreOffice\\program\\soffice.exe',
      ]),
    );
    expect(portableCandidates('/Volumes/USB/docwasm', 'darwin')).toContain('/Volumes/USB/LibreOffice.app/Contents/MacOS/soffice');
    expect(portableCandidates('/media/usb/docwasm', 'linux')).toEqual(
      expect.arrayContaining(['/media/usb/LibreOffice/program/soffice', '/media/usb/docwasm/LibreOffice/program/soffice']),
    );
  });

  it.runIf(process.platform !== 'win32')('finds an unpacked LibreOffice beside the bundle before PATH', async () => {
    const { installDir, soffice } = stickWith('LibreOffice/program/soffice');
    const onPath = stickWith('bin/soffice');
    const found = await detectSoffice({ installDir, env: { PATH: path.dirname(onPath.soffice) }, platform: 'linux' });
    expect(found).toMatchObject({ found: true, path: soffice });
  });

  it.runIf(process.platform !== 'win32')('finds LibreOffice Portable inside the install folder', async () => {
    const { installDir } = stickWith('docwasm-0.1.0/LibreOfficePortable/App/libreoffice/program/soffice');
    const found = await detectSoffice({ installDir, env: { PATH: '' }, platform: 'linux' });
    expect(found).toMatchObject({ found: true, path: path.join(installDir, 'LibreOfficePortable/App/libreoffice/program/soffice') });
  });

  it('leaves an explicit --soffice alone', async () => {
    const { installDir } = stickWith('LibreOffice/program/soffice');
    const found = await detectSoffice({ installDir, explicit: path.join(installDir, 'nowhere', 'soffice'), env: { PATH: '' }, platform: 'linux' });
    expect(found).toMatchObject({ found: false });
  });
});
