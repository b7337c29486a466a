import type { TrajectoryFormat } from '../../model/trajectory';
import type { RunKind, RunManifest } from '../../runs/manifest';
import type { AuditCaseRow, AuditScore } from '../audit';
import type { DeepSearchQaJudgeInput, AnswerCorrectness } from '../judges/answerCorrectness';
import type { JudgmentCache } from '../judges/cache';
import type { DelegationAnswerInput } from '../judges/delegationAnswer';
import type { Judge, JudgeTask } from '../judges/judge';
import type { StructuredModel } from '../judges/llm';
import type { DsqaScore } from '../deepsearchqa';
import type { DelegationScore } from '../delegation';
import type { NuggetScore } from '../nuggets';
import type { ScenarioScore } from '../scenarios';
import type { ResumeScore } from '../../resume/score';

export type KindScore = AuditScore | DsqaScore | NuggetScore | ScenarioScore | DelegationScore | ResumeScore;

export interface ScoreOptions {
  /** audit: score the newest audit of this method instead of the newest audit overall. */
  method?: string;
  /** Enables the LLM judges (rubric grader, nugget coverage, scenario criteria, `judge: "llm"`). */
  model?: StructuredModel;
  /** Answer judge for DeepSearchQA and Delegation: `exact` (default) or `llm` (needs `model`). */
  judge?: 'exact' | 'llm';
  /** Overrides the answer judge outright (tests, custom judges). */
  answerJudge?: Judge<DeepSearchQaJudgeInput, AnswerCorrectness>;
  delegationJudge?: Judge<DelegationAnswerInput, boolean>;
  /** Nugget partial credit (default 0.5). */
  partialCredit?: number;
  /** Bootstrap resamples and seed for nugget improvements (defaults 10,000 and a fixed seed). */
  resamples?: number;
  seed?: number;
  signal?: AbortSignal;
  /** Concurrent judge calls (default 4). */
  concurrency?: number;
  /** prompts/ folder override. */
  promptsRoot?: string;
  /** Read the run's trajectories with this reader, skipping detection (`--format`). */
  format?: TrajectoryFormat;
}

export type FileKey =
  | 'gold'
  | 'predictions'
  | 'dataset'
  | 'responses'
  | 'judgments'
  | 'answers'
  | 'clarifications'
  | 'scenarios'
  | 'results'
  | 'weights'
  | 'items'
  | 'outputs'
  | 'resumes';

export interface RunDetection {
  kind: RunKind;
  /** Why this kind, for the user: "no manifest; found gold.jsonl and predictions.jsonl". */
  reason: string;
  folder: string;
  manifest?: RunManifest;
  /** Resolved paths of the run's files (only those that exist or are required). */
  files: Partial<Record<FileKey, string>>;
  /** audit only: a folder of trajectories with `*.audit.json` sidecars rather than gold/predictions files. */
  sidecars?: string[];
}

export interface RunPlan {
  // Tasks of different judges share the runner; their types are checked where they are built.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each task's own types, see above
  tasks: JudgeTask<any, any>[];
  cache?: JudgmentCache;
  /** `auditCases`: audit runs only, one row per gold case (the report's case table). */
  finish(): { score: KindScore; notes: string[]; auditCases?: AuditCaseRow[] };
}
