// Annotation files for `trajaudit agreement` (seed 000 human validation).
//
// Accepted shapes (JSON or JSONL, content-detected):
//   - JSONL: one review per line;
//   - a JSON array of reviews, or {"reviews": [ … ]};
//   - {"records": {"<item id>": {"reviews": [ … ]}}} — sidecar-like: the record key is the item id,
//     so a trajaudit sidecar whose records carry `reviews` arrays is read as is.
// A review is one annotator's judgments of one item:
//   {"item": "deleg-en-0231", "annotator": "r1",
//    "answerability": true,
//    "shortcut_free": true,                              // or "shortcut_leakage": false (its inverse)
//    "irrelevant_labels": {"d01": true, "d05": false},   // per irrelevant doc: the label is correct
//    "distractor_validity": {"d02": true, "d04": true},  // per distractor doc: it is a valid distractor
//    "notes": "…"}                                       // anything else is ignored
// Aliases: "id"/"item_id" for item, "reviewer" for annotator, "irrelevant_label_correct" and
// "distractor_valid" for the two document maps. A dimension left out was not judged by that annotator.
import { z } from 'zod';
import { InputError } from '../input/inputError';
import { parseJson } from '../input/jsonText';
import { readTextFile } from '../input/readText';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Review } from './agreement';
import { parseJsonLines } from './jsonl';
import { idKeyedRecord } from '../input/idKeyed';

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
// Keyed by document ids from data: `__proto__` stays an ordinary id (idKeyed.ts).
const docMap = idKeyedRecord(z.boolean({ message: 'expected true or false per document' }));

const reviewSchema = z.looseObject({
  item: idLike.optional(),
  id: idLike.optional(),
  item_id: idLike.optional(),
  annotator: idLike.optional(),
  reviewer: idLike.optional(),
  answerability: z.boolean().nullish(),
  shortcut_free: z.boolean().nullish(),
  shortcut_leakage: z.boolean().nullish(),
  irrelevant_labels: docMap.nullish(),
  irrelevant_label_correct: docMap.nullish(),
  distractor_validity: docMap.nullish(),
  distractor_valid: docMap.nullish(),
});
type RawReview = z.infer<typeof reviewSchema>;

const WHAT = 'a review {item, annotator, answerability?, shortcut_free?, irrelevant_labels?: {doc_id: bool}, distractor_validity?: {doc_id: bool}}';

function toReview(raw: RawReview, source: SourceText, where: { line?: number; path: string }, itemFromKey?: string): Review {
  const item = itemFromKey ?? raw.item ?? raw.item_id ?? raw.id;
  const annotator = raw.annotator ?? raw.reviewer;
  const fail = (message: string) => new InputError(source.file, message, where.line !== undefined ? { line: where.line, column: 1 } : { path: where.path });
  if (!item) throw fail('review lacks "item" (the item id)');
  if (!annotator) throw fail('review lacks "annotator"');
  const labels: Review['labels'] = {};
  if (typeof raw.answerability === 'boolean') labels.answerability = raw.answerability;
  if (typeof raw.shortcut_free === 'boolean') labels.shortcut_free = raw.shortcut_free;
  else if (typeof raw.shortcut_leakage === 'boolean') labels.shortcut_free = !raw.shortcut_leakage;
  const irrelevant = raw.irrelevant_labels ?? raw.irrelevant_label_correct;
  if (irrelevant) labels.irrelevant_labels = irrelevant;
  const distractors = raw.distractor_validity ?? raw.distractor_valid;
  if (distractors) labels.distractor_validity = distractors;
  if (Object.keys(labels).length === 0) throw fail('review has no judgment: expected answerability, shortcut_free, irrelevant_labels or distractor_validity');
  return { item, annotator, labels, source: where.line !== undefined ? `${source.file}:${where.line}` : `${source.file} ${where.path}` };
}

/** Reads one annotation file into reviews. */
export function readAnnotationFile(path: string, displayName = path): Review[] {
  const text = readTextFile(path, displayName);
  let whole: unknown;
  let isWhole = true;
  try {
    whole = JSON.parse(text);
  } catch {
    isWhole = false;
  }
  if (!isWhole) {
    const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
    try {
      JSON.parse(first);
    } catch {
      parseJson(text, displayName); // not JSONL either: report the JSON syntax error with line:column
    }
    const lines = text.split('\n');
    return parseJsonLines(text, displayName).map(({ value, line }) => {
      const lineText = lines[line - 1].replace(/\r$/, '');
      const source = { file: displayName, text: lineText, lineOffset: line - 1 };
      return toReview(checkSchema(reviewSchema, value, source, WHAT), source, { line, path: '$' });
    });
  }
  const source: SourceText = { file: displayName, text };
  const fromArray = (list: unknown[], base: (string | number)[], key?: string) =>
    list.map((v, i) => {
      const raw = checkSchema(reviewSchema, v, { ...source, basePath: [...base, i] }, WHAT);
      return toReview(raw, source, { path: `$${base.map((b) => (typeof b === 'number' ? `[${b}]` : `.${b}`)).join('')}[${i}]` }, key);
    });
  if (Array.isArray(whole)) return fromArray(whole, []);
  if (whole && typeof whole === 'object') {
    const obj = whole as Record<string, unknown>;
    if (Array.isArray(obj.reviews)) return fromArray(obj.reviews, ['reviews']);
    if (obj.records && typeof obj.records === 'object' && !Array.isArray(obj.records)) {
      return Object.entries(obj.records as Record<string, unknown>).flatMap(([id, rec]) => {
        const reviews = (rec as { reviews?: unknown } | null)?.reviews;
        if (reviews === undefined) return [];
        if (!Array.isArray(reviews))
          throw new InputError(displayName, 'expected "reviews" to be an array of reviews', { path: `$.records[${JSON.stringify(id)}].reviews` });
        return fromArray(reviews, ['records', id, 'reviews'], id);
      });
    }
    // A single review object.
    if ('annotator' in obj || 'reviewer' in obj) return [toReview(checkSchema(reviewSchema, obj, source, WHAT), source, { line: 1, path: '$' })];
  }
  throw new InputError(
    displayName,
    `unrecognized annotation file; expected JSONL reviews, a JSON array of reviews, {"reviews": […]} or {"records": {<item>: {"reviews": […]}}} — ${WHAT}`,
    { path: '$', line: 1, column: 1 },
  );
}

/** Reads several files; the same annotator judging the same item twice is an error. */
export function readAnnotationFiles(paths: readonly string[]): Review[] {
  const reviews = paths.flatMap((p) => readAnnotationFile(p));
  const seen = new Map<string, Review>();
  for (const r of reviews) {
    const key = `${r.item}\u0000${r.annotator}`;
    const first = seen.get(key);
    if (first) throw new InputError(r.source ?? 'annotations', `annotator "${r.annotator}" reviews item "${r.item}" twice (first at ${first.source})`);
    seen.set(key, r);
  }
  return reviews;
}
