// PDF forms: list the fields, fill them from a JSON map (optionally flattening), flatten fields
// and annotations into page content.

import { z } from 'zod';
import { defineOperation } from './operation.js';
import { engineText, filePath, password } from './fields.js';
import { editPdf, io } from './pdf-tools.js';
import { resolvePdfInput } from './pdf.js';

export const formFields = defineOperation({
  id: 'pdf/form-fields',
  engines: ['pdf'],
  writes: 'nothing',
  idempotent: true,
  summary: 'List the form fields of a PDF: name, type, value, options, page, read-only',
  input: z.object({ input: filePath, password: password.optional() }),
  run: async ({ input, password: pw }, { engines, paths, ...control }) => {
    const ref = await resolvePdfInput(paths, input);
    const fields = await engines.pdf.job(control, (tasks) => tasks.formFields({ input: ref, password: pw }));
    return { message: `${fields.length} form field(s)`, data: { fields } };
  },
});

export const fill = defineOperation({
  id: 'pdf/fill',
  engines: ['pdf'],
  writes: 'files',
  idempotent: true,
  summary: 'Fill form fields from a map of names to values (text, checkbox, radio, choice); optionally flatten',
  input: z.object({
    ...io,
    values: z
      .record(engineText().min(1), z.union([engineText().max(100_000), z.boolean()]))
      .refine((values) => Object.keys(values).length > 0, 'give at least one field')
      .describe('field name → value: text as a string, a checkbox as true/false, a radio or choice by its option'),
    flatten: z.boolean().default(false).describe('turn the filled fields into page content'),
  }),
  run: async (body, context) => {
    const { result, outputPath } = await editPdf(body, context, (tasks, files) =>
      tasks.fill({ ...files, options: { values: body.values, flatten: body.flatten } }),
    );
    return {
      message: `Filled ${result.filled.length} field(s)${body.flatten ? ' and flattened the form' : ''}`,
      outputPath,
      data: { filled: result.filled, flattened: body.flatten },
    };
  },
});

export const flatten = defineOperation({
  id: 'pdf/flatten',
  engines: ['pdf'],
  writes: 'files',
  idempotent: true,
  summary: 'Turn form fields (and annotations) into page content; the result has no form',
  input: z.object({ ...io, annotations: z.boolean().default(true).describe('flatten annotations too (comments, stamps, highlights)') }),
  run: async (body, context) => {
    const { result, outputPath } = await editPdf(body, context, (tasks, files) => tasks.flatten({ ...files, options: { annotations: body.annotations } }));
    return {
      message: `Flattened ${result.fields} field(s)${body.annotations ? ' and the annotations' : ''}`,
      outputPath,
      data: { fields: result.fields, annotations: body.annotations },
    };
  },
});

export const PDF_FORM_OPERATIONS = [formFields, fill, flatten];
