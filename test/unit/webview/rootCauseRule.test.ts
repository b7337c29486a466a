import { strict as assert } from 'node:assert';
import { causeVerdict, stepVerdict } from '../../../src/core/audit/verdicts';
import { ROOT_CAUSE_DEFINITIONS, ROOT_CAUSE_LABELS, ROOT_CAUSES as CORE_IDS } from '../../../src/core/model/rootCauses';
import { auditSchema } from '../../../src/core/sidecar/schema';
import { disagrees } from '../../../src/core/view/recordView';
import { ROOT_CAUSES, rootCauseInfo, rootCauseLabel } from '../../../webview/src/editor/taxonomy';

describe('root causes: one list, one normalization, one verdict for host and webview', () => {
  it('the webview shows the core ids, labels and definitions, in the core order (the 1–6 shortcuts)', () => {
    assert.deepEqual(
      ROOT_CAUSES.map((r) => r.id),
      [...CORE_IDS],
    );
    for (const r of ROOT_CAUSES) {
      assert.equal(r.label, ROOT_CAUSE_LABELS[r.id]);
      assert.equal(r.definition, ROOT_CAUSE_DEFINITIONS[r.id]);
      assert.ok(r.definition.startsWith(r.criterion) && r.criterion.endsWith('.'), r.id);
    }
    assert.equal(rootCauseInfo('constraint_neglect')?.label, 'Constraint Neglect');
  });

  it('labels read display names as the core does, and show a value outside the taxonomy as given', () => {
    assert.equal(rootCauseLabel('entity relation misbinding'), 'Entity–Relation Misbinding');
    assert.equal(rootCauseLabel(' Unsupported answer. '), 'Unsupported Answer');
    assert.equal(rootCauseLabel('tool_misuse'), 'tool_misuse');
    assert.equal(rootCauseLabel(null), '—');
  });

  it('compares causes by id, unknown values as given, and steps against the span', () => {
    assert.equal(causeVerdict('Entity-Relation Misbinding', 'entity_relation_misbinding'), 'agree');
    assert.equal(causeVerdict('tool_misuse', 'tool_misuse'), 'agree');
    assert.equal(causeVerdict('tool_misuse', 'constraint_neglect'), 'disagree');
    assert.equal(causeVerdict(null, 'constraint_neglect'), 'missing');
    assert.equal(stepVerdict(4, 4, null), 'exact');
    assert.equal(stepVerdict(5, 4, [3, 6]), 'within span');
    assert.equal(stepVerdict(7, 4, [3, 6]), 'outside span');
    assert.equal(stepVerdict(undefined, 4, [3, 6]), 'missing');
  });

  it('the record list flags disagreement exactly when the panel verdicts say outside span or cause differs', () => {
    const audit = (criticalStep: number, rootCause: 'constraint_neglect' | 'search_coverage_gap') => [
      { id: 'a', method: 'm', createdAt: '2026-01-01T00:00Z', diagnosis: { criticalStep, rootCause } },
    ];
    assert.equal(disagrees({ criticalStep: 4, toleranceSpan: [3, 6], rootCause: 'constraint_neglect' }, audit(6, 'constraint_neglect')), false);
    assert.equal(disagrees({ criticalStep: 4, toleranceSpan: [3, 6], rootCause: 'constraint_neglect' }, audit(7, 'constraint_neglect')), true);
    assert.equal(disagrees({ criticalStep: 4, rootCause: 'constraint_neglect' }, audit(5, 'constraint_neglect')), true);
    assert.equal(disagrees({ criticalStep: 4, rootCause: 'constraint_neglect' }, audit(4, 'search_coverage_gap')), true);
  });

  it('the sidecar schema reads the branch and adjudication fields the audit panel shows, and rejects ill-typed ones', () => {
    const audit = {
      id: 'a',
      method: 'searchauditor',
      branches: [{ name: 'holistic', criticalStep: 3, rootCause: 'Constraint Neglect', rationale: 'r', notes: 'n' }],
      adjudication: { disagreements: 'd', clusters: [[1, 3], [7]] },
    };
    const read = auditSchema.parse(audit);
    assert.equal(read.branches?.[0].rootCause, 'constraint_neglect');
    assert.deepEqual(read.adjudication?.clusters, [[1, 3], [7]]);
    const badNotes = auditSchema.safeParse({ ...audit, branches: [{ name: 'holistic', notes: 5 }] });
    assert.deepEqual(badNotes.success ? null : badNotes.error.issues[0].path, ['branches', 0, 'notes']);
    const badClusters = auditSchema.safeParse({ ...audit, adjudication: { clusters: [['x']] } });
    assert.deepEqual(badClusters.success ? null : badClusters.error.issues[0].path, ['adjudication', 'clusters', 0, 0]);
  });
});
