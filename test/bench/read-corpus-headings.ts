// Development PDFs for headings without an outline (issue 45): short documents written here (CC0)
// and set by producers that mark their headings only by weight and numbering, none writing
// bookmarks — groff's -ms (`.NH`: `1.` and `1.1.` in bold at the body's size, paragraphs
// indented), pdfTeX's article class (`1 Title` in larger bold, `1.1.1` bold at the body's size;
// when pdflatex is installed) and LibreOffice's PDF of a DOCX whose headings are bold runs in the
// Normal style (python-docx). All `dev`: the reader may be tuned on them. The ground truth is the
// Markdown each was made from, the producer's numbers in its headings. Built into a cache dir
// (.bench-work/, not committed); `npx tsx test/bench/read-dev.ts --headings`.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runSoffice } from '../helpers/soffice.js';
import { PYTHON } from '../helpers/tools.js';

/** A document: its title and sections, each at a depth (1 = top) with its paragraphs. */
interface Text {
  name: string;
  title: string;
  sections: readonly { depth: number; title: string; paragraphs: readonly string[] }[];
}

const TEXTS: readonly Text[] = [
  {
    name: 'pump-manual',
    title: 'Field Service Manual',
    sections: [
      {
        depth: 1,
        title: 'Scope',
        paragraphs: [
          'This manual covers the installation and upkeep of the pump units sold since 2019. It is meant for trained staff who know the basic safety rules of the trade and have read the datasheet.',
          'Each section starts with what is needed and ends with a check that the work was done right.',
        ],
      },
      {
        depth: 2,
        title: 'Who should read it',
        paragraphs: ['Technicians who install, service or repair the units in the field, and the engineers who plan that work for them.'],
      },
      {
        depth: 2,
        title: 'What it leaves out',
        paragraphs: ['The electrical supply of the building and the design of the piping are not covered; see the planning guide for them.'],
      },
      {
        depth: 1,
        title: 'Installation',
        paragraphs: ['Place the unit on a level floor, at least half a metre from any wall, so that air can flow around it and the panels can be opened.'],
      },
      { depth: 2, title: 'Tools needed', paragraphs: ['A torque wrench, a spirit level, two spanners of 17 mm and the hose kit delivered with the unit.'] },
      { depth: 3, title: 'Torque values', paragraphs: ['Tighten the feet to 25 Nm and the hose clamps to 4 Nm; more would crack the plastic housings.'] },
      {
        depth: 2,
        title: 'Connecting the hoses',
        paragraphs: ['Fit the inlet hose first, then the outlet, and check both for leaks with the unit running for ten minutes.'],
      },
      {
        depth: 1,
        title: 'Maintenance',
        paragraphs: ['Clean the filter every three months and replace the seals once a year, or sooner when the unit runs in dusty rooms.'],
      },
      {
        depth: 2,
        title: 'Yearly check',
        paragraphs: [
          'Measure the current drawn at full load and compare it with the value on the type plate; more than ten per cent above it means the bearings are worn.',
        ],
      },
    ],
  },
  {
    name: 'museum-guide',
    title: 'Visitor Guide to the Harbour Museum',
    sections: [
      {
        depth: 1,
        title: 'Opening hours',
        paragraphs: [
          'The museum opens every day from ten in the morning until five in the afternoon, except on the first of January and on Christmas Day.',
          'On the first Thursday of each month the galleries stay open until nine in the evening, and entry after five is free.',
        ],
      },
      {
        depth: 1,
        title: 'Tickets',
        paragraphs: [
          'Tickets can be bought at the desk in the entrance hall or online. Children under twelve enter free when they come with an adult, and students pay half the full price.',
        ],
      },
      { depth: 2, title: 'Group visits', paragraphs: ['Groups of ten or more book a week ahead and get a guide for the first hour at no extra cost.'] },
      {
        depth: 1,
        title: 'Getting there',
        paragraphs: [
          'The museum stands at the end of the old pier. Buses 4 and 17 stop at the harbour gate, five minutes on foot from the entrance.',
          'There is no car park at the pier; the nearest one is behind the railway station.',
        ],
      },
      {
        depth: 1,
        title: 'Accessibility',
        paragraphs: ['All galleries can be reached by lift, and wheelchairs can be borrowed free of charge at the desk. Guide dogs are welcome in every room.'],
      },
    ],
  },
];

