// What an engine says of itself in GET /api/health; a module of its own so the engines and the
// document engine both name it without importing each other.

export interface EngineHealth {
  available: boolean;
  engine: string;
  version: string;
  [detail: string]: unknown;
}
