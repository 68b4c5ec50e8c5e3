// What a started service says about itself before "listening on": where relative paths go,
// which paths it may touch, how documents are contained, and whether LibreOffice was found —
// the facts a user checks first when a request does not do what they expected.

import type { Config } from './config.js';
import type { EngineHealth } from './engines/health.js';

export function startReportLines(config: Config, document: EngineHealth): string[] {
  const allowed = config.allowDirs.length > 0 ? config.allowDirs.join(', ') : 'any path (no --allow-dir given)';
  const wasm = document.backend === 'libreoffice-wasm';
  const sandbox = wasm
    ? 'wasm (LibreOffice in WebAssembly: the document alone in an in-memory file system, no network)'
    : typeof document.sandbox === 'string'
      ? `${document.sandbox} (--document-sandbox ${config.documentSandbox})`
      : `${config.documentSandbox} (no LibreOffice to contain)`;
  const office = document.available
    ? `${wasm ? 'LibreOffice in WebAssembly' : 'LibreOffice'}: ${String(document.path)} (${document.version})`
    : `LibreOffice: not found (${String(document.reason)}); document conversion answers BACKEND_UNAVAILABLE`;
  const passedOver = typeof document.passedOver === 'string' ? [`docwasm: passed over: ${document.passedOver}`] : [];
  return [
    `docwasm: base dir ${config.baseDir}`,
    `docwasm: allowed dirs: ${allowed}`,
    `docwasm: document sandbox: ${sandbox}`,
    `docwasm: ${office}`,
    ...passedOver,
  ];
}
