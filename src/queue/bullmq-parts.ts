// Everything of the shared queue that loads BullMQ or ioredis, imported by open-queue.ts only when
// --queue is given (they are optional peer dependencies).

export { QueueStore } from './queue-store.js';
export { QueueWorker } from './queue-worker.js';
export { checkReachable, queueServer } from './redis.js';
