import { TOOL_RISKS, toolRiskRank } from './tools';

describe('tool risk', () => {
  it('given the risks, when ranked, then money comes first, then destruction, data leaving, writes and reads', () => {
    expect([...TOOL_RISKS].sort((a, b) => toolRiskRank(b) - toolRiskRank(a))).toEqual(['financial', 'destructive', 'exfiltration', 'write', 'read']);
  });
});
