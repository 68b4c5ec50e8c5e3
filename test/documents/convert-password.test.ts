// Converting a password-protected office document (issue 42, item 11): `password` opens an
// encrypted .docx (Office's agile encryption; the fixture was encrypted by officecrypto-tool, an
// independent implementation, see fixtures/README.md) in either office, the PDF's text read back
// with pdftotext; a wrong or missing password is PASSWORD_REQUIRED saying which, and an encrypted
// ODF with a password says the password was not tried. No output and no decrypted copy is left.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, PASSWORD, pdfText, TEXT_LINE, waitFor } from '../helpers/documents.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { backendsUnderTest, waitForOfficeReady, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';

/** Files a service left in its temp dir's decrypted copies (the test file's TMPDIR). */
const decryptedCopies = () => fs.readdirSync(process.env.TMPDIR ?? '/tmp').filter((name) => name.startsWith('docwasm-decrypted-'));

describe.each(backendsUnderTest())('convert with "password" (--document-backend %s)', { timeout: WASM_TEST_TIMEOUT_MS }, (backend) => {
  let service: RunningService;
  const at = (name: string) => path.join(service.dir, name);

  beforeAll(async () => {
    const fx = await documentFixtures();
    service = await startService(['--workers', '1', '--document-backend', backend]);
    fs.copyFileSync(fx.lockedDocx, at('locked.docx'));
    fs.copyFileSync(fx.lockedOdt, at('locked.odt'));
    await waitForOfficeReady(service);
  }, WASM_TEST_TIMEOUT_MS);
  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) await waitFor(() => officeProcessesOf(pid).length === 0, 10_000);
  });

  it('the right password opens an encrypted .docx: the PDF holds its text', async () => {
    const before = fs.readFileSync(at('locked.docx'));
    const answer = await service.post('/api/convert', { input: 'locked.docx', output: 'open.pdf', format: 'pdf', password: PASSWORD });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.warnings, 'password is a field of convert, not an unknown one').toBeUndefined();
    expect(pdfText(at('open.pdf'))).toContain(TEXT_LINE);
    expect(fs.readFileSync(at('locked.docx')).equals(before)).toBe(true);
    expect(decryptedCopies()).toEqual([]);
  });

  it('a wrong password: PASSWORD_REQUIRED saying the password does not open it; nothing written', async () => {
    const answer = await service.post('/api/convert', { input: 'locked.docx', output: 'wrong.pdf', format: 'pdf', password: 'not-the-password' });
    expect([answer.status, answer.body.code]).toEqual([422, 'PASSWORD_REQUIRED']);
    expect(answer.body.error).toMatch(/password given does not open it/);
    expect(fs.existsSync(at('wrong.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    expect(decryptedCopies()).toEqual([]);
  });

  it('no password: PASSWORD_REQUIRED naming the "password" field', async () => {
    const answer = await service.post('/api/convert', { input: 'locked.docx', output: 'none.pdf', format: 'pdf' });
    expect([answer.status, answer.body.code]).toEqual([422, 'PASSWORD_REQUIRED']);
    expect(answer.body.error).toMatch(/give its password in "password"/);
  });

  it('an encrypted .odt with a password: PASSWORD_REQUIRED saying the password was not tried', async () => {
    const answer = await service.post('/api/convert', { input: 'locked.odt', output: 'odt.pdf', format: 'pdf', password: PASSWORD });
    expect([answer.status, answer.body.code]).toEqual([422, 'PASSWORD_REQUIRED']);
    expect(answer.body.error).toMatch(/password given was not tried/);
    expect(fs.existsSync(at('odt.pdf'))).toBe(false);
  });
});
