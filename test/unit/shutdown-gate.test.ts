import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import { ShutdownGate } from '../../src/jobs/shutdown-gate.js';

describe('ShutdownGate', () => {
  it('admits jobs until closed, then refuses them with BUSY (shutting down) and Retry-After', () => {
    const gate = new ShutdownGate('pdf');
    expect(() => gate.admit()).not.toThrow();
    expect(gate.isClosed).toBe(false);
    gate.close();
    expect(gate.isClosed).toBe(true);
    expect(() => gate.admit()).toThrow(ApiError);
    expect(() => gate.admit()).toThrow(expect.objectContaining({ code: 'BUSY', headers: { 'Retry-After': expect.any(String) } }));
  });

  it('names the engine, and what was not finished, in the one shutdown sentence', () => {
    const gate = new ShutdownGate('document conversion');
    expect(gate.error().message).toBe('The service is shutting down; the document conversion job was not finished');
    expect(gate.error('converting report.docx')).toMatchObject({
      code: 'BUSY',
      message: 'The service is shutting down; the document conversion job was not finished (converting report.docx)',
    });
  });
});
