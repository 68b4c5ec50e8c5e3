// Hono context variables shared by the middleware.
export interface AppEnv {
  Variables: { errorCode?: string; warningCount?: number };
}
