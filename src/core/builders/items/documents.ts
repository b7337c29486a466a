// The builders' inputs (seed 000, Stage A): a pool of retrieved documents (JSONL, one document a
// line) and the domain's real seed queries (a text file, one query a line, or JSONL). Documents
// come from the workspace or from a retrieval command the user names; never from the internet
// directly. Every problem is an InputError naming the file, the line and the JSON path.
import { execFile } from 'node:child_process';
import { z } from 'zod';
import { InputError } from '../../input/inputError';
import { nonBlankLines, parseJsonLine } from '../../input/jsonText';
import { readTextFile } from '../../input/readText';
import { checkSchema } from '../../input/schemaCheck';
import { renderCommand, shellQuote, templateProblems } from '../../harness/agent/command';
import { withoutProviderKeys } from '../../secrets/keyEnv';
import { registeredSecrets } from '../../secrets/redact';

const text = z.union([z.string(), z.number()]).transform(String);

export const AUTHORITY_LEVELS = ['high', 'medium', 'low'] as const;
export type Authority = (typeof AUTHORITY_LEVELS)[number];

/** One retrieved document. `authority` says whether Stage A may use it as evidence (`high`). */
export const poolDocumentSchema = z.looseObject({
  doc_id: text.pipe(z.string().min(1, { message: 'expected a non-empty doc_id' })),
  title: z.string({ message: 'expected the title as a string' }),
  url: z.string({ message: 'expected the url as a string' }),
  site_name: z.string().optional(),
  publish_time: text.optional(),
  content: z.string({ message: 'expected the document text (content) as a string' }).min(1, { message: 'expected non-empty content' }),
  authority: z.enum(AUTHORITY_LEVELS, { message: 'expected authority "high", "medium" or "low"' }),
});
export type PoolDocument = z.infer<typeof poolDocumentSchema>;

/** One seed query; `domain`, `language` and `mode` are carried into the items built from it. */
export const seedQuerySchema = z.looseObject({
  query: z.string().min(1, { message: 'expected a non-empty query' }),
  domain: z.string().optional(),
  language: z.string().optional(),
  mode: z.string().optional(),
});
export type SeedQuery = z.infer<typeof seedQuerySchema> & { source: 'seed' | 'expanded'; intent?: string };

/** Parses JSONL documents; duplicate ids are refused (citations and evidence spans name documents by id). */
export function parseDocuments(content: string, file: string): PoolDocument[] {
  const docs: PoolDocument[] = [];
  const seen = new Map<string, number>();
  for (const { line, lineNumber } of nonBlankLines(content)) {
    const value = parseJsonLine(line, lineNumber, file, ' (expected one JSON document a line)');
    const doc = checkSchema(poolDocumentSchema, value, { file, text: line, lineOffset: lineNumber - 1 }, 'a pool document');
    const first = seen.get(doc.doc_id);
    if (first !== undefined)
      throw new InputError(file, `doc_id "${doc.doc_id}" is used again (first on line ${first}); every document needs its own id`, {
        line: lineNumber,
        column: 1,
        path: '$.doc_id',
      });
    seen.set(doc.doc_id, lineNumber);
    docs.push(doc);
  }
  return docs;
}

export function loadDocumentPool(path: string): PoolDocument[] {
  const docs = parseDocuments(readTextFile(path), path);
  if (docs.length === 0) throw new InputError(path, 'no documents: expected one JSON document a line ({doc_id, title, url, content, authority, …})');
  return docs;
}

/** Seeds: `.jsonl` lines {query, domain?, language?, mode?}, or plain text, one query a line (`#` starts a comment line). */
export function parseSeeds(content: string, file: string, defaults: { domain?: string } = {}): SeedQuery[] {
  const seeds: SeedQuery[] = [];
  const jsonl = /\.jsonl$/i.test(file);
  for (const { line, lineNumber } of nonBlankLines(content)) {
    if (jsonl) {
      const value = parseJsonLine(line, lineNumber, file, ' (expected one JSON seed {query, domain?, language?, mode?} a line)');
      const seed = checkSchema(seedQuerySchema, value, { file, text: line, lineOffset: lineNumber - 1 }, 'a seed query');
      seeds.push({ ...seed, domain: seed.domain ?? defaults.domain, source: 'seed' });
    } else if (!line.trim().startsWith('#')) {
      seeds.push({ query: line.trim(), domain: defaults.domain, source: 'seed' });
    }
  }
  return seeds;
}

export function loadSeeds(path: string, defaults: { domain?: string } = {}): SeedQuery[] {
  const seeds = parseSeeds(readTextFile(path), path, defaults);
  if (seeds.length === 0) throw new InputError(path, 'no seed queries: expected one query a line (or JSONL {query, domain?, language?, mode?})');
  return seeds;
}

/** Why a retrieval command template cannot be used (the agent-command rules: `{query}` only, as a plain shell word). */
export function retrieveTemplateProblems(template: string): string[] {
  return templateProblems(template, ['query']);
}

/**
 * Runs the user's retrieval command for one query and reads the documents it prints (JSONL).
 * `{query}` is replaced by the shell-quoted query (a template without it gets the query as its last
 * argument), and the query is in the environment as TRAJAUDIT_QUERY. Queries can come from a model
 * (seed-query expansion), so a template where the shell would parse the value again is refused, as
 * for agent commands, and the product's API keys are kept out of the command's environment.
 */
export async function retrieveWithCommand(
  template: string,
  query: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<PoolDocument[]> {
  const problems = retrieveTemplateProblems(template);
  if (problems.length) throw new InputError('--retrieve', problems.join('; '));
  const command = template.includes('{query}') ? renderCommand(template, { query }) : `${template} ${shellQuote(query)}`;
  const where = `retrieval command output for ${JSON.stringify(query)}`;
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      {
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        signal: options.signal,
        encoding: 'utf8',
        env: { ...withoutProviderKeys(process.env, registeredSecrets()), TRAJAUDIT_QUERY: query },
      },
      (error, out, err) => {
        if (error) {
          const detail = String(err).trim().split('\n')[0] || error.message.split('\n')[0];
          reject(new InputError('--retrieve', `the command \`${command}\` failed (${detail}); expected it to print documents as JSONL and exit 0`));
        } else resolve(out);
      },
    );
  });
  return parseDocuments(stdout, where);
}
