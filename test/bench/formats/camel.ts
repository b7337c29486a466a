// Large OWL society history for bench:load: {question, answer, chat_history: [{user, assistant, tool_calls}]}.
export function makeLarge(rounds = 12000): string {
  const history = Array.from({ length: rounds }, (_, i) => ({
    user: `Instruction: look up fact ${i} and report it.\n<auxiliary_information>\nThe overall task asks for ${rounds} facts.\n</auxiliary_information>`,
    assistant: `Fact ${i}: ` + 'the page says the value is stable. '.repeat(20),
    tool_calls: [
      {
        tool_name: 'search_google',
        args: { query: `fact ${i}` },
        result: [{ result_id: 1, title: `Fact ${i}`, url: `https://example.org/fact/${i}` }],
        tool_call_id: `call_s${i}`,
      },
      {
        tool_name: 'extract_document_content',
        args: { document_path: `https://example.org/fact/${i}` },
        result: 'Page text. '.repeat(60),
        tool_call_id: `call_e${i}`,
      },
    ],
  }));
  return JSON.stringify({ question: `Collect ${rounds} facts.`, answer: 'done', chat_history: history }, null, 1);
}
