import { strict as assert } from 'node:assert';
import { ROOT_CAUSES as ROOT_CAUSE_IDS } from '../../../src/core/model/rootCauses';
import { rootCauseLabel, rootCauseLabelHyphenated } from '../../../webview/src/editor/taxonomy';

describe('webview taxonomy labels', () => {
  it('hyphenated labels read the same without their soft hyphens, and break long words at syllables', () => {
    for (const id of ROOT_CAUSE_IDS) assert.equal(rootCauseLabelHyphenated(id).replace(/\u00ad/g, ''), rootCauseLabel(id));
    assert.equal(rootCauseLabelHyphenated('candidate_mismanagement'), 'Candi\u00addate Mis\u00admanage\u00adment');
    assert.equal(rootCauseLabelHyphenated(null), '—');
  });
});
