// `claude-code`: a Claude Code session log (~/.claude/projects/<cwd>/<session id>.jsonl). One file
// is one session; message i is line i. Chat lines (`type` user/assistant) carry an Anthropic
// message; every other line (summary, system, file-history-snapshot, …) becomes a system message.
import { z } from 'zod';
import type { SourceText } from '../input/schemaCheck';
import type { Message } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, LineReader, LinesRecord, TrajectoryReader } from './registry';
import { addTo, firstFailing, linesThrough, refuseLine, shortText, typeOf } from './sessionLines';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

type Obj = Record<string, unknown>;

const chatLineSchema = z.looseObject({
  type: z.enum(['user', 'assistant']),
  message: z.looseObject({
    role: z.string({ message: 'expected the message role as a string' }),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string({ message: 'expected a content block with a string "type"' }) }))], {
      message: 'expected the message content as a string or an array of content blocks',
    }),
  }),
});

/**
 * A line that belongs to a Claude Code session log. Claude Code adds line types across versions
 * (queue-operation, progress, custom-title…): any typed line with the session's ids belongs.
 */
function isSessionLine(value: unknown): boolean {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  if (value.type === 'summary') return 'summary' in value;
  if (value.type === 'file-history-snapshot') return 'snapshot' in value || 'messageId' in value;
  return 'uuid' in value || 'sessionId' in value;
}

function isChatLine(value: unknown): value is Obj & { message: { content: unknown } } {
  const type = typeOf(value);
  if (type !== 'user' && type !== 'assistant') return false;
  const message = (value as Obj).message;
  return isObject(message) && typeof message.role === 'string' && (typeof message.content === 'string' || validBlocks(message.content));
}

function validBlocks(content: unknown): boolean {
  return Array.isArray(content) && content.every((b) => isObject(b) && typeof b.type === 'string');
}

