// Every operation of docwasm, in the order the doors list them. Adding one: define it in the
// file of its group (or a new one) and add it here; HTTP, OpenAPI, CLI, MCP and jobs follow.

import { CONVERT_OPERATIONS } from './convert.js';
import { IMAGE_OPERATIONS } from './image.js';
import { OCR_OPERATIONS } from './ocr.js';
import type { Operation } from './operation.js';
import { PDF_OPERATIONS } from './pdf.js';
import { PDF_TOOL_OPERATIONS } from './pdf-tools.js';
import { READ_OPERATIONS } from './read.js';
import { SCAN_OPERATIONS } from './scan.js';

export const OPERATIONS: readonly Operation[] = [...CONVERT_OPERATIONS, ...PDF_OPERATIONS, ...PDF_TOOL_OPERATIONS, ...SCAN_OPERATIONS, ...IMAGE_OPERATIONS, ...OCR_OPERATIONS, ...READ_OPERATIONS];
