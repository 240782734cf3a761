import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The fenced code blocks of the repository's Markdown, and what the tests do with each. The info
// string after the opening fence says it: its first word is the language, the rest the mode.
//
//   ```bash / ```sh                 runs, in order with the page's other shell blocks, in one bash
//                                   session against a started service (docs-blocks.test.ts)
//   ```bash script: NAME ARGS...    saved as NAME in that session's folder and run as `bash NAME ARGS`
//   ```bash env                     settings: every NAME=value names a configuration variable
//   ```ts                           compiles against the packed SDK (sdk-package.test.ts)
//   ```json                         parses
//   ```text                         not code: diagrams, tables, output
//   ```LANG no-run: REASON          never run, for the reason given (Docker, hardware, a host's files)
//   ```LANG tested-by: PATH         run by that test file, which names this Markdown file
//
// GitHub colours a block by the first word alone, so a reader sees none of this.

export const repositoryRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], {
  cwd: import.meta.dirname,
  encoding: 'utf8',
}).trim();

/** Tracked files, NUL-separated so that no file name can be misread. */
export function gitFiles(...pathspecs: string[]): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', ...pathspecs], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((path) => path !== '');
}

export interface Fence {
  /** Index of the opening fence's line (0-based); the closing one's, or the last line. */
  readonly open: number;
  readonly close: number;
  readonly info: string;
  readonly code: string;
}

/** Fenced code blocks (``` or ~~~, closed by a fence of the same kind at least as long). */
export function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  let opening: { line: number; marker: string; info: string } | undefined;
  lines.forEach((line, index) => {
    // A backtick fence's info string has no backtick (CommonMark): else the line is inline code.
    const match = /^ {0,3}(?:(`{3,})([^`]*)|(~{3,})(.*))$/.exec(line);
    const marker = match?.[1] ?? match?.[3];
    if (opening === undefined) {
      const info = match?.[2] ?? match?.[4] ?? '';
      if (marker !== undefined) opening = { line: index, marker, info: info.trim() };
      return;
    }
    const closes =
      marker !== undefined &&
      marker[0] === opening.marker[0] &&
      marker.length >= opening.marker.length &&
      line.trim() === marker;
    if (closes) {
      fences.push(fenceOf(lines, opening, index));
      opening = undefined;
    }
  });
  // Unclosed, it runs to the end of the document.
  if (opening !== undefined) fences.push(fenceOf(lines, opening, lines.length));
  return fences;
}

/** The fence from `opening` to the line `end` (the closing fence, or one past the last line). */
function fenceOf(lines: readonly string[], opening: { line: number; info: string }, end: number) {
  const body = lines.slice(opening.line + 1, end);
  const close = Math.min(end, lines.length - 1);
  return { open: opening.line, close, info: opening.info, code: `${body.join('\n')}\n` };
}

export type BlockMode =
  | { readonly kind: 'run' }
  | { readonly kind: 'script'; readonly name: string; readonly args: readonly string[] }
  | { readonly kind: 'env' }
  | { readonly kind: 'compile' }
  | { readonly kind: 'parse' }
  | { readonly kind: 'text' }
  | { readonly kind: 'no-run'; readonly reason: string }
  | { readonly kind: 'tested-by'; readonly test: string };

export interface DocBlock {
  /** Repository path of the Markdown file, and the opening fence's line (1-based). */
  readonly file: string;
  readonly line: number;
  readonly language: string;
  readonly code: string;
  /** The mode, or why the info string is not one. */
  readonly mode: BlockMode | { readonly kind: 'invalid'; readonly problem: string };
}

const SHELLS = new Set(['bash', 'sh']);
const LANGUAGES = new Set([...SHELLS, 'ts', 'json', 'text']);

/** Reads an info string by the convention above. */
export function modeOf(info: string): { language: string; mode: DocBlock['mode'] } {
  const [language = '', ...rest] = info.split(/\s+/).filter((word) => word !== '');
  const mode = rest.join(' ');
  const invalid = (problem: string) => ({ language, mode: { kind: 'invalid', problem } as const });
  if (language === '') return invalid('no language: give one (text for what is not code)');
  if (!LANGUAGES.has(language))
    return invalid(`language ${language}: use bash, sh, ts, json or text`);
  const reasoned = /^(no-run|tested-by):\s*(.*)$/.exec(mode);
  if (reasoned !== undefined && reasoned !== null) {
    const detail = reasoned[2] ?? '';
    if (detail === '') return invalid(`${reasoned[1]} needs what follows the colon`);
    return reasoned[1] === 'no-run'
      ? { language, mode: { kind: 'no-run', reason: detail } }
      : { language, mode: { kind: 'tested-by', test: detail } };
  }
  if (SHELLS.has(language)) {
    if (mode === '') return { language, mode: { kind: 'run' } };
    if (mode === 'env') return { language, mode: { kind: 'env' } };
    const script = /^script:\s*(\S+)(.*)$/.exec(mode);
    if (script?.[1] !== undefined) {
      const args = (script[2] ?? '').split(/\s+/).filter((word) => word !== '');
      return { language, mode: { kind: 'script', name: script[1], args } };
    }
  } else if (mode === '') {
    if (language === 'ts') return { language, mode: { kind: 'compile' } };
    if (language === 'json') return { language, mode: { kind: 'parse' } };
    return { language, mode: { kind: 'text' } };
  }
  return invalid(`unknown mode "${mode}" for ${language}`);
}

/** Every fenced block of the given tracked Markdown files (all of them by default). */
export function docBlocks(files: readonly string[] = gitFiles('*.md')): DocBlock[] {
  return files.flatMap((file) =>
    fencesOf(readFileSync(join(repositoryRoot, file), 'utf8')).map((fence) => ({
      file,
      line: fence.open + 1,
      code: fence.code,
      ...modeOf(fence.info),
    })),
  );
}

/** Where a block is, as a reader finds it: `docs/flow.md:21`. */
export function placeOf(block: Pick<DocBlock, 'file' | 'line'>): string {
  return `${block.file}:${block.line}`;
}
