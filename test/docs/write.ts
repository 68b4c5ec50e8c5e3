// `npm run docs`: rewrites the generated sections of docs/ from the code's tables, and README's
// examples with the answers real runs give (needs dist/: the script builds it when stale).
import { GENERATED, replaceGenerated, writeSection } from './generated.js';
import { renderReadmeExamples } from './readme-examples.js';

for (const section of GENERATED) writeSection(section);
for (const [marker, content] of await renderReadmeExamples()) replaceGenerated('README.md', marker, content);
process.stdout.write(`wrote ${GENERATED.map((s) => s.file).join(', ')}, README.md\n`);
