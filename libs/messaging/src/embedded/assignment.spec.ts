import { assignPartitions } from './assignment';

describe('assignPartitions', () => {
  const counts = new Map([
    ['scan-jobs', 6],
    ['webhook-deliveries', 3],
  ]);

  it('gives every partition to exactly one member, split evenly', () => {
    const plan = assignPartitions([{ id: 2, topics: ['scan-jobs'] }, { id: 1, topics: ['scan-jobs'] }], counts);
    expect(plan.map((a) => `${a.partition}->${a.member}`)).toEqual(['0->1', '1->2', '2->1', '3->2', '4->1', '5->2']);
  });

  it('hands a topic only to the members subscribed to it', () => {
    const plan = assignPartitions([{ id: 1, topics: ['scan-jobs'] }, { id: 2, topics: ['scan-jobs', 'webhook-deliveries'] }], counts);
    expect(plan.filter((a) => a.topic === 'webhook-deliveries').map((a) => a.member)).toEqual([2, 2, 2]);
    expect(plan.filter((a) => a.topic === 'scan-jobs')).toHaveLength(6);
  });

  it('gives a single member everything and an empty group nothing', () => {
    expect(assignPartitions([{ id: 7, topics: ['scan-jobs'] }], counts).every((a) => a.member === 7)).toBe(true);
    expect(assignPartitions([], counts)).toEqual([]);
  });
});
