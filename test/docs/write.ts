// `npm run docs`: rewrites the generated sections of docs/ from the code's tables.
import { GENERATED, writeSection } from './generated.js';

for (const section of GENERATED) writeSection(section);
process.stdout.write(`wrote ${GENERATED.map((s) => s.file).join(', ')}\n`);
