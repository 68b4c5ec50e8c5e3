// The MCP tools of docwasm: one per operation, named with underscores (`pdf_merge`), described
// by the operation's summary, its input schema the JSON Schema of the zod schema that validates
// HTTP requests. A call answers the API envelope, as JSON text and as structured content.

import { McpError, ErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { OPERATIONS } from '../operations/index.js';
import { invokeOperation } from '../operations/invoke.js';
import { toolName, type Operation, type OperationContext } from '../operations/operation.js';

type ToolInputSchema = Tool['inputSchema'];

export function toolOf(operation: Operation): Tool {
  return {
    name: toolName(operation),
    description: operation.summary,
    inputSchema: z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'any' }) as ToolInputSchema,
  };
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

export function createToolbox(context: OperationContext): { tools: Tool[]; call(call: ToolCall, control: CallControl): Promise<CallToolResult> } {
  const byName = new Map(OPERATIONS.map((operation) => [toolName(operation), operation]));
  return {
    tools: OPERATIONS.map(toolOf),
    call: async ({ name, arguments: args }, { signal, progress }) => {
      const operation = byName.get(name);
      if (!operation) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}"; the tools are ${[...byName.keys()].join(', ')}`);
      const envelope = await invokeOperation(operation, args ?? {}, { ...context, signal, progress });
      return { content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: { ...envelope }, isError: !envelope.success };
    },
  };
}
