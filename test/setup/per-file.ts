// vitest setupFiles: each test file gets its own temp dir inside the run's root (see
// global.ts), so a leftover names the file that left it. After the file's own hooks, the
// services it started are stopped, the temp dirs it made are removed, and its temp dir is
// removed if nothing else is left in it; what is left stays for the global teardown to report.
// Any process warning, of this process or of a service the file spawned, fails the test in
// which it appeared, or the file when it appeared while its services stopped (warnings.ts).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { cleanUpTestFile } from '../helpers/cleanup.js';
import { collectProcessWarnings, failOnNewWarnings } from '../helpers/warnings.js';

/**
 * LibreOffice's own temp dirs (lu<pid>….tmp in TMPDIR). docwasm stops its offices with SIGKILL
 * (at shutdown, on a timeout, when recycling), so an office never removes its lu dir: known
 * debris of src/documents, removed here once the file's services are all stopped.
 */
const OFFICE_TEMP = /^lu\w+\.tmp$/;

const runRoot = process.env.DOCWASM_TEST_RUN_ROOT;
if (runRoot !== undefined) {
  const file = path.relative(process.cwd(), expect.getState().testPath ?? 'unknown').replace(/[^\w.-]+/g, '_');
  const fileTmp = fs.mkdtempSync(path.join(runRoot, `${file}-`));
  fs.chmodSync(fileTmp, 0o1777); // like /tmp, for services run as another user
  for (const name of ['TMPDIR', 'TEMP', 'TMP']) process.env[name] = fileTmp;

  afterAll(async () => {
    await cleanUpTestFile();
    for (const name of fs.readdirSync(fileTmp)) {
      if (OFFICE_TEMP.test(name)) fs.rmSync(path.join(fileTmp, name), { recursive: true, force: true });
    }
    if (fs.readdirSync(fileTmp).length === 0) fs.rmdirSync(fileTmp);
    for (const name of ['TMPDIR', 'TEMP', 'TMP']) process.env[name] = runRoot;
    failOnNewWarnings();
  }, 60_000);
}

collectProcessWarnings();
afterEach(() => failOnNewWarnings());
