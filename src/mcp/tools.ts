// The MCP tools of docwasm: one per operation, named with underscores (`pdf_merge`), described
// by the operation's summary, its input schema the JSON Schema of the zod schema that validates
// HTTP requests, its annotations what the operation declares it does to files. A call answers
// the API envelope as structured content, and as JSON text — except `read`, whose text is the
// Markdown itself, so that an agent reads the document, not an escaped string inside JSON.

import { ErrorCode, type CallToolResult, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { OPERATIONS } from '../operations/index.js';
import type { Envelope } from '../operations/envelope.js';
import { invokeOperation } from '../operations/invoke.js';
import { toolName, type Operation, type OperationContext } from '../operations/operation.js';

type ToolInputSchema = Tool['inputSchema'];

export function toolOf(operation: Operation): Tool {
  return {
    name: toolName(operation),
    description: operation.summary,
    inputSchema: z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'any', override: closeObjects }) as ToolInputSchema,
    annotations: annotationsOf(operation),
  };
}

/**
 * An object's fields are all it takes (`additionalProperties: false`): a client that checks its
 * arguments against the schema catches a misspelt field before the call. The service itself
 * tolerates one and warns (the envelope's `warnings`). A pipeline step, which takes its
 * operation's fields, stays open.
 */
function closeObjects({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  if (zodSchema instanceof z.ZodObject && zodSchema._zod.def.catchall === undefined) jsonSchema.additionalProperties = false;
}

/** Every tool works on local files alone (openWorldHint false); an output may replace a file of the same name. */
function annotationsOf(operation: Operation): ToolAnnotations {
  const readOnly = operation.writes === 'nothing';
  return { readOnlyHint: readOnly, destructiveHint: !readOnly, idempotentHint: operation.idempotent, openWorldHint: false };
}

/**
 * A JSON-RPC error answered as it is. The SDK's McpError puts "MCP error <code>: " in its
 * message, which the server sends and the client's McpError prefixes again.
 */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown> | undefined;
}

/** What a call needs from the protocol besides its arguments: cancellation and progress reports. */
export interface CallControl {
  signal: AbortSignal;
  progress?: ((done: number, total: number) => void) | undefined;
}

/** The text an agent reads: read's Markdown itself (not JSON-escaped in an envelope), else the envelope as JSON. */
function contentText(operation: Operation, envelope: Envelope): string {
  if (operation.answersWithText === true && envelope.success && 'text' in envelope && typeof envelope.text === 'string') return envelope.text;
  return JSON.stringify(envelope);
}

export function createToolbox(context: OperationContext): { tools: Tool[]; call(call: ToolCall, control: CallControl): Promise<CallToolResult> } {
  const byName = new Map(OPERATIONS.map((operation) => [toolName(operation), operation]));
  return {
    tools: OPERATIONS.map(toolOf),
    call: async ({ name, arguments: args }, { signal, progress }) => {
      const operation = byName.get(name);
      if (!operation) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool "${name}"; the tools are ${[...byName.keys()].join(', ')}`);
      const envelope = await invokeOperation(operation, args ?? {}, { ...context, signal, progress });
      return { content: [{ type: 'text', text: contentText(operation, envelope) }], structuredContent: { ...envelope }, isError: !envelope.success };
    },
  };
}
