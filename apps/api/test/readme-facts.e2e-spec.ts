import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_TOOLSETS, TOOLSETS } from '@cairn/access';
import { JOB_CATALOG, QUEUE_NAMES } from '@cairn/jobs';
import { REPO_ROOT } from './process-harness';

/**
 * What README.md states about the code, checked against the code: the toolsets and their tools
 * (from the committed MCP catalogue), the worker's queues and jobs, and that every document it
 * points a reader to is in the clone.
 */
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

/** The paragraph of the README that holds `marker`. */
function paragraph(marker: string): string {
  const found = readme.split(/\n\s*\n/).filter((text) => text.includes(marker));
  if (found.length !== 1) throw new Error(`README.md has ${found.length} paragraphs with ${marker}, not one`);
  return found[0].replace(/\s*\n\s*/g, ' ');
}

/** Each "`name` (…)" of `text`, with the backquoted names inside its parentheses. */
function groups(text: string, names: readonly string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const name of names) {
    const at = text.indexOf(`\`${name}\` (`);
    if (at < 0) continue;
    const inside = text.slice(at + name.length + 4, text.indexOf(')', at));
    found.set(
      name,
      [...inside.matchAll(/`([a-z_-]+)`/g)].map((match) => match[1]),
    );
  }
  return found;
}

describe('README.md, against the code', () => {
  it('lists every toolset once, with exactly its tools, and the toolsets a token gets by default', () => {
    const catalog = JSON.parse(readFileSync(join(REPO_ROOT, 'apps/mcp-gateway/contract/mcp-catalog.json'), 'utf8')) as {
      tools: { name: string; _meta: Record<string, string> }[];
    };
    const text = paragraph('`toolsets` names the groups of tools');
    const listed = groups(text, TOOLSETS);
    expect([...listed.keys()].sort()).toEqual([...TOOLSETS].sort());
    for (const toolset of TOOLSETS) {
      const tools = catalog.tools.filter((tool) => tool._meta['cairn/toolset'] === toolset).map((tool) => tool.name);
      expect({ toolset, tools: listed.get(toolset)!.sort() }).toEqual({ toolset, tools: tools.sort() });
    }
    const defaults = /A token that names none gets (.*?); the others/.exec(text)?.[1] ?? '';
    expect([...defaults.matchAll(/`([a-z]+)` \(/g)].map((match) => match[1])).toEqual([...DEFAULT_TOOLSETS]);
  });

  it("names the worker's queues, their count, and every job of each", () => {
    const text = paragraph('BullMQ queues:');
    const numbers = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    expect(text).toContain(`consumes ${numbers[QUEUE_NAMES.length]} BullMQ queues`);
    const listed = groups(text, QUEUE_NAMES);
    for (const queue of QUEUE_NAMES) {
      expect({ queue, jobs: listed.get(queue)?.sort() }).toEqual({
        queue,
        jobs: Object.keys(JOB_CATALOG[queue]).sort(),
      });
    }
  });

  it('points only to files the clone has: no design document or data beside it', () => {
    const documents = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).map((file) => `docs/${file}`)];
    expect(documents).toContain('docs/DESIGN.md');
    for (const document of documents.filter((file) => file.endsWith('.md'))) {
      const text = readFileSync(join(REPO_ROOT, document), 'utf8');
      expect({ document, shared: text.match(/\.\.\/shared\/DESIGN\.md/g) }).toEqual({ document, shared: null });
      for (const [, target] of text.matchAll(/\]\((?!https?:|#)([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const path = resolve(dirname(join(REPO_ROOT, document)), target);
        expect({ document, target, exists: existsSync(path) }).toEqual({ document, target, exists: true });
      }
    }
  });
});
