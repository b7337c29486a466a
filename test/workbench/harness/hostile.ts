// Files the workbench tests write into their temporary workspace: a hostile trajectory (markup,
// script, javascript:/data: links, SVG onload, CSS, bidi and zero-width tricks, a 1 MB single line)
// plus a sidecar whose annotation and audit are hostile too, and a trajectory whose FILE NAME is
// markup. Generated, not checked in: the payloads would trip every scanner that reads the tree.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Positions of the messages that carry each kind of payload. */
export interface HostilePositions {
  user: number;
  firstDecision: number;
  searchReturn: number;
  visitDecision: number;
  bigLine: number;
  invalidArgs: number;
  cssReturn: number;
  longCall: number;
  svgReturn: number;
  bidi: number;
  bidiReturn: number;
  final: number;
}

export interface HostileTrajectory {
  file: string;
  sidecarFile: string;
  positions: HostilePositions;
  messageCount: number;
}

/** Every payload sets this global (in its own window and, if it can, in the workbench's). */
export const PWNED_FLAG = '__pwned';
const JS = `window.${PWNED_FLAG}=1;try{top.${PWNED_FLAG}=1;parent.${PWNED_FLAG}=1}catch(e){};alert(1)`;

export const HOSTILE = [
  `<img src=x onerror="${JS}">`,
  `<script>${JS}</script>`,
  `</script><script nonce="">${JS}</script>`,
  `<a href="javascript:${JS}">click me (javascript: link)</a>`,
  `[markdown link](javascript:${JS})`,
  '<a href="data:text/html;base64,PHNjcmlwdD50b3AuX19wd25lZD0xPC9zY3JpcHQ+">open data: link</a>',
  `![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9InRvcC5fX3B3bmVkPTEiLz4=)`,
  `<svg onload="${JS}"><circle r="40"/></svg>`,
  `<svg><script>${JS}</script></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${JS}">`,
  `<iframe srcdoc="<script>${JS}</script>"></iframe>`,
  `<object data="javascript:${JS}"></object><embed src="javascript:${JS}">`,
  '<style>body{display:none!important}*{color:red!important;font-size:64px!important}</style>',
  '<div style="position:fixed;inset:0;z-index:99999;background:red;width:5000px">OVERLAY</div>',
  '<link rel="stylesheet" href="https://evil.example/x.css"><meta http-equiv="refresh" content="0;url=javascript:top.__pwned=1">',
  '<base href="javascript:top.__pwned=1//">',
  `<details open ontoggle="${JS}">x</details><video><source onerror="${JS}"></video>`,
  `<input autofocus onfocus="${JS}">`,
  `{{constructor.constructor('${JS}')()}} \${alert(1)} <%= alert(1) %>`,
  `"><img src=x onerror=${JS}>`,
  `' onmouseover='${JS}' x='`,
  'Bidi: the price is \u202E0001$\u202C; user\u200B\u200Bname; \u2066isolated\u2069; BOM\uFEFF; RLM\u200F; ALM\u061C; soft\u00ADhyphen.',
  'Trojan source: if (isAdmin) { \u202E } \u2066 // check later \u2069 { grant(); }',
];

const ALL_HOSTILE = HOSTILE.join('\n');

/** A single line of about `bytes` characters, no newline, with a findable token every ~8 KB. */
export function oneMegabyteLine(bytes = 1_048_576): string {
  const unit = 'NEEDLE-1MB ';
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(230); // ~8 KB
  let line = '';
  while (line.length < bytes) line += unit + filler;
  return `BEGIN-1MB-LINE ${line.slice(0, bytes)} END-1MB-LINE`;
}

/**
 * The hostile trajectory (OpenAI chat format). Positions: 0 system, 1 user, then pairs of
 * (assistant decision step, tool return); the final answer last. Returns the path, the
 * message positions that hold each kind of payload, and the sidecar path.
 */
