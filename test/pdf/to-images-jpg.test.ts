// pdf/to-images takes `jpg` for `jpeg`, as the image operations take a .jpg output for JPEG:
// through the CLI one-shot and over HTTP, and the API description (from which the CLI and MCP
// are generated too) lists it. Images are read back with ImageMagick's identify.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { CLI, leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';

const identify = (file: string) => spawnSync('identify', ['-format', '%m %w %h', file], { encoding: 'utf8' }).stdout.trim();

describe('pdf/to-images --format jpg', () => {
  let dir: string;
  let service: RunningService;

  beforeAll(async () => {
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 'two.pdf'), makePdf({ pages: ['Page one', 'Page two'] }));
    service = await startService();
    fs.copyFileSync(path.join(dir, 'two.pdf'), path.join(service.dir, 'two.pdf'));
  }, 60_000);

  afterAll(async () => {
    await service.stop();
  });

  it('renders JPEG files named .jpg from the CLI', () => {
    const result = spawnSync(process.execPath, [CLI, 'pdf', 'to-images', 'two.pdf', '--format', 'jpg', '--dpi', '72', '--output-dir', 'jpg-cli'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toContain('to JPEG at 72 dpi');
    expect(fs.readdirSync(path.join(dir, 'jpg-cli')).sort()).toEqual(['two_1.jpg', 'two_2.jpg']);
    expect(identify(path.join(dir, 'jpg-cli', 'two_1.jpg'))).toBe('JPEG 612 792');
  });

  it('renders the same over HTTP, answering format "jpeg"', async () => {
    const { status, body } = await service.post('/api/pdf/to-images', { input: 'two.pdf', format: 'jpg', dpi: 72, outputDir: 'jpg-http' });
    expect(status, body.error).toBe(200);
    expect(body.data).toMatchObject({ format: 'jpeg', dpi: 72 });
    expect(body.data?.files).toEqual([path.join(service.dir, 'jpg-http', 'two_1.jpg'), path.join(service.dir, 'jpg-http', 'two_2.jpg')]);
    expect(identify(path.join(service.dir, 'jpg-http', 'two_2.jpg'))).toBe('JPEG 612 792');
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });

  it('lists jpg among the formats in the API description and still refuses an unknown one', async () => {
    const spec = await service.get('/openapi.json');
    const operation = (
      spec.body.paths as Record<
        string,
        { post: { requestBody: { content: { 'application/json': { schema: { properties: { format: { enum: string[] } } } } } } } }
      >
    )['/api/pdf/to-images'];
    expect(operation?.post.requestBody.content['application/json'].schema.properties.format.enum).toEqual(['png', 'jpeg', 'jpg', 'webp']);
    const { status, body } = await service.post('/api/pdf/to-images', { input: 'two.pdf', format: 'gif', outputDir: 'never' });
    expect([status, body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(fs.existsSync(path.join(service.dir, 'never'))).toBe(false);
  });
});
