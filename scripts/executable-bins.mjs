// `npm run build`'s last step: tsc writes files 0644, so the package's bin (package.json "bin")
// would not be executable in dist/, in the packed tarball or in the portable bundle. Whatever
// runs it as a program then answers "Permission denied" unless an npm step happens to chmod it
// (a read-only copy, an exec of the file itself); so the build marks it executable.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { bin } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

for (const file of typeof bin === 'string' ? [bin] : Object.values(bin)) {
  const target = path.join(ROOT, file);
  fs.chmodSync(target, fs.statSync(target).mode | 0o111);
}
