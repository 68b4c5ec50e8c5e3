// The links between README.md and docs/: every relative link's file exists and every `#anchor`
// names a heading of its page, by GitHub's rule for heading ids; links inside code are not links.

import fs from 'node:fs';
import path from 'node:path';

export interface Link {
  from: string;
  target: string;
}

/** The text of a Markdown file without its fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Relative links of a Markdown file (web and mail links left out). */
export function relativeLinks(file: string): Link[] {
  const text = prose(fs.readFileSync(file, 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => ({ from: file, target }));
}

/** GitHub's id of a heading: lower case, punctuation dropped (letters, digits, `-`, `_` kept), spaces → `-`. */
export function headingId(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function headingIds(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingId((m[1] as string).trim())));
}

/** Why a link does not lead where it says, or undefined when it does. */
export function brokenBecause({ from, target }: Link): string | undefined {
  const [file = '', anchor] = target.split('#');
  const resolved = file === '' ? from : path.join(path.dirname(from), file);
  if (!fs.existsSync(resolved)) return `${from}: ${target}: no file ${resolved}`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  return headingIds(resolved).has(anchor) ? undefined : `${from}: ${target}: no heading #${anchor} in ${resolved}`;
}
