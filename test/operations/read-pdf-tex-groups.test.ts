// PDF tables whose rows come in groups, a rule between each group (LaTeX's booktabs \midrule and
// papers' result tables): pdflatex (texlive-latex-base) typesets the table, a rule with space above
// and below it between the groups as booktabs sets it; its rows' baselines were checked with
// pdftotext -bbox (rows 9.5 pt apart within a group, 16.8 pt across a rule); and a ruled table with its
// caption under it, rows of numbers beside a cell spanning them, and columns half an em apart.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

/** Two rows a group, each row's every cell filled; the group rule is \hline with booktabs' room around it. */
const GROUPED_TEX = String.raw`\documentclass{article}
\pagestyle{empty}
\newcommand{\grouprule}{\noalign{\vskip 3pt}\hline\noalign{\vskip 4pt}}
\begin{document}
Each model was scored on three benchmarks.

\begin{table}[h]
\centering
\footnotesize
\begin{tabular}{llrrr}
\hline\noalign{\vskip 4pt}
Model & Modality & MMLU & PIQA & NQ \\
\grouprule
Alpha 7B & Pretrained & 44.4 & 77.9 & 24.7 \\
Alpha 13B & Pretrained & 55.6 & 80.8 & 29.0 \\
\grouprule
Beta 7B & Finetuned & 36.9 & 72.8 & 11.0 \\
Beta 13B & Finetuned & 41.2 & 75.1 & 14.3 \\
\grouprule
Gamma 7B & Pretrained & 60.1 & 83.0 & 28.8 \\
\noalign{\vskip 3pt}\hline
\end{tabular}
\end{table}

Gamma scored highest.
\end{document}
`;

/**
 * A ruled table alone on its page, its last rule holding one row, its caption under it (LaTeX's
 * \caption below the tabular) and the page number below that: pdftotext -bbox puts the caption's
 * top 13 pt under the last row's bottom, inside the table's width (x 249–362 of 198–414), and only
 * the page number below it.
 */
const CAPTIONED_TEX = String.raw`\documentclass{article}
\begin{document}
Each model was scored on three benchmarks.

\begin{table}[h]
\centering
\begin{tabular}{llrrr}
\hline
Model & Modality & MMLU & PIQA & NQ \\
\hline
Alpha 7B & Pretrained & 44.4 & 77.9 & 24.7 \\
Alpha 13B & Pretrained & 55.6 & 80.8 & 29.0 \\
\hline
Beta 7B & Finetuned & 36.9 & 72.8 & 11.0 \\
\hline
\end{tabular}
\caption{Scores by model.}
\end{table}
\end{document}
`;

/**
 * Two rows of numbers beside a cell centred on them, as LaTeX's \multirow sets it (a box lowered
 * half a line, texlive-latex-base has no multirow.sty): pdftotext -bbox puts the spanning cell's
 * top at 168.8, between its rows' tops at 162.9 and 174.8, and the next group 24 pt below.
 */
const SPANNED_TEX = String.raw`\documentclass{article}
\pagestyle{empty}
\newcommand{\spanned}[1]{\smash{\raisebox{-0.5\normalbaselineskip}{#1}}}
\begin{document}
Each size was trained in both languages.

\begin{table}[h]
\centering
\begin{tabular}{llrrr}
\hline
Layers & Language & Simple & Complex & Seconds \\
\hline
\spanned{6} & OTSL & 0.965 & 0.934 & 2.73 \\
 & HTML & 0.969 & 0.927 & 5.39 \\
\hline
\spanned{4} & OTSL & 0.938 & 0.904 & 1.97 \\
 & HTML & 0.952 & 0.909 & 3.77 \\
\hline
\end{tabular}
\end{table}

The smaller model is faster.
\end{document}
`;

/**
 * A results table in \scriptsize with 2 pt column padding, its last row in bold: pdftotext -bbox
 * puts that row's columns 4.0 pt apart (0.57 em at 7 pt) and its word spaces 2.7 pt.
 */
