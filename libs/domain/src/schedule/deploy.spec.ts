import { DomainError } from '../decider';
import { deployCoverage, deployedTargets } from './deploy';

const target = (account_id = 'a1', deleted = false) => ({ account_id, deleted, tags: ['prod', 'eu'] });

describe('the targets a deploy report stands for', () => {
  it('given a target id, when it is the account\'s live target, then it alone with its tags', () => {
    expect(deployedTargets({ account_id: 'a1', target_id: 't1', tag: null }, { target: target(), tagged: [] })).toEqual([{ id: 't1', tags: ['prod', 'eu'] }]);
  });

  it('given another account\'s, a deleted or an absent target, then not found', () => {
    for (const t of [target('a2'), target('a1', true), null]) {
      expect(() => deployedTargets({ account_id: 'a1', target_id: 't1', tag: null }, { target: t, tagged: [] })).toThrow(expect.objectContaining({ code: 'not_found' }) as unknown as DomainError);
    }
  });

  it('given a tag, then every live target carrying it; none is no error', () => {
    const tagged = [{ id: 't1', tags: ['prod'] }, { id: 't2', tags: ['prod', 'eu'] }];
    expect(deployedTargets({ account_id: 'a1', target_id: null, tag: 'prod' }, { target: null, tagged })).toEqual(tagged);
    expect(deployedTargets({ account_id: 'a1', target_id: null, tag: 'prod' }, { target: null, tagged: [] })).toEqual([]);
  });

  it('given both or neither, or a tag that is no tag, then invalid', () => {
    expect(() => deployedTargets({ account_id: 'a1', target_id: 't1', tag: 'prod' }, { target: target(), tagged: [] })).toThrow(/either target_id or tag/);
    expect(() => deployedTargets({ account_id: 'a1', target_id: null, tag: null }, { target: null, tagged: [] })).toThrow(/either target_id or tag/);
    expect(() => deployedTargets({ account_id: 'a1', target_id: null, tag: 'has space' }, { target: null, tagged: [] })).toThrow(/not a valid tag/);
  });
});

describe('which deploy schedules a deploy fires', () => {
  const byTarget = { id: 's-target', target_id: 't1', tag: null, created_at: '2026-11-02T00:00:00.000Z' };
  const byTag = { id: 's-prod', target_id: null, tag: 'prod', created_at: '2026-11-01T00:00:00.000Z' };
  const byOtherTag = { id: 's-eu', target_id: null, tag: 'eu', created_at: '2026-11-03T00:00:00.000Z' };
  const deployed = [{ id: 't1', tags: ['prod'] }, { id: 't2', tags: ['prod', 'eu'] }, { id: 't3', tags: ['eu'] }];

  it('given schedules by target and by tag, then each covers the deployed targets it names or whose tag it carries', () => {
    expect(deployCoverage([byTarget], deployed)).toEqual([{ schedule_id: 's-target', target_ids: ['t1'] }]);
    expect(deployCoverage([byOtherTag], deployed)).toEqual([{ schedule_id: 's-eu', target_ids: ['t2', 't3'] }]);
  });

  it('given several schedules covering one target, then the oldest scans it and the target is scanned once', () => {
    expect(deployCoverage([byOtherTag, byTarget, byTag], deployed)).toEqual([
      { schedule_id: 's-prod', target_ids: ['t1', 't2'] },
      { schedule_id: 's-eu', target_ids: ['t3'] },
    ]);
  });

  it('given no schedule covering the deployed targets, then nothing fires', () => {
    expect(deployCoverage([byTarget], [{ id: 't9', tags: ['prod'] }])).toEqual([]);
    expect(deployCoverage([], deployed)).toEqual([]);
  });
});
