// Large Magentic-One log for bench:load: a bare array of {role, content} agent turns in the shape
// of the orchestrator's ledger loop (thought, instruction, agent reply), ending with FINAL ANSWER.
const AGENTS = ['WebSurfer', 'FileSurfer', 'Coder', 'ComputerTerminal'];

export function makeLarge(rounds = 18000): string {
  const log: { role: string; content: string }[] = [
    { role: 'human', content: 'Find the number of bridges over the river in the generated city. Answer with a number.' },
  ];
  for (let i = 0; i < rounds; i++) {
    const agent = AGENTS[i % AGENTS.length];
    log.push({
      role: 'Orchestrator (thought)',
      content: `Updated Ledger:\n{"is_request_satisfied": {"reason": "Round ${i} is not done.", "answer": false}, "next_speaker": {"reason": "needs ${agent}", "answer": "${agent}"}}`,
    });
    log.push({ role: `Orchestrator (-> ${agent})`, content: `Please continue with step ${i}: look up bridge ${i} and report its name and year.` });
    log.push({ role: agent, content: `Bridge ${i}: Generated Bridge ${i}, opened ${1900 + (i % 120)}. ` + 'Page text follows. '.repeat(60) });
  }
  log.push({ role: 'Orchestrator (termination condition)', content: `No agent selected.\nFINAL ANSWER: ${rounds}\nSCENARIO.PY COMPLETE !#!#` });
  return JSON.stringify(log, null, 1);
}
