// The builders' audit trail (JSONL, one entry a line): why an item, a distractor or a document left
// the benchmark, and at which stage. Each command writes its own trail; `build release` joins them
// with its own entries into the released pool's trail.
export type TrailStage = 'stage-a' | 'stage-b' | 'stage-c' | 'human-validation';
export type TrailAction = 'drop_item' | 'regenerate_item' | 'drop_distractor' | 'remove_document';

export interface TrailEntry {
  stage: TrailStage;
  action: TrailAction;
  /** The item's id (Stage A drops have none yet: the seed query says which). */
  item_id?: string;
  seed_query?: string;
  doc_id?: string;
  reasons: string[];
}

export function trailLines(entries: readonly TrailEntry[]): string[] {
  return entries.map((e) => `${JSON.stringify(e)}\n`);
}
