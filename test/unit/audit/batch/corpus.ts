// A SearchAuditBench-shaped corpus for the batch tests: n small failed runs that differ in their
// query and pages (so each case has its own content hash and its own custom ids).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trajectoryOf } from '../../helpers';

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

export function corpusCase(i: number): Record<string, unknown> {
  const query = `Which architect designed clock tower number ${i} of the 1912 Stockholm stadium?`;
  const messages: unknown[] = [
    { role: 'system', content: 'You are a search agent.' },
    { role: 'user', content: query },
  ];
  for (let step = 0; step < 6; step++) {
    const search = step % 2 === 0;
    messages.push({
      role: 'assistant',
      content: '',
      reasoning_content: `Case ${i}, step ${step}: keep checking.`,
      tool_calls: [
        call(
          `c${step}`,
          search ? 'search' : 'visit',
          search ? { query: [`clock tower ${i} ${step}`] } : { url: `https://example.org/${i}/${step}`, goal: 'architect' },
        ),
      ],
    });
    messages.push({ role: 'tool', tool_call_id: `c${step}`, content: `Result ${step} for tower ${i}: Torben Grut is mentioned in passing.` });
  }
  messages.push({ role: 'assistant', content: `Erik Lallerstedt ${i}` });
  return { query, predicted_answer: `Erik Lallerstedt ${i}`, gold_answer: 'Torben Grut', trajectory: messages };
}

export const corpusTrajectory = (i: number) => trajectoryOf(corpusCase(i));

/** Writes n cases as `case-<i>.json` into `dir`; returns their paths. */
export function writeCorpus(dir: string, n: number): string[] {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: n }, (_, i) => {
    const file = join(dir, `case-${String(i).padStart(3, '0')}.json`);
    writeFileSync(file, `${JSON.stringify(corpusCase(i), null, 1)}\n`);
    return file;
  });
}
