// A large image decoded in a thread of its own, which ends with the decode (issue 46). A codec's
// WebAssembly memory only grows, and each codec keeps its one instance for its thread's life: a
// 2481 × 3507 PNG left ~65 MB of decoder memory in the OCR thread through the whole read (one-shot
// `docwasm ocr` of the dense A4 page). Decoded here, the pixels come back moved, not copied, and
// the decoder's memory is given back when the thread ends. The same decoders (decode.ts), the
// same errors (sent back as their code and message).

import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { toApiError, type ErrorPayload } from '../../core/errors.js';
import { decodeImage, type DecodeOptions, type RgbaImage } from './decode.js';

/** Marks this module's own threads (the pool's threads carry the pool's workerData). */
const ROLE = 'docwasm:decode-apart';

interface DecodeRequest {
  role: typeof ROLE;
  bytes: Uint8Array;
  maxPixels: number;
}

type DecodeReply = { image: RgbaImage } | { error: ErrorPayload };

/** decodeImage in a thread started for it and ended after it. */
export function decodeApart(bytes: Uint8Array, { maxPixels }: Pick<DecodeOptions, 'maxPixels'>): Promise<RgbaImage> {
  const request: DecodeRequest = { role: ROLE, bytes, maxPixels };
  const thread = new Worker(new URL(import.meta.url), { workerData: request });
  return new Promise<RgbaImage>((resolve, reject) => {
    const early = (code: number) => reject(new Error(`the image decoder's thread ended (${code}) before answering`));
    // Answered only once the thread has ended: answered before, the OCR loaded its models while the
    // decoder's memory was still held, and on a busy machine the two peaks met (+50 MB).
    thread.once('message', (reply: DecodeReply) => {
      thread.off('exit', early);
      void thread.terminate().then(() => ('image' in reply ? resolve(reply.image) : reject(toApiError(reply.error))));
    });
    thread.once('error', reject);
    thread.once('exit', early);
  });
}

async function serveOneDecode(port: NonNullable<typeof parentPort>, { bytes, maxPixels }: DecodeRequest): Promise<void> {
  try {
    const { data, width, height } = await decodeImage(bytes, { maxPixels });
    port.postMessage({ image: { data, width, height } } satisfies DecodeReply, [data.buffer as ArrayBuffer]);
  } catch (err) {
    const { code, message } = toApiError(err);
    port.postMessage({ error: { code, message } } satisfies DecodeReply);
  }
}

if (!isMainThread && parentPort && (workerData as Partial<DecodeRequest> | undefined)?.role === ROLE)
  void serveOneDecode(parentPort, workerData as DecodeRequest);
