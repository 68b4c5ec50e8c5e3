// README's curl and command-line examples show what the service answers today: each is run for
// real (curl against the built service, `npx docwasm` from the clone) on fixture files, and its
// output, the work dir shown as /home/me, must be what README shows (npm run docs rewrites it).

import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service.js';
import { generatedText } from './generated.js';
import { README_EXAMPLES, renderReadmeExamples } from './readme-examples.js';

const SLOW = 600_000;
let rendered: Map<string, string>;

beforeAll(async () => {
  rendered = await renderReadmeExamples();
}, SLOW);

describe('README examples, from real runs', () => {
  for (const block of README_EXAMPLES) {
    it(`README.md's ${block.marker} block shows the answers the commands give (run npm run docs after changing them)`, () => {
      const shown = generatedText(path.join(ROOT, 'README.md'), block.marker);
      expect(shown, `README.md has no generated:${block.marker} markers`).toBeDefined();
      expect(shown).toBe(rendered.get(block.marker));
    });
  }
});
