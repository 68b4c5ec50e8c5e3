// Two rules of /api/read and convert to Markdown, through the real HTTP service (issue 41, items 8
// and 13): `maxCharacters` counts every character of `text`, its final line end included, so the
// text never exceeds it (counted as `data.characters` counts them: UTF-16 units, the length of the
// JSON string); and no document gets a 500 — a reader's own exception on a document is
// INVALID_INPUT for that document, the service staying healthy.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { odt } from '../helpers/hostile-readers.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

/** Paragraphs of Chinese (one UTF-16 unit a character), a heading and a list: the CJK document. */
const CHINESE = `# 年度报告\n\n${'本地文件处理服务不需要网络，所有文件都留在这台电脑上。'.repeat(3)}\n\n- 北方工厂八月投产\n- 南方工厂十月检修\n\n${'第二段文字说明处理的结果。'.repeat(4)}\n`;
const ENGLISH = `# Annual report\n\nThe first paragraph says what the service does, in a sentence or two of plain words.\n\n- one item\n- another item\n\n${'A second paragraph, longer. '.repeat(5)}\n`;

beforeAll(async () => {
  service = await startService(['--workers', '1']);
  fs.writeFileSync(file('chinese.md'), CHINESE);
  fs.writeFileSync(file('english.md'), ENGLISH);
  for (const name of ['chinese', 'english']) execFileSync('pandoc', [`${name}.md`, '-o', `${name}.docx`], { cwd: service.dir });
  execFileSync('pandoc', ['chinese.md', '-s', '--metadata', 'title=报告', '-o', 'chinese.html'], { cwd: service.dir });
}, 60_000);
afterAll(() => service.stop());

describe('read: maxCharacters bounds the whole text, line ends included', () => {
  for (const name of ['english.docx', 'chinese.docx', 'chinese.html']) {
    it(`${name}: text never exceeds maxCharacters, at every size up to the whole text`, async () => {
      const whole = await service.post('/api/read', { input: name });
      const full = whole.body.text ?? '';
      expect(full.length).toBeGreaterThan(60);
      // Around each block boundary (where the line end used to be counted outside the limit),
      // small sizes, and the whole text and one less.
      const boundaries = [...full.matchAll(/\n\n/g)].flatMap((m) => [(m.index ?? 0) - 1, m.index ?? 0, (m.index ?? 0) + 1, (m.index ?? 0) + 2]);
      const sizes = [...new Set([1, 2, 3, 5, 10, 50, ...boundaries, full.length - 1, full.length])].filter((n) => n >= 1).sort((a, b) => a - b);
      for (const maxCharacters of sizes) {
        const { body } = await service.post('/api/read', { input: name, maxCharacters });
        const text = body.text ?? '';
        expect(text.length, `${name} at ${maxCharacters}: ${JSON.stringify(text)}`).toBeLessThanOrEqual(maxCharacters);
        expect(text.length).toBeGreaterThan(0);
        expect(body.data?.characters).toBe(text.length);
        expect(body.data?.truncated, `${name} at ${maxCharacters}`).toBe(maxCharacters < full.length);
        // Whatever the cut, the text before its line end is a start of the whole text.
        expect(full.startsWith(text.replace(/\n$/, ''))).toBe(true);
      }
    });
  }
});

describe("read and convert md: a reader's own exception on a document is INVALID_INPUT, never 500", () => {
  const expectInvalid = async (name: string) => {
    const read = await service.post('/api/read', { input: name });
    expect([read.status, read.body.code], JSON.stringify(read.body)).toEqual([422, 'INVALID_INPUT']);
    const converted = await service.post('/api/convert', { input: name, output: `${name}.md`, format: 'md' });
    expect([converted.status, converted.body.code], JSON.stringify(converted.body)).toEqual([422, 'INVALID_INPUT']);
    expect(fs.existsSync(file(`${name}.md`))).toBe(false);
  };

  it('reads an HTML page whose <base href> is not a URL (the bytes of the issue), its links as written', async () => {
    fs.writeFileSync(file('base.html'), '<base href="foo"><a href="bar">b</a>');
    const read = await service.post('/api/read', { input: 'base.html' });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.text).toBe('b\n');
    // A base that is a URL still resolves the links; a link that does not resolve against it is kept as text.
    fs.writeFileSync(file('based.html'), '<base href="https://example.com/docs/"><p><a href="page.html">page</a> and <a href="http://[">broken</a></p>');
    const based = await service.post('/api/read', { input: 'based.html' });
    expect(based.status, JSON.stringify(based.body)).toBe(200);
    expect(based.body.text).toContain('[page](https://example.com/docs/page.html)');
    expect(based.body.text).toContain('broken');
    const converted = await service.post('/api/convert', { input: 'base.html', output: 'base.md', format: 'md' });
    expect(converted.status, JSON.stringify(converted.body)).toBe(200);
    expect(fs.readFileSync(file('base.md'), 'utf8')).toBe('b\n');
  });

  it("answers INVALID_INPUT when another reader's code throws on a document (an ODF space count of -1: a RangeError)", async () => {
    fs.writeFileSync(file('spaces.odt'), odt('<text:p>a<text:s text:c="-1"/>b</text:p>'));
    await expectInvalid('spaces.odt');
    expect((await service.get('/api/health')).status).toBe(200);
    expect((await service.post('/api/read', { input: 'english.docx' })).status).toBe(200);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });
});
