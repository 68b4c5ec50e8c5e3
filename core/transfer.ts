// Which buffers may move between threads instead of being copied (postMessage's transfer list).
// Only a view that spans its whole ArrayBuffer moves: a view into a shared or pooled buffer
// (Node's Buffer pool, a WASM heap) would take other data with it, so it is copied as before.

/** The view's buffer when the view is all of it, else nothing. */
export function ownedBuffers(view: ArrayBufferView): ArrayBuffer[] {
  const { buffer } = view;
  return buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === buffer.byteLength ? [buffer] : [];
}