const TIGHT_TEX = String.raw`\documentclass{article}
\pagestyle{empty}
\begin{document}
Each model was scored on six benchmarks.

\begin{table}[h]
\centering
\scriptsize
\setlength{\tabcolsep}{2pt}
\begin{tabular}{llrrrrrr}
\hline
Model & Modality & MMLU & PIQA & Arc-e & Arc-c & NQ & MATH \\
\hline
Alpha 7B & Pretrained & 44.4\% & 77.9\% & 68.7\% & 43.2\% & 24.7\% & 3.9\% \\
Alpha 13B & Pretrained & 55.6\% & 80.8\% & 75.2\% & 48.8\% & 29.0\% & 6.0\% \\
Beta 7B & Finetuned & 36.9\% & 72.8\% & 59.4\% & 34.5\% & 11.0\% & 5.2\% \\
Gamma 7B & Pretrained & \textbf{60.1\%} & \textbf{83.0\%} & \textbf{80.0\%} & \textbf{55.5\%} & \textbf{28.8\%} & \textbf{13.1\%} \\
\hline
\end{tabular}
\end{table}

Gamma scored highest.
\end{document}
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  for (const [name, tex] of [
    ['grouped', GROUPED_TEX],
    ['captioned', CAPTIONED_TEX],
    ['spanned', SPANNED_TEX],
    ['tight', TIGHT_TEX],
  ]) {
    ops.put(`${name}.tex`, tex as string);
    execFileSync('pdflatex', ['-interaction=batchmode', `${name}.tex`], { cwd: ops.dir, stdio: 'ignore' });
  }
}, 120_000);
afterAll(() => ops.close());

describe('read: PDF tables ruled between groups of rows (pdflatex)', () => {
  it('reads each line of a group as a row of its own: the room booktabs sets around a rule is no cell padding', async () => {
    const text = (await ops.ok('read', { input: 'grouped.pdf' })).text ?? '';
    const rows = [
      '| Model | Modality | MMLU | PIQA | NQ |',
      '| - | - | - | - | - |',
      '| Alpha 7B | Pretrained | 44.4 | 77.9 | 24.7 |',
      '| Alpha 13B | Pretrained | 55.6 | 80.8 | 29.0 |',
      '| Beta 7B | Finetuned | 36.9 | 72.8 | 11.0 |',
      '| Beta 13B | Finetuned | 41.2 | 75.1 | 14.3 |',
      '| Gamma 7B | Pretrained | 60.1 | 83.0 | 28.8 |',
    ];
    expect(text).toContain(`Each model was scored on three benchmarks.\n\n${rows.join('\n')}\n\nGamma scored highest.`);
  });
});

describe('read: a ruled table with its caption under it (pdflatex)', () => {
  it('ends the table at its bottom rule when only its caption and the page number stand below: no cut table runs on to the page end', async () => {
    const text = (await ops.ok('read', { input: 'captioned.pdf' })).text ?? '';
    const rows = [
      '| Model | Modality | MMLU | PIQA | NQ |',
      '| - | - | - | - | - |',
      '| Alpha 7B | Pretrained | 44.4 | 77.9 | 24.7 |',
      '| Alpha 13B | Pretrained | 55.6 | 80.8 | 29.0 |',
      '| Beta 7B | Finetuned | 36.9 | 72.8 | 11.0 |',
    ];
    expect(text).toContain(`Each model was scored on three benchmarks.\n\n${rows.join('\n')}\n\nTable 1: Scores by model.`);
  });
});

describe('read: rows of numbers beside a cell spanning them (pdflatex)', () => {
  it('reads each line of numbers as a row of its own, the spanning cell in the first of them: a number does not wrap', async () => {
    const text = (await ops.ok('read', { input: 'spanned.pdf' })).text ?? '';
    const rows = [
      '| Layers | Language | Simple | Complex | Seconds |',
      '| - | - | - | - | - |',
      '| 6 | OTSL | 0.965 | 0.934 | 2.73 |',
      '| | HTML | 0.969 | 0.927 | 5.39 |',
      '| 4 | OTSL | 0.938 | 0.904 | 1.97 |',
      '| | HTML | 0.952 | 0.909 | 3.77 |',
    ];
    expect(text).toContain(`Each size was trained in both languages.\n\n${rows.join('\n')}\n\nThe smaller model is faster.`);
  });
});

describe('read: a ruled table whose columns stand half an em apart (pdflatex)', () => {
  it('parts columns at a gap wider than a word space that every row has text on both sides of', async () => {
    const text = (await ops.ok('read', { input: 'tight.pdf' })).text ?? '';
    const rows = [
      '| Model | Modality | MMLU | PIQA | Arc-e | Arc-c | NQ | MATH |',
      '| - | - | - | - | - | - | - | - |',
      '| Alpha 7B | Pretrained | 44.4% | 77.9% | 68.7% | 43.2% | 24.7% | 3.9% |',
      '| Alpha 13B | Pretrained | 55.6% | 80.8% | 75.2% | 48.8% | 29.0% | 6.0% |',
      '| Beta 7B | Finetuned | 36.9% | 72.8% | 59.4% | 34.5% | 11.0% | 5.2% |',
      '| Gamma 7B | Pretrained | 60.1% | 83.0% | 80.0% | 55.5% | 28.8% | 13.1% |',
    ];
    expect(text).toContain(`Each model was scored on six benchmarks.\n\n${rows.join('\n')}\n\nGamma scored highest.`);
  });
});
