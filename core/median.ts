// The middle of a list of measurements (the upper middle of an even count; 0 for none): a typical
// line height or gap, robust to a few outliers. Shared by PP-OCR's page layout and the reading of
// OCR'd pages.

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
