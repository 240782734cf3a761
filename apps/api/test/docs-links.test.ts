import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { configSchema } from '@hallmark/config';
import { JOB_ERROR_CODES, jobErrorRetry, problemTypes } from '@hallmark/schemas';
import { describe, expect, it } from 'vitest';
import { fencesOf, gitFiles, repositoryRoot } from './support/doc-blocks.ts';

// Every relative link in the repository's Markdown must lead somewhere in a fresh clone, and the
// user's guide must stay complete and reachable from its index. No service is needed.

const root = repositoryRoot;

/** A file or folder is linkable when a clone has it: tracked, or a folder holding tracked files. */
function trackedPaths(): Set<string> {
  const paths = new Set<string>();
  for (const file of gitFiles()) {
    paths.add(file);
    for (let dir = posix.dirname(file); dir !== '.'; dir = posix.dirname(dir)) paths.add(dir);
  }
  return paths;
}

/** Replaces every character of the matches with spaces, keeping newlines (and so line numbers). */
function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, (match) => match.replace(/[^\n]/g, ' '));
}

/** Fenced code blocks, fences included, blanked. */
function blankFencedCode(markdown: string): string {
  const lines = markdown.split('\n');
  for (const fence of fencesOf(markdown)) {
    for (let index = fence.open; index <= fence.close; index++) {
      lines[index] = ' '.repeat(lines[index]?.length ?? 0);
    }
  }
  return lines.join('\n');
}

/** Markdown whose code and comments are blanked out: only what renders as prose or links. */
function prose(markdown: string): string {
  const withoutFences = blankFencedCode(markdown);
  const withoutComments = blank(withoutFences, /<!--[\s\S]*?-->/g);
  // Inline code spans may wrap lines but not cross a blank line.
  return blank(withoutComments, /(`+)(?:(?!\n[ \t]*\n)[\s\S])+?\1/g);
}

interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** Inline links and images, reference definitions and HTML href/src, with their line numbers. */
function extractLinks(markdown: string): MarkdownLink[] {
  const text = prose(markdown);
  const patterns = [
    // [text](target) and ![alt](target), the text possibly wrapped; an optional "title".
    /\[[^\]]*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g,
    // [label]: target
    /^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)/gm,
    /<(?:a|img)\b[^>]*?\b(?:href|src)="([^"]+)"/g,
  ];
  const links: MarkdownLink[] = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const raw = match[1] ?? '';
      links.push({
        target: raw.replace(/^<|>$/g, ''),
        line: text.slice(0, match.index).split('\n').length,
      });
    }
  }
  return links.sort((a, b) => a.line - b.line);
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces become hyphens. */
function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings (repeats numbered as GitHub does), HTML ids. */
function anchorsOf(markdown: string): Set<string> {
  const text = blank(blankFencedCode(markdown), /<!--[\s\S]*?-->/g);
  const lines = text.split('\n');
  const headings: string[] = [];
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx?.[1] !== undefined) headings.push(atx[1]);
    const next = lines[index + 1] ?? '';
    const setext = /^ {0,3}(=+|-+)[ \t]*$/.test(next) && line.trim() !== '';
    if (setext && !/^ {0,3}([-*+]|#|\||>)/.test(line)) headings.push(line.trim());
  });
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const heading of headings) {
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of text.matchAll(/<[a-z]+\b[^>]*?\b(?:id|name)="([^"]+)"/g)) {
    if (match[1] !== undefined) anchors.add(match[1]);
  }
  return anchors;
}

/** A link the checker leaves alone: another site, an e-mail address. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

interface BrokenLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly reason: string;
}

/**
 * Checks the relative links of one Markdown file (a repository path) against what a clone holds:
 * `tracked` paths, and the anchors of tracked Markdown files (`readMarkdown` reads one).
 */
function brokenLinks(
  file: string,
  markdown: string,
  tracked: ReadonlySet<string>,
  readMarkdown: (path: string) => string,
): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const { target, line } of extractLinks(markdown)) {
    if (isExternal(target)) continue;
    const report = (reason: string) => broken.push({ file, line, target, reason });
    const hashAt = target.indexOf('#');
    const pathPart = hashAt === -1 ? target : target.slice(0, hashAt);
    const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
    let path: string;
    try {
      path = decodeURIComponent(pathPart.split('?')[0] ?? '');
    } catch {
      report('not a valid URL path');
      continue;
    }
    // GitHub reads a leading slash as the repository root.
    const absolute = path.startsWith('/')
      ? resolve(root, `.${path}`)
      : resolve(root, dirname(file), path);
    const inRepo = relative(root, absolute).split(sep).join('/');
    if (inRepo.startsWith('..')) {
      report('points outside the repository');
      continue;
    }
    const resolved = inRepo === '' ? '.' : inRepo;
    if (path !== '' && resolved !== '.' && !tracked.has(resolved)) {
      report(existsSync(absolute) ? 'exists here but is not tracked by git' : 'no such file');
      continue;
    }
    const anchorFile = path === '' ? file : resolved;
    if (anchor !== undefined && anchor !== '' && anchorFile.endsWith('.md')) {
      if (!anchorsOf(readMarkdown(anchorFile)).has(anchor)) {
        report(`${anchorFile} has no heading #${anchor}`);
      }
    }
  }
  return broken;
}

const readRepoFile = (path: string) => readFileSync(join(root, path), 'utf8');

