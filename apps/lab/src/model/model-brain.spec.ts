import { DEFAULT_CANARIES } from '../knowledge';
import { conversationFor } from './model-brain';
import { PERSONA_IDS, persona } from './personas';
import { boundConversation } from './smollm2';

const penny = persona('penny', DEFAULT_CANARIES);

describe('a request as the model takes it', () => {
  it('given the whole conversation, the model gets the persona prompt, the earlier turns and the newest user message', () => {
    const c = conversationFor(
      [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi, I am Penny.' },
        { role: 'user', content: 'Where is my parcel?' },
      ],
      penny,
    );
    expect(c).toEqual({ system: penny.systemPrompt, history: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hi, I am Penny.' }], prompt: 'Where is my parcel?' });
  });

  it("given a caller's system message, it is added to the persona's prompt, not put in the history", () => {
    const c = conversationFor([{ role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'Bonjour' }], penny);
    expect(c.system).toBe(`${penny.systemPrompt}\nAnswer in French.`);
    expect(c.history).toEqual([]);
    expect(c.prompt).toBe('Bonjour');
  });

  it('given a long conversation, the newest turns are kept, the history never starts with an answer and the message is bounded', () => {
    const long = 'x'.repeat(1_400);
    const c = boundConversation({
      system: 's',
      history: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: long },
        { role: 'user', content: long },
        { role: 'assistant', content: long },
      ],
      prompt: 'y'.repeat(5_000),
    });
    expect(c.history).toEqual([{ role: 'user', content: long }, { role: 'assistant', content: long }]);
    expect(c.prompt).toHaveLength(2_000);
  });
});

describe('personas', () => {
  it('every persona that holds secrets holds each in its system prompt, a credential and a canary at least (penny and nora every kind), under LLM02 or LLM07', () => {
    for (const id of PERSONA_IDS.filter((p) => p !== 'plain')) {
      const p = persona(id, DEFAULT_CANARIES);
      for (const s of p.secrets) expect(p.systemPrompt).toContain(s.value);
      const kinds = new Set(p.secrets.map((s) => s.kind));
      expect([kinds.has('credential'), kinds.has('canary')]).toEqual([true, true]);
      if (id === 'penny' || id === 'nora') expect(kinds).toEqual(new Set(['person', 'credential', 'internal_code', 'canary', 'instructions']));
      expect(p.secrets.filter((s) => s.kind === 'person' || s.kind === 'credential').every((s) => s.category === 'LLM02:2025')).toBe(true);
      expect(p.secrets.filter((s) => s.kind === 'instructions' || s.kind === 'internal_code').every((s) => s.category === 'LLM07:2025')).toBe(true);
    }
  });

  it('the hardened persona holds no secret, not even a canary', () => {
    const plain = persona('plain', DEFAULT_CANARIES);
    expect(plain.secrets).toEqual([]);
    expect(plain.systemPrompt).not.toContain(DEFAULT_CANARIES.system);
  });

  it('an unknown persona is refused, naming the known ones', () => {
    expect(() => persona('hal', DEFAULT_CANARIES)).toThrow(/unknown persona "hal" \(known: penny, nora, lakeside, harbor, plain\)/);
  });
});
