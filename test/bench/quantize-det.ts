// `tsx test/bench/quantize-det.ts DIR [ROUNDS]`: derives int8 versions of PP-OCRv4's detection
// model (wasm/ocr/paddle/int8.ts, per output channel) into DIR — every group-1 convolution,
// the 1×1 ones alone, and the wide ones alone — and times one detection of a 300 dpi A4 page at
// the detection's scale (1 × 3 × 1632 × 1152, random pixels: the work does not depend on them)
// with each and with the float model (the OCR engine detects with the float one) on onnxruntime-web's WASM backend, one thread, ROUNDS
// rounds after a warm-up, variants interleaved within a round. Prints the median process CPU.
// Accuracy: paddle-pages.ts with PADDLE_DET_MODEL=DIR/det-….onnx.

import { MODEL_FILES } from '../../wasm/ocr/paddle/models.js';
import { DETECTION_INT8 } from '../../wasm/ocr/paddle/int8.js';
import { benchVariants } from './int8-variants.js';

const DIMS = [1, 3, 1632, 1152];

await benchVariants({
  script: 'quantize-det.ts',
  model: MODEL_FILES.detection,
  prefix: 'det',
  variants: {
    fp32: undefined,
    'dense per-channel': { convs: 'dense', matmuls: false, perChannel: true },
    'pointwise per-channel': { convs: 'pointwise', matmuls: false, perChannel: true },
    'pointwise ≥96 per-channel': { convs: 'pointwise', matmuls: false, perChannel: true, minChannels: 96 },
    'dense ≥24 per-channel': DETECTION_INT8,
  },
  inputs: { [DIMS.join('×')]: DIMS },
});
