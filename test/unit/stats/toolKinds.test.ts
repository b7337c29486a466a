import { strict as assert } from 'node:assert';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { countTrajectory } from '../../../src/core/stats/statistics';
import { toolKind, type ToolNames } from '../../../src/core/stats/toolKinds';
import { buildRecordView } from '../../../src/core/view/recordView';
import { M, Markers } from '../../../webview/src/editor/markers';
import { Store } from '../../../webview/src/editor/state';

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

// Real tool names of common agents, plus two the old webview regex misread: `lookup` (a search
// tool by its `query` argument, or configured by name) and `read_file` (a file tool, which the regex took for a visit).
const trajectory = {
  query: 'Who founded the observatory?',
  predicted_answer: 'Ada Brun',
  trajectory: [
    { role: 'user', content: 'Who founded the observatory?' },
    { role: 'assistant', content: '', tool_calls: [call('g1', 'google_search', { query: ['observatory founder', 'observatory history'] })] },
    { role: 'tool', tool_call_id: 'g1', content: 'results' },
    { role: 'assistant', content: '', tool_calls: [call('f1', 'fetch_url', { url: 'https://obs.example/history' })] },
    { role: 'tool', tool_call_id: 'f1', content: 'page' },
    { role: 'assistant', content: '', tool_calls: [call('r1', 'read_file', { path: 'notes.txt' }), call('l1', 'lookup', { query: 'Ada Brun' })] },
    { role: 'tool', tool_call_id: 'r1', content: 'notes' },
    { role: 'tool', tool_call_id: 'l1', content: 'entry' },
    { role: 'assistant', content: 'Ada Brun' },
  ],
};

/** The host's header counts and the webview's markers for the same record and tool settings. */
function hostAndWebview(names: ToolNames) {
  const loaded = loadText(JSON.stringify(trajectory), 'tools.json');
  const record = loaded.records[0];
  if (!isTrajectoryRecord(record)) throw new Error('fixture is not a trajectory');
  const view = buildRecordView('tools.json', loaded, record, undefined, names);
  const store = new Store();
  store.setView(JSON.parse(JSON.stringify(view)));
  const markers = new Markers(store);
  markers.recompute();
  const flagged = (flag: number) => store.rows.filter((_, i) => markers.flags[i] & flag).map((row) => row.position);
  return { header: view.header, counts: countTrajectory(record.trajectory, names), searchRows: flagged(M.SEARCH), visitRows: flagged(M.VISIT) };
}

describe('tool kinds: one classification for the statistics and the editor markers', () => {
  it('knows common real search and visit tool names by default, whatever their case and separators, and nothing else', () => {
    for (const name of ['search', 'web_search', 'google_search', 'tavily_search', 'Search', 'WebSearch']) assert.equal(toolKind(name), 'search', name);
    for (const name of ['visit', 'fetch_url', 'web_fetch', 'browse', 'open_page', 'web_browser', 'visit_webpage', 'WebFetch'])
      assert.equal(toolKind(name), 'visit', name);
    for (const name of ['read_file', 'calculator', 'search_dir', undefined]) assert.equal(toolKind(name), 'other', String(name));
  });

  it('a configured list replaces its default, and a name in both lists is a search', () => {
    assert.equal(toolKind('google_search', { searchNames: ['lookup'] }), 'other');
    assert.equal(toolKind('lookup', { searchNames: ['lookup'] }), 'search');
    assert.equal(toolKind('fetch_url', { searchNames: ['lookup'] }), 'visit');
    assert.equal(toolKind('both', { searchNames: ['both'], visitNames: ['both'] }), 'search');
  });

  it('the header counts and the density-strip markers agree, with the defaults', () => {
    const { header, counts, searchRows, visitRows } = hostAndWebview({});
    // `lookup` is a search by its `query` argument.
    assert.deepEqual([header.searchCalls, header.visitCalls], [2, 1]);
    assert.equal(counts.atomicOps, 2 + 1 + 1 + 1);
    assert.deepEqual(searchRows, [1, 5]);
    assert.deepEqual(visitRows, [3]);
  });

  it('the header counts and the markers agree with configured names', () => {
    const { header, searchRows, visitRows } = hostAndWebview({ searchNames: ['google_search', 'lookup'], visitNames: [] });
    assert.deepEqual([header.searchCalls, header.visitCalls], [2, 0]);
    assert.deepEqual(searchRows, [1, 5]);
    assert.deepEqual(visitRows, []);
  });
});
