// Picks the document backend: the first candidate that detects as available. With none, the
// capability still answers, with BACKEND_UNAVAILABLE and how to fix it.

import type { BackendInfo, DocumentBackend } from './backend.js';

export type BackendCandidate = () => Promise<DocumentBackend> | DocumentBackend;

export interface BackendSelection {
  backend: DocumentBackend | undefined;
  /** The chosen backend's info, or every candidate's reason for being unavailable. */
  info: BackendInfo | undefined;
  reasons: string[];
}

export async function selectDocumentBackend(candidates: readonly BackendCandidate[]): Promise<BackendSelection> {
  const reasons: string[] = [];
  for (const create of candidates) {
    const backend = await create();
    const info = await backend.detect();
    if (info.available) return { backend, info, reasons };
    reasons.push(info.reason);
    await backend.close();
  }
  return { backend: undefined, info: undefined, reasons };
}

export const INSTALL_HINT =
  'Install LibreOffice (Debian/Ubuntu: apt-get install libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui; ' +
  'macOS: brew install --cask libreoffice; Windows: the installer from libreoffice.org), ' +
  'or point docwasm to it with --soffice PATH or DOCWASM_SOFFICE; ' +
  'or let docwasm run LibreOffice in WebAssembly: install docwasm with its optional dependencies (a plain npm install, not --omit=optional) ' +
  'and use --document-backend auto or wasm';