describe('the link checker', () => {
  it('finds wrapped, image and reference links, and skips code and comments', () => {
    const markdown = [
      'See [the `docs`',
      'folder](docs/README.md) and ![a crop](eval/crop.png "crop").',
      '',
      '```sh',
      'echo "[not a link](nowhere.md)"',
      '```',
      'Inline `[not](either.md)`, <!-- [nor](this.md) -->',
      '[ref]: ../other.md#part',
      '<a href="page.html">x</a>',
    ].join('\n');
    expect(extractLinks(markdown)).toEqual([
      { target: 'docs/README.md', line: 1 },
      { target: 'eval/crop.png', line: 2 },
      { target: '../other.md#part', line: 8 },
      { target: 'page.html', line: 9 },
    ]);
  });

  it('makes anchors as GitHub does', () => {
    const anchors = anchorsOf(
      '# IPFS: Kubo and a pinning service\n## `JOB_ATTEMPTS` (retries)\n## Notes\n## Notes\n',
    );
    expect([...anchors]).toEqual([
      'ipfs-kubo-and-a-pinning-service',
      'job_attempts-retries',
      'notes',
      'notes-1',
    ]);
  });

  it('reports a missing file, an untracked one, a missing anchor and a way out of the repo', () => {
    const tracked = new Set(['docs', 'docs/guide.md', 'README.md']);
    const markdown = [
      '[ok](guide.md#setup) [ok](../README.md) [ok](#intro) [web](https://example.com/x.md)',
      '[gone](missing.md) [anchor](guide.md#nothing) [out](../../elsewhere.md)',
      // On this disk (the repository's root package.json) but not in this test's tracked set.
      '[untracked](../package.json)',
    ].join('\n');
    const files: Record<string, string> = {
      'docs/guide.md': '# Setup\n',
      'docs/page.md': '# Intro\n',
    };
    const found = brokenLinks('docs/page.md', markdown, tracked, (path) => files[path] ?? '');
    expect(found.map(({ line, target, reason }) => ({ line, target, reason }))).toEqual([
      { line: 2, target: 'missing.md', reason: 'no such file' },
      { line: 2, target: 'guide.md#nothing', reason: 'docs/guide.md has no heading #nothing' },
      { line: 2, target: '../../elsewhere.md', reason: 'points outside the repository' },
      { line: 3, target: '../package.json', reason: 'exists here but is not tracked by git' },
    ]);
  });
});

describe('Markdown links in the repository', () => {
  const markdownFiles = gitFiles('*.md');

  it('finds the Markdown files', () => {
    expect(markdownFiles).toContain('README.md');
    expect(markdownFiles).toContain('docs/README.md');
  });

  it('every relative link leads to a tracked file or folder (and heading) in the repository', () => {
    const tracked = trackedPaths();
    const broken = markdownFiles.flatMap((file) =>
      brokenLinks(file, readRepoFile(file), tracked, readRepoFile),
    );
    expect(broken.map((b) => `${b.file}:${b.line}: (${b.target}) ${b.reason}`)).toEqual([]);
  });
});

describe("the user's guide", () => {
  const pages = [
    'concepts.md',
    'flow.md',
    'configuration.md',
    'deployment.md',
    'errors.md',
    'limits.md',
    'verification.md',
    'operators.md',
  ];

  it('has every page, each linked from docs/README.md', () => {
    const index = extractLinks(readRepoFile('docs/README.md')).map(
      ({ target }) => target.split('#')[0],
    );
    for (const page of pages) {
      expect(existsSync(join(root, 'docs', page)), `docs/${page} exists`).toBe(true);
      expect(index, `docs/README.md links ${page}`).toContain(page);
    }
  });

  // The pages promise completeness; these catch a variable, problem type or job error code added
  // to the code and forgotten here.
  it('configuration.md names every environment variable of the configuration schema', () => {
    const page = readRepoFile('docs/configuration.md');
    const missing = Object.keys(configSchema.shape).filter((name) => !page.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('errors.md lists every problem type with its status, and every job error code', () => {
    const page = readRepoFile('docs/errors.md');
    const rows = Object.values(problemTypes).filter((problem) => {
      const slug = problem.type.slice(problem.type.lastIndexOf('/') + 1);
      return !new RegExp(`\\| \`${slug}\` +\\| ${problem.status} +\\| ${problem.title} +\\|`).test(
        page,
      );
    });
    expect(rows.map((problem) => problem.type)).toEqual([]);
    // Each code's row, with the kind the worker treats it as.
    const codes = Object.keys(JOB_ERROR_CODES).filter((code) => {
      const kind = jobErrorRetry(code) === 'transient' ? 'retried' : 'permanent';
      return !new RegExp(`\\| \`${code}\` +\\| [^|]+\\| ${kind} +\\|`).test(page);
    });
    expect(codes).toEqual([]);
  });

  it('operators.md names every operation of the admin API', () => {
    const page = readRepoFile('docs/operators.md');
    const document = JSON.parse(readRepoFile('packages/schemas/openapi.json')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const calls = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/admin/'))
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      );
    expect(calls.length).toBeGreaterThan(20);
    // Named as code, the path whole (a query may follow).
    const missing = calls.filter(
      (call) => !page.includes(`\`${call}\``) && !page.includes(`\`${call}?`),
    );
    expect(missing).toEqual([]);
  });
});