export function writeHostileTrajectory(folder: string, name = 'hostile.traj.json'): HostileTrajectory {
  mkdirSync(folder, { recursive: true });
  const messages: Record<string, unknown>[] = [];
  const push = (m: Record<string, unknown>): number => messages.push(m) - 1;
  const call = (id: string, fn: string, args: unknown) => ({
    id,
    type: 'function',
    function: { name: fn, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  });
  const positions = {} as HostilePositions;
  push({ role: 'system', content: `You are a research agent.\n${ALL_HOSTILE}` });
  positions.user = push({ role: 'user', content: `Who wrote the libretto? ${HOSTILE[0]} ${HOSTILE[7]}` });
  positions.firstDecision = push({
    role: 'assistant',
    content: HOSTILE[1],
    reasoning_content: `Let me search. ${HOSTILE[3]} ${HOSTILE[21]}`,
    tool_calls: [call('c1', 'search', { query: [HOSTILE[0], HOSTILE[7], 'chamber opera libretto'] })],
  });
  positions.searchReturn = push({ role: 'tool', tool_call_id: 'c1', name: 'search', content: `## Results\n${ALL_HOSTILE}\n1. [Programme](javascript:${JS})` });
  positions.visitDecision = push({
    role: 'assistant',
    content: '',
    reasoning_content: `Open the page. ${HOSTILE[12]}`,
    tool_calls: [call('c2', 'visit', { url: [`javascript:${JS}`, 'data:text/html,<script>top.__pwned=1</script>'], goal: HOSTILE[13] })],
  });
  positions.bigLine = push({ role: 'tool', tool_call_id: 'c2', name: 'visit', content: oneMegabyteLine() });
  positions.invalidArgs = push({
    role: 'assistant',
    content: HOSTILE[2],
    tool_calls: [call('c3', 'search', `{"query": ["</script><script>${JS}</script>", }`)],
  });
  positions.cssReturn = push({ role: 'tool', tool_call_id: 'c3', name: 'search', content: `${HOSTILE[12]}\n${HOSTILE[13]}\n${HOSTILE[14]}\n${HOSTILE[15]}` });
  positions.longCall = push({
    role: 'assistant',
    content: `${HOSTILE[21]}\n${HOSTILE[22]}`,
    // A 200 KB single-line argument: the row's call summary must not widen the layout.
    tool_calls: [call('c4', 'search', { query: ['W'.repeat(200_000)] })],
  });
  positions.svgReturn = push({
    role: 'tool',
    tool_call_id: 'c4',
    name: 'search',
    content: HOSTILE.slice(7, 12).join('\n') + '\n' + HOSTILE.slice(16, 21).join('\n'),
  });
  positions.bidi = push({
    role: 'assistant',
    content: HOSTILE[21],
    reasoning_content: HOSTILE[22],
    tool_calls: [call('c5', 'search', { query: ['bidi \u202Egnirts\u202C'] })],
  });
  positions.bidiReturn = push({ role: 'tool', tool_call_id: 'c5', name: 'search', content: `${HOSTILE[21]}\n${HOSTILE[22]}` });
  positions.final = push({ role: 'assistant', content: `Final answer: ${HOSTILE[0]}`, reasoning_content: HOSTILE[1] });
  const doc = { model: `<img src=x onerror="${JS}">`, messages, predicted_answer: `${HOSTILE[0]} ${HOSTILE[19]}` };
  const file = join(folder, name);
  const text = `${JSON.stringify(doc, null, 1)}\n`;
  writeFileSync(file, text);

  // A sidecar with hostile annotation and audit text (the right-hand panel renders it).
  const sidecar = {
    schema: 'trajaudit.audit/v1',
    trajectory: { file: name, sha256: createHash('sha256').update(text).digest('hex'), format: 'openai-chat' },
    records: {
      0: {
        annotation: {
          criticalStep: positions.visitDecision,
          toleranceSpan: [positions.firstDecision, positions.visitDecision],
          rootCause: 'unverified_source_reliance',
          rationale: ALL_HOSTILE,
          repairDirective: HOSTILE[3],
          repairRubrics: [HOSTILE[0], HOSTILE[7]],
          annotator: HOSTILE[19],
          updatedAt: '2026-11-01T00:00:00Z',
        },
        audits: [
          {
            id: 'hostile-audit',
            method: HOSTILE[1],
            provider: HOSTILE[0],
            model: HOSTILE[7],
            createdAt: '2026-11-02T00:00:00Z',
            diagnosis: {
              criticalStep: positions.firstDecision,
              rootCause: 'constraint_neglect',
              rationale: ALL_HOSTILE,
              citedSteps: [positions.firstDecision, positions.searchReturn],
            },
            repair: { directives: [HOSTILE[3], HOSTILE[10]] },
            branches: [{ name: HOSTILE[7], criticalStep: positions.firstDecision, rootCause: 'constraint_neglect', rationale: HOSTILE[0], notes: HOSTILE[12] }],
            adjudication: { disagreements: HOSTILE[1], clusters: [[positions.firstDecision]] },
          },
        ],
      },
    },
  };
  const sidecarFile = `${file}.audit.json`;
  writeFileSync(sidecarFile, `${JSON.stringify(sidecar, null, 2)}\n`);
  return { file, sidecarFile, positions, messageCount: messages.length };
}

/** A small valid trajectory whose file name is markup (header, title and tab must show it as text). */
export const HOSTILE_FILE_NAME = `"><img src=x onerror=alert(1)> '-svg onload=alert(1).traj.json`;
export function writeHostileNamedTrajectory(folder: string): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, HOSTILE_FILE_NAME);
  writeFileSync(
    file,
    JSON.stringify({
      messages: [
        { role: 'user', content: 'Which file is this?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"query":["file name"]}' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'A result.' },
        { role: 'assistant', content: 'Final answer: this one.' },
      ],
    }),
  );
  return file;
}