type Producer = 'groff-ms' | 'pdftex' | 'docx-bold';

/** Section numbers as each producer prints them (`1.`, `1.1.` for groff; `1`, `1.1` for pdfTeX), none for bold runs. */
function numbered(text: Text, producer: Producer): string[] {
  const counters: number[] = [];
  return text.sections.map(({ depth, title }) => {
    counters.length = depth;
    counters[depth - 1] = (counters[depth - 1] ?? 0) + 1;
    for (let i = 0; i < depth; i++) counters[i] ??= 1;
    const number = counters.join('.');
    return producer === 'groff-ms' ? `${number}. ${title}` : producer === 'pdftex' ? `${number} ${title}` : title;
  });
}

function truthOf(text: Text, producer: Producer): string {
  const titles = numbered(text, producer);
  // Bold runs carry one level only: every section is a `##` under the title.
  const body = text.sections.map((s, i) => `${'#'.repeat(producer === 'docx-bold' ? 2 : s.depth + 1)} ${titles[i] as string}\n\n${s.paragraphs.join('\n\n')}`);
  return `# ${text.title}\n\n${body.join('\n\n')}\n`;
}

const msOf = (text: Text) =>
  `.TL\n${text.title}\n${text.sections.map((s) => `.NH ${s.depth}\n${s.title}\n${s.paragraphs.map((p) => `.PP\n${p}\n`).join('')}`).join('')}`;

const LATEX_SECTION = ['section', 'subsection', 'subsubsection'];
const latexOf = (text: Text) =>
  `\\documentclass{article}\n\\begin{document}\n\\begin{center}{\\LARGE ${text.title}}\\end{center}\n${text.sections
    .map((s) => `\\${LATEX_SECTION[s.depth - 1] as string}{${s.title}}\n${s.paragraphs.join('\n\n')}\n`)
    .join('\n')}\\end{document}\n`;

/** python-docx: the title bold at 16 pt, each section's title a bold run at the body's 11 pt in a Normal paragraph. */
const DOCX_BOLD = `
import docx, json, sys
from docx.shared import Pt
text = json.loads(sys.argv[2])
d = docx.Document()
d.styles['Normal'].font.size = Pt(11)
r = d.add_paragraph().add_run(text['title']); r.bold = True; r.font.size = Pt(16)
for s in text['sections']:
    d.add_paragraph().add_run(s['title']).bold = True
    for p in s['paragraphs']: d.add_paragraph(p)
d.save(sys.argv[1])
`;

const onPath = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** The documents, built into `cacheDir` once; a producer that is not installed is left out. */
export function headingsCorpus(cacheDir: string): { name: string; file: string; truth: string }[] {
  const manifest = path.join(cacheDir, 'manifest.json');
  if (!fs.existsSync(manifest)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const made: { name: string; truth: string }[] = [];
    for (const text of TEXTS) {
      fs.writeFileSync(path.join(cacheDir, `${text.name}-groff-ms.pdf`), execFileSync('groff', ['-ms', '-Tpdf'], { input: msOf(text) }));
      made.push({ name: `${text.name}-groff-ms.pdf`, truth: truthOf(text, 'groff-ms') });
      if (onPath('pdflatex')) {
        fs.writeFileSync(path.join(cacheDir, `${text.name}-pdftex.tex`), latexOf(text));
        execFileSync('pdflatex', ['-interaction=batchmode', `${text.name}-pdftex.tex`], { cwd: cacheDir, stdio: 'ignore' });
        made.push({ name: `${text.name}-pdftex.pdf`, truth: truthOf(text, 'pdftex') });
      }
      execFileSync(PYTHON, ['-c', DOCX_BOLD, `${text.name}-docx-bold.docx`, JSON.stringify(text)], { cwd: cacheDir });
      made.push({ name: `${text.name}-docx-bold.pdf`, truth: truthOf(text, 'docx-bold') });
    }
    runSoffice(path.join(cacheDir, 'profile'), ['--convert-to', 'pdf', ...TEXTS.map((t) => `${t.name}-docx-bold.docx`)], cacheDir);
    fs.rmSync(path.join(cacheDir, 'profile'), { recursive: true, force: true });
    fs.writeFileSync(manifest, JSON.stringify(made.filter((m) => fs.existsSync(path.join(cacheDir, m.name)))));
  }
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string; truth: string }[]).map((m) => ({ ...m, file: path.join(cacheDir, m.name) }));
}