function blockText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((b) => (isObject(b) ? (typeof b.text === 'string' ? b.text : `[${String(b.type ?? 'block')}]`) : String(b))).join('\n');
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** Text Claude Code writes on the user side that the user did not type as a prompt. */
const NOT_A_PROMPT =
  /^\s*(<command-name>|<command-message>|<local-command-stdout>|<local-command-stderr>|<bash-input>|<bash-stdout>|Caveat: |\[Request interrupted)/;

interface ChatReading {
  message: Message;
  /** A prompt the user typed: the query candidate. */
  prompt: boolean;
}

function readChatLine(line: Obj, position: number): ChatReading {
  const raw = line.message as Obj;
  const content = raw.content as string | Obj[];
  const assistant = line.type === 'assistant';
  const message: Message = { position, role: assistant ? 'assistant' : 'user', content: '', toolCalls: [] };
  const blocks: Obj[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const results = blocks.filter((b) => b.type === 'tool_result');
  const texts: string[] = [];
  const thinking: string[] = [];
  for (const b of blocks) {
    if (b.type === 'text') texts.push(blockText(b.text));
    else if (b.type === 'thinking') thinking.push(blockText(b.thinking));
    else if (b.type === 'redacted_thinking') thinking.push('[redacted thinking]');
    else if (b.type === 'tool_use' || b.type === 'server_tool_use')
      message.toolCalls.push(toolCallFromRaw(String(b.name ?? 'tool'), b.input ?? {}, typeof b.id === 'string' ? b.id : undefined));
    else if (b.type === 'tool_result') {
      const body = blockText(b.content);
      texts.push(results.length > 1 ? `[result of ${String(b.tool_use_id)}]\n${body}` : body);
      if (b.is_error === true) message.isError = true;
    } else texts.push(`[${b.type}]`);
  }
  message.content = texts.join('\n');
  if (thinking.length) message.reasoning = thinking.join('\n');
  const onlyResults = !assistant && results.length > 0 && results.length === blocks.length;
  if (onlyResults) {
    message.role = 'tool';
    if (typeof results[0].tool_use_id === 'string') message.toolCallId = results[0].tool_use_id;
  }
  const meta = line.isMeta === true;
  // Injected context (caveats, skill texts) is the harness speaking, not the user.
  if (meta && !onlyResults) message.role = 'system';
  if (line.isSidechain === true) message.agent = typeof line.agentId === 'string' ? `sidechain ${line.agentId}` : 'sidechain';
  else if (meta) message.agent = 'meta';
  const prompt = message.role === 'user' && !NOT_A_PROMPT.test(message.content) && message.content.trim() !== '';
  if (message.role === 'user' && NOT_A_PROMPT.test(message.content)) message.agent ??= 'command';
  return { message, prompt };
}

/** The one-line text of a line that is not a chat message. */
function otherLineText(line: Obj): { content: string; agent: string } {
  const type = String(line.type ?? 'entry');
  if (type === 'summary') return { content: `Summary: ${blockText(line.summary)}`, agent: 'summary' };
  if (type === 'system') {
    const what = typeof line.subtype === 'string' ? ` (${line.subtype})` : '';
    return { content: `[system${what}] ${shortText(blockText(line.content))}`.trim(), agent: 'system' };
  }
  if (type === 'file-history-snapshot') {
    const snapshot = isObject(line.snapshot) ? line.snapshot : {};
    const files = isObject(snapshot.trackedFileBackups) ? Object.keys(snapshot.trackedFileBackups).length : 0;
    return { content: `[file history snapshot: ${files} tracked file${files === 1 ? '' : 's'}]`, agent: 'file-history' };
  }
  const text = ['content', 'summary', 'title', 'operation'].map((k) => line[k]).find((v) => typeof v === 'string') as string | undefined;
  return { content: `[${type}]${text ? ' ' + shortText(text) : ''}`, agent: type };
}

export function loadClaudeCodeLines(values: unknown[], lineNumbers: number[], source: SourceText): LinesRecord[] {
  return linesThrough(claudeCodeLineReader(source, false), values, lineNumbers);
}

const sessionLineSchema = z.looseObject({
  type: z.string({ message: 'expected a line `type` (user, assistant, summary, system…)' }),
  uuid: z.string({ message: 'expected the line `uuid` as a string' }),
});

/**
 * Reads a session line by line. `strict`: a line that is not a session line is refused by its
 * number (the pipeline reads past the lines detection looked at); else it is shown as an entry.
 */
function claudeCodeLineReader(source: SourceText, strict: boolean): LineReader {
  const messages: Message[] = [];
  let firstLine: number | undefined;
  const metadata: Obj = {};
  const models = new Set<string>();
  const summaries: string[] = [];
  const usage: Record<string, number> = {};
  const usageCounted = new Set<string>();
  let query: string | undefined;
  let sidechainLines = 0;
  let chatLines = 0;
  let sidechainQuery: string | undefined;
  const read = (value: unknown, lineNumber: number): void => {
    firstLine ??= lineNumber;
    const position = messages.length;
    if (strict && !isSessionLine(value)) refuseLine(sessionLineSchema, value, source, lineNumber, 'a Claude Code session line; format claude-code');
    const line = isObject(value) ? value : {};
    for (const key of ['sessionId', 'cwd', 'version', 'gitBranch', 'slug'] as const)
      if (metadata[key] === undefined && typeof line[key] === 'string') metadata[key] = line[key];
    if (line.type === 'user' || line.type === 'assistant') {
      if (!isChatLine(line)) refuseLine(chatLineSchema, value, source, lineNumber, 'a Claude Code chat line; format claude-code');
      const { message, prompt } = readChatLine(line, position);
      chatLines++;
      if (line.isSidechain === true) {
        sidechainLines++;
        if (prompt) sidechainQuery ??= message.content;
      } else if (prompt) query ??= message.content;
      const raw = line.message as Obj;
      if (typeof raw.model === 'string' && raw.model !== '<synthetic>') models.add(raw.model);
      // Claude Code writes each content block of one response on its own line with the same usage.
      const usageKey = typeof raw.id === 'string' ? raw.id : `line ${position}`;
      if (isObject(raw.usage) && !usageCounted.has(usageKey)) {
        usageCounted.add(usageKey);
        for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']) addTo(usage, key, raw.usage[key]);
      }
      messages.push(message);
      return;
    }
    if (line.type === 'summary' && typeof line.summary === 'string') summaries.push(line.summary);
    const { content, agent } = isObject(value) ? otherLineText(line) : { content: shortText(JSON.stringify(value)), agent: 'entry' };
    messages.push({ position, role: 'system', agent, content, toolCalls: NO_TOOL_CALLS });
  };
  const finish = (): LinesRecord[] => {
    linkToolReturns(messages);
    if (models.size) metadata.model = [...models].join(', ');
    if (summaries.length) metadata.summaries = summaries;
    if (Object.keys(usage).length) metadata.usage = usage;
    if (sidechainLines) metadata.sidechainMessages = sidechainLines;
    // A subagent's own file (subagents/agent-<id>.jsonl) is all sidechain: its task is the query.
    if (sidechainLines === chatLines) query ??= sidechainQuery;
    // One file is one trajectory: its record id is "0" as for any single-trajectory file (the session id is in metadata).
    const id = '0';
    const trajectory = finishTrajectory({ format: 'claude-code', id, messages, metadata, ...(query !== undefined ? { query } : {}) });
    // The query is the first typed prompt; without one, no command or caveat line stands in for it.
    if (query === undefined) delete trajectory.query;
    return [{ id, trajectory, line: firstLine ?? 1 }];
  };
  return { read, finish };
}

function detectClaudeCodeLines(values: unknown[]): FormatMatch | undefined {
  // One pass over the lines, no filtered copy (every detect runs on every JSONL file): the first
  // foreign line, and whether any line is a session line at all.
  if (values.length === 0) return undefined;
  const foreign = firstFailing(values, isSessionLine);
  if (foreign === 0 && !values.some(isSessionLine)) return undefined;
  const reason = `JSONL lines with \`type\`, \`uuid\`, \`parentUuid\` and \`sessionId\` (Claude Code session)`;
  if (foreign !== -1)
    return {
      score: 0.4,
      reason,
      missing: [`the session line shape (type user/assistant/summary/system… with uuid and sessionId) on JSON line ${foreign + 1}`],
    };
  if (!values.some((v) => typeOf(v) === 'user' || typeOf(v) === 'assistant'))
    return { score: 0.4, reason, missing: ['user or assistant lines with `message`'] };
  return { score: 0.95, reason };
}

export const claudeCodeReader: TrajectoryReader = {
  id: 'claude-code',
  label: 'Claude Code session',
  // One JSON value is never a whole session (a session is the lines of a file together).
  detect: () => undefined,
  load(value, source, id) {
    const lines = Array.isArray(value) ? value : [value];
    const first = (source.lineOffset ?? 0) + 1;
    const [record] = loadClaudeCodeLines(
      lines,
      lines.map((_, i) => first + i),
      source,
    );
    return { ...record.trajectory, id };
  },
  detectLines: detectClaudeCodeLines,
  lineReader: (source) => claudeCodeLineReader(source, true),
  loadLines: loadClaudeCodeLines,
};
