import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig, FLAGS, resolveConfig, workerHeapLimitMb } from '../../src/config.js';

describe('resolveConfig', () => {
  it('gives the defaults with no flag and no env', () => {
    expect(resolveConfig({}, {})).toEqual({ ...defaultConfig(), baseDir: path.resolve(process.cwd()) });
  });

  it('reads every flag through its env twin', () => {
    const config = resolveConfig({}, { DOCWASM_PORT: '8080', DOCWASM_TIMEOUT: '2.5', DOCWASM_PDF_ENGINE: 'cpdf', DOCWASM_WORKER_HEAP_MB: '96' });
    expect(config).toMatchObject({ port: 8080, timeoutMs: 2500, pdfEngine: 'cpdf', workerHeapMb: 96 });
  });

  it('lets a flag win over its env twin, and ignores an empty value', () => {
    expect(resolveConfig({ port: '9000' }, { DOCWASM_PORT: '8080' }).port).toBe(9000);
    expect(resolveConfig({}, { DOCWASM_PORT: '' }).port).toBe(defaultConfig().port);
  });

  it('takes the last value of a flag given twice, except for lists', () => {
    expect(resolveConfig({ port: ['1', '2'] }, {}).port).toBe(2);
    expect(resolveConfig({ 'allow-origin': ['http://a', 'http://b'] }, {}).allowOrigins).toEqual(['http://a', 'http://b']);
  });

  it('splits an env list on the path delimiter and resolves allowed dirs against the base dir', () => {
    const config = resolveConfig({ 'base-dir': '/srv/base' }, { DOCWASM_ALLOW_DIRS: ['in', '/abs'].join(path.delimiter) });
    expect(config.allowDirs).toEqual(['/srv/base/in', '/abs']);
  });

  it('turns seconds into milliseconds, at least 1 ms', () => {
    expect(resolveConfig({ timeout: '0.0001' }, {}).timeoutMs).toBe(1);
    expect(resolveConfig({ 'idle-timeout': '60' }, {}).idleTimeoutMs).toBe(60_000);
  });

  it('refuses values that are not what the flag takes, naming the flag', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ port: '0' }, /--port must be a positive integer/],
      [{ port: '70000' }, /--port must be at most 65535/],
      [{ workers: '1.5' }, /--workers must be a positive integer/],
      [{ timeout: '-1' }, /--timeout must be a positive number of seconds/],
      [{ timeout: 'soon' }, /--timeout must be a positive number of seconds/],
      [{ 'pdf-engine': 'pdfium' }, /--pdf-engine must be mupdf or cpdf/],
    ];
    for (const [flags, message] of cases) expect(() => resolveConfig(flags, {}), JSON.stringify(flags)).toThrow(message);
    expect(() => resolveConfig({}, { DOCWASM_QUEUE_LIMIT: 'many' })).toThrow(ConfigError);
  });

  it('has an env twin and a description for every flag', () => {
    for (const spec of FLAGS) {
      expect(spec.env).toMatch(/^DOCWASM_[A-Z_]+$/);
      expect(spec.description.length).toBeGreaterThan(0);
    }
  });
});

describe('workerHeapLimitMb', () => {
  it('lowers an engine cap to --worker-heap-mb, never raises it', () => {
    const config = (workerHeapMb: number | undefined) => ({ ...defaultConfig(), workerHeapMb });
    expect(workerHeapLimitMb(config(96), 2048)).toBe(96);
    expect(workerHeapLimitMb(config(4096), 2048)).toBe(2048);
    expect(workerHeapLimitMb(config(undefined), 2048)).toBe(2048);
    expect(workerHeapLimitMb(config(96), undefined)).toBe(96);
  });
});
