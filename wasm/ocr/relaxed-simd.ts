// tesseract.js runs its fastest core (relaxed-SIMD dot products in the LSTM, about 30% less
// time per page here) only when the runtime validates relaxed-SIMD WebAssembly. V8 ships
// the feature from 11.4 (Node 22); Node 20's V8 11.3 has it, finished, behind a flag. V8
// flags are process-wide, so setting it here also covers tesseract.js's nested threads.

import v8 from 'node:v8';

/** The probe tesseract.js uses (wasm-feature-detect): a function returning i8x16.relaxed_swizzle of two splats. */
const RELAXED_SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253, 15, 65, 2, 253, 15, 253, 128, 2, 11,
]);

/** The project's TS lib has no WebAssembly types. */
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } };

export function enableRelaxedSimd(): boolean {
  if (wasm.validate(RELAXED_SIMD_PROBE)) return true;
  v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
  return wasm.validate(RELAXED_SIMD_PROBE);
}
