import { messageProblem, topicNameProblem } from './topics';

describe('topic names and messages', () => {
  it('accepts Kafka topic names and refuses the rest', () => {
    expect(topicNameProblem('webhook-retry.5m_v1')).toBeNull();
    for (const bad of ['', '.', '..', 'a b', 'scan/jobs', 'x'.repeat(250)]) expect(topicNameProblem(bad)).not.toBeNull();
  });

  it('wants string keys, values and headers and a numeric notBefore', () => {
    expect(messageProblem({ key: 'k', value: 'v', headers: { a: 'b' }, notBefore: 1 })).toBeNull();
    expect(messageProblem({ key: 1, value: 'v' })).toMatch(/key/);
    expect(messageProblem({ key: 'k', value: null })).toMatch(/value/);
    expect(messageProblem({ key: 'k', value: 'v', headers: { a: 1 } })).toMatch(/header "a"/);
    expect(messageProblem({ key: 'k', value: 'v', notBefore: Number.NaN })).toMatch(/notBefore/);
  });
});
