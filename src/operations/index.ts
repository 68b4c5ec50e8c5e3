// Every operation of docwasm, in the order the doors list them. Adding one: define it in the
// file of its group (or a new one) and add it here; HTTP, OpenAPI, CLI, MCP and jobs follow.

import { CONVERT_OPERATIONS } from './convert.js';
import { IMAGE_OPERATIONS } from './image.js';
import { OCR_OPERATIONS } from './ocr.js';
import type { Operation } from './operation.js';
import { PDF_OPERATIONS } from './pdf.js';
import { PDF_FORM_OPERATIONS } from './pdf-forms.js';
import { PDF_REDACT_OPERATIONS } from './pdf-redact.js';
import { PDF_SIGN_OPERATIONS } from './pdf-sign.js';
import { PDF_STAMP_OPERATIONS } from './pdf-stamp.js';
import { PDF_TOOL_OPERATIONS } from './pdf-tools.js';
import { pipelineOperation } from './pipeline.js';
import { READ_OPERATIONS } from './read.js';
import { SCAN_OPERATIONS } from './scan.js';

const FILE_OPERATIONS: readonly Operation[] = [
  ...CONVERT_OPERATIONS,
  ...PDF_OPERATIONS,
  ...PDF_TOOL_OPERATIONS,
  ...PDF_REDACT_OPERATIONS,
  ...PDF_STAMP_OPERATIONS,
  ...PDF_FORM_OPERATIONS,
  ...PDF_SIGN_OPERATIONS,
  ...SCAN_OPERATIONS,
  ...IMAGE_OPERATIONS,
  ...OCR_OPERATIONS,
  ...READ_OPERATIONS,
];

/** The pipeline runs the operations above, in chains. */
export const OPERATIONS: readonly Operation[] = [...FILE_OPERATIONS, pipelineOperation(FILE_OPERATIONS)];
