import { ChatMessage } from '../brain';
import { LanguageModel, ModelConversation } from './smollm2';
import { Persona } from './personas';

/**
 * The request as the model takes it. Each chat request is the whole conversation (the OpenAI and
 * Anthropic APIs are stateless), so the model is given it afresh every time: the persona's system
 * prompt (a caller's own system messages appended, as an app that lets its integrator add
 * instructions does), the turns before the newest user message, and that message.
 */
export function conversationFor(messages: ChatMessage[], persona: Persona): ModelConversation {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const extra = messages.filter((m) => m.role === 'system').map((m) => m.content.trim()).filter(Boolean);
  return {
    system: [persona.systemPrompt, ...extra].join('\n'),
    history: messages
      .slice(0, Math.max(0, lastUser))
      .filter((m): m is ChatMessage & { role: 'user' | 'assistant' } => m.role !== 'system')
      .map((m) => ({ role: m.role, content: m.content })),
    prompt: lastUser >= 0 ? messages[lastUser].content : '',
  };
}

/** The lab's brain when a real model answers: the persona on the model, nothing scripted; `abandoned` when the asker hangs up. */
export function modelBrain(model: LanguageModel, persona: Persona, abandoned?: AbortSignal): (messages: ChatMessage[]) => Promise<string> {
  return (messages) => model.answer(conversationFor(messages, persona), abandoned);
}
