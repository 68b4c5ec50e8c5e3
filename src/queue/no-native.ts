// BullMQ encodes with msgpackr, whose optional native decoder (msgpackr-extract, a `.node`
// addon) npm may install beside it. docwasm runs no native code: msgpackr's own switch keeps it
// on its JavaScript decoder. Imported before bullmq, which reads it when it loads.

process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED = 'true';
