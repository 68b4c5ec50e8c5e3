// Outputs that name something other than a regular file (docs/http-runtime.md): a FIFO, a
// character device, a link to one, or a directory is refused with OUTPUT_NOT_WRITABLE by every
// operation that writes — named by `output` or derived from `outputDir` — and is left exactly
// as it was, with no temp file beside it. Renaming over it would replace the node (as root, an
// output of /dev/null would replace the system's); the device here is a copy of /dev/null made
// with mknod in the test's own directory, so the real one is never at stake.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, type ApiResponse, type RunningService } from '../helpers/service.js';
import { writeFixtures } from '../reliability/fixtures.js';
import { OPERATIONS, type Operation } from '../reliability/operations.js';

type Kind = 'fifo' | 'device' | 'link to a device' | 'directory';

/** mknod needs root; elsewhere the device cases are skipped, the others still run. */
const CAN_MAKE_DEVICES = process.getuid?.() === 0;
const KINDS: readonly Kind[] = ['fifo', 'directory', ...(CAN_MAKE_DEVICES ? (['device', 'link to a device'] as const) : [])];

function makeNode(kind: Kind, file: string, device: string): void {
  if (kind === 'fifo') execFileSync('mkfifo', [file]);
  if (kind === 'directory') fs.mkdirSync(file);
  if (kind === 'device') execFileSync('mknod', [file, 'c', '1', '3']);
  if (kind === 'link to a device') fs.symlinkSync(device, file);
}

/** What the node is, without following a link; a link also says what it points at. */
function describeNode(file: string): string {
  const stats = fs.lstatSync(file);
  if (stats.isSymbolicLink()) return `link -> ${fs.readlinkSync(file)}`;
  if (stats.isFIFO()) return 'fifo';
  if (stats.isCharacterDevice()) return `char ${stats.rdev}`;
  if (stats.isDirectory()) return `directory of ${fs.readdirSync(file).length}`;
  return `file of ${stats.size} bytes`;
}

/** The code of a refusal: the envelope's, or for a batch the failing item's. */
function refusalCode(answer: ApiResponse): string | undefined {
  const results = (answer.body.data?.results ?? []) as { success: boolean; code?: string }[];
  return answer.body.code ?? results.find((result) => !result.success)?.code;
}

const writers = OPERATIONS.filter((operation) => operation.writes !== false);

describe('an output that exists and is not a regular file', () => {
  let service: RunningService;
  let device: string;
  beforeAll(async () => {
    service = await startService();
    await writeFixtures(service.dir);
    device = path.join(service.dir, 'null-device');
    if (CAN_MAKE_DEVICES) execFileSync('mknod', [device, 'c', '1', '3']);
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(service.dir, { recursive: true, force: true });
  });

  /** Where the operation writes for output stem `stem`: its `output`, or the first file its `outputDir` gets. */
  async function targetOf(operation: Operation, stem: string): Promise<string> {
    const body = operation.body(stem);
    if (typeof body.output === 'string') return path.join(service.dir, body.output);
    // The names an outputDir receives are the operation's to choose: learn them from a real run.
    const probe = await service.post(operation.route, operation.body(`probe-${operation.name}`));
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    const probeDir = path.join(service.dir, String(operation.body(`probe-${operation.name}`).outputDir));
    const first = fs.readdirSync(probeDir).sort()[0] as string;
    return path.join(service.dir, String(body.outputDir), first);
  }

  it.each(writers.map((operation) => [operation.name, operation] as const))(
    '%s refuses it with OUTPUT_NOT_WRITABLE and leaves it as it was',
    async (_name, operation) => {
      const outcomes: string[] = [];
      for (const kind of KINDS) {
        const stem = `${kind.replaceAll(' ', '-')}-${operation.name}`;
        const target = await targetOf(operation, stem);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        makeNode(kind, target, device);
        const before = describeNode(target);
        const answer = await service.post(operation.route, operation.body(stem));
        outcomes.push(
          `${kind}: ${answer.status === 200 && !refusalCode(answer) ? 'written' : refusalCode(answer)}, ${describeNode(target) === before ? 'untouched' : `now ${describeNode(target)}`}`,
        );
        expect(leftoverTempFiles(path.dirname(target))).toEqual([]);
      }
      expect(outcomes).toEqual(KINDS.map((kind) => `${kind}: OUTPUT_NOT_WRITABLE, untouched`));
    },
  );
});
