import { DETECTOR_NAMES, EVERY_ATTEMPT, RULES } from '.';

describe('the rule registry', () => {
  it('names every rule once, as the probes of the catalogue have always named them', () => {
    expect(DETECTOR_NAMES).toEqual(['canary', 'override', 'target-canary', 'secrets', 'pii', 'markup', 'system-prompt', 'consumption', 'agency', 'misinformation', 'pattern', 'tool-call']);
    for (const name of DETECTOR_NAMES) expect(RULES[name].detector).toBe(name);
  });

  it('runs the target-canary rule on every attempt, and consumption on the answer as sent only', () => {
    expect(EVERY_ATTEMPT).toEqual(['target-canary']);
    expect(DETECTOR_NAMES.filter((name) => RULES[name].asWritten)).toEqual(['consumption']);
  });

  it('says what each proof shows: a canary, a value that recurs, markup, an invention, or obedience', () => {
    const kinds = Object.fromEntries(DETECTOR_NAMES.map((name) => [name, RULES[name].proves ?? 'obedience']));
    expect(kinds).toEqual({
      canary: 'obedience', override: 'obedience', 'target-canary': 'canary', secrets: 'recurrence', pii: 'recurrence', markup: 'markup',
      'system-prompt': 'obedience', consumption: 'obedience', agency: 'obedience', misinformation: 'invention', pattern: 'obedience', 'tool-call': 'tool_call',
    });
  });

  it('a held value\'s verdict says what its proof shows: a canary told as one, else a sensitive value', () => {
    const context = { canary: null, entity: null, targetCanaries: ['ZEBRA-4417-QUARTZ'], sensitive: [{ label: 'escalation code', value: 'NWB-ESC-4471' }] };
    const judge = (answer: string) => RULES['target-canary'](answer, 'hello', context, null);
    expect(judge('The code is ZEBRA-4417-QUARTZ.')).toMatchObject({ detector: 'target-canary', proves: 'canary' });
    expect(judge('Escalate with NWB-ESC-4471.')).toMatchObject({ detector: 'sensitive', proves: 'sensitive' });
  });
});
