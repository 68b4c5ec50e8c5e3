// Documents converted by one office must not see each other (issue 20, item 1): an ODT whose
// paragraph backgrounds point into the staged neighbours' packages (vnd.sun.star.zip of
// /proc/self/cwd/run-N/in/jK.odt, as the first design staged them) must draw none of a
// LibreOffice-saved victim's pictures — neither when both are in one batch nor when they come
// in two requests queued behind a third (--workers 1, one office). Fields that print a
// document's own path must print nothing of the service's directories.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, pdfText, waitFor } from '../helpers/documents.js';
import { runSoffice } from '../helpers/soffice.js';
import {
  fileUrl,
  odtEmbeddedPng,
  odtFileNameFields,
  odtParagraphBackgrounds,
  otherProviderUrls,
  solidPng,
  stagedNeighbourGuesses,
  VISIBLE_TEXT,
  zipPartUrl,
} from '../helpers/hostile-documents.js';
import { usableSandboxModes } from '../helpers/sandboxes.js';
import { startService, type RunningService } from '../helpers/service.js';

const VICTIM_PICTURE = { width: 83, height: 47 };
/** The parts of a LibreOffice-saved ODT whose names an attacker knows without seeing it. */
const VICTIM_PARTS = ['Thumbnails/thumbnail.png', 'content.xml'];

/** Lines of `pdfimages -list` after its two header lines: one per image the PDF draws. */
function pdfImageCount(file: string): number {
  return execFileSync('pdfimages', ['-list', file])
    .toString()
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '').length;
}

/** The victim: a text document with a picture, saved (with its thumbnail) by LibreOffice itself. */
function victimSavedByLibreOffice(target: string): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-victim-'));
  try {
    const source = path.join(work, 'victim-source.odt');
    fs.writeFileSync(source, odtEmbeddedPng(solidPng(VICTIM_PICTURE.width, VICTIM_PICTURE.height, [10, 200, 90])));
    const out = path.join(work, 'out');
    runSoffice(path.join(work, 'profile'), ['--convert-to', 'odt', '--outdir', out, source]);
    fs.copyFileSync(path.join(out, 'victim-source.odt'), target);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const MODES = usableSandboxModes((process.env.DOCWASM_TEST_SANDBOXES ?? 'auto,profile').split(','));

describe.each(MODES)('one document cannot read another converted by the same office (--document-sandbox %s)', (mode) => {
  let service: RunningService;
  const at = (name: string) => path.join(service.dir, name);

  beforeAll(async () => {
    service = await startService(['--workers', '1', '--document-sandbox', mode]);
    victimSavedByLibreOffice(at('victim.odt'));
    // Guesses at the old staging names, plus the victim's real file through each package
    // provider (in profile mode only the providers' removal stops these).
    const victim = fileUrl(at('victim.odt'));
    const guesses = VICTIM_PARTS.flatMap((part) => [...stagedNeighbourGuesses(part), zipPartUrl(victim, part), ...otherProviderUrls(victim, part)]);
    fs.writeFileSync(at('attacker.odt'), odtParagraphBackgrounds(guesses));
    fs.copyFileSync((await documentFixtures()).big, at('big.docx'));
  });

  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) expect(await waitFor(() => officeProcessesOf(pid).length === 0, 5000)).toBe(true);
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  /** The attacker's PDF has its own text and no picture at all (it embeds none). */
  function expectNothingOfTheVictim(attackerPdf: string): void {
    expect(pdfText(attackerPdf)).toContain(VISIBLE_TEXT);
    expect(pdfImageCount(attackerPdf)).toBe(0);
  }

  it('within one batch', async () => {
    fs.mkdirSync(at('batch'));
    const { status, body } = await service.post('/api/convert/batch', { files: ['victim.odt', 'attacker.odt'], format: 'pdf', outputDir: 'batch' });
    expect(status, JSON.stringify(body)).toBe(200);
    // Positive control: the victim's picture is in its own PDF.
    expect(pdfImageCount(at('batch/victim.pdf'))).toBeGreaterThan(0);
    expectNothingOfTheVictim(at('batch/attacker.pdf'));
  });

  it('across two requests queued together behind a third', async () => {
    const occupier = service.post('/api/convert', { input: 'big.docx', output: 'big.pdf', format: 'pdf' });
    // Both requests wait while the one office converts big.docx; the first design ran them as one
    // invocation. They are sent once that conversion is seen under way (its launcher runs), not
    // after a fixed 300 ms: on a loaded machine the occupier could still be on its way then, and
    // the two would not queue behind it.
    const pid = service.child.pid as number;
    expect(await waitFor(() => officeProcessesOf(pid).some((p) => p.args.includes('--convert-to') && p.args.includes('big.docx')), 60_000)).toBe(true);
    const [victim, attacker] = await Promise.all([
      service.post('/api/convert', { input: 'victim.odt', output: 'victim-2.pdf', format: 'pdf' }),
      service.post('/api/convert', { input: 'attacker.odt', output: 'attacker-2.pdf', format: 'pdf' }),
    ]);
    expect((await occupier).status).toBe(200);
    expect(victim.status).toBe(200);
    expect(attacker.status).toBe(200);
    expectNothingOfTheVictim(at('attacker-2.pdf'));
  });

  it("a field printing the document's path prints none of the service's directories", async (context) => {
    // Without an OS sandbox the office sees the host's paths: fields print the (random) staging path.
    const { body } = await service.get('/api/health');
    if ((body.data?.document as { sandbox?: string } | undefined)?.sandbox === 'profile') return context.skip();
    fs.writeFileSync(at('fields.odt'), odtFileNameFields());
    const { status } = await service.post('/api/convert', { input: 'fields.odt', output: 'fields.pdf', format: 'pdf' });
    expect(status).toBe(200);
    const text = pdfText(at('fields.pdf'));
    expect(text).toContain('fields.odt');
    for (const leak of ['docwasm', os.tmpdir(), service.dir, 'slot-', 'run-', 'j0']) expect(text).not.toContain(leak);
  });
});
