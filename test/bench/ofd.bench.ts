// OFD rows (issue 33): a one-page e-invoice (fixtures/ofd/invoice-fptpl.ofd, ofdrw's fptpl.ofd:
// templates, 11 CustomDatas) drawn to PDF and read for its fields, warm (timed
// after 30 untimed calls: the steady state of a script reading a batch of invoices). A fresh
// worker runs its first ~20 reads partly in V8's interpreter: the first row times those.
// Targets: → PDF ≤ 100 ms, → fields ≤ 20 ms. No peer runs offline here (ofdrw is a Java
// library), so the rows have no native column.

import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/service.js';
import { postOk, type BenchSuite } from './harness.js';

const suite: BenchSuite = async ({ service, work }) => {
  const invoice = path.join(work, 'ofd-invoice.ofd');
  fs.copyFileSync(path.join(ROOT, 'fixtures/ofd/invoice-fptpl.ofd'), invoice);
  const input = path.relative(service.dir, invoice);
  return [
    {
      // First, while the reader's OFD code is still cold: the first reads a fresh worker makes.
      group: 'ofd',
      name: "one-page e-invoice OFD → fields (/api/read), a fresh worker's reads 2–10",
      ours: () => postOk(service, '/api/read', { input }),
      iterations: 9,
    },
    {
      group: 'ofd',
      name: 'one-page e-invoice OFD → PDF (/api/convert, warm)',
      ours: () => postOk(service, '/api/convert', { input, output: path.relative(service.dir, path.join(work, 'ofd-invoice.pdf')) }),
      iterations: 15,
      warmups: 30,
      targetMs: 100,
    },
    {
      group: 'ofd',
      name: 'one-page e-invoice OFD → fields (/api/read, warm)',
      ours: () => postOk(service, '/api/read', { input }),
      iterations: 15,
      warmups: 30,
      targetMs: 20,
    },
  ];
};

export default suite;
