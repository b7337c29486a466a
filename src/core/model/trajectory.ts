import type { RootCause } from './rootCauses';

/** Every trajectory format id (docs/formats.md §1); each has one reader in src/core/formats/registry.ts. */
export const TRAJECTORY_FORMATS = [
  'openai-chat',
  'anthropic',
  'tongyi-react',
  'searchauditbench',
  'who-and-when',
  'inspect',
  'atif',
  'openhands',
  'swe-agent',
  'mini-swe-agent',
  'claude-code',
  'codex',
  'gemini-cli',
  'otel',
  'langsmith',
  'tau-bench',
  'magentic-one',
  'camel',
  'smolagents',
  'openai-agents',
] as const;
export type TrajectoryFormat = (typeof TRAJECTORY_FORMATS)[number];

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id?: string;
  name: string;
  /** Parsed arguments when the source gave an object or valid JSON; otherwise undefined. */
  arguments?: unknown;
  /** The arguments as the source wrote them (a JSON string for OpenAI, serialized for others). */
  rawArguments: string;
  argumentsValid: boolean;
}

export interface Message {
  /** 0-based; equals the source message index (docs/formats.md §3, position rule). */
  position: number;
  role: Role;
  /** Agent name for multi-agent traces (Who&When) or a named participant. */
  agent?: string;
  content: string;
  reasoning?: string;
  toolCalls: ToolCall[];
  /** For tool returns: the call they answer, when the source says so. */
  toolCallId?: string;
  /** For tool returns: the decision step that issued the call (matched by id, else by order). */
  issuedBy?: number;
  isError?: boolean;
  /** Text inside <answer>…</answer>, when the message holds one. */
  answer?: string;
}

export interface GoldAnnotation {
  criticalStep?: number;
  toleranceSpan?: [number, number];
  rootCause?: RootCause;
  /** The root cause as the source wrote it, when it is outside the taxonomy. */
  rootCauseRaw?: string;
  /** Gold step fields present but not a whole number (2.5, 1e400, "x"): kept so validate names them instead of dropping them silently. */
  invalidSteps?: { path: string[]; value: unknown }[];
  rationale?: string;
  repairDirective?: string;
  repairRubrics?: string[];
  mistakeAgent?: string;
}

export interface Trajectory {
  format: TrajectoryFormat;
  /** Record id: `id`/`index`/`question_ID`, the JSONL line number, or "0" for a single-trajectory file. */
  id: string;
  query?: string;
  predictedAnswer?: string;
  goldAnswer?: string;
  gold?: GoldAnnotation;
  messages: Message[];
  /** Positions of the decision steps (agent messages), ascending. */
  decisionSteps: number[];
  finalAnswerStep?: number;
  /** Source fields the canonical model does not carry (system prompt, model, dataset…). */
  metadata: Record<string, unknown>;
}
