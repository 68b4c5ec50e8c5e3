// `docwasm mcp`: the Model Context Protocol over stdio, for AI agents. stdout carries protocol
// messages alone — anything else printed by this process or its worker threads goes to stderr —
// and the process ends when its client closes stdin.

import { Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { configFromFlags, flagHelpLines, flagOptions, flagsFor, type Config } from '../config.js';
import { createRuntime, type Runtime } from '../operations/context.js';
import { VERSION } from '../version.js';
import { parseCommandLine } from '../command-line.js';
import { createToolbox } from './tools.js';
import { logEvent } from '../../core/log.js';

const MCP_FLAGS = flagsFor({ door: 'mcp' });

export const MCP_USAGE = `Usage: docwasm mcp [options]

Serves the Model Context Protocol over stdio: one tool per docwasm operation (pdf_merge,
image_resize, ocr, convert, convert_batch, ...). Register it with an MCP client as a stdio
server: command "node", args ["/path/to/docwasm/dist/src/cli/main.js", "mcp", "--allow-dir",
"/path/to/files"] (README, "MCP server", for a tarball or the portable bundle). Agents are the
callers to confine: give --allow-dir.

Options (each also read from its environment variable):
${flagHelpLines(MCP_FLAGS).join('\n')}
  --help                   show this help
`;

/** Serves until stdin closes (or SIGINT/SIGTERM); resolves with the exit status. */
export async function runMcpServer(args: string[]): Promise<number> {
  const { values } = parseCommandLine({ args, options: { help: { type: 'boolean', short: 'h' }, ...flagOptions(MCP_FLAGS) }, allowPositionals: false });
  if (values.help) {
    process.stdout.write(MCP_USAGE);
    return 0;
  }
  const config = configFromFlags(values, MCP_FLAGS);
  const protocolOut = claimStdout();
  const runtime = await createRuntime(config);
  const server = createMcpServer(runtime);
  await server.connect(new StdioServerTransport(process.stdin, protocolOut));
  await untilInputEndsOrSignal();
  await server.close();
  await runtime.close();
  return 0;
}

export function createMcpServer(runtime: Runtime): Server {
  const server = new Server({ name: 'docwasm', version: VERSION }, { capabilities: { tools: {} }, instructions: instructionsFor(runtime.config) });
  const toolbox = createToolbox(runtime);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolbox.tools }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (done: number, total: number) =>
            void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total } }).catch(() => undefined);
    return toolbox.call({ name: request.params.name, arguments: request.params.arguments }, { signal: extra.signal, progress });
  });
  server.onerror = (err) => logEvent(`docwasm mcp: ${err.message}`);
  return server;
}

function instructionsFor({ baseDir, allowDirs }: Config): string {
  const confined = allowDirs.length > 0 ? ` Only files below ${allowDirs.join(', ')} may be read or written (PATH_NOT_ALLOWED otherwise).` : '';
  return `docwasm converts office documents and processes PDFs, images and OCR on local files. Paths are absolute, or relative to ${baseDir}.${confined} Each tool answers the docwasm API envelope: {success, message, outputPath?, text?, data?} or {success: false, error, code}.`;
}

/**
 * Hands the real stdout to the protocol and sends every other write — console.log, a library's
 * notice, a worker thread's output (piped into process.stdout) — to stderr.
 */
function claimStdout(): Writable {
  const writeProtocol = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return new Writable({ write: (chunk: Buffer, _encoding, done) => void writeProtocol(chunk, (err) => done(err ?? null)) });
}

function untilInputEndsOrSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    // Kept, not once: a second signal (one Ctrl-C also passed on by a launcher) must not kill the closing server.
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
}
