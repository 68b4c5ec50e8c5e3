// pdf/sign and pdf/signatures: a PAdES B-B signature from a PKCS#12 file, appended as an
// incremental update (earlier signatures stay valid); the signatures of a PDF, each checked.

import { z } from 'zod';
import { resolveInputPath } from '../files/paths.js';
import { defineOperation } from './operation.js';
import { CONTROL_CHARACTER, engineText, filePath, password } from './fields.js';
import { editPdf, io } from './pdf-tools.js';
import { resolvePdfInput } from './pdf.js';

const oneLine = (what: string) =>
  engineText()
    .min(1)
    .max(500)
    .refine((value) => !CONTROL_CHARACTER.test(value), 'must not contain control characters')
    .optional()
    .describe(what);

export const sign = defineOperation({
  id: 'pdf/sign',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Sign a PDF (PAdES B-B, SHA-256) with a PKCS#12 certificate, as an incremental update',
  input: z.object({
    ...io,
    certificate: filePath.describe('PKCS#12 file (.p12/.pfx) holding the private key and its certificate'),
    certificatePassword: engineText().optional().describe('password of the PKCS#12 file'),
    reason: oneLine('why the document is signed'),
    location: oneLine('where it is signed'),
    name: oneLine("the signer's name (default: the certificate's common name)"),
    visible: z
      .object({
        page: z.number().int().min(1),
        x: z.number().finite(),
        y: z.number().finite(),
        width: z.number().positive().max(14_400),
        height: z.number().positive().max(14_400),
      })
      .optional()
      .describe('where to show the signature (points from the top-left of the page); invisible when absent'),
  }),
  run: async (body, context) => {
    const certificate = await resolveInputPath(context.paths, body.certificate);
    const options = {
      certificate,
      ...(body.certificatePassword !== undefined && { certificatePassword: body.certificatePassword }),
      ...(body.reason !== undefined && { reason: body.reason }),
      ...(body.location !== undefined && { location: body.location }),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.visible && { visible: body.visible }),
    };
    const { outputPath } = await editPdf(body, context, (tasks, files) => tasks.sign({ ...files, options }));
    return {
      message: `Signed${body.visible ? ' (visible on page ' + body.visible.page + ')' : ''}`,
      outputPath,
      data: { visible: body.visible !== undefined },
    };
  },
});

export const signatures = defineOperation({
  id: 'pdf/signatures',
  engines: ['pdf'],
  writes: 'nothing',
  idempotent: true,
  summary: 'List the digital signatures of a PDF: signer, time, validity, coverage, certificate, and whether it chains to a --trust-cert root',
  input: z.object({ input: filePath, password: password.optional() }),
  run: async ({ input, password: pw }, { engines, paths, config, ...control }) => {
    const ref = await resolvePdfInput(paths, input);
    const found = await engines.pdf.job(control, (tasks) => tasks.signatures({ input: ref, password: pw, trustRoots: config.trustRoots }));
    const valid = found.filter((signature) => signature.valid).length;
    const trusted = found.filter((signature) => signature.trusted).length;
    return { message: `${found.length} signature(s), ${valid} valid, ${trusted} trusted`, data: { signatures: found } };
  },
});

export const PDF_SIGN_OPERATIONS = [sign, signatures];
