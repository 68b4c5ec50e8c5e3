// Captions in a pdflatex paper (texlive-latex-base only): a figure set as words in columns (a
// matrix of tokens, as a paper's vector figure keeps its labels as text) with its caption right
// under it, and a table with its caption right over it (\caption before the tabular).
// pdftotext -layout shows the figure's words in columns as even as the table's, the caption 1.5
// lines under the figure, and the table's caption half a line over its first row.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const CAPTIONS_TEX = String.raw`\documentclass{article}
\pagestyle{empty}
\begin{document}
Each token attends to the three tokens before it.

\begin{figure}[h]
\centering
\begin{tabular}{lcccccc}
 & The & cat & sat & on & the & mat \\
the & 1 & 1 & 1 & 0 & 0 & 0 \\
cat & 0 & 1 & 1 & 1 & 0 & 0 \\
sat & 0 & 0 & 1 & 1 & 1 & 0 \\
on & 0 & 0 & 0 & 1 & 1 & 1 \\
\end{tabular}
\caption{A sliding window of three tokens.}
\end{figure}

The window moves one token a row.

\begin{table}[h]
\centering
\caption{Tokens seen by each layer.}
\begin{tabular}{lccc}
Layer & Window & Seen & Cost \\
one & 3 & 3 & 9 \\
two & 3 & 6 & 18 \\
three & 3 & 9 & 27 \\
\end{tabular}
\end{table}

Each layer sees three tokens further.
\end{document}
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('captions.tex', CAPTIONS_TEX);
  execFileSync('pdflatex', ['-interaction=batchmode', 'captions.tex'], { cwd: ops.dir, stdio: 'ignore' });
}, 120_000);
afterAll(() => ops.close());

describe('read: a figure of words in columns over its caption, a table under its caption (pdflatex)', () => {
  it('reads the figure’s words as text, no table: rows right over a figure’s caption are the figure’s', async () => {
    const text = (await ops.ok('read', { input: 'captions.pdf' })).text ?? '';
    expect(text).not.toContain('| the |');
    expect(text).toContain('Each token attends to the three tokens before it.\n\nThe cat sat on the mat the 1 1 1 0 0 0');
    expect(text).toContain('on 0 0 0 1 1 1\n\nFigure 1: A sliding window of three tokens.\n\nThe window moves one token a row.');
  });

  it('reads the table under its caption, the caption no header row: a caption is no row of a table', async () => {
    const text = (await ops.ok('read', { input: 'captions.pdf' })).text ?? '';
    const rows = ['| Layer | Window | Seen | Cost |', '| - | - | - | - |', '| one | 3 | 3 | 9 |', '| two | 3 | 6 | 18 |', '| three | 3 | 9 | 27 |'];
    expect(text).toContain(`Table 1: Tokens seen by each layer.\n\n${rows.join('\n')}\n\nEach layer sees three tokens further.`);
  });
});
