import type { MessageBody } from '../../shared/protocol';
import type { Message } from '../model/trajectory';

/** The body of one message as the editor's `getMessage` reply carries it (text kept as is). */
export function messageBody(m: Message): MessageBody {
  const body: MessageBody = {
    position: m.position,
    content: m.content,
    toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, rawArguments: c.rawArguments, argumentsValid: c.argumentsValid })),
  };
  if (m.reasoning) body.reasoning = m.reasoning;
  if (m.toolCallId) body.toolCallId = m.toolCallId;
  return body;
}
