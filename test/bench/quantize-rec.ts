// `tsx test/bench/quantize-rec.ts DIR [ROUNDS]`: derives int8 versions of PP-OCRv4's recognition
// model (test/bench/int8-variants.ts) into DIR — 1×1 convolutions + MatMuls, every group-1
// convolution + MatMuls, 1×1 convolutions alone, MatMuls alone — and times one recognition batch
// (8 × 3 × 48 × W, W = 320 and 640, random pixels: the work does not depend on them) with each and
// with the float model on onnxruntime-web's WASM backend, one thread, ROUNDS rounds after a
// warm-up, the variants interleaved within a round so that other load on the machine falls on
// all of them alike. Prints the median process CPU per variant and width. Accuracy is measured
// by reading the page set with a derived model (paddle-pages.ts with PADDLE_REC_MODEL=DIR/….onnx).

import { MODEL_FILES } from '../../wasm/ocr/paddle/models.js';
import { RECOGNITION_INT8 } from '../../wasm/ocr/paddle/int8.js';
import { benchVariants } from './int8-variants.js';

const BATCH = 8;

await benchVariants({
  script: 'quantize-rec.ts',
  model: MODEL_FILES.recognition,
  prefix: 'rec',
  variants: {
    fp32: undefined,
    'pointwise+matmul per-tensor': { convs: 'pointwise', matmuls: true, perChannel: false },
    'dense+matmul per-tensor': { convs: 'dense', matmuls: true, perChannel: false },
    'pointwise per-tensor': { convs: 'pointwise', matmuls: false, perChannel: false },
    'pointwise+matmul per-channel': { convs: 'pointwise', matmuls: true, perChannel: true },
    'pointwise per-channel': { convs: 'pointwise', matmuls: false, perChannel: true },
    'matmul per-channel': { convs: 'none', matmuls: true, perChannel: true },
    'pointwise ≥240 per-channel (built)': RECOGNITION_INT8,
  },
  inputs: Object.fromEntries([320, 640].map((width) => [`${BATCH}×3×48×${width}`, [BATCH, 3, 48, width]])),
});
