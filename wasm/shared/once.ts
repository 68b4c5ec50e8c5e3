// Lazy, shared initialisation for the codecs a worker compiles (jSquash, libjpeg-turbo).

/** Runs `init` the first time only; later callers share the same promise. A failure is tried again next time. */
export function once<T>(init: () => Promise<T>): () => Promise<T> {
  let ready: Promise<T> | undefined;
  return () => {
    ready ??= init().catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };
}
