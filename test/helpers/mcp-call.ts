// One MCP tool call as the tests make it: the SDK client's answer, and the envelope its text carries.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface ToolEnvelope {
  success: boolean;
  message?: string;
  outputPath?: string;
  text?: string;
  warnings?: string[];
  data?: Record<string, unknown>;
  error?: string;
  code?: string;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<{ result: CallToolResult; envelope: ToolEnvelope }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return { result, envelope: JSON.parse(first.text) as ToolEnvelope };
}
