import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { heuristicAudit, heuristicSignals, searchAgentAudit } from '../../../src/core/audit/heuristic';
import { balancedFitCases, readAnnotatedCases } from '../../../src/core/audit/heuristic/corpus';
import { FEATURES, fitWeights, rankSuspects, type Weights } from '../../../src/core/audit/heuristic/rank';
import { HEURISTIC_WEIGHTS } from '../../../src/core/audit/heuristic/weights';
import { MAX_SUSPECTS, runHeuristicAudit } from '../../../src/core/audit/runAudit';
import type { SignalId, StepSignals } from '../../../src/core/audit/signals/stepSignals';
import { claimsIn, messageText } from '../../../src/core/audit/signals/text';
import { loadWhoAndWhen } from '../../../src/core/formats/whoAndWhen';
import { loadFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { auditSchema } from '../../../src/core/sidecar/schema';

const repo = join(__dirname, '..', '..', '..');
const whoAndWhen = join(repo, '..', 'shared', 'data', 'who-and-when');

/** A Who&When-shaped trace (history of {role, name, content}) read by the real reader. */
function trace(history: { role: string; name?: string; content: string }[], extra: Record<string, unknown> = {}): Trajectory {
  const value = { question: 'How many clients get the sunset awning?', history, ...extra };
  return loadWhoAndWhen(value, { file: 'inline.json', text: JSON.stringify(value) }, '0');
}

function signalsAt(t: Trajectory, step: number): SignalId[] {
  return heuristicSignals(t)
    .steps.find((s) => s.step === step)!
    .hits.map((h) => h.id);
}

function evidenceOf(t: Trajectory, step: number, id: SignalId) {
  return heuristicSignals(t)
    .steps.find((s) => s.step === step)!
    .hits.find((h) => h.id === id)!.evidence;
}

/** Every evidence quote is non-empty and really is in the message it names. */
function assertEvidenceIsWhereItSays(t: Trajectory, suspects: { step: number; evidence: { step: number; quote: string }[] }[], label: string) {
  for (const s of suspects) {
    assert.ok(t.decisionSteps.includes(s.step), `${label}: suspect ${s.step} is a decision step`);
    assert.ok(s.evidence.length > 0, `${label}: suspect ${s.step} names evidence`);
    for (const e of s.evidence) {
      assert.ok(Number.isInteger(e.step) && e.step >= 0 && e.step < t.messages.length, `${label}: evidence position ${e.step} is in the trajectory`);
      assert.ok(e.quote.length > 0, `${label}: evidence at ${e.step} has a quote`);
      assert.ok(messageText(t.messages[e.step]).includes(e.quote), `${label}: ${JSON.stringify(e.quote)} is in message ${e.step}`);
    }
  }
}

const coder = (content: string) => ({ role: 'user', name: 'Excel_Expert', content });
const terminal = (content: string) => ({ role: 'user', name: 'Computer_terminal', content });

describe('heuristic auditor: signals', () => {
  it('a failed execution marks the step that issued the code, and the next step that ignores it', () => {
    const t = trace([
      { role: 'assistant', name: 'Excel_Expert', content: 'Plan: load the sheet.\n```python\nimport pandas as pd\nprint(pd.read_excel("clients.xlsx"))\n```' },
      terminal('exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\nFileNotFoundError: clients.xlsx'),
      { role: 'user', name: 'Verification_Expert', content: 'The count looks right, so the answer is 4.' },
    ]);
    assert.ok(signalsAt(t, 0).includes('tool_error'));
    assert.deepEqual(evidenceOf(t, 0, 'tool_error')[0].step, 1);
    assert.match(evidenceOf(t, 0, 'tool_error')[0].quote, /exitcode: 1/);
    assert.ok(signalsAt(t, 1).includes('executor_output'));
    assert.ok(signalsAt(t, 2).includes('ignored_error'));
    // A reply that names the failure does not ignore it.
    const acknowledged = trace([
      ...t.messages.slice(0, 2).map(toSource),
      { role: 'user', name: 'Verification_Expert', content: 'The file was not found; fix the path and rerun.' },
    ]);
    assert.ok(!signalsAt(acknowledged, 2).includes('ignored_error'));
    assert.ok(signalsAt(acknowledged, 2).includes('after_error'));
  });

  it('simulated or assumed data is fabrication; a claim no earlier message contains is unsupported', () => {
    const t = trace([
      coder('The sheet lists 12 clients at odd addresses.'),
      { role: 'user', name: 'Statistics_Expert', content: 'Since the download times out, we will simulate the data: Red numbers 12.5, 15.0 and 1928.' },
      { role: 'user', name: 'Verification_Expert', content: 'Confirmed: 12 clients.' },
    ]);
    assert.ok(signalsAt(t, 1).includes('fabrication'));
    assert.match(evidenceOf(t, 1, 'fabrication')[0].quote, /simulate the data/);
    assert.ok(signalsAt(t, 1).includes('unsupported_claims'));
    assert.ok(evidenceOf(t, 1, 'unsupported_claims').some((e) => e.quote === '1928'));
    // "12" was said at step 0: step 2 repeats it, it does not introduce it.
    assert.ok(!signalsAt(t, 2).includes('unsupported_claims'));
  });

  it('claims: numbers, URLs, file paths and multi-word names, at their index', () => {
    const text = 'See https://example.org/a.html and ./data/clients.xlsx: 1,234 people at New York Stock Exchange in 1928.';
    const claims = claimsIn(text);
    for (const c of claims) assert.equal(text.slice(c.index, c.index + c.text.length), c.text);
    assert.deepEqual(
      claims.map((c) => `${c.kind}:${c.key}`),
      ['url:https://example.org/a.html', 'path:./data/clients.xlsx', 'number:1234', 'number:1928', 'entity:new york stock exchange'],
    );
  });

  it('an instruction to an agent answered with little of what it asked; the same action again is a loop', () => {
    const t = trace(
      [
        { role: 'human', content: 'Where can I take martial arts classes near the New York Stock Exchange?' },
        { role: 'Orchestrator (-> WebSurfer)', content: 'Please search for martial arts schools near the New York Stock Exchange and list their addresses.' },
        { role: 'WebSurfer', content: "I typed 'martial arts schools near New York Stock Exchange' into the search box. Addresses listed." },
        { role: 'Orchestrator (-> WebSurfer)', content: 'Please open the Renzo Gracie Wall Street page and note its class schedule for weekday evenings.' },
        { role: 'WebSurfer', content: 'I clicked the Keyence laser microscope advertisement.' },
        { role: 'WebSurfer', content: 'I clicked the Keyence laser microscope advertisement.' },
      ],
      {},
    );
    assert.ok(signalsAt(t, 2).includes('answers_instruction'));
    assert.ok(!signalsAt(t, 2).includes('instruction_not_followed'));
    assert.ok(signalsAt(t, 4).includes('instruction_not_followed'));
    assert.deepEqual(
      evidenceOf(t, 4, 'instruction_not_followed').map((e) => e.step),
      [3, 4],
    );
    assert.ok(signalsAt(t, 5).includes('repeated_action'));
    assert.deepEqual(
      evidenceOf(t, 5, 'repeated_action').map((e) => e.step),
      [4, 5],
    );
  });

  it('where the FINAL ANSWER first appears, and whether anything earlier contained it', () => {
    const t = trace([
      coder('Reading the sheet.'),
      terminal('exitcode: 0 (execution succeeded)\nCode output: 4'),
      { role: 'user', name: 'BusinessLogic_Expert', content: 'So the sunset design goes to 7 clients.' },
      { role: 'user', name: 'Verification_Expert', content: 'FINAL ANSWER: 7' },
    ]);
    assert.ok(signalsAt(t, 2).includes('answer_first_stated'));
    assert.ok(signalsAt(t, 2).includes('answer_unsupported'));
    assert.equal(evidenceOf(t, 2, 'answer_first_stated')[0].quote, '7');
    const supported = trace([toSource(t.messages[0]), terminal('exitcode: 0 (execution succeeded)\nCode output: 7'), ...t.messages.slice(2).map(toSource)]);
    assert.ok(signalsAt(supported, 2).includes('answer_first_stated'));
    assert.deepEqual(
      evidenceOf(supported, 2, 'answer_first_stated').map((e) => [e.step, e.quote]),
      [
        [2, '7'],
        [1, '7'],
      ],
      'the statement and the tool return it came from',
    );
    assert.ok(!signalsAt(supported, 2).includes('answer_unsupported'));
  });
});

describe('heuristic auditor: ranking and fitting', () => {
  const step = (position: number, ordinal: number, count: number, ids: SignalId[]): StepSignals => ({
    step: position,
    ordinal,
    count,
    opening: `step ${position}`,
    agent: `agent${position % 2}`,
    hits: ids.map((id) => ({ id, value: 1, evidence: [{ step: position, quote: `step ${position}` }] })),
  });

  it('fitting learns a positive weight for a signal that marks the annotated step, and ranks by it', () => {
    const cases = Array.from({ length: 30 }, (_, i) => {
      const gold = i % 5;
      return { steps: [0, 1, 2, 3, 4].map((p) => step(p, p, 5, p === gold ? ['fabrication'] : p === (gold + 2) % 5 ? ['termination'] : [])), gold };
    });
    const weights = fitWeights(cases);
    assert.ok(weights.fabrication > 1, `fabrication weight ${weights.fabrication}`);
    assert.ok(weights.termination < 0, `termination weight ${weights.termination}`);
    const ranked = rankSuspects([step(0, 0, 3, []), step(1, 1, 3, ['fabrication']), step(2, 2, 3, [])], weights);
    assert.equal(ranked[0].step, 1);
    assert.deepEqual(ranked[0].signals, ['fabrication']);
    assert.ok(Math.abs(ranked.reduce((s, x) => s + x.score, 0) - 1) < 0.01, 'scores are a distribution over the steps');
  });

  it('the shipped weights are the fit on all annotated traces (npm run eval:heuristic -- --fit regenerates them)', function () {
    if (!existsSync(whoAndWhen)) this.skip();
    this.timeout(120000);
    const cases = readAnnotatedCases([whoAndWhen, join(repo, 'samples', 'trajectories')], repo);
    assert.equal(cases.filter((c) => c.subset.startsWith('Who&When')).length, 184);
    const fitted = fitWeights(balancedFitCases(cases));
    for (const f of FEATURES) assert.ok(Math.abs(fitted[f] - HEURISTIC_WEIGHTS[f]) <= 0.002, `${f}: shipped ${HEURISTIC_WEIGHTS[f]}, fitted ${fitted[f]}`);
  });

  it('the top suspect is the diagnosis; its signals give the root cause; the audit validates against the sidecar schema', () => {
    const t = trace([
      coder('Loading the sheet.\n```python\nprint(1)\n```'),
      terminal('exitcode: 0 (execution succeeded)\nCode output: 1'),
      {
        role: 'user',
        name: 'Statistics_Expert',
        content: 'The file is unreadable, so we will simulate the data with typical values: 14 even addresses, 9 odd.',
      },
      terminal('exitcode: 0 (execution succeeded)\nCode output: 14'),
      { role: 'user', name: 'Verification_Expert', content: 'TERMINATE' },
    ]);
    const weights = { ...zeroWeights(), fabrication: 3, unsupported_claims: 1, termination: -2 };
    const finding = heuristicAudit(t, {}, weights);
    assert.equal(finding.criticalStep, 2);
    assert.equal(finding.suspects[0].step, 2);
    assert.equal(finding.rootCause, 'unsupported_answer');
    assert.match(finding.rationale, /Statistics_Expert at step 2/);
    assertEvidenceIsWhereItSays(t, finding.suspects, 'fixture');
    const audit = runHeuristicAudit(t);
    assert.ok(audit.suspects && audit.suspects.length <= MAX_SUSPECTS && audit.suspects[0].step === audit.diagnosis.criticalStep);
    assert.equal(auditSchema.safeParse(audit).success, true);
    const broken = { ...audit, suspects: [{ ...audit.suspects[0], score: 2 }] };
    const parsed = auditSchema.safeParse(broken);
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error!.issues[0].path, ['suspects', 0, 'score']);
  });
});

describe('heuristic auditor: evidence is where it says, on real traces', function () {
  this.timeout(120000);

  it('every suspect of every search-agent sample (samples/trajectories)', () => {
    let records = 0;
    for (const e of readdirSync(join(repo, 'samples', 'trajectories'), { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !/\.traj\.jsonl?$/.test(e.name)) continue;
      for (const record of loadFile(join(e.parentPath, e.name)).records.filter(isTrajectoryRecord)) {
        const finding = heuristicAudit(record.trajectory);
        assert.equal(finding.suspects[0].step, finding.criticalStep);
        assertEvidenceIsWhereItSays(record.trajectory, finding.suspects, `${e.name}#${record.id}`);
        records++;
      }
    }
    assert.ok(records >= 6, `${records} sample records`);
  });

  it('on the annotated search-agent samples, every case heuristic/v1 placed in the tolerance span stays there, with its root cause', () => {
    const cases = readAnnotatedCases([join(repo, 'samples', 'trajectories')], repo);
    assert.ok(cases.length >= 9, `${cases.length} annotated samples`);
    let kept = 0;
    for (const c of cases) {
      const span = c.span ?? [c.gold, c.gold];
      const v1 = searchAgentAudit(c.t);
      if (v1.criticalStep < span[0] || v1.criticalStep > span[1]) continue;
      const v2 = heuristicAudit(c.t);
      assert.ok(v2.criticalStep >= span[0] && v2.criticalStep <= span[1], `${c.id}: v1 ${v1.criticalStep} in [${span}], v2 ${v2.criticalStep}`);
      assert.equal(v2.rootCause, v1.rootCause, c.id);
      kept++;
    }
    assert.ok(kept >= 4, `${kept} cases in span`);
  });

  it('every suspect of all 184 Who&When traces (../shared/data/who-and-when)', function () {
    if (!existsSync(whoAndWhen)) this.skip();
    let traces = 0;
    for (const subset of ['Algorithm-Generated', 'Hand-Crafted']) {
      for (const name of readdirSync(join(whoAndWhen, subset))) {
        const file = join(whoAndWhen, subset, name);
        const text = readFileSync(file, 'utf8');
        const t = loadWhoAndWhen(JSON.parse(text), { file, text }, '0');
        assertEvidenceIsWhereItSays(t, heuristicAudit(t).suspects, `${subset}/${name}`);
        traces++;
      }
    }
    assert.equal(traces, 184);
  });
});

describe('heuristic auditor: a 5,000-message trajectory', () => {
  it('is audited in well under the 2 s target (generous bound: the eval script reports the timing)', function () {
    this.timeout(60000);
    const history: { role: string; name?: string; content: string }[] = [{ role: 'human', content: 'Find the 1912 stadium architect.' }];
    for (let i = 1; i < 5000; i++) {
      history.push(
        i % 2
          ? { role: 'Orchestrator (-> WebSurfer)', content: `Please open result ${i} about the Stockholm Olympic Stadium and note the architect.` }
          : {
              role: 'WebSurfer',
              content: `I clicked 'Result ${i}'. The page says Torben Grut designed the stadium in 1912; see https://example.org/${i}.html`,
            },
      );
    }
    const t = trace(history);
    const started = Date.now();
    const finding = heuristicAudit(t);
    assert.ok(Date.now() - started < 20000);
    assert.equal(finding.suspects.length, t.decisionSteps.length);
    assert.ok(finding.suspects.every((s, i) => i === 0 || s.score <= finding.suspects[i - 1].score));
  });
});

function zeroWeights(): Weights {
  return Object.fromEntries(FEATURES.map((f) => [f, 0])) as Weights;
}

/** A loaded message back in Who&When's source shape (to build a variant of a fixture). */
function toSource(m: { role: string; agent?: string; content: string }): { role: string; name?: string; content: string } {
  if (m.role === 'user') return { role: m.agent ?? 'human', content: m.content };
  return { role: 'user', name: m.agent, content: m.content };
}
